#!/usr/bin/python3
"""tests/py/census.py -- count the Python tests and their checks, so that a
move of tests between files can be shown to lose none.

For every test_*.py under tests/py (recursively) and every top-level
function named test_*: the `assert` statements written in it (nested
functions included), and its calls of a checking helper (a function of
tests/py, wherever defined, whose body holds an `assert` or raises
AssertionError, such as util.error, under whatever name it is imported).
Prints one line per test ("file::test asserts checks") with -v, and
always the totals: files, tests, asserts in tests, checking calls in
tests, and every `assert` of every file under tests/py (helpers and
workers included).
    /usr/bin/python3 tests/py/census.py [-v] [DIR]"""
import ast
import os
import sys


def py_files(top):
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x not in ("__pycache__", "fixtures"))
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(d, f)


def raises_assertion(fn):
    for node in ast.walk(fn):
        if isinstance(node, ast.Assert):
            return True
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id == "AssertionError":
                return True
    return False


def called_name(call):
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return None


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv[1:]
    top = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    trees = {}
    for path in py_files(top):
        with open(path) as f:
            trees[os.path.relpath(path, top)] = ast.parse(f.read(), path)
    checkers = set()
    all_asserts = 0
    for tree in trees.values():
        all_asserts += sum(isinstance(n, ast.Assert) for n in ast.walk(tree))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("test_") \
                    and raises_assertion(node):
                checkers.add(node.name)
    for tree in trees.values():  # a checker imported under another name
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                checkers.update(a.asname for a in node.names if a.asname and a.name in checkers)
    files = tests = asserts = checks = 0
    for rel, tree in trees.items():
        if not os.path.basename(rel).startswith("test_"):
            continue
        files += 1
        for fn in tree.body:
            if not (isinstance(fn, ast.FunctionDef) and fn.name.startswith("test_")):
                continue
            a = sum(isinstance(n, ast.Assert) for n in ast.walk(fn))
            c = sum(isinstance(n, ast.Call) and called_name(n) in checkers
                    for n in ast.walk(fn))
            tests += 1
            asserts += a
            checks += c
            if verbose:
                print(f"{rel}::{fn.name} {a} {c}")
    print(f"census: {files} files, {tests} tests, {asserts} asserts in tests, "
          f"{checks} checking calls in tests, {all_asserts} asserts in all files "
          f"({len(checkers)} checking helpers)")


if __name__ == "__main__":
    main()
