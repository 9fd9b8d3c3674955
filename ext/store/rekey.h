/*
** rekey.h -- dedupe keys of an older format (tdk1) recomputed in place,
** once per database (trigger_install).
*/
#ifndef TRIGGERS_REKEY_H
#define TRIGGERS_REKEY_H

#include "store/store.h"

/* Inside the caller's transaction; SQLITE_OK or an error (*err may be
** set, sqlite3_malloc'd). */
int store_rekey(sqlite3 *db, char **err);

/* The key of the row at the statement's columns 1..7 (instructions,
** trigger_type, interval_ms, scheduled_at, cron_expression, timezone,
** scope) into key (DEDUPE_KEY_LEN + 1 bytes), as an INSERT computes it;
** 0, or -1 when its schedule cannot be read. */
int store_rekey_row(sqlite3_stmt *st, char *key);

/* *done: whether triggers_config holds key = value (a one-time pass of an
** earlier install, this one's or rezone.h's). SQLITE_OK or the error. */
int store_pass_done(sqlite3 *db, const char *key, const char *value, int *done);

#endif
