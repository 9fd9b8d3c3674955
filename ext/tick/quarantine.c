/*
** quarantine.c -- rows changed outside the extension (quarantine.h,
** docs/tables.md#changed-shadow-tables): checked as they are read, and
** taken out of the schedule when they fail, never crashing or stopping a
** tick.
*/
#include "tick/quarantine.h"

#include <string.h>

#include "store/run_rows.h"
#include "store/stored.h"
#include "store/trigger_rows.h"
#include "tick/events.h"
#include "tick/lifecycle.h"
#include "tick/write_behind.h"
#include "trigger/quarantine_row.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/*
** docs/tables.md#changed-shadow-tables: a shadow-table row holding a value
** the extension would refuse never crashes or stops a tick. The row is
** checked when it is read (trigger_check with TRIGGER_STORED, the validator
** INSERT uses; store_run_check for a run) and one that fails is taken out
** of the schedule, writing only what that takes (trigger_quarantine, which
** a signal uses too), never its other values: paused (a completed, cancelled or expired trigger
** keeps its status; `status` given: that one), next_due_at NULL, and
** last_error "<table>.<column>: <what is wrong>; trigger paused". ended:
** how many of its running runs were just closed or found missing, so its
** running count goes down by as many, to 0 at least (when that count can be
** read). Takes why.
*/
int tick_quarantine(tick *t, trg_row *r, char *why, const char *status,
                    i64 ended) {
  char before[TRIGGER_STATUS_MAX];
  trigger_status_copy(r, before);
  int rc = tick_wb_barrier(t);
  if (rc != SQLITE_OK) {
    sqlite3_free(why);
    return rc;
  }
  rc = trigger_quarantine(t->call.st, r, why, status, ended, t->now);
  /* paused (by the tick: auto_paused) or cancelled, with the reason */
  if (rc == SQLITE_OK) rc = tick_event_keep(t, r, before);
  if (rc == SQLITE_OK) trg_row_note_stored(r);
  return rc;
}

/* Check a trigger row read back (flags: TRIGGER_NO_JSON or 0). SQLITE_OK with
** *why NULL (usable, *spec its schedule) or with *why the message of what
** is wrong; else an error such as SQLITE_NOMEM. */
int tick_row_check(tick *t, trg_row *r, sched_spec *spec, int flags,
                   char **why) {
  *why = NULL;
  int rc = trigger_check(t->call.ctx, t->call.st, r, spec, t->now,
                         TRIGGER_STORED | flags, why);
  return *why ? SQLITE_OK : rc;
}

/* A run row deleted, or rewritten (another status, trigger_id or
** incarnation), outside the extension leaves its trigger's running count
** up with nothing to bring it down: overlap skip would record every
** occurrence skipped and queue hold the trigger, for good. Asked only of
** a due trigger that count holds, one probe of its runs (newest first):
** work proportional to what is due, none on an empty tick. */
int tick_hold_check(tick *t, const trg_row *r, char **why) {
  const trg_val *running = &r->v[TC_RUNNING];
  *why = NULL;
  if (running->i <= 0 ||
      strcmp(trg_val_text(&r->v[TC_OVERLAP_POLICY]), "allow") == 0)
    return SQLITE_OK;
  int live;
  int rc = store_run_holding(t->call.st, trg_val_text(&r->v[TC_TRIGGER_ID]),
                             r->v[TC_INCARNATION].i, &live);
  if (rc != SQLITE_OK || live) return rc;
  *why = sqlite3_mprintf("triggers_state.running: %lld, but no run of the "
                         "trigger is 'running' in triggers_rundata (a run "
                         "row deleted or changed outside the extension)",
                         (long long)running->i);
  return *why ? SQLITE_OK : SQLITE_NOMEM;
}

/* Check a run row read back; its message names the run. */
int tick_run_check(tick *t, trg_run *run, char **why) {
  char *err = NULL;
  int rc = store_run_check(t->call.st, run, &err);
  *why = NULL;
  if (!err) return rc;
  *why =
      sqlite3_mprintf("%s (run '%s')", err, trg_val_text(&run->v[RC_RUN_ID]));
  sqlite3_free(err);
  return *why ? SQLITE_OK : SQLITE_NOMEM;
}
