/*
** clidb.h -- the connection of a one-shot command of trigger-host
** (status, runs, events, and the verbs pause, resume, cancel, fire): the
** database file opened without creating it, read-only for the listings
** or read-write for the verbs (SQLITE_DBCONFIG_DEFENSIVE: SQL cannot
** write the shadow tables), the extension loaded, and the schema checked
** to be there (nothing is installed or migrated by these commands).
*/
#ifndef HOST_CLIDB_H
#define HOST_CLIDB_H

#include <sqlite3.h>

#include "core/opts.h"

/* Open path, the extension loaded (no schema check, nothing logged): 0,
** else -1 with *err (free()) and *db NULL. The status server's actions
** use it too (http/actions.h). */
int clidb_connect(const char *path, const char *extension, int busy_ms,
                  int writable, sqlite3 **db, char **err);
/* Open path and check the schema. 0 with *db, else 3 (logged, *db closed
** and NULL). */
int clidb_open(const char *path, const host_opts *o, int writable,
               sqlite3 **db);
/* Log "path: what: SQLite's message" as fatal; returns 3. */
int clidb_fail(sqlite3 *db, const char *path, const char *what);

#endif
