/*
** tests/fault/fault.h -- what the fault harness's files share: oom.c (the
** failing allocator, the N loop and its checks), vfs.c (the failing disk
** of the I/O mode), databases.c (the pristine databases every scenario
** starts from) and scenarios.c (the calls under test).
*/
#ifndef FAULT_H
#define FAULT_H

#include <sqlite3.h>

#define T0 1767225600000LL
#define MIN 60000LL
#define NOW (T0 + 5 * MIN + 10000)

typedef struct scenario {
  const char *name;
  const char *sql;
  int in_txn;     /* inside the caller's BEGIN IMMEDIATE (the SAVEPOINT path) */
  int cold;       /* a fresh connection for every N (first-use paths) */
  const char *db; /* the pristine database (databases.c): "delete" and
                  ** "wal" (the history, in that journal mode), "v1",
                  ** "v2", "v4" (older schemas), "empty" */
  int modes;      /* 1 persistent, 2 once, 3 both */
  int read_only;  /* the call writes nothing (its result is checked) */
  const char *fallback; /* a result that reports a failure (the summary's:
                        ** it raises no error); NULL: none */
  int stride;           /* N = 1, 1 + stride, ... (0: every N), for the calls of
              ** tens of thousands of allocations (a migration) */
  const char *setup;    /* SQL run on every fresh connection first (not under
                     ** the failing allocator), e.g. a preload to test */
  int refused; /* the healthy call fails: its error message is the result
               ** every N must give, or another error */
  int load;    /* the call is sqlite3_load_extension(ext_path), not sql (a
               ** function cannot be replaced while a statement runs) */
  int ddl;     /* a failure may leave the call's transaction open (see
              ** oom.c, check_failed): the caller's ROLLBACK must then
              ** restore every table */
} scenario;

/* databases.c */
/* The busy timeout of every connection (0 in the --busy mode: a refused
** lock is final, as without a busy handler). */
extern int busy_timeout_ms;
extern const char *ext_path;
void die(const char *what, sqlite3 *db);
sqlite3 *open_db(const char *path);
/* The same, the extension loaded only when `load` is set. */
sqlite3 *open_db_ext(const char *path, int load);
void exec(sqlite3 *db, const char *sql);
void copy_file(const char *from, const char *to);
/* Builds every pristine database in dir (the history twice, the fixtures
** read from FAULT_FIXTURES, default tests/py/fixtures). */
void databases_build(const char *dir);
/* The path of a pristine database ("" after databases_build: unknown). */
const char *database_path(const char *name);
void databases_remove(void);

/* What the harness fails: allocations; disk writes, syncs and
** truncations; disk reads and size reads; locks on the database file. */
typedef enum fault_kind {
  FAULT_MEMORY,
  FAULT_DISK,
  FAULT_READ,
  FAULT_LOCK
} fault_kind;
/* 1 when the operation of kind k about to be made is to fail: oom.c's
** (--io fails FAULT_DISK and FAULT_READ, --busy FAULT_LOCK, counted as the
** allocations are in the memory mode) or host_disk.c's. */
int fault_vfs_fails(fault_kind k);
/* vfs.c: the failing disk, registered as the default VFS; 0, or -1 when
** it cannot be. */
int fault_vfs_install(void);

/* scenarios.c: the table, after databases_build (some SQL names runs the
** history left). */
const scenario *scenarios(int *n);

#endif
