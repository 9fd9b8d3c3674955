"""tests/py/util/http.py -- helpers of the tests of `trigger-host --http`:
starting and stopping a host with its status server, requests, a
reader of Prometheus' text format, and headless Chromium."""
import http.client
import os
import re
import shutil
import signal
import struct
import subprocess
import tempfile

from util.host import host_bin, wait_for


def start_http(ext, t, *args, addr="127.0.0.1:0", name="host"):
    """Start the host with --http; returns (proc, port, stderr path). Its
    stdout and stderr go to files, so a long test never fills a pipe."""
    err_path, out_path = t.file(name + ".err"), t.file(name + ".out")
    proc = subprocess.Popen([host_bin(ext), *args, "--extension", ext, "--http", addr],
                            stdout=open(out_path, "w"), stderr=open(err_path, "w"))
    port = None

    def serving():
        nonlocal port
        m = re.search(r"serving http://(\[[^\]]+\]|[0-9.]+):(\d+)/", read(err_path))
        if m:
            port = int(m.group(2))
        return port is not None or proc.poll() is not None
    assert wait_for(serving, 10), read(err_path)
    assert port, read(err_path)
    return proc, port, err_path


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def stop_http(proc):
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0


def get(port, path, method="GET", host="127.0.0.1", body=None, headers=None):
    """(status, headers dict lower-cased, body text)."""
    c = http.client.HTTPConnection(host, port, timeout=10)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read().decode("utf-8", "replace")
    c.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, data


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')


LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)')


def parse_metrics(text):
    """Check the exposition format; returns {(name, frozenset(labels)): value}
    and the families' types. Families are contiguous, each with HELP and
    TYPE before its samples; counters end in _total; histograms are
    cumulative and end at +Inf = _count."""
    types, seen, out, current = {}, [], {}, None
    for line in text.splitlines():
        if line.startswith("# HELP "):
            name = line.split(" ")[2]
            assert name not in seen, f"family {name} split"
            seen.append(name)
            current = name
            continue
        if line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ")
            assert name == current and typ in ("counter", "gauge", "histogram"), line
            assert typ != "counter" or name.endswith("_total"), name
            types[name] = typ
            continue
        m = SAMPLE.match(line)
        assert m, f"not a sample line: {line!r}"
        name, labels, value = m.group(1), m.group(2) or "", float(m.group(3))
        fam = re.sub(r"_(bucket|sum|count)$", "", name) if types.get(current) == "histogram" else name
        assert fam == current, f"{name} outside its family ({current})"
        parsed, pos = [], 0
        while pos < len(labels):
            lm = LABEL.match(labels, pos)
            assert lm, f"bad labels in {line!r}"
            val = re.sub(r"\\(.)", lambda e: "\n" if e.group(1) == "n" else e.group(1),
                         lm.group(2))
            parsed.append((lm.group(1), val))
            pos = lm.end()
        key = (name, frozenset(parsed))
        assert key not in out, f"duplicate sample {line!r}"
        out[key] = value
    for name, typ in types.items():
        if typ != "histogram":
            continue
        series = {}
        for (n, labels), v in out.items():
            if n == name + "_bucket":
                d = dict(labels)
                le = d.pop("le")
                series.setdefault(frozenset(d.items()), []).append(
                    (float("inf") if le == "+Inf" else float(le), v))
        for labels, buckets in series.items():
            buckets.sort()
            counts = [v for _, v in buckets]
            assert counts == sorted(counts), f"{name} not cumulative"
            assert buckets[-1][0] == float("inf")
            assert out[(name + "_count", labels)] == counts[-1]
    return out, types


def metric(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())))


# ---- Chromium (headless) ------------------------------------------------------

def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", head
    return struct.unpack(">II", head[16:24])


def chromium(*args, timeout=60):
    profile = tempfile.mkdtemp(prefix="chromium-")
    cmd = [shutil.which("chromium"), "--headless", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--user-data-dir=" + profile, *args]
    if os.geteuid() == 0:
        cmd.insert(2, "--no-sandbox")
    # not the sanitizer runtimes make test-asan preloads into this python
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
