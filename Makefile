# sqlite-triggers build. `make` -> build/triggers.so (+ host); `make test`;
# `make demo`; `make test-asan`; `make fuzz`; `make bench`. See README.md.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
B        = build

# Pure modules: no SQLite; unit-tested and fuzzed alone.
PURE_SRC = ext/civil.c ext/tz.c ext/tzdb.c ext/cron.c ext/sha256.c ext/dedupe.c \
           ext/schedule.c ext/when.c ext/redact.c
# SQLite-facing modules.
SQL_SRC  = ext/arena.c ext/fire_json.c ext/args.c ext/config.c ext/store.c ext/stored.c ext/trigger.c ext/vtab_scan.c ext/vtab_triggers.c ext/vtab_runs.c \
           ext/tick.c ext/tick_opts.c ext/funcs.c ext/preview.c ext/request.c ext/xml_request.c ext/fn_when.c ext/summary.c ext/ext.c
EXT_SRC  = $(PURE_SRC) $(SQL_SRC)
HDRS     = $(wildcard ext/*.h)

UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/unit/%)

.PHONY: all test test-unit test-sql test-py test-fault test-asan test-valgrind demo deps clean fuzz bench lint fault-bin

all: $(B)/triggers.so $(B)/trigger-host

$(B)/triggers.so: $(EXT_SRC) $(HDRS) | $(B)
	$(CC) $(CFLAGS) $(WARN) $(XML_CFLAGS) -fPIC -fvisibility=hidden -shared \
	  -Wl,-z,defs -Wl,-z,now -Wl,-z,relro -o $@ $(EXT_SRC) $(XML_LIBS) -lm

# The reference host loop (host/): links the system libsqlite3 and loads
# the extension at run time, as a user would.
$(B)/trigger-host: $(wildcard host/*.c host/*.h) | $(B)
	$(CC) $(CFLAGS) $(WARN) -o $@ $(wildcard host/*.c) -lsqlite3

PURE_HAVE = $(wildcard $(PURE_SRC))

$(B)/unit/%: tests/unit/%.c $(PURE_HAVE) $(HDRS) $(wildcard tests/unit/*.h) | $(B)
	@mkdir -p $(B)/unit
	$(CC) $(CFLAGS) $(WARN) -Iext -o $@ $< $(PURE_HAVE) -lm

# Out-of-memory fault injection harness (tests/fault/oom.c); it loads
# $(B)/triggers.so at run time.
$(B)/fault_oom: tests/fault/oom.c | $(B)
	$(CC) $(CFLAGS) $(WARN) -o $@ $< -lsqlite3

fault-bin: $(B)/fault_oom

$(B):
	@mkdir -p $(B)

# Installs missing Debian packages when run as root (fresh machines, CI).
deps:
	@sh tests/deps.sh

test: deps all $(UNIT_BIN) $(B)/fault_oom
	@sh tests/run_all.sh

test-unit: $(UNIT_BIN)
	@sh tests/run_all.sh unit

test-sql: all
	@sh tests/run_all.sh sql

test-py: all
	@sh tests/run_all.sh py

test-fault: all $(B)/fault_oom
	@sh tests/run_all.sh fault

# ASan + UBSan (gcc, no recover): unit tests linked directly, the extension
# loaded into Debian's sqlite3 and python3 with gcc's runtimes preloaded.
test-asan: deps
	$(MAKE) B=build/asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" all unit-bins fault-bin
	@ASAN=1 B=build/asan sh tests/run_all.sh

unit-bins: $(UNIT_BIN)

# The shell and Python tests under valgrind (memcheck): no errors, no leaks
# from our code.
test-valgrind: deps all
	@sh tests/valgrind.sh

demo: deps all
	@sh sql/demo.sh

# libFuzzer targets for every parser, bounded (FUZZ_SECONDS each).
fuzz:
	@sh tests/fuzz/run.sh

# Ratios against plain-SQL/C baselines, one table; writes bench/RESULTS.md.
bench: all
	@sh bench/run.sh

# clang-format check, cppcheck and clang-tidy over our C (tests/lint.sh).
lint:
	@sh tests/lint.sh

clean:
	rm -rf build
