/*
** trigger_rows.h -- a trigger's two rows, one in triggers_data (what the
** trigger is) and one in triggers_state (what a fire writes), read and
** written as one trg_row.
*/
#ifndef TRIGGERS_TRIGGER_ROWS_H
#define TRIGGERS_TRIGGER_ROWS_H

#include "store/store.h"

/* Load a trigger by trigger_id: SQLITE_ROW found, SQLITE_DONE not. */
int store_trigger_load(store *s, const char *trigger_id, trg_row *r);
int store_trigger_load_id(store *s, i64 id, trg_row *r); /* the same, by id */
/* INSERT into both tables; sets r->id. */
int store_trigger_insert(store *s, trg_row *r);
int store_trigger_save(store *s, const trg_row *r); /* both tables, by r->id */
int store_trigger_delete(store *s, i64 id);
/* UPDATE of only the columns a tick changes: the state row's counters,
** last_* and updated_at; with SAVE_SCHEDULE also its next_due_at and
** fire_at (else left as they are, and so are the two indexes on
** next_due_at: a run's report leaves the schedule alone); with
** SAVE_STATUS also status and enabled in triggers_data, else
** triggers_data is not written at all. */
#define SAVE_STATUS 1
#define SAVE_SCHEDULE 2
/* The outcome columns are as read (trg_row_outcome_stored): a schedule's
** write leaves them out, and the UPDATE binds five values, not ten. */
#define SAVE_OUTCOME_SAME 4
int store_trigger_save_tick(store *s, const trg_row *r, int changed);
/* The tick's write-behind: store_trigger_save_tick, status unchanged, of
** n rows (each a trigger of its own; rows is sorted by rowid). */
int store_tick_hot_all(store *s, trg_row **rows, int n);

/* A row changed outside the extension
** (docs/tables.md#changed-shadow-tables) is taken out of the tick without
** writing any of its other values: status (UPDATE OR IGNORE) and enabled =
** 0 when paused, next_due_at and fire_at NULL, last_error = why, updated_at
** = now, running when >= 0 (else kept). */
int store_trigger_quarantine(store *s, i64 id, const char *status, int paused,
                             const char *why, i64 now, i64 running);

/* The ids of the active (scheduled) event triggers waiting for key, by
** the partial index triggers_data_event (an index probe, never a scan):
** *ids sqlite3_malloc'd (the caller frees it), *n of them. */
int store_event_trigger_ids(store *s, const char *key, i64 **ids, int *n);
/* *any: whether an active event trigger waits on a run's end (a key
** "run:..."; one probe of the same index). */
int store_event_any_chain(store *s, int *any);
/* An event trigger's signal state written: next_due_at, fire_at, the
** event_* columns and updated_at of r's state row. */
int store_trigger_save_event(store *s, const trg_row *r);
/* *found: whether a trigger has this trigger_id. SQLITE_OK or the
** error. */
int store_trigger_exists(store *s, const char *trigger_id, int *found);
/* The trigger_id (sqlite3_malloc'd) of an active trigger of agent_id other
** than row id with this dedupe_key, or NULL when there is none. */
int store_trigger_duplicate(store *s, const char *agent_id,
                            const char *dedupe_key, i64 id, char **existing);

#endif
