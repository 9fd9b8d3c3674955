"""tests/py/whole/test_docs.py -- the user documentation stands alone and its
examples work: every relative link in README.md and docs/*.md (and the
other Markdown files of the repository) names a file of the repository,
and its #anchor a heading of that file; README.md and docs/ never send the
reader to a file a user does not have (the developers' contract documents
outside the repository); and the README's quick start, pasted as written,
does what it says (the SQL block through the sqlite3 shell, the shell block
with trigger-host)."""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile

from util import ROOT

# Files a link may name although they are not here yet, each with the
# reason. Only their absence is excused: once present, they are checked as
# any other file.
PENDING = {}

# Names of documents that live outside the repository (the developers'
# design contract): a user cannot open them, so README.md and docs/ must
# not send anyone there.
OUTSIDE = ("../shared", "/shared/", "DESIGN.md", "CRON.md", "WHEN.md", "STYLE.md")


def md_files():
    """The Markdown files of the repository (not build output)."""
    out = []
    for path in glob.glob(os.path.join(ROOT, "**", "*.md"), recursive=True):
        rel = os.path.relpath(path, ROOT)
        if rel.split(os.sep)[0] in ("build", ".git") or "node_modules" in rel.split(os.sep):
            continue
        out.append(rel)
    return sorted(out)


def user_docs():
    return ["README.md"] + sorted(os.path.relpath(p, ROOT)
                                  for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def prose(text):
    """The text without fenced code blocks and inline code spans, where a
    bracket or a parenthesis is code, not a link."""
    text = re.sub(r"^```.*?^```[^\n]*$", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def headings(text):
    """The anchors GitHub gives the headings of a Markdown text."""
    seen, out = {}, set()
    fence = False
    for line in text.split("\n"):
        if line.startswith("```"):
            fence = not fence
            continue
        m = None if fence else re.match(r"#{1,6} +(.*?)#*\s*$", line)
        if not m:
            continue
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))  # links: their text
        slug = re.sub(r"[^\w\- ]", "", title.lower().replace("`", "")).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(text):
    """(target) of every inline link or image, and of reference definitions."""
    body = prose(text)
    found = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", body)
    found += re.findall(r"^\s*\[[^\]]+\]:\s*(\S+)", body, flags=re.M)
    return found


def check_file_links(rel):
    """The broken relative links of one Markdown file, as messages."""
    text = open(os.path.join(ROOT, rel), encoding="utf-8").read()
    bad = []
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        if path:
            full = os.path.normpath(os.path.join(ROOT, os.path.dirname(rel), path))
            inside = os.path.relpath(full, ROOT)
            if inside.startswith(".."):
                bad.append(f"{rel}: {target}: outside the repository")
                continue
            if not os.path.exists(full):
                if inside not in PENDING:
                    bad.append(f"{rel}: {target}: no such file ({inside})")
                continue
        else:
            full = os.path.join(ROOT, rel)
        if anchor and full.endswith(".md"):
            if anchor not in headings(open(full, encoding="utf-8").read()):
                bad.append(f"{rel}: {target}: no heading #{anchor} in "
                           f"{os.path.relpath(full, ROOT)}")
    return bad


def test_links_point_into_the_repository(ext):
    files = md_files()
    assert "README.md" in files and "docs/cron.md" in files, files
    bad = [msg for rel in files for msg in check_file_links(rel)]
    assert not bad, "\n".join(bad)


def test_link_checker_catches_what_it_should(ext):
    """The checker itself: a missing file, a missing anchor, a link out of
    the repository are found; code spans, URLs and good links are not."""
    text = ("[a](README.md) [b](README.md#quick-start) [c](https://x.org/y)\n"
            "`[not](a-link.md)`\n```\n[nor](this.md)\n```\n"
            "[d](nope.md) [e](README.md#no-such-heading) [f](../../etc/passwd)\n"
            "[g](#local) ![h](docs/host-status-page.png)\n\n## Local\n")
    assert links(text) == ["README.md", "README.md#quick-start", "https://x.org/y",
                           "nope.md", "README.md#no-such-heading", "../../etc/passwd",
                           "#local", "docs/host-status-page.png"], links(text)
    assert headings("# A `b`: c, d\n## A `b`: c, d\n### Status page: `--http ADDR`\n") == {
        "a-b-c-d", "a-b-c-d-1", "status-page---http-addr"}
    tmp = os.path.join(ROOT, "build", "test_docs_probe.md")
    os.makedirs(os.path.dirname(tmp), exist_ok=True)
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text.replace("README.md", "../README.md").replace("docs/", "../docs/"))
    try:
        bad = check_file_links(os.path.relpath(tmp, ROOT))
    finally:
        os.remove(tmp)
    assert len(bad) == 3, bad
    assert "no such file" in bad[0] and "no heading #no-such-heading" in bad[1], bad
    assert "outside the repository" in bad[2], bad


