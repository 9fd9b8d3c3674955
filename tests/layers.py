#!/usr/bin/python3
"""tests/layers.py -- the layering guard of `make lint` (tests/lint.sh;
the layers: docs/ARCHITECTURE.md#layers).

Two rules, checked from the code's own text:

1. Includes. A file of ext/ writes its includes by their path under ext/
   ("store/due.h", -Iext); each folder may include only the prefixes of
   its row in LAYERS below: its own folder and the layers under it, so no
   include runs back up and tick/, agent/ and sql/ never include each
   other. The pure layers (ext/text, ext/time) include no SQLite or
   libxml2 header either. host/ is a separate program: its own files
   (any folder of host/) are its business; of ext/ it may include only
   what its row names.
2. Statements. sqlite3_prepare*, sqlite3_step and sqlite3_exec are called
   only in ext/store/, the one home of the extension's SQL (comments and
   strings do not count). host/ talks SQL itself and is not checked.

    tests/layers.py [ROOT]          check the tree at ROOT (default: the
                                    tree this file is in); exit 1 with one
                                    line per finding
    tests/layers.py --self-test     plant a finding of each kind in a copy
                                    of the tree and check that each is
                                    caught (and that the copy is clean
                                    before); exit 1 if one is not
"""
import os
import re
import shutil
import sys
import tempfile

PURE = ("text/", "time/")
BASE = PURE + ("base/",)
STORE = BASE + ("store/",)
TRIGGER = STORE + ("trigger/",)

# folder (under the root) -> the include prefixes (under ext/) it may use.
# The longest folder that holds a file is its row.
LAYERS = {
    "ext/text/": ("text/",),
    "ext/time/": PURE,
    "ext/base/": BASE,
    "ext/store/": STORE,
    "ext/trigger/": TRIGGER,
    "ext/tick/": TRIGGER + ("tick/",),
    "ext/agent/": TRIGGER + ("agent/",),
    "ext/sql/": TRIGGER + ("sql/",),
    # the entry point (ext.c) and the preload library (preload.c)
    "ext/": TRIGGER + ("tick/", "agent/", "sql/", "sqlite-triggers.h"),
    # trigger-host: the pure text modules it compiles, civil.h's inlines
    "host/": ("text/", "time/civil.h"),
}
# System headers a pure layer may not include.
NOT_PURE = re.compile(r"sqlite3|libxml")
STATEMENT = re.compile(r"\bsqlite3_(prepare\w*|step|exec)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)


def code_only(text):
    """text with comments and string or character literals blanked (line
    breaks kept, so line numbers stay)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def sources(root):
    for top in ("ext", "host"):
        for d, _, files in sorted(os.walk(os.path.join(root, top))):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, f), root)


def row_of(path):
    best = None
    for folder in LAYERS:
        if path.startswith(folder) and (best is None or len(folder) > len(best)):
            best = folder
    return best


def check_file(root, path):
    """The findings of one file, as lines."""
    found = []
    folder = row_of(path)
    with open(os.path.join(root, path), encoding="utf-8",
              errors="replace") as f:
        text = f.read()
    for m in INCLUDE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        kind, name = m.group(1), m.group(2)
        where = f"{path}:{line}"
        if kind == "<":
            if folder in ("ext/text/", "ext/time/") and NOT_PURE.search(name):
                found.append(f"{where}: includes <{name}>: {folder} is pure "
                             "(no SQLite, no libxml2)")
            continue
        if path.startswith("host/"):
            here = os.path.join(root, os.path.dirname(path), name)
            if os.path.exists(here) or os.path.exists(
                    os.path.join(root, "host", name)):
                continue  # one of host's own files
            if not os.path.exists(os.path.join(root, "ext", name)):
                continue  # not ext's: nothing to say here
        allowed = LAYERS[folder]
        if not name.startswith(allowed):
            found.append(f"{where}: includes \"{name}\": {folder} may include "
                         f"only {' '.join(allowed)}")
    if path.startswith("ext/") and not path.startswith("ext/store/"):
        code = code_only(text)
        for m in STATEMENT.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            found.append(f"{path}:{line}: calls sqlite3_{m.group(1)}: "
                         "statements are ext/store/'s alone")
    return found


def check(root):
    found = []
    for path in sources(root):
        found += check_file(root, path)
    return found


def plant(root, path, text, at_top=True):
    full = os.path.join(root, path)
    with open(full, encoding="utf-8") as f:
        old = f.read()
    with open(full, "w", encoding="utf-8") as f:
        f.write(text + old if at_top else old + text)


def self_test(root):
    """Each planted finding is caught, in a copy of the tree."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for top in ("ext", "host"):
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top))
        before = check(tmp)
        if before:
            failures.append("the copy is not clean: " + before[0])
        cases = [
            ("ext/store/due.c", '#include "tick/tick.h"\n',
             'ext/store/due.c:1: includes "tick/tick.h"'),
            ("ext/tick/claim.c", '#include "agent/create_request.h"\n',
             'ext/tick/claim.c:1: includes "agent/create_request.h"'),
            ("ext/text/utf8.c", "#include <sqlite3.h>\n",
             "ext/text/utf8.c:1: includes <sqlite3.h>"),
            ("ext/tick/claim.c",
             "\nstatic void planted(sqlite3_stmt *s) { sqlite3_step(s); }\n",
             "ext/tick/claim.c:"),
            ("host/" + sorted(f for f in os.listdir(os.path.join(tmp, "host"))
                              if f.endswith(".c"))[0],
             '#include "store/store.h"\n', 'includes "store/store.h"'),
        ]
        for path, text, expect in cases:
            work = tempfile.mkdtemp(dir=tmp)
            for top in ("ext", "host"):
                shutil.copytree(os.path.join(tmp, top),
                                os.path.join(work, top))
            plant(work, path, text, at_top=text.startswith("#"))
            got = check_file(work, path)
            if not any(expect in g for g in got):
                failures.append(f"planted in {path}: {text.strip()!r} was "
                                f"not caught (got {got})")
        # a call in a comment or a string is no call
        work = tempfile.mkdtemp(dir=tmp)
        shutil.copytree(os.path.join(tmp, "ext"), os.path.join(work, "ext"))
        plant(work, "ext/tick/claim.c",
              '\n/* sqlite3_step(s) */ static const char *planted = '
              '"sqlite3_exec(";\n', at_top=False)
        got = check_file(work, "ext/tick/claim.c")
        if got:
            failures.append(f"a comment or a string counted as a call: {got}")
    return failures


def main(argv):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if argv[1:2] == ["--self-test"]:
        failures = self_test(here)
        for f in failures:
            print(f"layers self-test: {f}")
        print(f"layers self-test: {'FAILED' if failures else 'ok'}")
        return 1 if failures else 0
    root = argv[1] if len(argv) > 1 else here
    found = check(root)
    for f in found:
        print(f"layers: {f}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
