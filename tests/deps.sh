#!/bin/sh
# tests/deps.sh -- install the Debian packages a fresh machine lacks (only
# when run as root; otherwise just report what is missing).
# Required packages fail the run when missing; optional ones (go-dqlite:
# dqlite-demo and the dqlite shell for the replicated layer, tests/dqlite/)
# are installed when possible, and their layer is skipped without them.
need=""
[ -f /usr/include/sqlite3ext.h ] || need="$need libsqlite3-dev"
[ -f /usr/include/libxml2/libxml/parser.h ] || need="$need libxml2-dev"
command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3"
[ -f /usr/share/zoneinfo/America/New_York ] || need="$need tzdata"
[ -x /usr/bin/python3 ] || need="$need python3"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v zic >/dev/null 2>&1 || need="$need libc-bin"
want=""
command -v dqlite-demo >/dev/null 2>&1 || want="$want go-dqlite"
[ -z "$need$want" ] && exit 0
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
  exit 0
fi
[ -n "$want" ] &&
  echo "optional Debian packages missing:$want (their test layer is skipped)" >&2
if [ -n "$need" ]; then
  echo "missing Debian packages:$need (run as root or install them)" >&2
  exit 1
fi
exit 0
