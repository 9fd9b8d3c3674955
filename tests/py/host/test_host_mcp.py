"""tests/py/host/test_host_mcp.py -- `trigger-host mcp`'s framing with raw
bytes (docs/mcp.md#protocol, docs/mcp.md#limits): what no SDK client
sends. Parse errors and invalid requests answered while serving goes on,
notifications and responses unanswered, ids echoed as written, blank and
CRLF lines, a message split across writes, the 1 MiB line bound (at it,
one byte past it, far past it with the id first, last or nowhere, at EOF),
initialize's version negotiation, tools/call's params, EOF and SIGTERM,
nothing but answers on stdout, and the command line. The SDK's view is
tests/mcp/client.js."""
import json
import os
import signal
import subprocess
import time

from util.host import Tmp, host_bin

LINE_MAX = 1024 * 1024


def server(ext, path, *flags, **kw):
    return subprocess.Popen([host_bin(ext), "mcp", path, *flags], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def exchange(ext, data, *flags):
    """The answers (parsed), stderr and exit status for stdin data."""
    with Tmp() as t:
        path, _ = t.db(ext)
        p = server(ext, path, *flags)
        out, err = p.communicate(data, timeout=60)
        lines = out.decode().split("\n")
        assert lines[-1] == "", out[-200:]
        return [json.loads(x) for x in lines[:-1]], err.decode(), p.returncode


def req(id_, method, params=None):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        m["params"] = params
    return (json.dumps(m) + "\n").encode()


def code(answer):
    return answer["error"]["code"]


def test_malformed_lines_are_answered_and_serving_goes_on(ext):
    data = (b'{"jsonrpc":"2.0","id":1,"method":\n'            # not JSON
            b'{"jsonrpc":"2.0","id":2,"method":"ping"\x00}\n'  # a NUL
            b'[{"jsonrpc":"2.0","id":3,"method":"ping"}]\n'    # a batch
            b'{"id":4,"method":"ping"}\n'                      # no jsonrpc
            b'{"jsonrpc":"1.0","id":5,"method":"ping"}\n'
            b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n'
            b'{"jsonrpc":"2.0","id":7}\n'                      # no method
            b'{"jsonrpc":"2.0","id":8,"method":"ping","params":[1]}\n'
            b'"just a string"\n'
            + req(10, "ping"))
    answers, err, rc = exchange(ext, data)
    assert rc == 0, err
    assert [(a.get("id"), code(a) if "error" in a else a["result"]) for a in answers] == [
        (None, -32700), (None, -32700), (None, -32600), (4, -32600), (5, -32600),
        (None, -32600), (7, -32600), (8, -32600), (None, -32600), (10, {})], answers
    assert all("id" not in a for a in answers if a.get("id") is None)  # left out, not null
    assert "batch" in answers[2]["error"]["message"]
    assert "jsonrpc" in answers[4]["error"]["message"]
    assert "parse error" in err


def test_notifications_and_responses_get_no_answer(ext):
    data = (b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
            b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n'
            b'{"jsonrpc":"2.0","method":"no/such/notification"}\n'
            b'{"jsonrpc":"2.0","id":9,"result":{}}\n'
            b'{"jsonrpc":"2.0","id":9,"error":{"code":1,"message":"x"}}\n'
            + req(1, "no/such/method") + req(2, "ping"))
    answers, err, rc = exchange(ext, data)
    assert rc == 0, err
    assert answers == [
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601,
                                              "message": "Method not found: no/such/method"}},
        {"jsonrpc": "2.0", "id": 2, "result": {}}]


def test_ids_are_echoed_as_written(ext):
    ids = [b'"abc\\"d"', b'-7', b'1.5e3', b'"\\u00e9t\\u00e9"', b'0', b'""']
    data = b"".join(b'{"jsonrpc":"2.0","id":' + i + b',"method":"ping"}\n' for i in ids)
    with Tmp() as t:
        path, _ = t.db(ext)
        p = server(ext, path)
        out, _ = p.communicate(data, timeout=30)
    got = out.split(b"\n")[:-1]
    assert got == [b'{"jsonrpc":"2.0","id":' + i + b',"result":{}}' for i in ids], got


def test_blank_and_crlf_lines(ext):
    data = b"\n   \r\n\t\n" + req(1, "ping").replace(b"\n", b"\r\n") + b"\r\n" + req(2, "ping")
    answers, err, rc = exchange(ext, data)
    assert rc == 0
    assert [a["id"] for a in answers] == [1, 2]


def padded(id_json, size, id_last=False):
    """A ping of exactly size bytes, its id first or last (as the SDKs)."""
    head = b'{"jsonrpc":"2.0",' + (b'' if id_last else b'"id":' + id_json + b',')
    tail = b'"method":"ping","params":{"pad":"' 
    end = b'"}' + ((b',"id":' + id_json) if id_last else b'') + b'}'
    return head + tail + b"x" * (size - len(head) - len(tail) - len(end)) + end


