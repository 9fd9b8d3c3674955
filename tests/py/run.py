#!/usr/bin/python3
"""tests/py/run.py -- the Python binding tests (Debian's /usr/bin/python3).

Runs every function named test_* in every tests/py/**/test_*.py, passing
the extension path (without suffix, e.g. build/triggers). The folders
mirror the code a test exercises (docs/testing.md#where-a-test-goes:
agent/, tick/, sql/, store/, trigger/, base/, host/, preload/, and whole/
for what crosses them); helpers live in tests/py/util/. Prints each
failure with its traceback and ends with "py: N passed, M failed".
    /usr/bin/python3 tests/py/run.py build/triggers [filter]
filter: comma-separated substrings of a test's name "folder/module.test_name"
(e.g. "tick/test_tick.test_max_runs"); a test runs when its name contains
one of them (none given: every test), and never when it contains one
prefixed with "-" ("-host/,-test_shadow": all but those). So "test_tick",
"tick/" and "test_max_runs" each select what they say.
PY_FAILFAST=1 stops at the first failure (tests/mutants.sh).
"""
import glob
import importlib.util
import os
import sys
import time
import traceback


def main():
    ext = sys.argv[1] if len(sys.argv) > 1 else "build/triggers"
    pats = [p for p in (sys.argv[2] if len(sys.argv) > 2 else "").split(",") if p]
    skip = [p[1:] for p in pats if p.startswith("-")]
    only = [p for p in pats if not p.startswith("-")]
    failfast = os.environ.get("PY_FAILFAST") == "1"
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    passed = failed = 0
    for path in sorted(glob.glob(os.path.join(here, "**", "test_*.py"), recursive=True)):
        name = os.path.splitext(os.path.relpath(path, here))[0]
        if failfast and failed:
            break
        spec = importlib.util.spec_from_file_location(os.path.basename(name), path)
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except Exception:
            failed += 1
            print(f"FAIL {name}: import error")
            traceback.print_exc()
            continue
        for fn_name in sorted(n for n in dir(mod) if n.startswith("test_")):
            full = f"{name}.{fn_name}"
            if (only and not any(p in full for p in only)) or any(p in full for p in skip):
                continue
            if failfast and failed:
                break
            fn = getattr(mod, fn_name)
            t0 = time.time()
            try:
                fn(ext)
                passed += 1
            except Exception:
                failed += 1
                print(f"FAIL {name}.{fn_name}")
                traceback.print_exc()
            dt = time.time() - t0
            if dt > 5:
                print(f"slow: {name}.{fn_name} took {dt:.1f}s")
    print(f"py: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
