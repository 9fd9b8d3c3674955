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

#endif
