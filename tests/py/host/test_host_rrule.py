"""tests/py/host/test_host_rrule.py -- rrule triggers in `trigger-host
status` (host/cli/status.c) and on the status page (host/http/page.c):
the schedule column says the rule in words (trigger_describe), the
page's cell has the rule itself as its tooltip, and the next due time is
the rule's next occurrence."""
import json
import subprocess

from util.host import Tmp, host_bin
from util.http import get, start_http, stop_http

RULE = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;BYMINUTE=0;BYSECOND=0"


def add_rule(db):
    db.execute("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, rrule,"
               " timezone) VALUES ('payday', 'other', 'Pay the team', 'rrule', ?,"
               " 'Europe/Berlin')", (RULE,))


def test_status_shows_the_rule_in_words(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_rule(db)
        p = subprocess.run([host_bin(ext), "status", path, "--extension", ext, "--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
        assert p.returncode == 0, p.stderr
        row = [r for r in json.loads(p.stdout)["triggers"] if r["trigger_id"] == "payday"]
        assert row and row[0]["schedule"] == \
            "Monthly on the last weekday at 17:00 (Europe/Berlin)", p.stdout
        p = subprocess.run([host_bin(ext), "status", path, "--extension", ext],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
        assert "Monthly on the last weekday at 17:00 (Europe/Berlin)" in p.stdout, p.stdout


def test_page_shows_the_rule(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_rule(db)
        proc, port, _ = start_http(ext, t, "serve", path, "--agents", "mine")
        try:
            st, _, page = get(port, "/")
        finally:
            stop_http(proc)
        assert st == 200, page[:300]
        assert (f'<td title="{RULE}">Monthly on the last weekday at 17:00'
                " (Europe/Berlin)</td>") in page, page
