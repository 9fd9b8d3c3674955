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
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/*
** docs/tables.md#changed-shadow-tables: a shadow-table row holding a value
** the extension would refuse never crashes or stops a tick. The row is
** checked when it is read (trigger_check with TRIGGER_STORED, the validator
** INSERT uses; store_run_check for a run) and one that fails is taken out
** of the schedule, writing only what that takes (store_trigger_quarantine),
** never its other values: paused (a completed, cancelled or expired trigger
** keeps its status; `status` given: that one), next_due_at NULL, and
** last_error "<table>.<column>: <what is wrong>; trigger paused". ended:
** how many of its running runs were just closed or found missing, so its
** running count goes down by as many, to 0 at least (when that count can be
** read). Takes why.
*/
int tick_quarantine(tick *t, trg_row *r, char *why, const char *status,
                    i64 ended) {
  static const char *const kept[] = {"completed", "cancelled", "expired", 0};
  const trg_val *st = &r->v[TC_STATUS], *run = &r->v[TC_RUNNING];
  if (!status) {
    status = "paused";
    for (int i = 0; kept[i]; i++) {
      if (!st->bad && strcmp(trg_val_text(st), kept[i]) == 0) status = kept[i];
    }
  }
  int paused = strcmp(status, "paused") == 0;
  i64 running = -1;
  if (ended > 0 && !run->bad && !run->null && run->i > 0 &&
      run->i <= TRG_COUNT_MAX)
    running = run->i > ended ? run->i - ended : 0;
  char *msg = why ? sqlite3_mprintf("%s; %s", why,
                                    paused ? "trigger paused"
                                    : strcmp(status, "cancelled") == 0
                                        ? "trigger cancelled"
                                        : "taken out of the schedule")
                  : NULL;
  sqlite3_free(why);
  int rc = msg ? tick_wb_barrier(t) : SQLITE_NOMEM;
  if (rc == SQLITE_OK) {
    rc = store_trigger_quarantine(t->call.st, r->id, status, paused, msg,
                                  t->now, running);
  }
  char before[16] = "";
  if (!st->bad && strlen(trg_val_text(st)) < sizeof before)
    memcpy(before, trg_val_text(st), strlen(trg_val_text(st)) + 1);
  /* The row as written now, for the JSON the lifecycle calls return. */
  if (rc == SQLITE_OK) rc = trg_val_set_text(&r->v[TC_STATUS], status);
  if (paused) trg_val_set_int(&r->v[TC_ENABLED], 0);
  if (running >= 0) trg_val_set_int(&r->v[TC_RUNNING], running);
  trg_val_set_null(&r->v[TC_NEXT_DUE_AT]);
  trg_val_set_null(&r->v[TC_FIRE_AT]);
  trg_val_set_int(&r->v[TC_UPDATED_AT], t->now);
  if (rc == SQLITE_OK) rc = trg_val_set_owned(&r->v[TC_LAST_ERROR], msg);
  else sqlite3_free(msg);
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
