/*
** fire_json.h -- the texts of a claimed run: its run_id, its payload (the
** run row's payload column) and its element of trigger_run_due()'s result
** array (docs/lifecycle.md#claiming-trigger_run_due), built in an arena
** from the trigger's values, which are JSON-quoted once per row however
** many runs it fires.
*/
#ifndef TRG_FIRE_JSON_H
#define TRG_FIRE_JSON_H

#include "base/arena.h"
#include "store/store.h"

/* The run_id of (trigger_id, incarnation, sched, attempt) in a:
** "<trigger_id>@<sched>#<attempt>" for incarnation 1, else with
** "~<incarnation>" appended. The part after the id's last '@' holds no
** '@', so two different tuples never give one run_id, whatever the ids
** contain. NULL when out of memory. */
char *tick_fire_run_id(arena *a, const char *trigger_id, i64 incarnation,
                       i64 sched, i64 attempt);

/* The payload of run run_id, occurrence sched of trigger r, in a:
**   {"text","source":"trigger","triggerId","triggerRunId","wakeMode",
**    "displayName","scope","scheduledFor"}, and "actionSql" for a SQL job
** NULL when out of memory. r->json caches r's quoted texts in a. */
char *tick_fire_payload(arena *a, trg_row *r, const char *run_id, i64 sched);

/* Append run's result element (run of trigger r) to out:
**   {"run_id","trigger_id","agent_id","scheduled_for","attempt",
**    "wake_mode","instructions","payload"}, and "action_sql" for a SQL
**   job (its statements as the trigger holds them when claimed)
** SQLITE_OK or SQLITE_NOMEM. */
int tick_fire_element(arena *a, sqlite3_str *out, const trg_run *run,
                      trg_row *r);

#endif
