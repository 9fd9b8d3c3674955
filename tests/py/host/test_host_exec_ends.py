"""tests/py/host/test_host_exec_ends.py -- how an --exec command's end is
recorded (test_host_exec_io.py has the usual ones): killed by a signal
(no stderr: "killed by signal N"), a stderr longer than the 500 bytes kept
written at once and cut in the middle of a UTF-8 character (the partial
character dropped after "..."), and the child's HOME under --clean-env
when the host has none or an empty one ("/"), and --env naming a variable
the clean environment already sets (replaced, not doubled); and the
host's own stale TRIGGER_* variables (replaced by the run's)."""
import os
import subprocess

from util.host import Tmp, add_once, host_bin, now_ms, runs


def one_run(ext, t, *args, env=None, rc=0):
    """The one run of a due trigger after a tick (exit status rc: 1 when
    the run failed)."""
    path, db = t.db(ext)
    add_once(db, "x", now_ms() - 1000)
    p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, *args],
                       capture_output=True, text=True, timeout=30, env=env)
    assert p.returncode == rc, (p.returncode, p.stderr)
    r = runs(db)
    assert len(r) == 1, r
    return r[0]


def test_killed_by_a_signal(ext):
    with Tmp() as t:
        r = one_run(ext, t, "--exec", "kill -9 $$", rc=1)
        assert r["status"] == "failed" and r["error"] == "killed by signal 9", r


def test_long_stderr_cut_inside_a_character(ext):
    with Tmp() as t:
        # 601 bytes in one write: the last 500 start on a continuation byte
        script = t.file("say.py")
        with open(script, "w") as f:
            f.write("import os\nos.write(2, ('\\u00e9' * 300 + 'x').encode())\n"
                    "raise SystemExit(3)\n")
        r = one_run(ext, t, "--exec", f"/usr/bin/python3 {script}", rc=1)
        assert r["status"] == "failed", r
        assert r["error"] == "..." + "\u00e9" * 249 + "x", r["error"]


def test_home_and_replaced_variables_under_clean_env(ext):
    for home in (None, ""):
        with Tmp() as t:
            env = {k: v for k, v in os.environ.items() if k != "HOME"}
            if home is not None:
                env["HOME"] = home
            env["LANG"] = "C"
            out = t.file("env.txt")
            one_run(ext, t, "--clean-env", "--env", "LANG", "--env", "PATH", "--exec",
                    f"env | sort > {out}", env=env)
            with open(out) as f:
                got = f.read().splitlines()
            assert "HOME=/" in got, (home, got)
            assert [x for x in got if x.startswith("LANG=")] == ["LANG=C"], got
            assert [x for x in got if x.startswith("PATH=")] == ["PATH=" + env["PATH"]], got


def test_host_environment_with_stale_run_variables(ext):
    """The host's own TRIGGER_* variables are replaced by the run's, not
    passed beside them; a passed name that is a prefix of one the clean
    environment sets (HOM, HOME) is its own variable."""
    with Tmp() as t:
        env = dict(os.environ, TRIGGER_ID="stale", TRIGGER_RUN_ID="stale", HOM="h")
        out = t.file("env.txt")
        one_run(ext, t, "--exec", f"env | sort > {out}", env=env)
        with open(out) as f:
            got = f.read().splitlines()
        assert [x for x in got if x.startswith("TRIGGER_ID=")] == ["TRIGGER_ID=x"], got
        assert [x for x in got if x.startswith("TRIGGER_RUN_ID=")] != ["TRIGGER_RUN_ID=stale"]
        assert len([x for x in got if x.startswith("TRIGGER_RUN_ID=")]) == 1, got
    with Tmp() as t:
        out = t.file("env.txt")
        one_run(ext, t, "--clean-env", "--env", "HOM", "--exec", f"env | sort > {out}",
                env=env)
        with open(out) as f:
            got = f.read().splitlines()
        assert "HOM=h" in got and "HOME=" + env.get("HOME", "/") in got, got
