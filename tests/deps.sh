#!/bin/sh
# tests/deps.sh -- install the Debian packages a fresh machine lacks (only
# when run as root; otherwise just report what is missing).
need=""
[ -f /usr/include/sqlite3ext.h ] || need="$need libsqlite3-dev"
[ -f /usr/include/libxml2/libxml/parser.h ] || need="$need libxml2-dev"
command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3"
[ -f /usr/share/zoneinfo/America/New_York ] || need="$need tzdata"
[ -x /usr/bin/python3 ] || need="$need python3"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v zic >/dev/null 2>&1 || need="$need libc-bin"
# The bindings layer (tests/bindings/run.sh): each client's SQLite binding,
# the Python package's build (pip, setuptools, wheel into a venv); Go with
# Debian's go-sqlite3 sources and Node with what node-gyp needs to build
# better-sqlite3 are optional (`want`: the layer skips them when missing).
# objcopy (binutils) for the static archive.
command -v objcopy >/dev/null 2>&1 || need="$need binutils"
command -v make >/dev/null 2>&1 || need="$need make"
echo 'exit [catch {package require sqlite3}]' | tclsh >/dev/null 2>&1 || need="$need tcl libsqlite3-tcl"
perl -MDBD::SQLite -e1 >/dev/null 2>&1 || need="$need libdbd-sqlite3-perl"
ruby -rsqlite3 -e1 >/dev/null 2>&1 || need="$need ruby-sqlite3"
/usr/bin/python3 -c 'import ensurepip' >/dev/null 2>&1 || need="$need python3-venv"
/usr/bin/python3 -c 'import pip' >/dev/null 2>&1 || need="$need python3-pip"
/usr/bin/python3 -c 'import setuptools' >/dev/null 2>&1 || need="$need python3-setuptools"
/usr/bin/python3 -c 'import wheel' >/dev/null 2>&1 || need="$need python3-wheel"
want=""
command -v go >/dev/null 2>&1 || want="$want golang-go"
[ -d /usr/share/gocode/src/github.com/mattn/go-sqlite3 ] || want="$want golang-github-mattn-go-sqlite3-dev"
command -v node >/dev/null 2>&1 || want="$want nodejs"
command -v npm >/dev/null 2>&1 || want="$want npm"
command -v c++ >/dev/null 2>&1 || want="$want g++"
[ -z "$need$want" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "installing:$need$want"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq $need $want >/dev/null
else
  [ -n "$want" ] && echo "optional Debian packages missing (their tests are skipped):$want" >&2
  [ -z "$need" ] && exit 0
  echo "missing Debian packages:$need (run as root or install them)" >&2
  exit 1
fi
