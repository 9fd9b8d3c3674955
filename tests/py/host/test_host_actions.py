"""tests/py/host/test_host_actions.py -- the status server's actions
(host/http/actions.c, host/http/auth.c): with --http-token-file a trigger
is paused, resumed, fired and cancelled by a POST that proves itself with
the token (Authorization: Bearer) or the login's cookie and the form's
csrf value, from this origin. Every refusal is tried: a token file others
may read, no credentials (401), a wrong token, cookie or csrf value,
another origin (403), an oversized form (413), a body that is not a form
(415), a cancel not confirmed (400), an unknown verb or trigger (404),
the extension's refusal (409); a GET changes nothing; the token is in no
page, header or log line."""
import http.client
import json
import os
import re
import subprocess
import urllib.parse

from util import one
from util.host import Tmp, add_interval, host_bin, now_ms, wait_for
from util.http import get, read, start_http, stop_http

TOKEN = "tok-" + "k3y" * 8


def token_file(t, mode=0o600, text=TOKEN + "\n"):
    path = t.file("token")
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)
    return path


def post(port, path, body="", headers=None, content_type="application/x-www-form-urlencoded"):
    h = {"Content-Type": content_type} if content_type else {}
    h.update(headers or {})
    return get(port, path, method="POST", body=body, headers=h)


def bearer(token=TOKEN):
    return {"Authorization": "Bearer " + token}


def status_of(db, tid):
    return one(db, "SELECT status FROM triggers WHERE trigger_id = ?", tid)


def serving(ext, t, *extra):
    path, db = t.db(ext)
    add_interval(db, "job", now_ms() + 3600000, 3600000, agent_id="a1")
    add_interval(db, "x/pause", now_ms() + 3600000, 3600000)
    proc, port, err = start_http(ext, t, "run", path, "--exec", "echo ran",
                                 "--http-token-file", token_file(t), *extra)
    return db, proc, port, err


