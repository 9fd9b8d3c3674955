/*
** due.h -- what the tick reads (the probes of
** docs/lifecycle.md#what-one-tick-does): the due
** triggers, the runs whose lease passed or that wait to be re-offered.
** Since schema version 6 no row is out of their reach: SQLite refuses a
** time that is not an instant in the range, and a running run without a
** lease (docs/tables.md#changed-shadow-tables).
*/
#ifndef TRIGGERS_DUE_H
#define TRIGGERS_DUE_H

#include "store/store.h"

/* A pass over the due triggers reads them in claim order, (next_due_at,
** the state row's trigger_id), in batches: pos is where it stands (start:
** {INT64_MIN, NULL}; store_due_pos_free when done). */
typedef struct store_due_pos {
  i64 due;
  char *key; /* sqlite3_malloc'd; NULL: before every trigger_id */
} store_due_pos;
/* Up to want triggers due at now (next_due_at <= now) after pos, of the
** agents in the JSON array `agents` (NULL: all), into rows[0..*n), pos
** moved past them. A row whose state row's copy of trigger_id or
** agent_id differs from its own (changed outside the extension) has the
** value marked TRG_BAD_COPY, so that its check pauses it. */
int store_due_read(store *s, i64 now, const char *agents, store_due_pos *pos,
                   trg_row *rows, int want, int *n);
void store_due_pos_free(store_due_pos *pos);

/* The runs the tick takes up before the due triggers. */
typedef enum store_runs_kind {
  STORE_RUNS_LEASED, /* running, lease_until <= now */
  STORE_RUNS_RETRY   /* retry_at <= now: to re-offer */
} store_runs_kind;
/* Every run of that kind at now, in the probe's order, that keep(arg, run)
** accepts (NULL: all), appended to *runs (sqlite3_realloc'd, *n of them;
** the caller run_clears and frees them). *read counts the rows read. */
int store_runs_read(store *s, store_runs_kind kind, i64 now,
                    int (*keep)(void *arg, const trg_run *run), void *arg,
                    trg_run **runs, int *n, i64 *read);
/* Whether the run probes would find anything at now: *due, a lease passed
** or a run waits to be re-offered (STORE_RUNS_LEASED / _RETRY). */
int store_runs_any(store *s, i64 now, int *due);
/* Whether a tick at now may have anything to do: *any, a trigger is due
** (next_due_at <= now, of any agent, its jitter not considered) or
** store_runs_any would say so. One statement, so one read of the
** database as it is: a tick that finds nothing opens no write
** transaction (docs/lifecycle.md#what-one-tick-does). */
int store_tick_any(store *s, i64 now, int *any);

#endif
