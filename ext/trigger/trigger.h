/*
** trigger.h -- what a `triggers` row means: reading and validating column
** values, defaults (derived trigger_id, display_name), the schedule spec
** of a row, lifecycle transitions (schedule, pause, resume, complete) and
** the row's JSON. Shared by the virtual table and the functions so that a
** rule lives in one place.
*/
#ifndef TRIGGERS_TRIGGER_H
#define TRIGGERS_TRIGGER_H

#include "store/columns.h"
#include "store/trigger_rows.h"

/*
** The outcome of a check or a write (write.h), typed: rc is SQLITE_OK, a
** refusal (SQLITE_CONSTRAINT_CHECK, _NOTNULL, _UNIQUE) or an engine error
** (SQLITE_NOMEM, _BUSY, ...); col the column the refusal is about (TC_*,
** -1 when none); msg its message (sqlite3_malloc'd; NULL when there is
** none, e.g. out of memory); existing, for a duplicate (col
** TC_DEDUPE_KEY), the trigger_id of the active trigger with the same key.
** Callers decide by rc and col, never by the message's words.
*/
typedef struct trg_status {
  int rc;
  int col;
  char *msg;
  char *existing;
} trg_status;
#define TRG_STATUS_INIT \
  { 0, -1, NULL, NULL }
void trg_status_clear(trg_status *st); /* free, back to TRG_STATUS_INIT */

/*
** Copy SQL values into row columns. vals[i] is column i of the virtual
** table (TC_NPUBLIC of them). With only_changed, columns whose value is
** sqlite3_value_nochange() are left alone and *changed gets bit i set for
** each column written. Writes to computed columns and values of the wrong
** type fail with "triggers.<column>: ..." in *err. The row's texts point
** into vals (not copied): the row must not be used after them.
*/
int trg_read_values(trg_row *r, sqlite3_value **vals, int only_changed,
                    uint64_t *changed, char **err);

/* One value into column col (same checks as trg_read_values). */
int trg_read_value(int col, sqlite3_value *v, trg_val *out, char **err);

/*
** Validate and normalize a row (defaults filled, ISO instants converted
** in the row's zone, enums and ranges checked) and build its schedule.
** now is used for the created_at default. Errors: "triggers.<col>: ...".
*/
int trg_validate(trg_ctx *c, store *s, trg_row *r, sched_spec *spec, i64 now,
                 char **err);

/*
** The same validator with flags: TRG_STORED checks a row read back from
** the shadow tables (DESIGN.md §4: it may have been changed outside the
** extension) instead of one being written: no defaults are filled (a
** NULL where a write leaves a value is an error), the computed columns
** are checked too (status, counters, instants, due only when scheduled),
** and the messages name the shadow table ("triggers_data.interval_ms:
** must be >= 1000, got 0"). TRG_NO_JSON leaves out the metadata check,
** a query (the tick's claims never show metadata). Returns
** SQLITE_CONSTRAINT_CHECK (or _NOTNULL) with *err, or SQLITE_NOMEM.
*/
#define TRG_STORED 1
#define TRG_NO_JSON 2
int trg_check(trg_ctx *c, store *s, trg_row *r, sched_spec *spec, i64 now,
              int flags, char **err);
/* The same into a status (cleared first): its column, its message. */
int trg_check_status(trg_ctx *c, store *s, trg_row *r, sched_spec *spec,
                     i64 now, int flags, trg_status *st);
/* The values of `status`, NULL-terminated. */
extern const char *const trg_statuses[];

/* Lifecycle: set status / next_due_at / fire_at / enabled. */
void trg_arm(trg_row *r, const sched_spec *spec, i64 now); /* (re)schedule */
void trg_pause(trg_row *r);
void trg_resume(trg_row *r, const sched_spec *spec,
                i64 now);                              /* strictly after now */
void trg_set_next(trg_row *r, int has_next, i64 next); /* + jitter */
int trg_is_active(const trg_row *r);                   /* scheduled or paused */

/* Deterministic jitter in [0, jitter_ms) from (trigger_id, occurrence). */
i64 trg_jitter(const char *trigger_id, i64 occurrence, i64 jitter_ms);

/* dedupe_key of the row (DESIGN §7, dedupe.h). */
int trg_dedupe(trg_row *r, const sched_spec *spec);
/* trigger_id of another active trigger of the same agent with the same
** dedupe_key (sqlite3_malloc'd into *existing), or NULL. Only an active r
** has duplicates, unless any_status (a create request that repeats an
** active trigger is answered with it, whatever its own schedule). */
int trg_find_duplicate(store *s, const trg_row *r, int any_status,
                       char **existing);

/* Derived default trigger_id (unique in the table). */
int trg_default_id(store *s, trg_row *r, const sched_spec *spec);

/* JSON object of the public columns. */
void trg_json(sqlite3_str *out, const trg_row *r);
/* JSON object of a run's public columns (a trigger_runs row). */
void run_json(sqlite3_str *out, const run_row *run);

#endif
