#!/usr/bin/python3
"""tests/mutants_random.py -- random mutants for `make mutants-random`
(docs/testing.md#random-mutants; issue #41): mutants drawn mechanically
from the C code, not chosen by hand, written in the format of
tests/mutants.txt so that tests/mutants.sh builds and runs each one in a
copy of the tree.

    mutants_random.py gen SEED N DIRS OUT
        draws N mutants at random (seed SEED) over the .c files of DIRS
        (comma- or space-separated folders: ext, host, ext/tick ...) and
        writes the list OUT; the survivors of earlier runs judged "needs
        test" (tests/mutants_random_survivors.jsonl) come first, those
        judged equivalent are never drawn again. The draw takes the
        candidates in the order of a hash of SEED and each candidate's
        own text (file, line, change), so an edit elsewhere changes only
        the mutants of the lines it touches and a resumed run keeps its
        results; a list OUT written by the first version (a shuffle of
        the candidates' positions, no "draw: by hash" in its first line)
        is drawn again that way
    mutants_random.py coverage GCOVR_JSON OUT
        keeps, of a gcovr --json report, the lines of ext/ and host/ that
        the suite never executed, with each file's hash (a file that
        changed since has no coverage: its mutants all run)
    mutants_random.py summary LIST PLAN RESULTS
        the kill rate per folder and the time per mutant of a run, and the
        survivors to judge (appended to the survivors file as "to judge")

The operators (one change each, on one line of code):
    rel     a relational operator swapped with its neighbour:
            < <=, > >=, == !=, each way
    const   an integer constant plus or minus 1 (0 only plus 1)
    logic   && for || and || for &&
    drop    a statement dropped: an expression statement alone on its
            line (a call, an assignment, ++/--), break, continue, or the
            body of a one-line if/else; a return dropped when it is not the
            last statement of its function (the next line is not the
            function's closing brace in column 0)
    args    two neighbouring arguments of a call on one line swapped (not
            when they are the same text, or only one is a string literal)
Lines never mutated (the mechanical rule): comments, preprocessor lines,
string and character literals (nothing inside them is changed), lines
that call assert/static_assert, the host's logging calls (log_debug,
log_info, log_warn, log_fatal, log_enabled: what they print is
diagnostics, not behaviour), and a statement that spans lines (for drop
and args). A mutant's fragment is its line, widened by the lines around
it until it occurs once in ext/**/*.c and host/**/*.c.
"""
import hashlib
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from mutants import parse, sources  # noqa: E402 (the list's format, the files)
SURVIVORS = os.path.join(HERE, "mutants_random_survivors.jsonl")
NO_MUTATE = re.compile(r"\b(assert|static_assert|_Static_assert|log_debug|"
                       r"log_info|log_warn|log_fatal|log_enabled)\s*\(")
TYPE_WORDS = {"const", "static", "struct", "enum", "union", "unsigned",
              "signed", "int", "char", "long", "short", "double", "float",
              "void", "size_t", "i64", "u64", "uint64_t", "int64_t",
              "uint32_t", "int32_t", "uint8_t", "sqlite3_int64", "bool",
              "extern", "volatile", "register", "typedef", "ssize_t"}
REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
LOGIC = {"&&": "||", "||": "&&"}
TOKEN = re.compile(r"""
    (?P<str>"(?:\\.|[^"\\])*")
  | (?P<chr>'(?:\\.|[^'\\])*')
  | (?P<num>\b(?:0[xX][0-9a-fA-F]+|[0-9]+)(?P<suf>[uUlL]*)\b(?!\.))
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op><<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:;,.(){}\[\]])
  | (?P<ws>\s+)
  | (?P<other>.)
""", re.X)


def code_lines(text):
    """[(line number, code)] of the lines of a C file with their comments
    blanked (strings kept), skipping preprocessor lines."""
    out, in_block = [], False
    for no, raw in enumerate(text.split("\n"), 1):
        s, i, code = raw, 0, []
        while i < len(s):
            if in_block:
                j = s.find("*/", i)
                if j < 0:
                    i = len(s)
                    break
                in_block, i = False, j + 2
                code.append(" ")
                continue
            m = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'').match(s, i)
            if m:
                code.append(m.group(0))
                i = m.end()
            elif s.startswith("/*", i):
                in_block, i = True, i + 2
            elif s.startswith("//", i):
                break
            else:
                code.append(s[i])
                i += 1
        line = "".join(code)
        if line.strip() and not line.lstrip().startswith("#"):
            out.append((no, line))
    return out


