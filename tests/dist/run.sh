#!/bin/sh
# tests/dist/run.sh -- the distribution, as a user gets it (needs `make
# dist-bins`, which `make test` runs first):
#   - the version: trigger_version() == VERSION == the Node package's and
#     the source's fallback;
#   - the static archive: build/static_app (tests/dist/static_app.c linked
#     with libsqlite_triggers.a, sqlite3_auto_extension) runs the
#     create/tick/finish scenario; the archive exports only the entry point;
#   - `make install DESTDIR=tmp`: exactly the promised files; the installed
#     object loads in the sqlite3 shell with the installed install.sql, both
#     found through pkg-config; static_app compiles and links with
#     `pkg-config --cflags --libs sqlite-triggers` and runs; the installed
#     host finds the installed object without --extension;
#   - a host built for another PREFIX finds the object there (compiled-in
#     path), and changing PREFIX rebuilds it;
#   - `make uninstall` removes every file and the package's directories.
# Prints "dist: N passed, M failed".
B=${B:-build}
LAYER=dist
. tests/bindings/lib.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
V=$(cat VERSION)
SO=$(printf 'p:\n\t@echo $(SO)\n' | make -s --no-print-directory -f Makefile -f - p)
MK="make -s --no-print-directory B=$B"

# --- version
got=$(printf '.load %s\nSELECT trigger_version();\n' "$B/triggers" | sqlite3 -batch :memory: 2>&1)
[ "$got" = "$V" ] && ok || bad version "trigger_version() is '$got', VERSION is '$V'"
grep -q "^#define TRIGGERS_VERSION \"$V\"$" ext/base/triggers_int.h && ok ||
  bad version-fallback "ext/base/triggers_int.h's fallback TRIGGERS_VERSION is not \"$V\""
grep -q "^  \"version\": \"$V\",$" bindings/node/package.json && ok ||
  bad version-node "bindings/node/package.json's version is not \"$V\""

# --- static archive
check static "$B/static_app"
if command -v nm >/dev/null 2>&1; then
  globals=$(nm -g --defined-only "$B/libsqlite_triggers.a" | awk 'NF == 3 {print $3}')
  case $globals in
    sqlite3_triggers_init | _sqlite3_triggers_init) ok ;;
    *) bad static-symbols "the archive exports more than the entry point:" $globals ;;
  esac
fi

# --- make install DESTDIR=...
D=$T/dest
P=/usr/local
if $MK install DESTDIR="$D" > "$T/install.log" 2>&1; then
  ok
else
  bad install "make install failed"
  tail -20 "$T/install.log"
fi
files=$(cd "$D" 2>/dev/null && find . -type f -o -type l | sed 's#^\.##' | sort | tr '\n' ' ')
want=$(printf '%s\n' "$P/bin/trigger-host" "$P/include/sqlite-triggers.h" \
  "$P/lib/libsqlite_triggers.a" "$P/lib/pkgconfig/sqlite-triggers.pc" \
  "$P/lib/sqlite-triggers/triggers.$SO" "$P/share/sqlite-triggers/install.sql" \
  "$P/share/man/man1/trigger-host.1" "$P/lib/systemd/system/trigger-host.service" |
  sort | tr '\n' ' ')
[ "$files" = "$want" ] && ok || bad install-files "installed: $files; expected: $want"
# the installed man page lints clean; the installed unit verifies (its
# ExecStart pointed at the staged binary, `man trigger-host` found there)
if command -v mandoc >/dev/null 2>&1; then
  out=$(mandoc -T lint "$D$P/share/man/man1/trigger-host.1" 2>&1) && [ -z "$out" ] && ok ||
    bad man-lint "mandoc -T lint: $out"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
  sed "s#^ExecStart=$P/bin/#ExecStart=$D$P/bin/#" \
    "$D$P/lib/systemd/system/trigger-host.service" > "$T/trigger-host.service"
  out=$(MANPATH="$D$P/share/man" systemd-analyze verify "$T/trigger-host.service" 2>&1) &&
    [ -z "$out" ] && ok || bad unit-verify "systemd-analyze verify: $out"
fi

