"""tests/py/whole/test_bench_builds.py -- every program of `make bench`
still builds from the current sources (bench/run.sh with
BENCH_BUILD_ONLY=1). The benchmarks are not run by the suite; without this
a source file added to a layer the next-due rows link could break `make
bench` unnoticed (it did once: docs/testing.md)."""
import os
import shutil
import subprocess
import tempfile

from util import ROOT


def test_bench_programs_build(ext):
    out = tempfile.mkdtemp(prefix="bench-build.")
    try:
        env = dict(os.environ, BENCH_BUILD_ONLY="1", BENCH_OUT=out)
        r = subprocess.run(["sh", "bench/run.sh"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
        for prog in ("empty_tick", "busy_tick", "cron_next", "rrule_next",
                     "host_sql", "noevents/triggers.so"):
            assert os.path.exists(os.path.join(out, prog)), prog
    finally:
        shutil.rmtree(out, ignore_errors=True)
