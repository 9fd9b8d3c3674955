# sqlite-triggers build. `make` -> build/triggers.so (+ host); `make test`;
# `make demo`; `make test-asan`; `make coverage`; `make fuzz`; `make bench`. See docs/testing.md.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null)
# libxml2 is not linked: ext/agent/xml_lib.c loads it (dlopen) at the
# first trigger_create_xml; its headers still give the types.
XML_LIBS   := -ldl
# libmicrohttpd: only trigger-host uses it (--http, host/http/http.c), loaded at
# run time (host/http/mhd.c): its header is needed to build, the library only
# with --http.
MHD_CFLAGS := $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
B        = build

# ---- Distribution: platform, version, install paths (issue #18) ----
# The loadable object's suffix per platform (build/triggers.so on Linux);
# VERSION is the one place the version is written (trigger_version()).
UNAME_S := $(shell uname -s 2>/dev/null || echo unknown)
ifeq ($(UNAME_S),Darwin)
  SO        = dylib
  SO_LDFLAGS = -dynamiclib
else ifneq ($(filter MINGW% MSYS% CYGWIN%,$(UNAME_S)),)
  SO        = dll
  SO_LDFLAGS = -shared
else
  SO        = so
  SO_LDFLAGS = -shared -Wl,-z,defs -Wl,-z,now -Wl,-z,relro
endif
EXT_SO   = $(B)/triggers.$(SO)
VERSION := $(shell cat VERSION)
PREFIX  ?= /usr/local
BINDIR   = $(PREFIX)/bin
LIBDIR   = $(PREFIX)/lib
INCLUDEDIR = $(PREFIX)/include
DATADIR  = $(PREFIX)/share
MANDIR   = $(DATADIR)/man
# systemd looks for units in /usr/local/lib/systemd/system as well as
# /usr/lib/systemd/system, so the unit follows PREFIX.
SYSTEMDUNITDIR = $(PREFIX)/lib/systemd/system
# The loadable object keeps its name triggers.SO (SQLite derives the
# entry point sqlite3_triggers_init from it) in a directory of its own.
EXTDIR   = $(LIBDIR)/sqlite-triggers
# EXTDIR seen from BINDIR, when both are where PREFIX puts them (the host
# finds an installed tree that was copied or staged under DESTDIR).
EXTDIR_REL = $(if $(and $(filter $(PREFIX)/bin,$(BINDIR)),$(filter $(PREFIX)/%,$(EXTDIR))),..$(patsubst $(PREFIX)%,%,$(EXTDIR)))
# ---- end of the distribution variables ----