def test_user_docs_name_no_outside_file(ext):
    bad = []
    for rel in user_docs():
        for n, line in enumerate(open(os.path.join(ROOT, rel), encoding="utf-8"), 1):
            for name in OUTSIDE:
                if name in line:
                    bad.append(f"{rel}:{n}: names {name}: {line.strip()}")
    assert not bad, "\n".join(bad)


# ---- pointers in code and docs: "docs/x.md", "x.md#anchor" ----------------

# Comments cite the docs/ page that says what they rely on. Until the ext/
# and host/ halves of issue 33 (their comments' pointers, fixed in branches
# of their own) are merged, a bad pointer there is printed, not failed:
# the lead sets this to True after that merge.
STRICT_CODE_POINTERS = True
STRICT_TREES = ("README.md", "docs", "bench", "tests")   # always strict
CODE_TREES = ("ext", "host")                             # STRICT_CODE_POINTERS
SOURCE_SUFFIXES = (".c", ".h", ".py", ".sh", ".mjs", ".md", ".sql", ".txt", ".dict")
# Data, not prose: test vectors and corpora keep their sources' words;
# this file names bad pointers on purpose (the checker's own test).
NOT_CHECKED = ("tests/fuzz/corpus/", "tests/py/fixtures/",
               "tests/py/whole/test_docs.py")
POINTER = re.compile(r"(?<![\w/.-])((?:docs/)?[\w-]+\.md)(?:#([\w-]+))?")
OUTSIDE_NAME = re.compile(r"(?<![\w\"`])(DESIGN|CRON|WHEN|STYLE)\.md")


def source_files(trees):
    """The files of the trees (or files) named, relative to ROOT, whose
    comments and text are checked."""
    out = []
    for tree in trees:
        full = os.path.join(ROOT, tree)
        paths = [full] if os.path.isfile(full) else \
            glob.glob(os.path.join(full, "**", "*"), recursive=True)
        for path in paths:
            rel = os.path.relpath(path, ROOT)
            if os.path.isfile(path) and rel.endswith(SOURCE_SUFFIXES) and \
                    not rel.startswith(NOT_CHECKED):
                out.append(rel)
    return sorted(out)


def pointer_target(rel, name):
    """The file a pointer names: docs/x.md from the top of the tree; x.md
    beside the file that names it, else in docs/, else at the top."""
    if name.startswith("docs/"):
        return os.path.join(ROOT, name)
    for d in (os.path.dirname(rel), "docs", ""):
        full = os.path.join(ROOT, d, name)
        if os.path.exists(full):
            return full
    return None


def pointer_problems(rel, text):
    """Messages for each pointer of the text that does not resolve (file,
    then anchor) and each citation of a document outside the repository
    (the developers' contract: DESIGN, CRON, WHEN, STYLE). A name in
    quotes or a code span ("CRON.md accepts it") is a data value some file
    reads, not a citation."""
    bad = []
    for n, line in enumerate(text.split("\n"), 1):
        for m in OUTSIDE_NAME.finditer(line):
            bad.append(f"{rel}:{n}: cites {m.group(0)}, which is not in the repository: "
                       "point at the docs/ page that says it")
        for m in POINTER.finditer(line):
            name, anchor = m.group(1), m.group(2)
            if OUTSIDE_NAME.fullmatch(name):
                continue
            full = pointer_target(rel, name)
            if not full or not os.path.exists(full):
                bad.append(f"{rel}:{n}: {m.group(0)}: no such file")
            elif anchor and anchor not in headings(open(full, encoding="utf-8").read()):
                bad.append(f"{rel}:{n}: {m.group(0)}: no heading #{anchor} in "
                           f"{os.path.relpath(full, ROOT)}")
    return bad


def tree_problems(trees):
    return [msg for rel in source_files(trees)
            for msg in pointer_problems(rel, open(os.path.join(ROOT, rel), encoding="utf-8",
                                                  errors="replace").read())]


