/*
** rezone.h -- link zone names of stored triggers rewritten as their zones
** ("US/Eastern" -> "America/New_York"), once per database
** (trigger_install; docs/time.md#link-names).
*/
#ifndef TRIGGERS_REZONE_H
#define TRIGGERS_REZONE_H

#include "store/store.h"
#include "time/tzdb.h"

/* Inside the caller's transaction; `now` stamps the events of triggers it
** pauses. SQLITE_OK or an error (*err may be set, sqlite3_malloc'd). */
int store_rezone(sqlite3 *db, tzdb *zones, i64 now, char **err);

#endif
