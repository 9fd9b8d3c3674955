/*
** install.h -- trigger_install(): the three virtual tables created, or an
** older schema migrated, refusing names another table holds.
*/
#ifndef TRIGGERS_INSTALL_H
#define TRIGGERS_INSTALL_H

#include "store/store.h"
#include "time/tzdb.h"

/* zones: the connection's cache (link names, rezone.h); now: when
** (the events of what the install pauses). */
int store_install(sqlite3 *db, tzdb *zones, i64 now, char **err);

#endif
