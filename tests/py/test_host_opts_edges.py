"""tests/py/test_host_opts_edges.py -- trigger-host's options at their
edges (test_host_opts.py has the usual ones): --env names made of every
kind of character (one outside each range is refused, exit 2; letters,
digits and '_' pass), --log text, the JSON start line in print mode,
--agents with empty names between its commas (skipped), and serve over a
directory whose *.db entries are not all regular files (a directory, a
dangling symbolic link: skipped)."""
import json
import os
import subprocess

from util.host import Tmp, add_interval, host_bin, now_ms


def host(ext, *args):
    p = subprocess.run([host_bin(ext), *args, "--extension", ext], capture_output=True,
                       text=True, timeout=20)
    return p.returncode, p.stdout, p.stderr


def test_env_names_by_character(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for bad in ("a@", "a[", "a~", "a`", "a{", "@a", "~a"):  # around A-Z, a-z, 0-9
            rc, _, err = host(ext, "tick", path, "--exec", "true", "--clean-env",
                              "--env", bad)
            assert rc == 2 and f"--env {bad}: not a variable name" in err, (bad, rc, err)
        rc, _, err = host(ext, "tick", path, "--exec", "true", "--clean-env",
                          "--env", "_Az09_", "--log", "text")
        assert rc == 0, err


def test_json_start_line_in_print_mode(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        rc, _, err = host(ext, "tick", path, "--log", "json", "-v")
        assert rc == 0, err
        start = [json.loads(x) for x in err.splitlines() if '"event":"start"' in x]
        assert len(start) == 1 and start[0]["dispatch"] == "print", err


def test_agents_list_with_empty_names(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        for agent in ("a", "b", "c"):
            add_interval(db, agent, now_ms() - 500, interval_ms=3600000, agent_id=agent)
        rc, out, err = host(ext, "tick", path, "--agents", ",a,,b,", "-v")
        assert rc == 0, err
        assert sorted(json.loads(x)["agent_id"] for x in out.splitlines()) == ["a", "b"], out
        assert '"agents":["a","b"]' in err, err


def test_serve_directory_skips_what_is_not_a_file(ext):
    with Tmp() as t:
        d = t.file("dir")
        os.mkdir(d)
        os.mkdir(os.path.join(d, "sub.db"))
        os.symlink(os.path.join(d, "nowhere"), os.path.join(d, "dangling.db"))
        t.db(ext, "dir/real.db")
        proc = subprocess.Popen([host_bin(ext), "serve", d, "--extension", ext, "-v"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            proc.wait(timeout=1.5)
        except subprocess.TimeoutExpired:
            proc.terminate()
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, (proc.returncode, err)
        assert f"started: serve {d}/real.db;" in err, err
        assert "sub.db" not in err and "dangling.db" not in err, err
