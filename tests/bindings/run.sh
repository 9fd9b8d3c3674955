#!/bin/sh
# tests/bindings/run.sh -- the same create/tick/finish (tests/bindings/
# lib.sh) from every client a user loads the extension from:
#   shell   sqlite3 shell: .load, .read sql/install.sql     (check.sql)
#   python  the sqlite_triggers package (bindings/python), pip-installed
#           into a fresh venv of Debian's python3            (check.py)
#   tcl     tclsh, package sqlite3 (libsqlite3-tcl)          (check.tcl)
#   perl    DBD::SQLite (libdbd-sqlite3-perl)                (check.pl)
#   ruby    the sqlite3 gem (ruby-sqlite3)                   (check.rb)
#   go      database/sql + mattn/go-sqlite3 from Debian's
#           /usr/share/gocode, GOPATH mode, offline          (check.go)
#   node    better-sqlite3 + the sqlite-triggers package (bindings/node,
#           npm pack + npm install of the tarball)           (check.js)
# Go and Node are skipped (a SKIP line, counted in the summary) when their
# toolchain is missing. Caches live in $B/bindings/ (the Go build cache;
# the Node test app, whose better-sqlite3 native build takes a minute or
# two once and is reused while its version is unchanged).
# Prints "bindings: N passed, M failed[, skipped: ...]".
B=${B:-build}
LAYER=bindings
. tests/bindings/lib.sh
W=$B/bindings
mkdir -p "$W"
W=$(cd "$W" && pwd)
EXT=$(pwd)/$B/triggers
HERE=$(pwd)/tests/bindings

# --- sqlite3 shell
shell() {
  sed -e "s#@EXT@#$EXT#" -e "s#@INSTALL_SQL@#sql/install.sql#" tests/bindings/check.sql |
    sqlite3 -batch :memory:
}
check shell shell

# --- Python: a fresh venv of Debian's python3 that sees the system's pip,
# setuptools and wheel (--system-site-packages: no package index needed,
# no pip copied in), the package built from the checkout and installed into
# the venv, the check run outside the checkout.
rm -rf "$W/pyvenv"
if /usr/bin/python3 -m venv --without-pip --system-site-packages "$W/pyvenv" > "$W/pip.log" 2>&1 &&
  "$W/pyvenv/bin/python" -m pip install --no-build-isolation --no-index --no-deps \
    --disable-pip-version-check -q ./bindings/python >> "$W/pip.log" 2>&1; then
  check python sh -c 'cd "$1" && pyvenv/bin/python "$2"' - "$W" "$HERE/check.py"
else
  bad python "venv or pip install of bindings/python failed ($W/pip.log):"
  tail -20 "$W/pip.log"
fi

# --- Tcl, Perl, Ruby: the build tree's object
check tcl tclsh tests/bindings/check.tcl "$EXT"
check perl perl tests/bindings/check.pl "$EXT"
check ruby ruby tests/bindings/check.rb "$EXT"

# --- Go (GOPATH mode: Debian's packaged sources, no module download)
GOSRC=/usr/share/gocode
if ! command -v go > /dev/null 2>&1; then
  skip go "no go toolchain (Debian: golang-go)"
elif [ ! -d "$GOSRC/src/github.com/mattn/go-sqlite3" ]; then
  skip go "no $GOSRC/src/github.com/mattn/go-sqlite3 (Debian: golang-github-mattn-go-sqlite3-dev)"
elif env GO111MODULE=off GOPATH="$GOSRC" GOFLAGS= GOCACHE="$W/gocache" \
  go build -o "$W/check_go" tests/bindings/check.go > "$W/go.log" 2>&1; then
  check go "$W/check_go" "$EXT"
else
  bad go "go build failed ($W/go.log):"
  tail -20 "$W/go.log"
fi

# --- Node: better-sqlite3 (pinned; compiled from source by node-gyp when no
# prebuilt binary can be fetched) in a test app cached under $W/node-app,
# and the package packed from bindings/node (prepack bundles the object).
BETTER_SQLITE3=11.10.0
APP=$W/node-app
if ! command -v node > /dev/null 2>&1 || ! command -v npm > /dev/null 2>&1; then
  skip node "no node/npm (Debian: nodejs, npm)"
elif ! command -v c++ > /dev/null 2>&1 || ! command -v make > /dev/null 2>&1; then
  skip node "no C++ compiler or make to build better-sqlite3 (Debian: g++, make)"
else
  node_setup() {
    mkdir -p "$APP"
    want="{\"name\":\"sqlite-triggers-check\",\"private\":true,\"dependencies\":{\"better-sqlite3\":\"$BETTER_SQLITE3\"}}"
    if [ "$(cat "$APP/package.json" 2> /dev/null)" != "$want" ] ||
      [ ! -f "$APP/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ]; then
      echo "bindings: installing better-sqlite3 $BETTER_SQLITE3 into $APP (first run: a native build, a minute or two)" >&2
      rm -rf "$APP/node_modules" "$APP/package-lock.json"
      printf '%s\n' "$want" > "$APP/package.json"
      # node-gyp takes the headers of the installed node when they are
      # there (nodesource and Debian's libnode-dev put them in /usr)
      [ -f /usr/include/node/node.h ] && export npm_config_nodedir=${npm_config_nodedir:-/usr}
      (cd "$APP" && npm install --no-audit --no-fund) || return 1
    fi
    rm -f "$W"/sqlite-triggers-*.tgz
    (cd bindings/node && npm pack --silent --pack-destination "$W") > /dev/null || return 1
    rm -rf "$APP/node_modules/sqlite-triggers"
    (cd "$APP" && npm install --no-audit --no-fund --no-save --prefer-offline \
      "$W"/sqlite-triggers-*.tgz)
  }
  if node_setup > "$W/npm.log" 2>&1; then
    check node env NODE_PATH="$APP/node_modules" node tests/bindings/check.js
  else
    bad node "npm install or npm pack failed ($W/npm.log):"
    tail -20 "$W/npm.log"
  fi
fi
summary