def tokens(line):
    return [(m.lastgroup if m.lastgroup != "suf" else "num", m.group(0), m.start(), m.end())
            for m in TOKEN.finditer(line)]


def balanced(line):
    depth = 0
    for kind, tok, _, _ in tokens(line):
        if tok in "([{" and kind == "op":
            depth += 1
        elif tok in ")]}" and kind == "op":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def is_declaration(toks):
    words = [t for k, t, _, _ in toks if k != "ws"]
    if not words:
        return True
    if words[0] in TYPE_WORDS or words[0].endswith("_t"):
        return True
    # "Type name ..." or "Type *name ...": two names in a row, a pointer
    return len(words) > 2 and re.match(r"^[A-Za-z_]\w*$", words[0]) and (
        re.match(r"^[A-Za-z_]\w*$", words[1]) or
        (words[1] == "*" and re.match(r"^[A-Za-z_]\w*$", words[2]) and
         len(words) > 3 and words[3] in ("=", ";", "[", ",")))


def call_args(line, toks):
    """[(start, end)] spans of the top-level arguments of each call on the
    line: lists of argument spans, one per call."""
    calls, stack = [], []
    prev = prev2 = None
    for kind, tok, a, b in toks:
        if kind == "ws":
            continue
        if tok == "(" and kind == "op":
            # not a call: a keyword, or a function's definition or
            # prototype (its name after a type: "int f(", "char *f(")
            is_call = prev is not None and prev[0] == "id" and prev[1] not in (
                "if", "while", "for", "switch", "return", "sizeof") and not (
                prev2 is not None and prev2[0] == "id" and prev2[1] not in (
                    "return", "else", "case", "do")) and not (
                prev2 == ("op", "*") and not stack and line.split()[1:2] and
                line.split()[1].startswith("*"))
            stack.append({"call": is_call, "args": [], "start": b})
        elif tok == "," and kind == "op" and stack:
            top = stack[-1]
            top["args"].append((top["start"], a))
            top["start"] = b
        elif tok == ")" and kind == "op" and stack:
            top = stack.pop()
            top["args"].append((top["start"], a))
            if top["call"] and len(top["args"]) >= 2:
                calls.append(top["args"])
        elif tok in ("[", "{") and kind == "op":
            stack.append({"call": False, "args": [], "start": b})
        elif tok in ("]", "}") and kind == "op" and stack:
            stack.pop()
        prev2, prev = prev, (kind, tok)
    return calls


def line_mutants(line, next_line, starts=True):
    """[(op, what, mutated line)] of one line of code."""
    if NO_MUTATE.search(line):
        return []
    toks = tokens(line)
    out = []
    for kind, tok, a, b in toks:
        if kind == "op" and tok in REL:
            out.append(("rel", f"{tok} -> {REL[tok]}", line[:a] + REL[tok] + line[b:]))
        elif kind == "op" and tok in LOGIC:
            out.append(("logic", f"{tok} -> {LOGIC[tok]}", line[:a] + LOGIC[tok] + line[b:]))
        elif kind == "num":
            m = re.match(r"^(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)$", tok)
            v, suf = m.group(1), m.group(2)
            n = int(v, 16) if v[:2].lower() == "0x" else int(v, 8 if len(v) > 1 and v[0] == "0" else 10)
            for d in ((1,) if n == 0 else (1, -1)):
                w = n + d
                txt = (hex(w) if v[:2].lower() == "0x" else str(w)) + suf
                out.append(("const", f"{tok} -> {txt}", line[:a] + txt + line[b:]))
    s = line.strip()
    indent = line[:len(line) - len(line.lstrip())]
    simple = s.endswith(";") and balanced(s) and not s.startswith("for")
    stmt = simple and starts and re.match(r"^([A-Za-z_(*]|\+\+|--)", s)
    if stmt:
        st = tokens(s)
        words = [t for k, t, _, _ in st if k != "ws"]
        nxt = (next_line or "").rstrip()
        last_of_function = nxt == "}"
        if words[0] == "return":
            if not last_of_function:
                out.append(("drop", "return dropped", ""))
        elif words[0] in ("break", "continue"):
            out.append(("drop", f"{words[0]} dropped", ""))
        elif words[0] in ("if", "else") or s.startswith("} else"):
            # the body of a one-line if / else: what follows the condition
            body = one_line_body(s)
            if body and not (body.startswith("return") and last_of_function):
                head = s[:len(s) - len(body)]
                out.append(("drop", ("return" if body.startswith("return") else
                                     "statement") + " dropped (if body)",
                            indent + head.rstrip() + " {}"))
        elif not is_declaration(st) and words[0] not in ("case", "default", "goto", "do", "while", "typedef"):
            out.append(("drop", "statement dropped", ""))
    if simple or s.endswith("{") or s.endswith(")"):
        toks_line = tokens(line)
        for args in call_args(line, toks_line):
            for i in range(len(args) - 1):
                x = line[args[i][0]:args[i][1]].strip()
                y = line[args[i + 1][0]:args[i + 1][1]].strip()
                if not x or not y or x == y or (x.startswith('"') != y.startswith('"')):
                    continue
                a1, b1 = args[i]
                a2, b2 = args[i + 1]
                mutated = line[:a1] + " " + y + line[b1:a2] + " " + x + line[b2:]
                out.append(("args", f"arguments {i + 1} and {i + 2} swapped", mutated))
    return out


