/*
** preload.c -- the extension for programs that cannot load one: wraps
** SQLite's open functions so that every connection the process opens has
** the extension's functions and virtual tables, as if it had run
** `.load triggers` itself.
**
**   LD_PRELOAD=build/triggers-preload.so dqlite-demo -d 127.0.0.1:9001 ...
**   LD_PRELOAD=build/triggers-preload.so ./app-linked-with-lsqlite3
**
** build/triggers-preload.so is this file plus the extension's sources
** compiled with -DSQLITE_CORE (sqlite3ext.h then calls SQLite directly,
** not through a routine table), linked against the system libsqlite3.
** Each wrapper calls the real open function, found with
** dlsym(RTLD_NEXT, ...), then sqlite3_triggers_init() on the new
** connection. SQLite's own internal calls do not go through the dynamic
** linker, so a connection is initialized once.
**
** Why not sqlite3_load_extension: dqlite's VFS refuses to open shared
** objects ("Loadable extensions are not supported"). Why not an
** auto-extension registered from a library constructor: that initializes
** SQLite before the program configures it (dqlite calls sqlite3_config
** first), and sqlite3_config then fails (dqlite nodes abort). Wrapping the
** open functions changes nothing until the program opens a connection.
**
** On a connection of dqlite's VFS the wrapper also turns SQLite's cache
** spill off (see dqlite_no_spill): without it a large tick fails there.
**
** A failed initialization leaves the connection open without the
** extension (its SQL then reports "no such function") and prints one line
** to stderr; the open itself still succeeds, so the host program behaves
** as it would without the preload.
*/
/* NOLINTNEXTLINE(bugprone-reserved-identifier): glibc's name for RTLD_NEXT */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/* From the extension compiled into this library (ext.c, store/store.c);
** declared here: their headers route SQLite's API through sqlite3ext.h,
** and this file calls SQLite directly. */
int sqlite3_triggers_init(sqlite3 *db, char **err,
                          const sqlite3_api_routines *api);
int store_no_cache_spill(sqlite3 *db);

typedef int (*open_v2_fn)(const char *, sqlite3 **, int, const char *);
typedef int (*open_fn)(const char *, sqlite3 **);
typedef int (*open16_fn)(const void *, sqlite3 **);

/* The real open functions: the next definitions after this library's,
** resolved when the library is loaded (dlsym does not touch SQLite, so
** the program can still configure it). The casts go through the object
** pointer's bytes: ISO C has no conversion from void * to a function
** pointer, POSIX guarantees this one works. */
static open_v2_fn real_open_v2;
static open_fn real_open;
static open16_fn real_open16;

static void resolve(void *slot, const char *name) {
  void *p = dlsym(RTLD_NEXT, name);
  if (!p) fprintf(stderr, "triggers-preload: %s not found\n", name);
  memcpy(slot, &p, sizeof p);
}

__attribute__((constructor)) static void preload_resolve(void) {
  resolve(&real_open_v2, "sqlite3_open_v2");
  resolve(&real_open, "sqlite3_open");
  resolve(&real_open16, "sqlite3_open16");
}

/* The real function was not found: fail as sqlite3_open* does. */
static int no_open(sqlite3 **db) {
  *db = NULL;
  return SQLITE_ERROR;
}

/* dqlite's VFS (dqlite 1.11) keeps the database and its WAL in memory and
** cannot read back a page SQLite spilled into the WAL before the commit: a
** write transaction larger than the page cache (a tick of a few thousand
** claims) then fails with SQLITE_IOERR_SHORT_READ, "disk I/O error". On
** its connections spilling is turned off; it would save no memory there. */
static void dqlite_no_spill(sqlite3 *db) {
  sqlite3_vfs *vfs = NULL;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) ==
          SQLITE_OK &&
      vfs && vfs->zName && strncmp(vfs->zName, "dqlite", 6) == 0)
    store_no_cache_spill(db);
}

/* After a successful open: register the extension on the connection. */
static int with_triggers(int rc, sqlite3 *db) {
  if (rc != SQLITE_OK || !db) return rc;
  dqlite_no_spill(db);
  char *err = NULL;
  if (sqlite3_triggers_init(db, &err, NULL) != SQLITE_OK) {
    fprintf(stderr, "triggers-preload: %s\n", err ? err : "init failed");
    sqlite3_free(err);
  }
  return rc;
}

__attribute__((visibility("default"))) int sqlite3_open_v2(const char *filename,
                                                           sqlite3 **db,
                                                           int flags,
                                                           const char *vfs) {
  if (!real_open_v2) return no_open(db);
  int rc = real_open_v2(filename, db, flags, vfs);
  return with_triggers(rc, *db);
}

__attribute__((visibility("default"))) int sqlite3_open(const char *filename,
                                                        sqlite3 **db) {
  if (!real_open) return no_open(db);
  int rc = real_open(filename, db);
  return with_triggers(rc, *db);
}

__attribute__((visibility("default"))) int sqlite3_open16(const void *filename,
                                                          sqlite3 **db) {
  if (!real_open16) return no_open(db);
  int rc = real_open16(filename, db);
  return with_triggers(rc, *db);
}
