#!/usr/bin/python3
"""tests/coverage_table.py -- the table `make coverage` prints.

Reads gcovr's JSON summary (tests/coverage.sh) and prints, for each file,
the lines and branches covered (percent and count), then the totals of
ext/, of the pure modules (the files named in the second argument, the
Makefile's PURE_SRC) and of host/.
    /usr/bin/python3 tests/coverage_table.py SUMMARY.json "ext/a.c ext/b.c"
"""
import json
import sys


def pct(covered, total):
    return f"{100.0 * covered / total:5.1f}% ({covered}/{total})" if total else "    -"


def row(name, lc, lt, bc, bt):
    return f"{name:<28} {pct(lc, lt):<22} {pct(bc, bt)}"


def main():
    with open(sys.argv[1]) as f:
        files = json.load(f)["files"]
    pure = set(sys.argv[2].split()) if len(sys.argv) > 2 else set()
    groups = {"ext/": [0, 0, 0, 0], "pure": [0, 0, 0, 0], "host/": [0, 0, 0, 0]}
    label = {"ext/": "total ext/", "pure": "  of which pure modules", "host/": "total host/"}
    print(f"{'file':<28} {'lines':<22} branches")
    for f in sorted(files, key=lambda f: f["filename"]):
        name = f["filename"]
        v = [f["line_covered"], f["line_total"], f["branch_covered"], f["branch_total"]]
        print(row(name, *v))
        keys = ["ext/"] if name.startswith("ext/") else ["host/"] if name.startswith("host/") else []
        if name in pure:
            keys.append("pure")
        for k in keys:
            groups[k] = [a + b for a, b in zip(groups[k], v)]
    print()
    for k, v in groups.items():
        print(row(label[k], *v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
