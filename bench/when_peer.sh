#!/bin/sh
# bench/when_peer.sh -- trigger_find_when and chrono-node side by side on the
# one-time part of the message corpus (tests/corpus/when_messages.jsonl;
# docs/when.md#corpus).
#
#   sh bench/when_peer.sh [--list]      (after `make`; --list: every message
#                                        the two score differently)
#
# chrono-node (pinned below) is installed once into build/chrono with npm;
# bench/when_peer.mjs runs it, bench/when_peer.py scores both by the rules
# of tests/py/util/when_corpus.py and prints them side by side.
set -e
CHRONO_VERSION=2.10.3
B=${B:-build}
DIR=$B/chrono
[ -f "$B/triggers.so" ] || { echo "when_peer: build $B/triggers.so first (make)" >&2; exit 1; }
command -v node > /dev/null 2>&1 && command -v npm > /dev/null 2>&1 ||
  { echo "when_peer: SKIP: node or npm not found (Debian: nodejs, npm)" >&2; exit 0; }
if [ "$(cat "$DIR/node_modules/chrono-node/package.json" 2> /dev/null |
  sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p')" != "$CHRONO_VERSION" ]; then
  mkdir -p "$DIR"
  echo "when_peer: installing chrono-node $CHRONO_VERSION into $DIR" >&2
  npm install --silent --no-audit --no-fund --prefix "$DIR" "chrono-node@$CHRONO_VERSION" > /dev/null
fi
node bench/when_peer.mjs tests/corpus/when_messages.jsonl "$DIR" > "$B/when_peer_chrono.jsonl"
/usr/bin/python3 bench/when_peer.py "$B/triggers" "$B/when_peer_chrono.jsonl" "$@"
