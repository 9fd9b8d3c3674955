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
# dqlite-demo and the dqlite shell: the replicated-SQLite layer (tests/dqlite/)
command -v dqlite-demo >/dev/null 2>&1 || need="$need go-dqlite"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "installing:$need"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq $need >/dev/null
else
  echo "missing Debian packages:$need (run as root or install them)" >&2
  exit 1
fi
