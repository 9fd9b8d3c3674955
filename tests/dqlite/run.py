#!/usr/bin/python3
"""tests/dqlite/run.py -- the dqlite layer of `make test` (issue 20): the
extension, unchanged, on a 3-node dqlite cluster (Raft, page replication)
through the preload library, with leaders killed by SIGKILL.

    /usr/bin/python3 tests/dqlite/run.py BUILD_DIR [name-filter]

Starts one cluster (tests/dqlite/cluster.py) on 127.0.0.1 for all tests
(each test uses a database of its own), runs every function named test_*
in tests/dqlite/test_*.py with a context (cluster, build paths), restarts
any node a test killed before the next test, and stops every process it
started when it ends, on failure and on the watchdog's timeout too. Ends
with "dqlite: N passed, M failed". Without dqlite-demo and dqlite (Debian
package go-dqlite; tests/deps.sh installs it as root) it prints why it
skips and "dqlite: 0 passed, 0 failed".

DQLITE_SANITIZERS: sanitizer runtimes to put before the preload library in
the nodes' LD_PRELOAD (set by tests/run_all.sh under ASAN=1).
"""
import glob
import importlib.util
import os
import shutil
import signal
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
WATCHDOG_S = 420  # the whole layer; about 120-180 s on 2 loaded cores


class Context:
    def __init__(self, cluster, build):
        self.cluster = cluster
        self.build = build
        self.ext = os.path.join(build, "triggers")
        self.host = os.path.join(build, "trigger-host")
        self.tmp = cluster.dir


def on_alarm(signum, frame):
    raise TimeoutError(f"dqlite layer: watchdog after {WATCHDOG_S} s")


def load_tests(only):
    tests = []
    for path in sorted(glob.glob(os.path.join(HERE, "test_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for fn in sorted(n for n in dir(mod) if n.startswith("test_")):
            if not only or only in f"{name}.{fn}":
                tests.append((f"{name}.{fn}", getattr(mod, fn)))
    return tests


def heal(cluster):
    """Restart the nodes a test killed, resume paused ones."""
    for addr in list(cluster.stopped):
        cluster.resume(addr)
    for addr in cluster.addrs:
        if addr not in cluster.procs:
            cluster.restart(addr)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    missing = [t for t in ("dqlite-demo", "dqlite") if not shutil.which(t)]
    if missing:
        print(f"dqlite: skipped: {' and '.join(missing)} not found "
              "(Debian package go-dqlite; tests/deps.sh installs it as root)")
        print("dqlite: 0 passed, 0 failed")
        return 0
    sys.path.insert(0, HERE)
    from cluster import Cluster

    passed = failed = 0
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(WATCHDOG_S)
    deadline = time.monotonic() + WATCHDOG_S
    cluster = Cluster(os.path.join(build, "triggers-preload.so"),
                      sanitizer_runtimes=os.environ.get("DQLITE_SANITIZERS", ""))
    try:
        tests = load_tests(only)
        cluster.start()
        ctx = Context(cluster, build)
        for i, (name, fn) in enumerate(tests):
            if time.monotonic() > deadline:
                failed += len(tests) - i
                print(f"FAIL dqlite: watchdog: {len(tests) - i} test(s) not run")
                break
            t0 = time.time()
            try:
                heal(cluster)
                fn(ctx)
                problems = cluster.health()
                assert not problems, "; ".join(problems)
                passed += 1
                print(f"ok {name} ({time.time() - t0:.1f} s)")
            except Exception:
                failed += 1
                print(f"FAIL {name}")
                traceback.print_exc()
                print(cluster.logs())
    except Exception:
        failed += 1
        print("FAIL dqlite cluster")
        traceback.print_exc()
        print(cluster.logs())
    finally:
        signal.alarm(0)
        cluster.close()
    print(f"dqlite: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