def test_pointers_in_code_and_docs_resolve(ext):
    """Every "docs/x.md" or "x.md#anchor" in README.md, docs/, bench/ and
    tests/ names a file of the repository and a heading of it, and none
    cites a document outside the repository; the same for the comments
    of ext/ and host/ (printed only, until STRICT_CODE_POINTERS)."""
    bad = tree_problems(STRICT_TREES)
    code = tree_problems(CODE_TREES)
    if code and not STRICT_CODE_POINTERS:
        print(f"docs pointers: {len(code)} in ext/ and host/ to fix "
              "(reported, not failed, until STRICT_CODE_POINTERS):")
        print("\n".join("  " + msg for msg in code))
    assert not bad, "\n".join(bad)
    assert not (STRICT_CODE_POINTERS and code), "\n".join(code)


def test_pointer_checker_catches_what_it_should(ext):
    """The checker itself: a missing page, a missing heading and an outside
    document are found; good pointers, other paths and a quoted data value
    are not."""
    text = ("see docs/lifecycle.md and docs/testing.md#lint, lifecycle.md#reporting-trigger_run_finish\n"
            "tests/MUTANTS.md, ext/foo.md, \"CRON.md accepts it\"\n"
            "docs/nope.md, docs/testing.md#no-such-heading, " + "DESIGN" + ".md section 4\n")
    bad = pointer_problems("ext/tick/x.c", text)
    assert len(bad) == 3, bad
    assert bad[0].startswith("ext/tick/x.c:3: cites DESIGN.md"), bad
    assert "docs/nope.md: no such file" in bad[1], bad
    assert "no heading #no-such-heading in docs/testing.md" in bad[2], bad


def readme():
    return open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()


def quick_start():
    text = readme()
    m = re.search(r"^## Quick start\n(.*?)^## ", text, re.S | re.M)
    assert m, "README.md has no '## Quick start' section"
    return m.group(1)