def one_line_body(s):
    """The statement after `if (...)`, `else if (...)` or `else` on one line."""
    m = re.match(r"^(\}\s*)?else\s+(?!if\b)", s)
    if m:
        return s[m.end():]
    m = re.match(r"^(\}\s*)?(else\s+)?if\s*\(", s)
    if not m:
        return ""
    depth = 1
    for i in range(m.end(), len(s)):
        if s[i] == "(":
            depth += 1
        elif s[i] == ")":
            depth -= 1
            if depth == 0:
                body = s[i + 1:].strip()
                return body if body and not body.startswith("{") else ""
    return ""


def norm(s):
    return " ".join(s.split())


def unique_fragment(rel, lines, idx, line, mutated, corpus, clean):
    """(find, repl): the line idx and its mutation, widened by the lines
    around it until the fragment occurs once in the corpus (the whitespace-
    normalised text of every source), or None."""
    def plain(i):  # a neighbour with no comment on it (or blank)
        return not lines[i].strip() or clean.get(i + 1, "").rstrip() == lines[i].rstrip()
    for before in range(0, 4):
        if before and (idx - before < 0 or not plain(idx - before)):
            break
        for after in range(0, 3):
            if after and (idx + after >= len(lines) or not plain(idx + after)):
                break
            lo, hi = idx - before, idx + after + 1
            find = "\n".join(lines[lo:idx] + [line] + lines[idx + 1:hi])
            repl = "\n".join(lines[lo:idx] + ([mutated] if mutated else []) + lines[idx + 1:hi])
            key = norm(find)
            if not key:
                continue
            n = sum(text.count(key) for text in corpus.values())
            if n == 1 and norm(repl) != key:
                return find.strip(), repl.strip()
    return None


def folder_of(rel):
    parts = rel.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def mutant_id(rel, find, repl):
    h = hashlib.sha1(f"{rel}\0{norm(find)}\0{norm(repl)}".encode()).hexdigest()[:10]
    return f"r-{folder_of(rel).replace('/', '-')}-{h}"


def read_survivors(path=SURVIVORS):
    out = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    out[row["id"]] = row
    return out


def candidates(tree, dirs):
    """[(rel, line number, idx, op, what, mutated, file lines)]: every
    mutation of every line of the chosen folders, in a fixed order."""
    out = []
    for rel in sources(tree):
        if not any(rel == d or rel.startswith(d.rstrip("/") + "/") for d in dirs):
            continue
        with open(os.path.join(tree, rel), encoding="utf-8") as f:
            text = f.read()
        raw = text.split("\n")
        code = code_lines(text)
        clean = {no: line for no, line in code}
        prev = ""
        for no, line in code:
            nxt = raw[no] if no < len(raw) else ""
            line = line.rstrip()
            # the code of a line with a comment after it (one before it, or
            # a line inside a comment, is not mutated)
            if not raw[no - 1].startswith(line):
                prev = line
                continue
            starts = prev.rstrip().endswith((";", "{", "}", ")", ":", "else")) or not prev
            for op, what, mutated in line_mutants(line, nxt, starts):
                out.append((rel, no, op, what, mutated, raw, clean))
            prev = line
    return out


