#!/usr/bin/python3
"""tests/mutants.py -- the mutation list's side of `make mutants`
(tests/mutants.sh runs the builds and tests; this reads tests/mutants.txt,
finds each mutant's code fragment, applies it to a copy of the tree and
writes the report).

A mutant is found by its code fragment, not by file and line, so the list
survives files being split, moved or renamed: the fragment must occur
exactly once in ext/**/*.c and host/**/*.c. White space in a fragment
matches any run of white space in the code (line breaks and indentation
do not matter).

    mutants.py plan LIST TREE [ID...]      one TSV line per mutant:
        id, status (ok | missing | ambiguous), file, line, pure (1: in a
        pure module, ext/time or ext/text, linked into the unit tests),
        steps (the tests to run, most likely to kill first: see steps()),
        coverage ("never": every line of the fragment is one the whole
        suite never executed, per $MUTANTS_COVERAGE, written by
        tests/mutants_random.py coverage; "run" otherwise); every missing
        or ambiguous fragment is also reported on stderr
    mutants.py apply LIST ID TREE DEST     writes the mutated file into DEST
    mutants.py report LIST PLAN RESULTS OUT [COMMIT]
        writes the Markdown report OUT, prints the summary line; exits 1
        when a mutant survived that is not marked equivalent, a fragment
        is stale, or a mutant did not build
"""
import glob
import os
import re
import sys

PURE = ("ext/time/", "ext/text/")


def parse(path):
    """The mutants of the list, in order: dicts id, what, find, repl, equiv."""
    muts, cur = [], None
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("== "):
                ident, _, what = line[3:].strip().partition(" ")
                cur = {"id": ident, "what": what.strip(), "find": None,
                       "repl": None, "equiv": None, "line": no}
                muts.append(cur)
                continue
            key, sep, val = line.strip().partition(":")
            if cur is None or not sep or key not in ("find", "repl", "equiv"):
                sys.exit(f"{path}:{no}: expected '== ID what', 'find:', "
                         f"'repl:' or 'equiv:', got: {line}")
            if cur[key] is not None:
                sys.exit(f"{path}:{no}: {key}: given twice for {cur['id']}")
            cur[key] = val[1:] if val.startswith(" ") else val
    seen = set()
    for m in muts:
        if m["id"] in seen:
            sys.exit(f"{path}:{m['line']}: mutant id {m['id']} used twice")
        seen.add(m["id"])
        if not m["find"] or not m["find"].strip() or m["repl"] is None:
            sys.exit(f"{path}:{m['line']}: {m['id']} needs find: and repl:")
        if m["find"].split() == m["repl"].split():
            sys.exit(f"{path}:{m['line']}: {m['id']}: repl: equals find:")
    return muts


def pattern(find):
    return re.compile(r"\s+".join(re.escape(t) for t in find.split()))


def sources(tree):
    files = []
    for top in ("ext", "host"):
        files += glob.glob(os.path.join(tree, top, "**", "*.c"), recursive=True)
    return sorted(os.path.relpath(f, tree) for f in files)


# The tests' folder (tests/py/FOLDER/) that mirrors a code folder; ext/time
# and ext/text are reached through the SQL functions (sql/) and the agent
# calls (agent/) that use them.
MIRROR = {"ext/tick": "tick/", "ext/agent": "agent/", "ext/sql": "sql/",
          "ext/store": "store/", "ext/trigger": "trigger/", "ext/base": "base/",
          "ext/time": "sql/", "ext/text": "agent/", "host": "host/"}


