"""setup.py -- builds the sqlite_triggers package from a repository
checkout: build_py runs `make ext` at the repository root and copies the
loadable object (build/triggers.so, .dylib or .dll) into the package, so
the installed package carries its own copy. The version is the
repository's VERSION file.

    pip install --no-build-isolation bindings/python
"""
import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
from sqlite_triggers import SUFFIX  # noqa: E402  (the package's own table)


def read_version():
    path = os.path.join(ROOT, "VERSION")
    if not os.path.exists(path):
        sys.exit(f"sqlite_triggers: {path} not found: build the package from "
                 "a sqlite-triggers checkout (bindings/python)")
    with open(path) as f:
        return f.read().strip()


class BuildWithExtension(build_py):
    """build_py, then the loadable object built by the repository's
    Makefile and copied into the package."""

    def run(self):
        super().run()
        subprocess.check_call(["make", "-s", "-C", ROOT, "ext"])
        src = os.path.join(ROOT, "build", "triggers" + SUFFIX)
        dst = os.path.join(self.build_lib, "sqlite_triggers")
        self.mkpath(dst)
        shutil.copy2(src, os.path.join(dst, "triggers" + SUFFIX))


class NativeDistribution(Distribution):
    """The package carries a native object: a platform wheel, never a
    pure one."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": BuildWithExtension}
try:
    from wheel.bdist_wheel import bdist_wheel

    class AnyPythonWheel(bdist_wheel):
        """The object does not link Python: one wheel per platform serves
        every Python 3 (tag py3-none-PLATFORM)."""

        def get_tag(self):
            return ("py3", "none", super().get_tag()[2])

    cmdclass["bdist_wheel"] = AnyPythonWheel
except ImportError:
    pass

with open(os.path.join(HERE, "README.md")) as f:
    long_description = f.read()

setup(
    name="sqlite-triggers",
    version=read_version(),
    description="Scheduled triggers inside a SQLite database: the "
    "sqlite-triggers extension for Python's sqlite3",
    long_description=long_description,
    long_description_content_type="text/markdown",
    license="MIT OR Apache-2.0",
    packages=["sqlite_triggers"],
    python_requires=">=3.8",
    cmdclass=cmdclass,
    distclass=NativeDistribution,
    zip_safe=False,
)