def emit(f, ident, what, find, repl, equiv=None):
    f.write(f"== {ident}  {what}\n")
    f.write("find: " + " ".join(find.split()) + "\n")
    f.write("repl: " + " ".join(repl.split()) + "\n")
    if equiv:
        f.write(f"equiv: {equiv}\n")
    f.write("\n")


BY_HASH = "draw: by hash"


def legacy_list(path):
    """The list at path was drawn by the first version: its first line
    does not say BY_HASH (a run started then keeps its draw)."""
    try:
        with open(path, encoding="utf-8") as f:
            return BY_HASH not in f.readline()
    except FileNotFoundError:
        return False


def draw_order(seed, cands, by_hash=True):
    """The candidates' indexes in the order they are drawn: by a hash of
    the seed and the candidate's file, line text and change (stable under
    edits of other lines), or (by_hash false) the first version's shuffle
    of their positions."""
    if not by_hash:
        order = list(range(len(cands)))
        random.Random(int(seed)).shuffle(order)
        return order

    def key(i):
        rel, no, op, what, mutated, raw, clean = cands[i]
        text = "\0".join((str(seed), rel, clean[no].strip(), op, what, mutated.strip()))
        return hashlib.sha1(text.encode("utf-8")).digest()
    return sorted(range(len(cands)), key=key)


def cmd_gen(seed, n, dirs, out):
    tree = os.getcwd()
    dirs = [d for d in re.split(r"[,\s]+", dirs) if d]
    survivors = read_survivors()
    corpus = {}
    for rel in sources(tree):
        with open(os.path.join(tree, rel), encoding="utf-8") as f:
            corpus[rel] = norm(f.read())
    cands = candidates(tree, dirs)
    legacy = legacy_list(out)
    order = draw_order(seed, cands, by_hash=not legacy)
    chosen, seen, skipped_equiv, equiv = [], set(), 0, []
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"# random mutants: seed {seed}, {n} over {' '.join(dirs)} "
                f"({len(cands)} candidates; tests/mutants_random.py)"
                f"{'' if legacy else '; ' + BY_HASH}\n\n")
        for sid, row in survivors.items():
            if row.get("verdict") in ("needs test", "to judge") and any(
                    row["file"].startswith(d.rstrip("/") + "/") for d in dirs):
                emit(f, sid, f"{row['file']}:{row['line']} {row['op']}: {row['what']} (needs test)",
                     row["find"], row["repl"])
                seen.add(sid)
        for i in order:
            if len(chosen) >= int(n):
                break
            rel, no, op, what, mutated, raw, clean = cands[i]
            line = clean[no].rstrip()
            frag = unique_fragment(rel, raw, no - 1, line, mutated, corpus, clean)
            if frag is None:
                continue
            ident = mutant_id(rel, *frag)
            if ident in seen:
                continue
            seen.add(ident)
            prior = survivors.get(ident)
            if prior and prior.get("verdict") == "equivalent":
                skipped_equiv += 1
                chosen.append(ident)
                equiv.append(f"{ident}\t{rel}\n")
                continue
            emit(f, ident, f"{rel}:{no} {op}: {what}", *frag)
            chosen.append(ident)
    with open(out + ".equiv", "w", encoding="utf-8") as f:
        f.writelines(equiv)  # drawn, judged equivalent before: not run
    print(f"mutants-random: {len(chosen)} drawn over {' '.join(dirs)} (seed {seed}, "
          f"{len(cands)} candidates); {skipped_equiv} judged equivalent before "
          f"(not run); {len(seen) - len(chosen)} 'needs test' first", file=sys.stderr)
    return 0


def cmd_coverage(gcovr_json, out):
    with open(gcovr_json, encoding="utf-8") as f:
        data = json.load(f)
    res = {}
    for fl in data.get("files", []):
        rel = fl["file"]
        if not rel.startswith(("ext/", "host/")) or not os.path.exists(rel):
            continue
        with open(rel, "rb") as g:
            digest = hashlib.sha1(g.read()).hexdigest()
        never = sorted(ln["line_number"] for ln in fl.get("lines", [])
                       if ln.get("count", 0) == 0 and not ln.get("gcovr/noncode"))
        res[rel] = {"sha1": digest, "never": never}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(res, f)
    print(f"coverage: {sum(len(v['never']) for v in res.values())} lines never "
          f"executed in {len(res)} files -> {out}")
    return 0


