"""sqlite_triggers -- the sqlite-triggers SQLite extension for Python.

The package carries the extension's loadable object. ``load(conn)`` loads
it into a ``sqlite3`` connection and installs the tables (idempotent);
afterwards ``triggers`` and ``trigger_runs`` and every ``trigger_*``
function are there:

    import sqlite3, sqlite_triggers
    db = sqlite3.connect("app.db", isolation_level=None)
    sqlite_triggers.load(db)                     # -> '0.1.0'

The Python must allow extensions (``enable_load_extension``): Debian's and
most distributions' do; some builds (macOS system Python, some pyenv
builds) do not, and ``load`` then says so.
"""
import os
import sys

__all__ = ["load", "loadable_path"]

# The loadable object's suffix on this platform (setup.py uses it too).
SUFFIX = {"darwin": ".dylib", "win32": ".dll", "cygwin": ".dll"}.get(
    sys.platform, ".so")


def loadable_path():
    """The bundled loadable object's path without its suffix (``.so``,
    ``.dylib`` or ``.dll``), as ``load_extension`` and ``.load`` take it:
    SQLite adds the suffix and derives the entry point
    ``sqlite3_triggers_init`` from the name."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "triggers")


def load(conn):
    """Load the extension into the ``sqlite3.Connection`` conn and run the
    install (``SELECT trigger_install()``: creates the tables on first use,
    upgrades an older schema, otherwise changes nothing). Extension loading
    is switched on only for the load. Returns ``trigger_version()``."""
    path = loadable_path()
    if not os.path.exists(path + SUFFIX):
        raise FileNotFoundError(
            f"sqlite_triggers: the bundled extension {path + SUFFIX} is "
            "missing (reinstall the package)")
    if not hasattr(conn, "enable_load_extension"):
        raise RuntimeError(
            "sqlite_triggers: this Python's sqlite3 module was built "
            "without extension loading (no Connection.enable_load_extension)")
    conn.enable_load_extension(True)
    try:
        conn.load_extension(path)
    finally:
        conn.enable_load_extension(False)
    conn.execute("SELECT trigger_install()")
    return conn.execute("SELECT trigger_version()").fetchone()[0]
