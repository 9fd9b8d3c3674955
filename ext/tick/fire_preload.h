/*
** fire_preload.h -- a claimed run's fire-time preload
** (docs/lifecycle.md#fire-time-preload-preload_sql):
** the query configured as preload_sql (store/preload_sql.h) run for the
** run's trigger, its rows merged into the run's payload.
*/
#ifndef TRG_TICK_FIRE_PRELOAD_H
#define TRG_TICK_FIRE_PRELOAD_H

#include "tick/tick.h"

/* Rows one preload may give (preload_max_bytes bounds their JSON text). */
#define PRELOAD_MAX_ROWS 1000

/*
** *payload (a run's payload object, tick_fire_payload) with the preload of
** trigger r merged as its last keys, in t->mem:
**   "preload": [{column: value, ...}, ...]   the rows, whole, in order;
**                                            at most PRELOAD_MAX_ROWS and
**                                            preload_max_bytes bytes of
**   "preloadTruncated": true                 when a bound cut rows off
**   "preloadError": "message"                instead, when the query failed
** Unchanged when no preload is configured. SQLITE_OK, or the error of a
** database that cannot be read (out of memory, I/O): a failing query is a
** preloadError, never the claim's failure.
*/
int tick_preload_payload(tick *t, trg_row *r, char **payload);

#endif