def new_counts():
    return {"killed": 0, "survived": 0, "equivalent": 0, "uncovered": 0, "other": 0,
            "full": 0, "later": 0}


def rates(c):
    """The kill rate of the non-equivalent as run, and with the survivors
    killed since by new tests (verdict "killed"): two table cells."""
    live = c["killed"] + c["survived"]
    if not live:
        return "n/a | n/a"
    now = c["killed"] + c["later"]
    return (f"{100.0 * c['killed'] / live:.0f}% ({c['killed']} of {live}) | "
            f"{100.0 * now / live:.0f}% ({now} of {live})")


def cmd_summary(lst, plan, results):
    muts = {m["id"]: m for m in parse(lst)}
    survivors = read_survivors()
    per, secs, ran = {}, [], 0
    todo = []
    with open(plan, encoding="utf-8") as f:
        for line in f:
            ident, status, rel, lineno = line.rstrip("\n").split("\t")[:4]
            if status != "ok":
                continue
            path = os.path.join(results, ident)
            if not os.path.exists(path):
                continue
            with open(path, encoding="utf-8") as r:
                res, detail, sec = (r.read().rstrip("\n").split("\t") + ["", ""])[:3]
            c = per.setdefault(folder_of(rel), new_counts())
            verdict = survivors.get(ident, {}).get("verdict")
            if res in ("killed", "timeout"):
                c["killed"] += 1
                c["full"] += detail.startswith("full:")
            elif res == "survived" and verdict == "equivalent":
                c["equivalent"] += 1
            elif res == "survived":
                c["survived"] += 1
                c["later"] += verdict == "killed"  # by a test written since
                if detail.startswith("never executed"):
                    c["uncovered"] += 1
                todo.append((ident, rel, lineno, muts[ident], verdict))
            else:
                c["other"] += 1
            if sec and not detail.startswith("never executed"):
                secs.append(int(sec))
            ran += 1
            if res in ("killed", "timeout") and verdict == "needs test":
                survivors[ident].update(verdict="killed", reason=detail)
    if os.path.exists(lst + ".equiv"):
        with open(lst + ".equiv", encoding="utf-8") as f:
            for line in f:
                ident, rel = line.rstrip("\n").split("\t")
                per.setdefault(folder_of(rel), new_counts())["equivalent"] += 1
                ran += 1
    print("| folder | run | killed (only by the rest of the suite) | survived (never executed) "
          "| equivalent | build error | killed of non-equivalent, as run "
          "| with the tests the survivors led to |")
    print("|---|---|---|---|---|---|---|---|")
    tot = new_counts()
    for folder in sorted(per):
        c = per[folder]
        for k in tot:
            tot[k] += c[k]
        run = c["killed"] + c["survived"] + c["equivalent"] + c["other"]
        print(f"| {folder} | {run} | {c['killed']} ({c['full']}) "
              f"| {c['survived']} ({c['uncovered']}) "
              f"| {c['equivalent']} | {c['other']} | {rates(c)} |")
    print(f"| all | {ran} | {tot['killed']} ({tot['full']}) | {tot['survived']} ({tot['uncovered']}) | "
          f"{tot['equivalent']} | {tot['other']} | {rates(tot)} |")
    if secs:
        print(f"\ntime per mutant run: mean {sum(secs) / len(secs):.0f} s, "
              f"max {max(secs)} s ({len(secs)} run)")
    new = 0
    for ident, rel, lineno, m, verdict in todo:
        if verdict is None:
            survivors[ident] = {"id": ident, "file": rel, "line": int(lineno),
                                "op": m["what"].split(" ", 2)[1].rstrip(":"),
                                "what": m["what"].split(" ", 2)[2],
                                "find": m["find"], "repl": m["repl"],
                                "verdict": "to judge", "reason": ""}
            new += 1
    with open(SURVIVORS, "w", encoding="utf-8") as f:
        for row in survivors.values():
            f.write(json.dumps(row) + "\n")
    if todo:
        print(f"\nsurvivors: {len(todo)} ({new} new, appended to "
              f"tests/mutants_random_survivors.jsonl as 'to judge')")
    return 0


def main(argv):
    if len(argv) == 5 and argv[0] == "gen":
        return cmd_gen(*argv[1:])
    if len(argv) == 3 and argv[0] == "coverage":
        return cmd_coverage(*argv[1:])
    if len(argv) == 4 and argv[0] == "summary":
        return cmd_summary(*argv[1:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