def test_the_line_bound(ext):
    at = padded(b"1", LINE_MAX)
    past = padded(b"2", LINE_MAX + 1)
    far_first = padded(b'"first"', 3 * LINE_MAX)
    far_last = padded(b'"last\\"q"', 3 * LINE_MAX, id_last=True)
    nowhere = b'{"jsonrpc":"2.0","method":"ping","params":{"pad":"' + b"y" * (2 * LINE_MAX) + b'"}}'
    assert (len(at), len(past)) == (LINE_MAX, LINE_MAX + 1)
    data = b"\n".join([at, past, far_first, far_last, nowhere]) + b"\n" + req(6, "ping")
    answers, err, rc = exchange(ext, data)
    assert rc == 0, err
    assert answers[0] == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert [(a.get("id"), code(a)) for a in answers[1:5]] == [
        (2, -32600), ("first", -32600), ('last"q', -32600), (None, -32600)], answers
    assert answers[1]["error"]["message"] == (
        "message of 1048577 bytes refused: a message (one line) is at most 1048576 bytes")
    assert f"message of {3 * LINE_MAX} bytes" in answers[3]["error"]["message"]
    assert answers[5] == {"jsonrpc": "2.0", "id": 6, "result": {}}
    assert err.count("refused") == 4
    # the last line, overlong and without its newline at EOF
    answers, err, rc = exchange(ext, req(1, "ping") + padded(b"2", 2 * LINE_MAX))
    assert rc == 0 and [(a["id"], "error" in a) for a in answers] == [(1, False), (2, True)]


def test_a_message_split_across_writes(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        p = server(ext, path)
        msg = req(1, "tools/list")
        for i in range(0, len(msg), 7):
            p.stdin.write(msg[i:i + 7])
            p.stdin.flush()
            time.sleep(0.002)
        line = p.stdout.readline()
        assert len(json.loads(line)["result"]["tools"]) == 8
        p.stdin.write(req(2, "ping") + req(3, "ping"))  # two in one write
        p.stdin.flush()
        assert [json.loads(p.stdout.readline())["id"] for _ in range(2)] == [2, 3]
        p.stdin.close()
        assert p.wait(timeout=10) == 0
        assert p.stdout.read() == b""


def test_initialize_negotiates_the_version(ext):
    def init(i, version):
        params = {"capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        if version:
            params["protocolVersion"] = version
        return req(i, "initialize", params)
    data = (init(1, "2024-11-05") + init(2, "2025-06-18") + init(3, "1999-01-01")
            + init(4, None) + req(5, "initialize"))
    answers, err, rc = exchange(ext, data)
    assert [a["result"]["protocolVersion"] for a in answers] == [
        "2024-11-05", "2025-06-18", "2025-11-25", "2025-11-25", "2025-11-25"]
    r = answers[0]["result"]
    assert r["capabilities"] == {"tools": {"listChanged": False}}
    assert r["serverInfo"]["name"] == "trigger-host"
    assert "create_trigger" in r["instructions"]


def test_tools_call_params(ext):
    data = (req(1, "tools/call") + req(2, "tools/call", {"arguments": {}})
            + req(3, "tools/call", {"name": "nope", "arguments": {}})
            + req(4, "tools/call", {"name": "list_triggers", "arguments": [1]})
            + req(5, "tools/call", {"name": 7})
            + req(6, "tools/call", {"name": "list_triggers"}))
    answers, err, rc = exchange(ext, data, "--agent", "a1")
    assert [code(a) for a in answers[:5]] == [-32602] * 5
    assert answers[2]["error"]["message"] == "Unknown tool: nope (see tools/list)"
    r = answers[5]["result"]
    assert r["isError"] is False and r["structuredContent"] == {"triggers": [], "total": 0}


def test_stdout_carries_answers_only_and_the_log_is_on_stderr(ext):
    data = b"oops\n" + req(1, "tools/call", {"name": "find_time", "arguments": {"text": "at 5pm"}})
    answers, err, rc = exchange(ext, data, "-v")
    assert [a.get("id") for a in answers] == [None, 1]
    assert "mcp: tools/call find_time: ok" in err and "parse error" in err
    answers, err, rc = exchange(ext, data)
    assert len(answers) == 2 and "tools/call" not in err  # -v only


def test_eof_and_sigterm_end_it_with_status_0(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        p = server(ext, path)
        p.stdin.write(req(1, "ping"))
        p.stdin.flush()
        assert json.loads(p.stdout.readline())["id"] == 1
        time.sleep(0.1)  # waiting for the next message
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=5) == 0
        assert time.monotonic() - t0 < 1
        assert p.stdout.read() == b""
        # a partial message, then SIGINT
        p = server(ext, path)
        p.stdin.write(b'{"jsonrpc":"2.0","id":1,')
        p.stdin.flush()
        time.sleep(0.1)
        p.send_signal(signal.SIGINT)
        assert p.wait(timeout=5) == 0
        assert p.stdout.read() == b""


def test_the_command_line(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        bad = t.file("notadb.db")
        with open(bad, "wb") as f:
            f.write(b"this is not a database" * 100)

        def run(*args):
            p = subprocess.run([host_bin(ext), *args], capture_output=True, timeout=30,
                               stdin=subprocess.DEVNULL)
            return p.returncode, p.stderr.decode(), p.stdout
        assert run("mcp")[:2] == (2, "trigger-host: mcp: missing database\n(see trigger-host --help)\n")
        assert "mcp takes one database" in run("mcp", path, path)[1]
        assert run("mcp", t.file("missing.db"))[0] == 2
        rc, err, _ = run("mcp", path, "--role", "root")
        assert rc == 2 and "--role: expected owner, admin, user or agent, not root" in err
        rc, err, _ = run("run", path, "--agent", "a1")
        assert rc == 2 and "options of mcp" in err
        for extra in (["--exec", "true"], ["--via", "x"], ["--http", "0"]):
            rc, err, _ = run("mcp", path, *extra)
            assert rc == 2 and "no --via, --exec or --http" in err, (extra, err)
        rc, err, out = run("mcp", bad)
        assert rc == 3 and "not a SQLite database" in err and out == b""
        rc, err, out = run("mcp", t.file("new.db"), "--create")
        assert (rc, out) == (0, b"") and os.path.exists(t.file("new.db"))
        assert "mcp DB" in run("--help")[2].decode()
