/*
** write.h -- writing a trigger: the one path of every INSERT and UPDATE
** of the `triggers` table (sql/vtab_triggers.c) and of the create action
** (trigger_create, agent/fn_create.c).
**
** A write checks the row once (trigger.h's validator: defaults, zone,
** instants, enums, ranges, schedule), derives what the table computes (a
** default trigger_id, the incarnation, status / next_due_at / fire_at,
** dedupe_key), refuses a duplicate of an active trigger of the agent and a
** trigger_id that is taken, and writes the two shadow rows
** (store/trigger_rows.h). The outcome is a trigger_status (trigger.h): the
** code, the column it is about, the message. A refusal writes nothing.
*/
#ifndef TRIGGERS_WRITE_H
#define TRIGGERS_WRITE_H

#include "trigger/trigger.h"

/*
** What the create action checks between the steps of an insert (its policy,
** docs/create-action.md#policy-checks). Either function may be NULL. A
** return other than SQLITE_OK stops the insert with that code; the hook
** keeps its own reason (the status then has no message).
*/
typedef struct trigger_insert_hooks {
  /* The row is valid and normalized, spec is its schedule; nothing has
  ** been looked up yet. */
  int (*checked)(void *arg, const trg_row *r, const sched_spec *spec);
  /* The row is complete (trigger_id, status, dedupe_key) and is no
  ** duplicate; the write comes next. */
  int (*admit)(void *arg, const trg_row *r);
  void *arg;
} trigger_insert_hooks;

/*
** INSERT of a trigger. r holds the values given (NULL: not given; the
** computed columns NULL); it is normalized and completed in place, and on
** success r->id is the trigger's rowid. now: the wall clock, created_at's
** default (the schedule starts at created_at). on_conflict:
** sqlite3_vtab_on_conflict()'s answer; SQLITE_REPLACE with the trigger_id
** of an existing trigger updates that trigger in place (the new
** definition, its identity and history kept; r->id is its rowid).
** A given trigger_id that is taken is refused first, before the row is
** checked; with hooks (the create action: never a replace) it is refused
** last, after the hooks.
*/
int trigger_write_insert(trg_ctx *c, store *s, trg_row *r, i64 now,
                         int on_conflict, const trigger_insert_hooks *hooks,
                         trigger_status *st);

/*
** UPDATE of a stored trigger old to next: old with the columns written
** (bit i of changed for column i) replaced. A change of the schedule
** reschedules from now, enabled 0 pauses, 1 resumes (no catch-up); a
** cancelled trigger is not rescheduled or resumed; trigger_id never
** changes.
*/
int trigger_write_update(trg_ctx *c, store *s, const trg_row *old,
                         trg_row *next, uint64_t changed, i64 now,
                         trigger_status *st);

/*
** r's dedupe key computed again, and refused (SQLITE_CONSTRAINT_UNIQUE,
** *err naming it) when another active trigger of the agent has it: a
** trigger resumed by trigger_resume after trigger_install paused it as
** the newer of two duplicates (its key NULL, docs/time.md#link-names).
*/
int trigger_write_rekey(store *s, trg_row *r, const sched_spec *spec,
                        char **err);

#endif