# pkg-config finds it; --define-variable relocates it to the DESTDIR
pc() {
  PKG_CONFIG_PATH=$D$P/lib/pkgconfig pkg-config --define-variable=prefix="$D$P" "$@" sqlite-triggers
}
got=$(pc --modversion 2>&1)
[ "$got" = "$V" ] && ok || bad pkg-config-version "pkg-config --modversion: $got"
ext=$(pc --variable=extension)
install_sql=$(pc --variable=install_sql)
[ "$ext" = "$D$P/lib/sqlite-triggers/triggers" ] && ok ||
  bad pkg-config-extension "pkg-config --variable=extension: '$ext'"
shell_installed() {
  sed -e "s#@EXT@#$ext#" -e "s#@INSTALL_SQL@#$install_sql#" tests/bindings/check.sql |
    sqlite3 -batch :memory:
}
check shell-installed shell_installed
# the header and the archive through pkg-config, as an application builds
if ${CC:-cc} -o "$T/app" tests/dist/static_app.c $(pc --cflags) $(pc --libs) 2> "$T/cc.log"; then
  check static-pkg-config "$T/app" "$T/app.db"
else
  bad static-pkg-config "cc with pkg-config --cflags --libs failed"
  tail -20 "$T/cc.log"
fi

# host_tick NAME HOST EXPECTED_EXTENSION: the host, without --extension,
# loads EXPECTED_EXTENSION and runs an overdue once trigger.
host_tick() {
  db=$T/$1.db
  printf '.load %s\nSELECT trigger_install();\n%s\n' "$B/triggers" \
    "INSERT INTO triggers(trigger_id, instructions, trigger_type, scheduled_at) VALUES ('late', 'Run once', 'once', '2020-01-01T00:00:00Z');" |
    sqlite3 -batch "$db" > /dev/null
  "$2" tick "$db" -v > "$T/$1.out" 2> "$T/$1.err"
  rc=$?
  status=$(printf '.load %s\nSELECT group_concat(status) FROM trigger_runs;\n' \
    "$B/triggers" | sqlite3 -batch "$db" 2>&1)
  if [ $rc -eq 0 ] && grep -q "extension $3," "$T/$1.err" && [ "$status" = success ]; then
    ok
  else
    bad "$1" "exit status $rc, run status '$status', wanted extension $3"
    tail -5 "$T/$1.err"
  fi
}
host_tick host-installed "$D$P/bin/trigger-host" "$D$P/bin/../lib/sqlite-triggers/triggers"

# a host built for PREFIX=$T/prefix, copied elsewhere: the compiled-in path
if $MK B="$T/b" PREFIX="$T/prefix" "$T/b/trigger-host" > "$T/host.log" 2>&1; then
  mkdir -p "$T/prefix/lib/sqlite-triggers" "$T/elsewhere"
  cp "$B/triggers.$SO" "$T/prefix/lib/sqlite-triggers/"
  cp "$T/b/trigger-host" "$T/elsewhere/"
  host_tick host-prefix "$T/elsewhere/trigger-host" "$T/prefix/lib/sqlite-triggers/triggers"
  # another PREFIX rebuilds the host with its path
  $MK B="$T/b" PREFIX="$T/other" "$T/b/trigger-host" > "$T/host.log" 2>&1
  if "$T/b/trigger-host" --help | grep -q "$T/other/lib/sqlite-triggers/"; then ok; else
    bad host-prefix-rebuild "the host was not rebuilt for PREFIX=$T/other"
  fi
else
  bad host-prefix "building the host for PREFIX=$T/prefix failed"
  tail -20 "$T/host.log"
fi

# --- make uninstall
if $MK uninstall DESTDIR="$D" > "$T/uninstall.log" 2>&1; then
  left=$(find "$D" -type f | head -5)
  if [ -z "$left" ] && [ ! -d "$D$P/lib/sqlite-triggers" ] &&
    [ ! -d "$D$P/share/sqlite-triggers" ]; then ok; else
    bad uninstall "left behind: $left"
  fi
else
  bad uninstall "make uninstall failed"
  tail -20 "$T/uninstall.log"
fi
summary