def test_readme_quick_start_sql(ext):
    """The quick start's SQL block, as a user pastes it into the shell in
    the repository after `make` (with the extension under test: build/asan/
    ... under make test-asan)."""
    block = re.search(r"```sql\n(.*?)```", quick_start(), re.S).group(1)
    assert block.startswith(".load ./build/triggers\n.read sql/install.sql\n"), block
    script = block.replace(".load ./build/triggers", f".load {os.path.abspath(ext)}", 1)
    p = subprocess.run(["sqlite3", "-batch", ":memory:"], input=script, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "6", lines                       # trigger_install(): the schema version
    assert lines[1] == ("market-am|At 07:00, Monday through Friday (Europe/Berlin)"
                        "|2026-03-09T07:00:00+01:00"), lines
    run = json.loads(lines[2])                          # the claimed run
    assert run["run_id"] == "market-am@1773036000000#1", run
    assert run["payload"]["text"] == "Summarize overnight market moves", run
    after = json.loads(lines[3])                        # the trigger after the report
    assert after["run_count"] == 1 and after["last_status"] == "success", after
    assert after["next_due_at"] == 1773122400000, after  # Tuesday 07:00 CET
    assert lines[4] == "market-am@1773036000000#1|success|markets calm", lines
    assert len(lines) == 5, lines
    # the README says what it prints
    for shown in ("market-am|At 07:00, Monday through Friday (Europe/Berlin)|"
                  "2026-03-09T07:00:00+01:00", "market-am@1773036000000#1|success|markets calm"):
        assert shown in quick_start(), shown


def test_readme_quick_start_host(ext):
    """The quick start's shell block, run in a scratch folder that holds
    the build, as written: a database file, trigger-host ticking it with a
    command, the run in trigger_runs, `trigger-host status`."""
    block = re.search(r"```sh\n(.*?)```", quick_start(), re.S).group(1)
    ext_dir = os.path.dirname(os.path.abspath(ext))
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "build"))
        for name in ("triggers.so", "trigger-host"):
            shutil.copy2(os.path.join(ext_dir, name), os.path.join(d, "build", name))
        p = subprocess.run(["sh", "-ec", block], cwd=d, capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 0, (p.stdout, p.stderr)
        lines = p.stdout.splitlines()
        assert lines[0] == "6", lines
        assert re.fullmatch(r"hello@\d+#1\|success\|said hello as hello@\d+#1", lines[1]), lines
        assert lines[2].startswith("NEXT "), lines
        assert re.search(r" success +hello +Every 2 seconds$", lines[3]), lines
        # pause (silent) and runs: the table's head, then the run
        runs = lines[lines.index(next(x for x in lines if x.startswith("SCHEDULED "))):]
        assert re.search(r" success +1 +\d+ ms +hello@\d+#1 +said hello as ", runs[1]), runs


def test_operations_session(ext):
    """docs/operations.md's SQL blocks, one session in order: the shell
    prints exactly the outputs their comments show (the event kinds, and
    the queries for a trigger that did not fire, an agent's refused
    creates and what is stuck)."""
    text = open(os.path.join(ROOT, "docs", "operations.md"), encoding="utf-8").read()
    script = "".join(re.findall(r"```sql\n(.*?)```", text, re.S))
    assert script.startswith(".load ./build/triggers\n"), script[:80]
    want = re.findall(r"-- (.*)$", script, re.M)
    assert len(want) >= 15, want
    script = script.replace(".load ./build/triggers", f".load {os.path.abspath(ext)}", 1)
    p = subprocess.run(["sqlite3", "-batch", ":memory:"], input=script, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout.splitlines() == want, (p.stdout, want)


def test_functions_session(ext):
    """docs/functions.md's session: the shell prints, in order, exactly the
    outputs its comments show."""
    text = open(os.path.join(ROOT, "docs", "functions.md"), encoding="utf-8").read()
    block = re.search(r"```sql\n(\.load \./build/triggers\n.*?)```", text, re.S).group(1)
    want = re.findall(r"-- (.*)$", block, re.M)
    script = block.replace(".load ./build/triggers", f".load {os.path.abspath(ext)}", 1)
    p = subprocess.run(["sqlite3", "-batch", ":memory:"], input=script, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout.splitlines() == want, (p.stdout, want)


def dedupe_section():
    text = open(os.path.join(ROOT, "docs", "create-action.md"), encoding="utf-8").read()
    m = re.search(r"^## Dedupe keys\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert m, "docs/create-action.md has no '## Dedupe keys' section"
    return m.group(1)


def test_dedupe_vectors_documented(ext):
    """docs/create-action.md's table of pinned dedupe keys: each row is what
    trigger_dedupe_key returns, and what SHA-256 over the documented
    canonical text gives; its SQL examples print what they show."""
    import hashlib
    from util import connect, one
    db = connect(ext)
    rows = re.findall(r"^\| ([^|]+?) \| (interval|once|cron) \| ([^|]+?) \| ([^|]+?) \|"
                      r" ([^|]*?) ?\| `(tdk2:[0-9a-f]{32})` \|$", dedupe_section(), re.M)
    assert len(rows) == 6, rows
    zones = set()
    for ins, ttype, sched, tz, scope, key in rows:
        zones.add(tz)
        assert one(db, "SELECT trigger_dedupe_key(?, ?, ?, ?, ?)",
                   ins, ttype, sched, scope, tz) == key, (ins, tz)
        norm = " ".join(ins.split())
        norm = "".join(c.lower() if "A" <= c <= "Z" else c for c in norm)
        canon = f"{sched} {tz}" if ttype == "cron" else sched
        text = json.dumps(["tdk2", norm, ttype, canon, scope], separators=(",", ":"),
                          ensure_ascii=False)
        assert "tdk2:" + hashlib.sha256(text.encode()).hexdigest()[:32] == key, text
    assert {"UTC", "America/New_York", "Asia/Tokyo"} <= zones, zones
    examples = re.findall(r"^(SELECT trigger_dedupe_key\(.*\);)\n-- (tdk2:[0-9a-f]{32})",
                          dedupe_section(), re.M)
    assert len(examples) == 3, examples
    for sql, key in examples:
        assert one(db, sql) == key, sql


def test_create_action_agent_example(ext):
    """docs/create-action.md's Python example of an agent runtime, run as
    written with a stand-in model: under the default creator_roles it
    creates (the example allows the agent role first), and without that
    line the same call is PERMISSION_DENIED, which the example says."""
    from util import connect
    text = open(os.path.join(ROOT, "docs", "create-action.md"), encoding="utf-8").read()
    block = re.search(r"^## The XML contract\n.*?```python\n(.*?)```", text, re.S | re.M).group(1)
    assert '"role": "agent"' in block and "creator_roles" in block, block

    class Model:
        def complete(self, prompt):
            return ("<response><instructions>Ping the team</instructions><triggerType>cron"
                    "</triggerType><cronExpression>0 7 * * MON-FRI</cronExpression>"
                    "<timezone>Europe/Berlin</timezone></response>")
    told = []
    for keep_config in (True, False):
        db = connect(ext)
        assert db.execute("SELECT trigger_config('creator_roles')").fetchone()[0] == "owner,admin"
        code = block if keep_config else "\n".join(
            line for line in block.splitlines() if "creator_roles" not in line)
        env = {"db": db, "json": json, "model": Model(), "prompt": "remind the team",
               "me": "agent-1", "tell_model": lambda *a: told.append(a)}
        exec(code, env)
        if keep_config:
            assert env["result"]["success"] and env["result"]["created"], env["result"]
            assert not told, told
        else:
            assert env["result"]["error"] == "PERMISSION_DENIED", env["result"]
            assert told and told[0][0] == "PERMISSION_DENIED", told


def shell(ext, block):
    """A documentation SQL block run in the sqlite3 shell after the
    extension is loaded and installed: its output lines."""
    script = f".load {os.path.abspath(ext)}\n.read sql/install.sql\n" + block
    p = subprocess.run(["sqlite3", "-batch", ":memory:"], input=script, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "6", lines  # trigger_install()
    return lines[1:]


def doc_block(rel, heading):
    """The first ```sql block after `heading` in docs/rel."""
    text = open(os.path.join(ROOT, "docs", rel), encoding="utf-8").read()
    m = re.search(re.escape(heading) + r".*?```sql\n(.*?)```", text, re.S)
    assert m, (rel, heading)
    return m.group(1)


def test_per_user_quota_example(ext):
    """docs/create-action.md's per-user quota example prints what it shows."""
    block = doc_block("create-action.md", "### Per-user quotas")
    lines = shell(ext, block)
    assert lines[:3] == ["2", "1", "1"], lines
    refusal = json.loads(lines[3])
    shown = re.search(r'"reason":"([^"]*)"', block).group(1)
    assert refusal["error"] == "TRIGGER_QUOTA_EXCEEDED" and refusal["reason"] == shown, refusal
    assert lines[4:] == ["u-42", "u-42"], lines


def test_skipped_run_example(ext):
    """docs/lifecycle.md's example of a skipped run under max_runs 1."""
    block = doc_block("lifecycle.md", "`skipped` means the host chose not to run")
    assert shell(ext, block) == ["once-a-minute@60000#1", "120000"]
    assert "-- once-a-minute@60000#1" in block and "-- 120000" in block, block


def defensive_rows():
    """Per file, the rows of docs/testing.md's "Defensive checks" table."""
    text = open(os.path.join(ROOT, "docs", "testing.md")).read()
    sec = text.split("### Defensive checks", 1)[1]
    sec = re.split(r"\n#{2,3} ", sec, maxsplit=1)[0]
    rows = {}
    for line in sec.splitlines():
        m = re.match(r"\|\s*`((?:ext|host)/[^`]+)`\s*\|", line)
        if m:
            rows[m.group(1)] = rows.get(m.group(1), 0) + 1
    return rows


def defensive_uses():
    """Per source file of ext/ and host/, the uses of ALWAYS() / NEVER()."""
    uses = {}
    files = glob.glob(os.path.join(ROOT, "ext", "**", "*.[ch]"), recursive=True)
    files += glob.glob(os.path.join(ROOT, "host", "**", "*.[ch]"), recursive=True)
    for f in files:
        rel = os.path.relpath(f, ROOT)
        if rel == os.path.join("ext", "text", "coverage.h"):
            continue
        n = len(re.findall(r"\b(?:ALWAYS|NEVER)\(", open(f).read()))
        if n:
            uses[rel] = n
    return uses


def test_defensive_checks_are_listed(ext):
    # Every ALWAYS()/NEVER() (a branch that make coverage does not count)
    # has its row, with the reason, in docs/testing.md; no row outlives it.
    assert defensive_uses() == defensive_rows()


def test_readme_agent_check(ext):
    """The README's agent section: its SQL block, pasted into the shell,
    prints exactly the text block shown under it (the refusal of a
    model's wrong time, the corrected create with its scheduleText, the
    events)."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    sec = re.search(r"^## An agent's create.*?(?=^## )", text, re.S | re.M).group(0)
    block = re.search(r"```sql\n(.*?)```", sec, re.S).group(1)
    shown = re.search(r"```text\n(.*?)```", sec, re.S).group(1)
    assert block.startswith(".load ./build/triggers\n"), block
    script = block.replace(".load ./build/triggers", f".load {os.path.abspath(ext)}", 1)
    p = subprocess.run(["sqlite3", "-batch", ":memory:"], input=script, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout == shown, (p.stdout, shown)
    assert "INVALID_SCHEDULE" in shown and '"scheduleText"' in shown