def steps(rel, tree):
    """The tests of a mutant in rel, the most likely to kill it first
    (tests/mutants.sh runs them in this order, the first failure ends
    the run): the unit test named after the file's module, the golden SQL
    files, the Python tests named after the module (in host/, after its
    folder too: host/test_host_mcp* for host/mcp/), the Python folder
    that mirrors the code's folder, the rest of the fast subset (for
    host/mcp/, the MCP layer: the official SDK's client, tests/mcp); for a
    mutant in a pure module, every other unit test last (building them
    all takes longer than the rest)."""
    base = os.path.splitext(os.path.basename(rel))[0]
    units = sorted(os.path.splitext(os.path.basename(u))[0]
                   for u in glob.glob(os.path.join(tree, "tests", "unit", "test_*.c")))
    out = []
    if rel.startswith("host/"):
        mine = [u for u in units if u == "test_host_" + base]
    elif rel.startswith(PURE):
        mine = [u for u in units if not u.startswith("test_host_") and
                (base.startswith(u[5:]) or u[5:].startswith(base))]
    else:
        mine = []
    out += ["unit:" + u for u in mine]
    folder = "host" if rel.startswith("host/") else "/".join(rel.split("/")[:2])
    mirror = MIRROR.get(folder, "")
    named = sorted({os.path.relpath(p, os.path.join(tree, "tests", "py"))[:-3]
                    for p in glob.glob(os.path.join(tree, "tests", "py", "**",
                                                    f"test_*{base}*.py"), recursive=True)
                    if not rel.startswith("host/") or "/host/" in p})
    if rel.startswith("host/") and rel.count("/") == 2:  # host/mcp/x.c: host/test_host_mcp*
        sub = rel.split("/")[1]
        named = sorted(set(named) | {
            "host/" + os.path.basename(p)[:-3]
            for p in glob.glob(os.path.join(tree, "tests", "py", "host", f"test_host_{sub}*.py"))})
    if rel.startswith("host/"):
        out += ["py:" + ",".join(named)] if named else []
        out += ["py:host/"]
        if rel.startswith("host/mcp/"):  # the MCP SDK's client (tests/mcp)
            out += ["mcp"]
        return " ".join(out)
    out += ["sql"]
    if named:
        out += ["py:" + ",".join(named)]
    if mirror:
        out += ["py:" + mirror]
    out += ["py:REST" + ("," + ",".join("-" + n for n in [mirror] if n) if mirror else "")]
    if rel.startswith(PURE):
        out += ["units"]
    return " ".join(out)


def never_run(tree):
    """{file: set of lines never executed} of the coverage file, for the
    files unchanged since it was written."""
    path = os.environ.get("MUTANTS_COVERAGE", "")
    if not path or not os.path.exists(path):
        return {}
    import hashlib
    import json
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for rel, v in data.items():
        p = os.path.join(tree, rel)
        if os.path.exists(p):
            with open(p, "rb") as g:
                if hashlib.sha1(g.read()).hexdigest() == v["sha1"]:
                    out[rel] = set(v["never"])
    return out


def locate(m, tree, files):
    """[(file, offset, end, line)] of every occurrence of m's fragment."""
    pat, hits = pattern(m["find"]), []
    for rel in files:
        with open(os.path.join(tree, rel), encoding="utf-8") as f:
            text = f.read()
        for x in pat.finditer(text):
            hits.append((rel, x.start(), x.end(), text.count("\n", 0, x.start()) + 1,
                         text.count("\n", 0, x.end()) + 1))
    return hits


def cmd_plan(lst, tree, ids):
    muts = parse(lst)
    known = {m["id"] for m in muts}
    for i in ids:
        if i not in known:
            sys.exit(f"mutants: no mutant {i} in {lst}")
    files = sources(tree)
    never = never_run(tree)
    stale = 0
    for m in muts:
        if ids and m["id"] not in ids:
            continue
        hits = locate(m, tree, files)
        cov = "run"
        if len(hits) == 1:
            rel, _, _, line, last = hits[0]
            status = "ok"
            if rel in never and all(n in never[rel] for n in range(line, last + 1)):
                cov = "never"
        else:
            rel, line = "-", 0
            status = "missing" if not hits else "ambiguous"
            stale += 1
            where = ", ".join(f"{h[0]}:{h[3]}" for h in hits)
            print(f"mutants: {m['id']}: fragment "
                  + ("NOT FOUND in ext/**/*.c, host/**/*.c" if not hits
                     else f"NOT UNIQUE ({len(hits)} places: {where})")
                  + f": '{m['find']}' ({lst}:{m['line']}; update the list)",
                  file=sys.stderr)
        pure = int(rel.startswith(PURE))
        todo = steps(rel, tree) if status == "ok" else "-"
        print(f"{m['id']}\t{status}\t{rel}\t{line}\t{pure}\t{todo}\t{cov}")
    return 0


