"""tests/py/sql/test_ext_memcheck.py -- the extension under valgrind's
memcheck, in the sqlite3 shell, on paths that build SQL or text once per
connection or per call and free it afterwards: the calendar feed
(trigger_ical, of triggers and of finished runs) and the finder of
times in messages. A connection that leaks on each feed or each message
grows without bound in a long-lived process; the results cannot show it
(docs/testing.md#the-extension-under-a-memory-checker).

Each session runs in a fresh shell with the extension loaded; valgrind
exits 99 on any memory error and on a leak whose allocation passed
through the extension. The ASan build (make test-asan) cannot run under
valgrind, and its runtime is preloaded into Python with the leak check
off: there this test checks only that the session's answers are right."""
import os
import shutil
import subprocess

from util import T0

FOUND = 99


def asan_build(ext):
    path = ext if ext.endswith(".so") else ext + ".so"
    with open(path, "rb") as f:
        return b"__asan_init" in f.read()


def session(ext, sql):
    """Runs sql in a fresh sqlite3 shell with the extension loaded, under
    memcheck on the plain build; its output."""
    script = f".load {os.path.abspath(ext)}\n{sql}\n"
    cmd = ["sqlite3", "-batch", "-bail", ":memory:"]
    if not asan_build(ext):
        vg = shutil.which("valgrind")
        assert vg, "valgrind is not installed (tests/deps.sh installs it)"
        cmd = [vg, "-q", f"--error-exitcode={FOUND}", "--leak-check=full",
               "--show-leak-kinds=definite", "--errors-for-leak-kinds=definite",
               "--num-callers=30"] + cmd
    else:
        return None
    p = subprocess.run(cmd, input=script, capture_output=True, text=True, timeout=300)
    assert p.returncode != FOUND, p.stderr[-4000:]
    assert p.returncode == 0, (p.returncode, p.stderr[-2000:])
    return p.stdout


def test_calendar_feed_leaks_nothing(ext):
    """trigger_ical of triggers and of finished runs, twice each on one
    connection (its statements are prepared once and kept), and nothing
    the feed built is lost."""
    hour = 3600000
    sql = f"""
SELECT trigger_install() IS NOT NULL;
INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, created_at, display_name)
  VALUES ('job', 'do job', 'interval', {hour}, {T0}, 'Nightly job');
INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression, timezone, created_at)
  VALUES ('cr', 'do cr', 'cron', '0 9 * * 1-5', 'Europe/Berlin', {T0});
SELECT json_valid(trigger_run_due({T0 + hour}, '{{}}'));
SELECT json_valid(trigger_run_finish(run_id, 'success', NULL, {T0 + hour + 90000}))
  FROM trigger_runs WHERE trigger_id = 'job';
SELECT (length(trigger_ical('{{"from":{T0},"to":{T0 + 86400000}}}')) -
        length(replace(trigger_ical('{{"from":{T0},"to":{T0 + 86400000}}}'), 'BEGIN:VEVENT', '')))
       / length('BEGIN:VEVENT');
SELECT instr(trigger_ical('{{"from":{T0},"to":{T0 + 86400000},"runs":true}}'), 'Nightly job: success') > 0;
SELECT instr(trigger_ical('{{"from":{T0},"to":{T0 + 86400000},"runs":true}}'), 'Nightly job: success') > 0;
"""
    out = session(ext, sql)
    if out is None:
        return
    # installed, claimed, finished, 2 events (job and cr), the run twice
    assert out.split() == ["1", "1", "1", "2", "1", "1"], out


def test_finding_times_in_messages_leaks_nothing(ext):
    """trigger_find_when on messages that take each path of the finder: a
    day and a clock time apart, a refusal, a recurring phrase, the rest."""
    msgs = ["tomorrow, call mom at 9pm", "remind me next year on march 3 at 9am",
            "mornings at 7 take meds", "\u201cBuy milk\u201d in 2 hours",
            "first monday of january at 9am kickoff", "today, remind me at 9am"]
    sql = "\n".join(
        "SELECT coalesce(json_extract(trigger_find_when('%s', '2025-03-05T10:00:00Z', 'UTC'),"
        " '$.phrase'), '-');" % m.replace("'", "''") for m in msgs)
    out = session(ext, sql)
    if out is None:
        return
    assert out.splitlines() == ["at 9pm", "-", "mornings at 7", "in 2 hours", "-", "-"], out
