"""tests/py/test_preload_open_fails.py -- build/triggers-preload.so when
the program's open fails (a directory that does not exist, a read-only
open of a missing file): the open's own error reaches the program
unchanged and nothing is registered; the next open in the same process
that succeeds has the extension."""
import os
import subprocess
import tempfile

from test_preload import PY, preload_env


def test_failed_open_then_a_good_one(ext):
    with tempfile.TemporaryDirectory() as tmp:
        script = (
            "import sqlite3, sys\n"
            "for path, uri in ((sys.argv[1], False), ('file:' + sys.argv[2] + '?mode=ro', True)):\n"
            "    try:\n"
            "        sqlite3.connect(path, uri=uri)\n"
            "        print('opened')\n"
            "    except sqlite3.OperationalError as e:\n"
            "        print(e)\n"
            "print(sqlite3.connect(':memory:').execute('SELECT trigger_version()').fetchone()[0])\n")
        r = subprocess.run([PY, "-c", script, os.path.join(tmp, "nodir", "x.db"),
                            os.path.join(tmp, "none.db")],
                           capture_output=True, text=True, env=preload_env(ext), timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout == ("unable to open database file\nunable to open database file\n"
                            "0.1.0\n"), r.stdout
        assert "triggers-preload: " not in r.stderr, r.stderr
        assert not os.path.exists(os.path.join(tmp, "none.db"))