def login(port):
    """The session cookie of a login (name=value)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("POST", "/login", body="token=" + TOKEN,
              headers={"Content-Type": "application/x-www-form-urlencoded"})
    r = c.getresponse()
    r.read()
    cookie = r.getheader("Set-Cookie")
    c.close()
    assert r.status == 303 and r.getheader("Location") == "/", r.status
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie, cookie
    return cookie.split(";")[0]


def test_token_file_refused_unless_private(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        for mode, text, words in ((0o644, TOKEN, "readable or writable by others (mode 0644)"),
                                  (0o640, TOKEN, "(mode 0640)"),
                                  (0o602, TOKEN, "(mode 0602)"),
                                  (0o600, "short\n", "16 to 1024 printable characters"),
                                  (0o600, "two words here ok\n", "without spaces")):
            tf = token_file(t, mode, text)
            p = subprocess.run([host_bin(ext), "run", path, "--extension", ext, "--http", "0",
                                "--http-token-file", tf], capture_output=True, text=True,
                               timeout=20)
            assert p.returncode == 3 and words in p.stderr, (mode, text, p.stderr)
            assert TOKEN not in p.stderr
        p = subprocess.run([host_bin(ext), "run", path, "--extension", ext,
                            "--http-token-file", token_file(t)], capture_output=True, text=True)
        assert p.returncode == 2 and "--http-token-file need --http" in p.stderr, p.stderr
        p = subprocess.run([host_bin(ext), "run", path, "--extension", ext, "--http", "0",
                            "--http-token-file", t.file("none")], capture_output=True, text=True)
        assert p.returncode == 3 and "No such file" in p.stderr, p.stderr


def test_actions_with_the_token(ext):
    with Tmp() as t:
        db, proc, port, err = serving(ext, t)
        try:
            status, headers, body = post(port, "/trigger/job/pause", headers=bearer())
            assert status == 303 and headers["location"] == "/trigger/job?done=pause", headers
            assert status_of(db, "job") == "paused"
            assert one(db, "SELECT count(*) FROM trigger_events WHERE kind = 'paused'") == 1
            _, _, page = get(port, headers["location"])
            assert "<p><b>Paused.</b></p>" in page, page
            assert post(port, "/trigger/job/resume", headers=bearer())[0] == 303
            assert status_of(db, "job") == "scheduled"
            status, headers, _ = post(port, "/trigger/job/fire", headers=bearer())
            assert status == 303 and "&run=job%40" in headers["location"], headers
            assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs WHERE"
                                            " result = 'ran'") == 1, 10), read(err)
            # an id with a slash: the verb is the last segment
            assert post(port, "/trigger/x%2Fpause/pause", headers=bearer())[0] == 303
            assert status_of(db, "x/pause") == "paused"
            # cancel needs its box ticked
            status, _, body = post(port, "/trigger/job/cancel", headers=bearer())
            assert status == 400 and "tick the box" in body, body
            assert status_of(db, "job") == "scheduled"
            assert post(port, "/trigger/job/cancel", "confirm=1", headers=bearer())[0] == 303
            assert status_of(db, "job") == "cancelled"
            status, _, body = post(port, "/trigger/job/resume", headers=bearer())
            assert status == 409 and "cancelled" in body, body  # the extension's no
            # a refusal's page links back to what was refused
            assert '<p><a href="/trigger/job">Back to the trigger</a></p>' in body, body
            assert post(port, "/trigger/nope/pause", headers=bearer())[0] == 404
            assert post(port, "/trigger/job/delete", headers=bearer())[0] == 404
            assert post(port, "/elsewhere", headers=bearer())[0] == 404
        finally:
            stop_http(proc)
        log = read(err)
        assert "http: pause job: done" in log and "http: fire job: done, run job@" in log, log
        assert TOKEN not in log


def test_every_refusal(ext):
    with Tmp() as t:
        db, proc, port, err = serving(ext, t)
        try:
            cookie = login(port)
            assert TOKEN not in cookie
            _, _, page = get(port, "/trigger/job", headers={"Cookie": cookie})
            csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', page).group(1)
            assert csrf not in cookie
            url = "/trigger/job/pause"
            refusals = (
                ({}, "", 401),                                           # nothing
                (bearer("tok-wrong-wrong-wrong"), "", 403),              # a wrong token
                ({"Authorization": "Basic " + TOKEN}, "", 403),          # not Bearer
                ({"Cookie": "th_session=" + "0" * 64}, "csrf=" + csrf, 403),  # a wrong cookie
                ({"Cookie": cookie}, "", 403),                           # no csrf
                ({"Cookie": cookie}, "csrf=" + "0" * 64, 403),           # a wrong csrf
                ({"Cookie": cookie}, "csrf=" + TOKEN, 403),              # the token is no csrf
                (dict(bearer(), Origin="http://evil.example"), "", 403),
                (dict(bearer(), Origin="null"), "", 403),
                (dict(bearer(), Origin=f"https://127.0.0.1:{port}"), "", 403),
                ({"Cookie": cookie, "Sec-Fetch-Site": "cross-site"}, "csrf=" + csrf, 403),
                ({"Cookie": cookie, "Sec-Fetch-Site": "same-site"}, "csrf=" + csrf, 403),
            )
            for headers, body, want in refusals:
                status, h, text = post(port, url, body, headers=headers)
                assert status == want, (headers, body, status, text)
                if want == 401:
                    assert h.get("www-authenticate") == "Bearer", h
            status, _, text = post(port, url, "csrf=" + csrf, headers={"Cookie": cookie},
                                   content_type="application/json")
            assert status == 415, text
            status, _, text = post(port, url, "csrf=" + csrf + "&pad=" + "x" * 5000,
                                   headers={"Cookie": cookie})
            assert status == 413, text
            # a body sent in chunks, without Content-Length, is counted too
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.putrequest("POST", url)
            c.putheader("Content-Type", "application/x-www-form-urlencoded")
            c.putheader("Transfer-Encoding", "chunked")
            c.putheader("Cookie", cookie)
            c.endheaders()
            for _ in range(6):
                c.send(b"400\r\n" + b"y" * 1024 + b"\r\n")
            c.send(b"0\r\n\r\n")
            r = c.getresponse()
            assert r.status == 413, r.status
            c.close()
            status, _, text = post(port, "/login", "token=wrong-but-long-enough")
            assert status == 403, text
            # the page is the login's, and says what was wrong
            assert "<title>Log in</title>" in text and "<h1>Log in</h1>" in text, text
            assert '<p class="err">Wrong token.</p>' in text, text
            status, _, text = post(port, "/login", "token=" + TOKEN,
                                   headers={"Origin": "http://evil.example"})
            assert status == 403, text
            # a GET changes nothing, whatever it names
            for path in ("/trigger/job/pause", "/trigger/job?done=pause", "/run/job/cancel",
                         "/?status=paused&done=pause", "/login?token=" + TOKEN):
                assert get(port, path, headers={"Cookie": cookie})[0] in (200, 404), path
            assert status_of(db, "job") == "scheduled"
            assert one(db, "SELECT count(*) FROM trigger_events WHERE kind <> 'created'") == 0
            # the right ones, at last: the cookie and csrf, same origin
            status, _, _ = post(port, url, "csrf=" + csrf,
                                headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}",
                                         "Sec-Fetch-Site": "same-origin"})
            assert status == 303 and status_of(db, "job") == "paused"
            # an action on what does not exist: 404, named as a run or a trigger
            same = {"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}",
                    "Sec-Fetch-Site": "same-origin"}
            for missing, what in (("/run/no-such-run/cancel", "No such run."),
                                  ("/trigger/no-such-job/pause", "No such trigger.")):
                status, _, text = post(port, missing, "csrf=" + csrf, headers=same)
                assert status == 404 and f'<p class="err">{what}</p>' in text, (missing, status,
                                                                              text[-500:])
            # the token in no page
            for path in ("/", "/trigger/job", "/login", "/metrics", "/health"):
                _, h, body = get(port, path, headers={"Cookie": cookie})
                assert TOKEN not in body and TOKEN not in json.dumps(h), path
        finally:
            stop_http(proc)
        assert TOKEN not in read(err)


def test_forms_only_when_logged_in(ext):
    with Tmp() as t:
        db, proc, port, err = serving(ext, t)
        try:
            _, _, page = get(port, "/trigger/job")
            assert '<a href="/login">Log in</a>' in page and "<form class=\"act\"" not in page
            _, _, page = get(port, "/trigger/job", headers={"Cookie": "th_session=bad"})
            assert "<form class=\"act\"" not in page
            cookie = login(port)
            _, _, page = get(port, "/trigger/job", headers={"Cookie": cookie})
            forms = re.findall(r'action="(/trigger/job/\w+)"', page)
            assert forms == ["/trigger/job/fire", "/trigger/job/pause",
                             "/trigger/job/cancel"], forms
            assert 'name="confirm" value="1" required' in page
            post(port, "/trigger/job/pause", headers=bearer())
            _, _, page = get(port, "/trigger/job", headers={"Cookie": cookie})
            assert re.findall(r'action="(/trigger/job/\w+)"', page) == [
                "/trigger/job/resume", "/trigger/job/cancel"]
        finally:
            stop_http(proc)


def test_without_token_file_read_only(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "job", now_ms() + 3600000, 3600000)
        proc, port, err = start_http(ext, t, "run", path, "--exec", "true")
        try:
            status, h, _ = post(port, "/trigger/job/pause", headers=bearer())
            assert status == 405 and h["allow"] == "GET, HEAD", h
            assert get(port, "/login")[0] == 404
            assert "Log in" not in get(port, "/trigger/job")[2]
            assert status_of(db, "job") == "scheduled"
        finally:
            stop_http(proc)


def test_run_actions(ext):
    with Tmp() as t:
        db, proc, port, err = serving(ext, t)
        try:
            failed = json.loads(one(db, "SELECT trigger_fire('job')"))["run_id"]
            one(db, "SELECT trigger_run_finish(?, 'failed', 'boom')", failed)
            running = json.loads(one(db, "SELECT trigger_fire('x/pause')"))["run_id"]
            cookie = login(port)
            _, _, page = get(port, "/run/" + q(failed), headers={"Cookie": cookie})
            assert re.findall(r'action="(/run/[^"]+)"', page) == [f"/run/{q(failed)}/retry"]
            _, _, page = get(port, "/run/" + q(running), headers={"Cookie": cookie})
            assert re.findall(r'action="(/run/[^"]+)"', page) == [f"/run/{q(running)}/cancel"]
            assert post(port, f"/run/{q(failed)}/retry")[0] == 401  # no credentials
            status, headers, _ = post(port, f"/run/{q(failed)}/retry", headers=bearer())
            assert status == 303, headers
            assert re.fullmatch(r"/run/job%40\d+%232\?done=retry", headers["location"]), headers
            _, _, page = get(port, headers["location"])
            assert "<p><b>Retry queued.</b></p>" in page
            assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs WHERE"
                                            " attempt = 2 AND status = 'success'") == 1,
                            10), read(err)
            status, headers, _ = post(port, f"/run/{q(running)}/cancel", headers=bearer())
            assert status == 303 and headers["location"].endswith("?done=cancel-run"), headers
            assert one(db, "SELECT cancel_requested_at IS NOT NULL FROM trigger_runs"
                           " WHERE run_id = ?", running) == 1
            status, _, body = post(port, f"/run/{q(running)}/retry", headers=bearer())
            assert status == 409 and "running" in body, body
            assert post(port, "/run/nope%401%231/retry", headers=bearer())[0] == 404
            assert post(port, f"/run/{q(failed)}/pause", headers=bearer())[0] == 404
        finally:
            stop_http(proc)


def q(text):
    return urllib.parse.quote(text, safe="")
