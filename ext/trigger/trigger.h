/*
** trigger.h -- what a `triggers` row means: reading and validating column
** values (one validator for a row written and a row read back), defaults
** (derived trigger_id, display_name), the schedule spec of a row, and the
** row's JSON. Shared by the virtual table and the functions so that a
** rule lives in one place; how a status changes is transition.h's.
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
typedef struct trigger_status {
  int rc;
  int col;
  char *msg;
  char *existing;
} trigger_status;
#define TRIGGER_STATUS_INIT \
  { 0, -1, NULL, NULL }
void trigger_status_clear(
    trigger_status *st); /* free, back to TRIGGER_STATUS_INIT */

/*
** Copy SQL values into row columns. vals[i] is column i of the virtual
** table (TC_NPUBLIC of them). With only_changed, columns whose value is
** sqlite3_value_nochange() are left alone and *changed gets bit i set for
** each column written. Writes to computed columns and values of the wrong
** type fail with "triggers.<column>: ..." in *err. The row's texts point
** into vals (not copied): the row must not be used after them.
*/
int trigger_read_values(trg_row *r, sqlite3_value **vals, int only_changed,
                        uint64_t *changed, char **err);

/* One value into column col (same checks as trigger_read_values). */
int trigger_read_value(int col, sqlite3_value *v, trg_val *out, char **err);

/*
** Validate and normalize a row (defaults filled, ISO instants converted
** in the row's zone, enums and ranges checked) and build its schedule.
** now is used for the created_at default. Errors: "triggers.<col>: ...".
*/
int trigger_validate(trg_ctx *c, store *s, trg_row *r, sched_spec *spec,
                     i64 now, char **err);

/*
** The same validator with flags: TRIGGER_STORED checks a row read back from the
** shadow tables (docs/tables.md#changed-shadow-tables: it may have been
** changed outside the extension) instead of one being written: no defaults
** are filled (a NULL where a write leaves a value is an error), the
** computed columns are checked too (status, counters, instants, due only
** when scheduled), and the messages name the shadow table
** ("triggers_data.interval_ms: must be >= 1000, got 0"). TRIGGER_NO_JSON leaves
** out the metadata check, a query (the tick's claims never show metadata).
** Returns SQLITE_CONSTRAINT_CHECK (or _NOTNULL) with *err, or SQLITE_NOMEM.
*/
#define TRIGGER_STORED 1
#define TRIGGER_NO_JSON 2
int trigger_check(trg_ctx *c, store *s, trg_row *r, sched_spec *spec, i64 now,
                  int flags, char **err);
/* The same into a status (cleared first): its column, its message. */
int trigger_check_status(trg_ctx *c, store *s, trg_row *r, sched_spec *spec,
                         i64 now, int flags, trigger_status *st);
/* The values of `status`, NULL-terminated. */
extern const char *const trigger_statuses[];

/* The schedule's canonical text (sched_canonical), sqlite3_malloc'd;
** NULL: out of memory, or a spec that has none. */
char *trigger_canonical(const sched_spec *spec);

/* Derived default trigger_id (unique in the table). */
int trigger_default_id(store *s, trg_row *r, const sched_spec *spec);

/* JSON object of the public columns. */
void trigger_json(sqlite3_str *out, const trg_row *r);
/* JSON object of a run's public columns (a trigger_runs row). */
void trigger_run_json(sqlite3_str *out, const trg_run *run);

#endif
