"""tests/py/util/host.py -- helpers of the tests that run the host program
build/trigger-host: a temporary directory of databases, triggers due in
real time, starting, stopping and ticking the host, reading its runs."""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from util import connect


def host_bin(ext):
    return os.path.join(os.path.dirname(ext), "trigger-host")


def now_ms():
    return int(time.time() * 1000)


class Tmp:
    """A temporary directory removed on exit; databases live in it."""

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="trigger-host-")
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)

    def db(self, ext, name="t.db"):
        path = os.path.join(self.path, name)
        db = connect(ext, path)
        db.execute("PRAGMA journal_mode=WAL")
        return path, db

    def file(self, name):
        return os.path.join(self.path, name)


def add_interval(db, trigger_id, first_due, interval_ms=1000, **cols):
    """An interval trigger whose first occurrence is at first_due (ms)."""
    cols = dict(cols, trigger_id=trigger_id, instructions=cols.get("instructions", "do " + trigger_id),
                trigger_type="interval", interval_ms=interval_ms, created_at=first_due - interval_ms)
    names = ", ".join(cols)
    db.execute(f"INSERT INTO triggers({names}) VALUES ({', '.join('?' * len(cols))})",
               list(cols.values()))


def add_once(db, trigger_id, at, **cols):
    cols = dict(cols, trigger_id=trigger_id, instructions=cols.get("instructions", "do " + trigger_id),
                trigger_type="once", scheduled_at=at)
    names = ", ".join(cols)
    db.execute(f"INSERT INTO triggers({names}) VALUES ({', '.join('?' * len(cols))})",
               list(cols.values()))


def start(ext, *args, stdout=subprocess.PIPE):
    return subprocess.Popen([host_bin(ext), *args, "--extension", ext, "-v"],
                            stdout=stdout, stderr=subprocess.PIPE, text=True)


def stop(proc, timeout=5):
    """SIGTERM, wait; returns (exit status, stdout, stderr)."""
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def tick(ext, path, *args, timeout=10):
    p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, *args],
                       capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def runs(db, where="1"):
    cur = db.execute(f"SELECT * FROM trigger_runs WHERE {where} ORDER BY scheduled_for, trigger_id")
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def wait_for(pred, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def executions(log):
    """The lines a command appended to log (one per execution)."""
    return open(log).read().split() if os.path.exists(log) else []


def due_db(ext, t, n):
    """A database with n hourly triggers due now."""
    path, db = t.db(ext)
    for i in range(n):
        add_interval(db, f"t{i}", now_ms() - 500, interval_ms=3600000)
    return path, db


def briefly(ext, *args):
    """trigger-host args for a moment (SIGTERM after 1.5 s if still on);
    (exit status, stderr)."""
    proc = subprocess.Popen([host_bin(ext), *args, "--extension", ext],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        proc.wait(timeout=1.5)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=10)
    return proc.returncode, err


def host_process(ext, *args, timeout=20, **kw):
    """trigger-host args to its end: the finished process, output captured."""
    return subprocess.run([host_bin(ext), *args, "--extension", ext], capture_output=True,
                          text=True, timeout=timeout, **kw)


def run_host(ext, *args, timeout=20):
    """trigger-host args to its end; (exit status, stdout, stderr)."""
    p = host_process(ext, *args, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def standin(t, **answers):
    """The --via value and the environment giving the answers."""
    script = t.file("standin.sh")
    with open(script, "w") as f:
        f.write(STANDIN)
    env = dict(os.environ, LOG=t.file("via.log"), CLAIM="[]", WAKE="60000", CLAIM_FAILS="")
    env.update(answers)
    return f"sh {script}", env


def statements(t):
    with open(t.file("via.log")) as f:
        return f.read().splitlines()


def via_host(ext, env, *args, timeout=30):
    return subprocess.run([host_bin(ext), *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


# the stand-in: $1 is the statement; CLAIM and WAKE are its answers; every
# statement is appended to $LOG
STANDIN = r"""printf '%s\n' "$1" >> "$LOG"
case $1 in
  *trigger_install*) printf '5\r\n' ;;
  *trigger_version*) [ -n "$VERSION_FAILS" ] && exit 1; echo 0.0.0 ;;
  *trigger_next_wakeup*) printf '%s\n' "$WAKE" ;;
  *trigger_run_due*) [ -n "$CLAIM_FAILS" ] && { echo "$CLAIM_FAILS" >&2; exit 1; }
                     printf '%s\n' "$CLAIM" ;;
  *trigger_run_finish*) ;;
  *) echo "unexpected: $1" >&2; exit 9 ;;
esac
"""


def manual():
    """The man page docs/trigger-host.1 as text, on one line (whitespace
    runs made one space): mandoc's rendering, or without mandoc the source
    with its macros dropped (a crude rendering, enough to find words)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    src = os.path.join(root, "docs", "trigger-host.1")
    mandoc = shutil.which("mandoc")
    if mandoc:
        text = subprocess.run([mandoc, "-T", "ascii", src], capture_output=True, text=True,
                              timeout=30, check=True).stdout
        text = re.sub(r".\x08", "", text)
    else:
        words = []
        for line in open(src):
            if line.startswith(".\\\""):
                continue
            toks = line.replace("\\-", "-").split()
            if line.startswith("."):
                toks = [("-" + toks[i]) if i and toks[i - 1] == "Fl" else toks[i]
                        for i in range(1, len(toks))]
                toks = [x for x in toks if not re.fullmatch(r"[A-Z][a-z]|[A-Z][a-z][a-z]", x)]
            words += toks
        text = " ".join(words)
    return " ".join(text.split())
