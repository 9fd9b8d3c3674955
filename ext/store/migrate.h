/*
** migrate.h -- an older schema version brought up to this one in place.
*/
#ifndef TRIGGERS_MIGRATE_H
#define TRIGGERS_MIGRATE_H

#include "store/store.h"

/* Migrate from the recorded version to TRIGGERS_SCHEMA_VERSION (inside
** the caller's transaction; trigger_install). */
int store_migrate(sqlite3 *db, char **err);

#endif
