"""tests/py/host/test_host_sched.py -- trigger-host started under a scheduling
policy or nice value someone chose (slice.c asks for a short time slice
only under the default policy): under SCHED_BATCH the policy is kept, and
the commands it starts run under it too; under nice -1 the runs still
happen. Skipped (a SKIP line) without chrt or the right to lower nice."""
import os
import shutil
import subprocess

from util.host import Tmp, add_once, host_bin, now_ms, runs


def tick_under(ext, t, prefix):
    path, db = t.db(ext)
    add_once(db, "x", now_ms() - 1000)
    out = t.file("sched.txt")
    p = subprocess.run([*prefix, host_bin(ext), "tick", path, "--extension", ext, "--exec",
                        f"chrt -p $$ > {out}"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, (prefix, p.returncode, p.stderr)
    assert [r["status"] for r in runs(db)] == ["success"], runs(db)
    with open(out) as f:
        return f.read()


def test_batch_policy_kept(ext):
    if not shutil.which("chrt"):
        print("SKIP: no chrt")
        return
    with Tmp() as t:
        assert "SCHED_BATCH" in tick_under(ext, t, ["chrt", "-b", "0"])


def test_negative_nice(ext):
    if not shutil.which("chrt") or os.geteuid() != 0:
        print("SKIP: no chrt, or not allowed to lower nice")
        return
    with Tmp() as t:
        assert "SCHED_OTHER" in tick_under(ext, t, ["nice", "-n", "-1"])
