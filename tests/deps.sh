#!/bin/sh
# tests/deps.sh -- install the Debian packages a fresh machine lacks (only
# when run as root; otherwise just report what is missing).
#   sh tests/deps.sh         what `make test` needs: the build's packages,
#                            every test layer's, the optional ones
#   sh tests/deps.sh build   only what `make` and `make demo` need (no
#                            browser, Go, Node, ... : a newcomer's first
#                            `make demo` downloads no test tools)
# Required packages fail the run when missing; optional ones (go-dqlite:
# dqlite-demo and the dqlite shell for the replicated layer, tests/dqlite/;
# chromium for the status page's screenshot) are installed when possible,
# and their layer (or test) is skipped without them.
need=""
[ -f /usr/include/sqlite3ext.h ] || need="$need libsqlite3-dev"
[ -f /usr/include/libxml2/libxml/parser.h ] || need="$need libxml2-dev"
command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3"
[ -f /usr/share/zoneinfo/America/New_York ] || need="$need tzdata"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
# trigger-host --http serves with libmicrohttpd (host/http/http.c).
[ -f /usr/include/microhttpd.h ] || need="$need libmicrohttpd-dev"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v zic >/dev/null 2>&1 || need="$need libc-bin"
command -v make >/dev/null 2>&1 || need="$need make"
want=""
if [ "${1:-}" != build ]; then
# The Python tests (tests/py/) run on Debian's /usr/bin/python3.
[ -x /usr/bin/python3 ] || need="$need python3"
# trigger_ical's oracle (tests/py/sql/test_ical.py, util/ical.py): the feed
# read back by python3-icalendar with dateutil's rrule, and by libical's
# parser (tests/ical/occurrences.c, built against libical-dev).
/usr/bin/python3 -c 'import icalendar' >/dev/null 2>&1 || need="$need python3-icalendar"
/usr/bin/python3 -c 'import dateutil' >/dev/null 2>&1 || need="$need python3-dateutil"
[ -f /usr/include/libical/ical.h ] || need="$need libical-dev"
# The bindings layer (tests/bindings/run.sh): each client's SQLite binding,
# the Python package's build (pip, setuptools, wheel into a venv); Go with
# Debian's go-sqlite3 sources and Node with what node-gyp needs to build
# better-sqlite3 are optional (`want`: the layer skips them when missing).
# objcopy (binutils) for the static archive.
command -v objcopy >/dev/null 2>&1 || need="$need binutils"
echo 'exit [catch {package require sqlite3}]' | tclsh >/dev/null 2>&1 || need="$need tcl libsqlite3-tcl"
perl -MDBD::SQLite -e1 >/dev/null 2>&1 || need="$need libdbd-sqlite3-perl"
ruby -rsqlite3 -e1 >/dev/null 2>&1 || need="$need ruby-sqlite3"
/usr/bin/python3 -c 'import ensurepip' >/dev/null 2>&1 || need="$need python3-venv"
/usr/bin/python3 -c 'import pip' >/dev/null 2>&1 || need="$need python3-pip"
/usr/bin/python3 -c 'import setuptools' >/dev/null 2>&1 || need="$need python3-setuptools"
/usr/bin/python3 -c 'import wheel' >/dev/null 2>&1 || need="$need python3-wheel"
# Calendar triggers (docs/calendar.md): python-dateutil is the rrule oracle
# of tests/py (and of the corpus), python3-holidays writes the public
# holidays of two countries that tests/py/sql/test_calendar.py imports.
/usr/bin/python3 -c 'import dateutil.rrule' >/dev/null 2>&1 || need="$need python3-dateutil"
/usr/bin/python3 -c 'import holidays' >/dev/null 2>&1 || need="$need python3-holidays"
# tests/py/host/test_host_memcheck.py runs the host under valgrind's
# memcheck (a leak per job or per failed claim; `make test-valgrind` too).
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
command -v go >/dev/null 2>&1 || want="$want golang-go"
[ -d /usr/share/gocode/src/github.com/mattn/go-sqlite3 ] || want="$want golang-github-mattn-go-sqlite3-dev"
command -v node >/dev/null 2>&1 || want="$want nodejs"
command -v npm >/dev/null 2>&1 || want="$want npm"
command -v c++ >/dev/null 2>&1 || want="$want g++"
command -v dqlite-demo >/dev/null 2>&1 || want="$want go-dqlite"
# Headless Chromium renders the --http status page for a screenshot
# (tests/py/host/test_host_http.py; that test prints SKIP without it).
command -v chromium >/dev/null 2>&1 || want="$want chromium"
# `make coverage` only (tests/coverage.sh): gcovr reads gcc's counters.
command -v gcovr >/dev/null 2>&1 || want="$want gcovr"
# trigger-host as a service (tests/py/host/test_host_service.py, tests/dist):
# promtool checks /metrics, mandoc lints the man page; SKIP without them.
command -v promtool >/dev/null 2>&1 || want="$want prometheus"
command -v mandoc >/dev/null 2>&1 || want="$want mandoc"
fi
# The mcp layer's client, the official MCP TypeScript SDK, from npm into
# build/mcp-sdk (tests/mcp/sdk.sh, pinned there), once node and npm are
# there (no root needed); without it the layer says SKIP. Not for a build.
deps_mode=${1:-}
mcp_sdk() {
  [ "$deps_mode" = build ] && return 0
  sh tests/mcp/sdk.sh ||
    echo "the MCP SDK is not installed (the mcp test layer is skipped)" >&2
}
[ -z "$need$want" ] && { mcp_sdk; exit 0; }
if [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || { [ -n "$need" ] && exit 1; }
  if [ -n "$need" ]; then
    echo "installing:$need"
    apt-get install -y -qq $need >/dev/null || exit 1
  fi
  if [ -n "$want" ]; then
    echo "installing (optional):$want"
    apt-get install -y -qq $want >/dev/null ||
      echo "optional packages not installed:$want (their test layer is skipped)" >&2
  fi
  mcp_sdk
  exit 0
fi
[ -n "$want" ] &&
  echo "optional Debian packages missing:$want (their test layer is skipped)" >&2
if [ -n "$need" ]; then
  echo "missing Debian packages:$need (run as root or install them)" >&2
  exit 1
fi
mcp_sdk
exit 0