def cmd_apply(lst, ident, tree, dest):
    m = next((m for m in parse(lst) if m["id"] == ident), None)
    if m is None:
        sys.exit(f"mutants: no mutant {ident}")
    hits = locate(m, tree, sources(tree))
    if len(hits) != 1:
        sys.exit(f"mutants: {ident}: fragment found {len(hits)} times")
    rel, start, end = hits[0][:3]
    with open(os.path.join(tree, rel), encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(dest, rel), "w", encoding="utf-8") as f:
        f.write(text[:start] + m["repl"] + text[end:])
    print(rel)
    return 0


def md(s):
    return "`" + s.replace("`", "'").replace("|", "\\|") + "`" if s.strip() else "(dropped)"


def cmd_report(lst, plan, results, out, commit=""):
    muts = {m["id"]: m for m in parse(lst)}
    rows, counts = [], {}
    with open(plan, encoding="utf-8") as f:
        for line in f:
            ident, status, rel, lineno = line.rstrip("\n").split("\t")[:4]
            m = muts[ident]
            res, detail, secs = "stale", "fragment " + status, ""
            path = os.path.join(results, ident)
            if status == "ok" and os.path.exists(path):
                with open(path, encoding="utf-8") as r:
                    res, detail, secs = (r.read().rstrip("\n").split("\t") + ["", ""])[:3]
            elif status == "ok":
                res, detail = "not run", "interrupted"
            if res == "survived" and m["equiv"]:
                res = "equivalent"
            if res in ("killed", "timeout") and m["equiv"]:
                res, detail = "killed-but-marked-equivalent", detail
            kind = "killed" if res in ("killed", "timeout") else res
            counts[kind] = counts.get(kind, 0) + 1
            rows.append((ident, m, res, detail, rel, lineno, secs))
    killed = counts.get("killed", 0)
    survived = counts.get("survived", 0)
    equiv = counts.get("equivalent", 0)
    other = sum(v for k, v in counts.items()
                if k not in ("killed", "survived", "equivalent"))
    live = killed + survived
    score = f"{100.0 * killed / live:.1f}%" if live else "n/a"
    summary = (f"mutants: {len(rows)} run, {killed} killed, {survived} survived, "
               f"{equiv} equivalent, {other} not counted (stale, build error, "
               f"not run); killed {score} of the non-equivalent")
    with open(out, "w", encoding="utf-8") as f:
        f.write("# Mutation testing: the last report\n\n")
        f.write("Written by `make mutants` (tests/mutants.sh, the list "
                "tests/mutants.txt; how it works and what it runs: "
                "docs/testing.md). Not part of `make test` or CI.\n\n")
        if commit:
            f.write(f"Tree: {commit}.\n\n")
        f.write("**Result:** " + summary[len("mutants: "):] + ".\n\n")
        f.write("| mutant | where | mutation | result | killed by |\n")
        f.write("|---|---|---|---|---|\n")
        for ident, m, res, detail, rel, lineno, secs in rows:
            where = f"{rel}:{lineno}" if rel != "-" else "-"
            mut = f"{md(m['find'])} → {md(m['repl'])}"
            by = detail if res not in ("equivalent", "survived") else ""
            f.write(f"| {ident} | {where} | {mut} | {res} | {by} |\n")
        eq = [(i, m) for i, m, res, *_ in rows if m["equiv"]]
        if eq:
            f.write("\n## Equivalent mutants\n\nNo test can tell them from "
                    "the original code:\n\n")
            for ident, m in eq:
                f.write(f"- **{ident}** ({m['what']}): {m['equiv']}\n")
        bad = [(i, res, d) for i, m, res, d, *_ in rows
               if res not in ("killed", "timeout", "equivalent")]
        if bad:
            f.write("\n## To do\n\n")
            for ident, res, d in bad:
                f.write(f"- **{ident}**: {res}" + (f" ({d})" if d else "") + "\n")
    print(summary)
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "plan":
        return cmd_plan(argv[1], argv[2], argv[3:])
    if len(argv) == 5 and argv[0] == "apply":
        return cmd_apply(*argv[1:])
    if len(argv) in (5, 6) and argv[0] == "report":
        return cmd_report(*argv[1:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