# ext/ is laid out by layer (docs/ARCHITECTURE.md); every file includes
# its headers by their path under ext/ ("time/cron.h"), hence -Iext.
# Pure layers: no SQLite; unit-tested and fuzzed alone.
PURE_DIRS = ext/time ext/text
PURE_SRC  = $(sort $(wildcard $(addsuffix /*.c,$(PURE_DIRS))))
# SQLite-facing layers, from the bottom up (tick, agent and sql side by
# side), and the entry point; tests/layers.py checks that each includes
# only those under it.
SQL_DIRS  = ext/base ext/store ext/trigger ext/tick ext/agent ext/sql
SQL_SRC   = $(sort $(wildcard $(addsuffix /*.c,$(SQL_DIRS)))) ext/ext.c
EXT_SRC   = $(PURE_SRC) $(SQL_SRC)
# One compiler run builds the extension from all of them, so gcc names
# each object (and its coverage counts, .gcda) by the source's base name:
# two files of one name in two folders would overwrite each other's counts.
EXT_DUPS := $(shell printf '%s\n' $(notdir $(EXT_SRC) ext/preload.c) | sort | uniq -d)
ifneq ($(EXT_DUPS),)
$(error ext/ has two sources named $(EXT_DUPS): give each a name of its own)
endif
HDRS      = $(wildcard ext/*.h ext/*/*.h)

UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/unit/%)

.PHONY: preload-bin test-dqlite replay-bins test-seeds coverage mutants mutants-random
.PHONY: all test test-unit test-sql test-py test-fault test-mcp test-asan test-valgrind demo deps deps-build clean fuzz bench lint lint-layers fault-bin

all: $(EXT_SO) $(B)/trigger-host $(B)/triggers-preload.so

$(EXT_SO): $(EXT_SRC) $(HDRS) VERSION | $(B)
	$(CC) $(CFLAGS) $(WARN) -Iext $(XML_CFLAGS) -DTRIGGERS_VERSION='"$(VERSION)"' \
	  -fPIC -fvisibility=hidden $(SO_LDFLAGS) -o $@ $(EXT_SRC) $(XML_LIBS) -lm

# The reference host loop (host/): links the system libsqlite3 and loads
# the extension at run time, as a user would. Its default extension path
# includes the installed one, compiled in from PREFIX ($(B)/install-dirs changes
# when PREFIX does, so the host is rebuilt). It compiles the pure
# ext/text/utf8.c too, to repair a command's output as the extension would,
# and ext/text/json_write.c, the JSON literal of its lines, and
# ext/text/spelling.c, a model's spelling of a key (mcp's arguments);
# VERSION is its --version, as it is the extension's trigger_version().
# libmicrohttpd serves --http on a thread of its own (-pthread), dlopen'ed.
# host/ is laid out by concept (docs/ARCHITECTURE.md): main and the loop,
# then one folder each for the command line, dispatch, the databases, the
# status server and what they share; files include each other by their
# path under host/ ("db/hostdb.h"), hence -Ihost.
HOST_SRC  = $(sort $(wildcard host/*.c host/*/*.c))
HOST_HDRS = $(wildcard host/*.h host/*/*.h)
HOST_EXT  = ext/text/utf8.c ext/text/json_write.c ext/text/spelling.c \
            ext/text/sql_tokens.c ext/text/sql_job_rules.c ext/text/sha256.c
# As for ext/: one compiler run, objects (and coverage counts) named by
# the source's base name.
HOST_DUPS := $(shell printf '%s\n' $(notdir $(HOST_SRC) $(HOST_EXT)) | sort | uniq -d)
ifneq ($(HOST_DUPS),)
$(error host/ has two sources named $(HOST_DUPS): give each a name of its own)
endif
$(B)/trigger-host: $(HOST_SRC) $(HOST_HDRS) $(HOST_EXT) $(HOST_EXT:.c=.h) VERSION $(B)/install-dirs | $(B)
	$(CC) $(CFLAGS) $(WARN) -pthread -Ihost -Iext $(MHD_CFLAGS) -DTRIGGERS_VERSION='"$(VERSION)"' -DTRIGGERS_EXTDIR='"$(EXTDIR)"' \
	  -DTRIGGERS_EXTDIR_REL='"$(EXTDIR_REL)"' -DTRIGGERS_SO_SUFFIX='".$(SO)"' \
	  -o $@ $(HOST_SRC) $(HOST_EXT) -lsqlite3 -ldl -pthread

# The preload library (ext/preload.c): the extension compiled into SQLite's
# core API (-DSQLITE_CORE) plus wrappers of sqlite3_open*, for programs
# that cannot load extensions (dqlite nodes, apps linking -lsqlite3):
#   LD_PRELOAD=build/triggers-preload.so PROGRAM
$(B)/triggers-preload.so: $(EXT_SRC) ext/preload.c $(HDRS) | $(B)
	$(CC) $(CFLAGS) $(WARN) -Iext $(XML_CFLAGS) -DSQLITE_CORE -DTRIGGERS_VERSION='"$(VERSION)"' \
	  -fPIC -fvisibility=hidden -shared -Wl,-z,defs -Wl,-z,now -Wl,-z,relro -o $@ $(EXT_SRC) ext/preload.c \
	  $(XML_LIBS) -lsqlite3 -ldl -lm

# A program linked with -lsqlite3 that never loads an extension: the
# preload library's test subject (tests/py/test_preload.py).
$(B)/plain-sqlite: tests/preload/plain_sqlite.c | $(B)
	$(CC) $(CFLAGS) $(WARN) -o $@ $< -lsqlite3

preload-bin: $(B)/plain-sqlite

# The dqlite layer alone: a 3-node cluster on 127.0.0.1 (tests/dqlite/).
test-dqlite: all
	@sh tests/run_all.sh dqlite

PURE_HAVE = $(wildcard $(PURE_SRC))

$(B)/unit/%: tests/unit/%.c $(PURE_HAVE) $(HDRS) $(wildcard tests/unit/*.h) | $(B)
	@mkdir -p $(B)/unit
	$(CC) $(CFLAGS) $(WARN) -Iext -o $@ $< $(PURE_HAVE) $(UNIT_LDFLAGS) -lm

# test_tzdb fails allocations and system calls on demand: GNU ld's --wrap
# sends the pure modules' calls of these through the test's __wrap_ ones.
$(B)/unit/test_tzdb: UNIT_LDFLAGS = \
  $(addprefix -Wl$(comma)--wrap=,malloc calloc realloc open fstat lstat read)
comma := ,

# Unit tests of the host's self-contained parts (tests/unit/test_host_*.c):
# each links the host file it names alone, from whichever folder of host/
# holds it (the test supplies what else it calls), so the rule above does
# not apply.
$(B)/unit/test_host_%: tests/unit/test_host_%.c $(HOST_SRC) $(HOST_HDRS) tests/unit/check.h | $(B)
	@mkdir -p $(B)/unit
	$(CC) $(CFLAGS) $(WARN) -Ihost -o $@ $< $(filter %/$*.c,$(HOST_SRC))

# Out-of-memory fault injection harness (tests/fault/oom.c); it loads
# $(EXT_SO) at run time, which finds the harness's clock_gettime (the
# pinned wall clock) through -rdynamic.
FAULT_SRC = tests/fault/oom.c tests/fault/databases.c tests/fault/scenarios.c tests/fault/vfs.c
$(B)/fault_oom: $(FAULT_SRC) tests/fault/fault.h | $(B)
	$(CC) $(CFLAGS) $(WARN) -rdynamic -o $@ $(FAULT_SRC) -lsqlite3

# A disk that fills up under trigger-host (LD_PRELOAD; tests/fault/host_disk.c).
$(B)/host_disk.so: tests/fault/host_disk.c tests/fault/vfs.c tests/fault/fault.h | $(B)
	$(CC) $(CFLAGS) $(WARN) -fPIC -shared -o $@ tests/fault/host_disk.c tests/fault/vfs.c -ldl -pthread

fault-bin: $(B)/fault_oom $(B)/host_disk.so

$(B):
	@mkdir -p $(B)

# Installs missing Debian packages when run as root (fresh machines, CI).
# deps: every test layer's packages (make test); deps-build: only the
# build's, which is all make demo needs (tests/deps.sh).
deps:
	@sh tests/deps.sh

deps-build:
	@sh tests/deps.sh build

test: deps all $(UNIT_BIN) $(B)/fault_oom $(B)/host_disk.so dist-bins $(B)/plain-sqlite replay-bins
	@sh tests/run_all.sh

test-unit: $(UNIT_BIN)
	@sh tests/run_all.sh unit

test-sql: all
	@sh tests/run_all.sh sql

test-py: all $(B)/plain-sqlite
	@sh tests/run_all.sh py

test-fault: all $(B)/fault_oom
	@sh tests/run_all.sh fault

# trigger-host mcp driven by the official MCP SDK's client (tests/mcp/).
test-mcp: all
	@sh tests/run_all.sh mcp

# Every fuzz seed once through its target (tests/fuzz/seeds.sh).
test-seeds: replay-bins
	@sh tests/run_all.sh fuzz_seeds

# ASan + UBSan (gcc, no recover): unit tests linked directly, the extension
# loaded into Debian's sqlite3 and python3 with gcc's runtimes preloaded.
test-asan: deps
	$(MAKE) B=build/asan CFLAGS="-O1 -g -DTRG_DEBUG -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" all unit-bins fault-bin preload-bin replay-bins
	@ASAN=1 B=build/asan sh tests/run_all.sh

unit-bins: $(UNIT_BIN)

# The shell and Python tests under valgrind (memcheck): no errors, no leaks
# from our code.
test-valgrind: deps all
	@sh tests/valgrind.sh

demo: deps-build all
	@sh sql/demo.sh

# libFuzzer targets for every parser, bounded (FUZZ_SECONDS each).
fuzz:
	@sh tests/fuzz/run.sh

# Ratios against plain-SQL/C baselines, one table; writes bench/RESULTS.md.
bench: all
	@sh bench/run.sh

# The layering guard, clang-format check, cppcheck and clang-tidy over our
# C (tests/lint.sh); `make lint-layers`: the layering guard alone
# (tests/layers.py, with its self-test).
lint:
	@sh tests/lint.sh

lint-layers:
	@/usr/bin/python3 tests/layers.py --self-test && /usr/bin/python3 tests/layers.py

clean:
	rm -rf build

# ---- Distribution rules (issue #18): install, uninstall, static archive,
# the dist and bindings test layers. Paths and suffix: the block at the top.
.PHONY: ext install uninstall static dist-bins test-dist test-bindings FORCE

ext: $(EXT_SO)

# Rewritten only when an install directory changes, so the host (compiled-in
# extension directory) and the pkg-config file follow PREFIX.
INSTALL_DIRS = $(PREFIX) $(BINDIR) $(LIBDIR) $(INCLUDEDIR) $(DATADIR) $(EXTDIR)
$(B)/install-dirs: FORCE | $(B)
	@printf '%s\n' '$(INSTALL_DIRS)' | cmp -s - $@ || printf '%s\n' '$(INSTALL_DIRS)' > $@
FORCE:

# Directories under PREFIX are written as ${prefix}/..., so
# `pkg-config --define-variable=prefix=DIR` relocates the file (a DESTDIR).
pc_dir = $(patsubst $(PREFIX)%,$${prefix}%,$(1))
$(B)/sqlite-triggers.pc: sqlite-triggers.pc.in VERSION $(B)/install-dirs
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_dir,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call pc_dir,$(INCLUDEDIR))|' \
	    -e 's|@DATADIR@|$(call pc_dir,$(DATADIR))|' \
	    -e 's|@EXTDIR@|$(call pc_dir,$(EXTDIR))|' -e 's|@SO@|$(SO)|' \
	    -e 's|@VERSION@|$(VERSION)|' -e 's|@XML_LIBS@|$(strip $(XML_LIBS))|' $< > $@

# The static archive: the extension compiled with -DSQLITE_CORE (its
# sqlite3_* calls link to SQLite directly), prelinked into one object
# whose only global symbol is sqlite3_triggers_init, so the internals never
# clash with an application's names. With the public header beside it.
STATIC_A   = $(B)/libsqlite_triggers.a
STATIC_OBJ = $(EXT_SRC:ext/%.c=$(B)/static/%.o)
ifeq ($(UNAME_S),Darwin)
  PRELINK = $(LD) -r -exported_symbol _sqlite3_triggers_init
  LOCALIZE = true
else
  PRELINK = $(LD) -r
  LOCALIZE = objcopy --localize-hidden
endif

static: $(STATIC_A) $(B)/sqlite-triggers.h

$(B)/static/%.o: ext/%.c $(HDRS) VERSION
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -Iext $(XML_CFLAGS) -DSQLITE_CORE \
	  -DTRIGGERS_VERSION='"$(VERSION)"' -fPIC -fvisibility=hidden -c -o $@ $<

$(STATIC_A): $(STATIC_OBJ)
	$(PRELINK) -o $(B)/static/sqlite_triggers.o $(STATIC_OBJ)
	$(LOCALIZE) $(B)/static/sqlite_triggers.o
	rm -f $@ && $(AR) rcs $@ $(B)/static/sqlite_triggers.o

$(B)/sqlite-triggers.h: ext/sqlite-triggers.h | $(B)
	cp $< $@

# A small application linking the archive (tests/dist/static_app.c).
$(B)/static_app: tests/dist/static_app.c $(STATIC_A) $(B)/sqlite-triggers.h
	$(CC) $(CFLAGS) $(WARN) -I$(B) -o $@ $< -L$(B) -lsqlite_triggers \
	  -lsqlite3 $(XML_LIBS) -lm

dist-bins: all static $(B)/static_app $(B)/sqlite-triggers.pc

# The systemd unit, its ExecStart where BINDIR installs the host.
$(B)/trigger-host.service: host/service/trigger-host.service.in $(B)/install-dirs
	sed -e 's|@BINDIR@|$(BINDIR)|' $< > $@

# make install [PREFIX=/usr/local] [DESTDIR=/staging]: also the man page
# trigger-host(1) and the unit trigger-host.service.
install: all static $(B)/sqlite-triggers.pc $(B)/trigger-host.service
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(EXTDIR) $(DESTDIR)$(INCLUDEDIR) \
	  $(DESTDIR)$(DATADIR)/sqlite-triggers $(DESTDIR)$(LIBDIR)/pkgconfig \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 755 $(EXT_SO) $(DESTDIR)$(EXTDIR)/triggers.$(SO)
	install -m 644 $(STATIC_A) $(DESTDIR)$(LIBDIR)/libsqlite_triggers.a
	install -m 755 $(B)/trigger-host $(DESTDIR)$(BINDIR)/trigger-host
	install -m 644 ext/sqlite-triggers.h $(DESTDIR)$(INCLUDEDIR)/sqlite-triggers.h
	install -m 644 sql/install.sql $(DESTDIR)$(DATADIR)/sqlite-triggers/install.sql
	install -m 644 $(B)/sqlite-triggers.pc $(DESTDIR)$(LIBDIR)/pkgconfig/sqlite-triggers.pc
	install -m 644 docs/trigger-host.1 $(DESTDIR)$(MANDIR)/man1/trigger-host.1
	install -m 644 $(B)/trigger-host.service $(DESTDIR)$(SYSTEMDUNITDIR)/trigger-host.service

uninstall:
	rm -f $(DESTDIR)$(EXTDIR)/triggers.$(SO) \
	  $(DESTDIR)$(LIBDIR)/libsqlite_triggers.a \
	  $(DESTDIR)$(BINDIR)/trigger-host \
	  $(DESTDIR)$(INCLUDEDIR)/sqlite-triggers.h \
	  $(DESTDIR)$(DATADIR)/sqlite-triggers/install.sql \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/sqlite-triggers.pc \
	  $(DESTDIR)$(MANDIR)/man1/trigger-host.1 \
	  $(DESTDIR)$(SYSTEMDUNITDIR)/trigger-host.service
	rmdir $(DESTDIR)$(EXTDIR) $(DESTDIR)$(DATADIR)/sqlite-triggers 2>/dev/null || true

test-dist: deps dist-bins
	@sh tests/run_all.sh dist

test-bindings: deps all
	@sh tests/run_all.sh bindings
# ---- end of the distribution rules ----

# ---- Test strength (issue #21): fuzz seeds as a test layer, coverage ----
# The fuzz targets without libFuzzer: each tests/fuzz/fuzz_NAME.c
# with the standalone driver tests/fuzz/replay.c, linked with the
# extension's objects (the static archive's, $(B)/static/) and the system
# libsqlite3; tests/fuzz/seeds.sh runs every seed corpus through them.
FUZZ_SRC    = $(wildcard tests/fuzz/fuzz_*.c)
REPLAY_BIN  = $(FUZZ_SRC:tests/fuzz/%.c=$(B)/replay/%)

$(B)/replay/%: tests/fuzz/%.c tests/fuzz/replay.c $(STATIC_OBJ)
	@mkdir -p $(B)/replay
	$(CC) $(CFLAGS) $(WARN) -Iext -o $@ $< tests/fuzz/replay.c $(STATIC_OBJ) \
	  -lsqlite3 $(XML_LIBS) -lm

replay-bins: $(REPLAY_BIN)

# `make coverage`: everything built with --coverage into build/cov (the
# fault harness's forked workers write their counters at exit: -DCOVERAGE),
# the `make test` layers run against it, then tests/coverage.sh prints a
# per-file line and branch table and the totals of ext/, host/ and the pure
# modules (gcovr).
COV_CFLAGS = -O0 -g --coverage -DCOVERAGE
coverage: deps
	$(MAKE) B=build/cov CFLAGS="$(COV_CFLAGS)" all unit-bins fault-bin preload-bin replay-bins
	@B=build/cov PURE_SRC="$(PURE_SRC)" sh tests/coverage.sh

# `make mutants`: mutation testing, not part of `make test` or CI. Each
# mutant of tests/mutants.txt (found by a unique code fragment of ext/) is
# applied to a copy of the tree under build/mutants, built and run against
# a fast subset of the tests (tests/mutants.sh, docs/testing.md); the
# report is rewritten in tests/MUTANTS.md. `make mutants IDS="a b"` runs
# some (report: build/mutants/REPORT.md); JOBS=N workers (default 2).
mutants:
	@sh tests/mutants.sh $(IDS)

# `make mutants-random SEED=41 N=200 DIRS=ext`: N mutants drawn at random
# from the code of DIRS (ext, host, ext/tick ...; tests/mutants_random.py),
# run like `make mutants`; resumable (the same command skips the mutants
# done). Kill rate per folder in build/mutants-random/*/SUMMARY.md;
# survivors in tests/mutants_random_survivors.jsonl (docs/testing.md).
mutants-random:
	@SEED="$(SEED)" N="$(N)" DIRS="$(DIRS)" sh tests/mutants_random.sh
