/*
** write.c -- writing a trigger row: the one path of INSERT and UPDATE on
** `triggers` and of trigger_create. See write.h.
**
** An insert, step by step (each step may refuse; nothing is written
** before the last):
**   1. a given trigger_id that is taken: UNIQUE error, or with OR REPLACE
**      the update of that trigger (replace_existing)
**   2. the row is checked and normalized (trigger_check_status)
**   [hooks.checked]
**   3. derived: default trigger_id, incarnation, counters, status and
**      schedule (trigger_arm, transition.h), updated_at
**   4. dedupe_key; a duplicate active trigger of the agent: UNIQUE error
**      with status.existing (with hooks, whatever the new row's status;
**      without, found by the write itself: insert_new)       [hooks.admit]
**   5. (with hooks) a given trigger_id that is taken: UNIQUE error
**   6. both shadow rows written (store_trigger_insert)
**   7. (without hooks) its `created` event (event.h); the create action
**      writes its own event (created, duplicate or rejected)
** An update writes its event too: paused, resumed (enabled changed), or
** updated.
*/
#include "trigger/write.h"

#include <string.h>

#include "store/action_sql.h"
#include "store/run_rows.h"
#include "text/dedupe.h"
#include "trigger/event.h"
#include "trigger/transition.h"

SQLITE_EXTENSION_INIT3

/* Columns whose change reschedules the trigger. */
static const uint64_t schedule_cols =
    (1ull << TC_TRIGGER_TYPE) | (1ull << TC_INTERVAL_MS) |
    (1ull << TC_SCHEDULED_AT) | (1ull << TC_CRON_EXPRESSION) |
    (1ull << TC_RRULE) | (1ull << TC_CALENDAR) | (1ull << TC_CALENDAR_POLICY) |
    (1ull << TC_TIMEZONE) | (1ull << TC_START_AT) | (1ull << TC_END_AT) |
    (1ull << TC_MAX_RUNS) | (1ull << TC_JITTER_MS) | (1ull << TC_EVENT_KEY);

/* A refusal about column col with message msg (taken; NULL: out of
** memory). */
static int refuse(trigger_status *st, int rc, int col, char *msg) {
  st->col = col;
  st->msg = msg;
  return msg ? rc : SQLITE_NOMEM;
}

/* r's dedupe_key (docs/create-action.md#dedupe-keys, text/dedupe.h). A
** SQL job has none (docs/sql-jobs.md#writing-a-job): the application's,
** never the create action's, and two jobs of one description and
** schedule are two jobs. */
static int set_dedupe_key(trg_row *r, const sched_spec *spec) {
  char key[DEDUPE_KEY_LEN + 1];
  if (!r->v[TC_ACTION_SQL].null) {
    trg_val_set_null(&r->v[TC_DEDUPE_KEY]);
    return SQLITE_OK;
  }
  char *canon = trigger_canonical(spec);
  if (!canon) return SQLITE_NOMEM; /* every checked spec has one */
  dedupe_key(trg_val_text(&r->v[TC_INSTRUCTIONS]),
             trg_val_text(&r->v[TC_TRIGGER_TYPE]), canon,
             trg_val_text(&r->v[TC_TIMEZONE]), trg_val_text(&r->v[TC_SCOPE]),
             key);
  sqlite3_free(canon);
  return trg_val_set_text(&r->v[TC_DEDUPE_KEY], key);
}

/* The UNIQUE rule among an agent's active triggers, for r and its
** dedupe_key: the trigger_id of another active trigger of the agent with
** the same key, in st->existing. Only an active r has duplicates, unless
** any_status (a create request that repeats an active trigger is
** answered with it, whatever its own schedule). */
static int find_duplicate(store *s, const trg_row *r, int any_status,
                          trigger_status *st) {
  char *existing = NULL;
  if ((!any_status && !trigger_is_active(r)) || r->v[TC_DEDUPE_KEY].null)
    return SQLITE_OK;
  int rc = store_trigger_duplicate(s, trg_val_text(&r->v[TC_AGENT_ID]),
                                   trg_val_text(&r->v[TC_DEDUPE_KEY]), r->id,
                                   &existing);
  if (rc != SQLITE_OK || !existing) return rc;
  st->existing = existing;
  return refuse(st, SQLITE_CONSTRAINT_UNIQUE, TC_DEDUPE_KEY,
                sqlite3_mprintf("UNIQUE constraint failed: triggers.dedupe_key "
                                "(active trigger '%s' of agent '%s' has the "
                                "same instructions, type, schedule and scope)",
                                existing, trg_val_text(&r->v[TC_AGENT_ID])));
}

/* dedupe_key, then find_duplicate. */
static int check_duplicate(store *s, trg_row *r, const sched_spec *spec,
                           int any_status, trigger_status *st) {
  int rc = set_dedupe_key(r, spec);
  return rc == SQLITE_OK ? find_duplicate(s, r, any_status, st) : rc;
}

int trigger_write_rekey(store *s, trg_row *r, const sched_spec *spec,
                        char **err) {
  trigger_status st = TRIGGER_STATUS_INIT;
  int rc = check_duplicate(s, r, spec, 0, &st);
  *err = st.msg;
  st.msg = NULL;
  trigger_status_clear(&st);
  return rc;
}

/* The rows of a new trigger that is no duplicate (step 6). A direct
** INSERT does not look for a duplicate first: the shadow table's unique
** index on (agent_id, dedupe_key) of the active triggers (store/schema.c) is
** find_duplicate's rule, so a constraint failure is the only sign of
** one, and only then is the existing trigger looked up for the message. */
static int insert_new(store *s, trg_row *r, trigger_status *st) {
  int rc = store_trigger_insert(s, r);
  if ((rc & 0xff) != SQLITE_CONSTRAINT) return rc;
  int frc = find_duplicate(s, r, 0, st);
  return frc == SQLITE_OK ? rc : frc;
}

/* A SQL job's statements, compiled against the current schema without
** running them (store/action_sql.h; docs/sql-jobs.md). */
static int check_action_sql(store *s, const trg_row *r, trigger_status *st) {
  if (r->v[TC_ACTION_SQL].null) return SQLITE_OK;
  char *err = NULL;
  int rc = store_action_sql_check(s, r->v[TC_ACTION_SQL].t, &err);
  return err ? refuse(st, rc, TC_ACTION_SQL, err) : rc;
}

/* A given trigger_id that another trigger has: UNIQUE error. */
static int check_id_free(store *s, const trg_row *r, trigger_status *st) {
  int taken;
  int rc = store_trigger_exists(s, trg_val_text(&r->v[TC_TRIGGER_ID]), &taken);
  if (rc != SQLITE_OK || !taken) return rc;
  return refuse(
      st, SQLITE_CONSTRAINT_UNIQUE, TC_TRIGGER_ID,
      sqlite3_mprintf("UNIQUE constraint failed: triggers.trigger_id"));
}

/* An UPDATE (or an INSERT OR REPLACE) of the stored row old; now_is_created:
** the schedule restarts at next's created_at rather than now. */
static int update_row(trg_ctx *c, store *s, const trg_row *old, trg_row *next,
                      uint64_t changed, i64 now, int now_is_created,
                      trigger_status *st) {
  sched_spec spec;
  if (strcmp(trg_val_text(&old->v[TC_TRIGGER_ID]),
             trg_val_text(&next->v[TC_TRIGGER_ID])) != 0) {
    return refuse(st, SQLITE_CONSTRAINT_CHECK, TC_TRIGGER_ID,
                  sqlite3_mprintf("triggers.trigger_id: cannot be changed (it "
                                  "names the trigger's runs); insert a new "
                                  "trigger"));
  }
  int rc = trigger_check_status(c, s, next, &spec, now, 0, st);
  if (rc == SQLITE_OK && (changed & (1ull << TC_ACTION_SQL)))
    rc = check_action_sql(s, next, st);
  if (rc != SQLITE_OK) return rc;
  if (now_is_created) now = next->v[TC_CREATED_AT].i;
  int was_enabled = (int)old->v[TC_ENABLED].i;
  int enabled = (int)next->v[TC_ENABLED].i;
  const char *status = trg_val_text(&old->v[TC_STATUS]);
  if (strcmp(status, "cancelled") == 0 &&
      (changed & (schedule_cols | (1ull << TC_ENABLED)))) {
    return refuse(st, SQLITE_CONSTRAINT_CHECK, TC_STATUS,
                  sqlite3_mprintf("triggers: trigger '%s' is cancelled and "
                                  "cannot be rescheduled or resumed",
                                  trg_val_text(&old->v[TC_TRIGGER_ID])));
  }
  if (!enabled) {
    if (trigger_is_active(next))
      trigger_transition(next, TRIGGER_PAUSE, &spec, now);
  } else if (!was_enabled && (changed & (1ull << TC_ENABLED))) {
    trigger_transition(next, TRIGGER_RESUME, &spec, now);
  } else if (changed & schedule_cols) {
    trigger_arm(next, &spec, now);
  }
  trg_val_set_int(&next->v[TC_UPDATED_AT], now);
  next->id = old->id;
  if ((rc = check_duplicate(s, next, &spec, 0, st)) != SQLITE_OK) return rc;
  if ((rc = store_trigger_save(s, next)) != SQLITE_OK) return rc;
  const char *kind =
      trigger_event_kind(status, trg_val_text(&next->v[TC_STATUS]), 1);
  return trigger_event_write(s, next, kind ? kind : "updated", NULL, NULL, now);
}

int trigger_write_update(trg_ctx *c, store *s, const trg_row *old,
                         trg_row *next, uint64_t changed, i64 now,
                         trigger_status *st) {
  trigger_status_clear(st);
  return st->rc = update_row(c, s, old, next, changed, now, 0, st);
}

/* INSERT OR REPLACE of the trigger old: the new definition r, the old
** identity and history. */
static int replace_existing(trg_ctx *c, store *s, trg_row *old, trg_row *r,
                            i64 now, trigger_status *st) {
  static const int kept[] = {
      TC_STATUS,      TC_RUN_COUNT,   TC_NEXT_DUE_AT,   TC_LAST_RUN_AT,
      TC_LAST_STATUS, TC_LAST_ERROR,  TC_FIRE_AT,       TC_CLAIMS,
      TC_RUNNING,     TC_FAIL_STREAK, TC_INCARNATION,   TC_CREATED_AT,
      TC_EVENT_COUNT, TC_EVENT_AT,    TC_EVENT_PAYLOAD, TC_EVENT_FIRST_AT};
  int created_given = !r->v[TC_CREATED_AT].null;
  for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
    int k = kept[i];
    if (k == TC_CREATED_AT && created_given) continue;
    if (trg_val_copy(&r->v[k], &old->v[k]) != SQLITE_OK) return SQLITE_NOMEM;
  }
  trg_val_set_int(&old->v[TC_ENABLED], 1); /* resume only if asked (enabled=0
                                          -> pause) */
  return update_row(c, s, old, r, ~0ull & ~(1ull << TC_ENABLED), now,
                    created_given, st);
}

/* Step 1 with OR REPLACE: SQLITE_DONE when trigger_id is free. */
static int replace_if_taken(trg_ctx *c, store *s, trg_row *r, i64 now,
                            trigger_status *st) {
  trg_row old;
  trg_row_init(&old);
  int rc = store_trigger_load(s, trg_val_text(&r->v[TC_TRIGGER_ID]), &old);
  if (rc == SQLITE_ROW) rc = replace_existing(c, s, &old, r, now, st);
  trg_row_clear(&old);
  return rc;
}

static int insert_row(trg_ctx *c, store *s, trg_row *r, i64 now,
                      int on_conflict, const trigger_insert_hooks *h,
                      trigger_status *st) {
  sched_spec spec;
  int rc, id_given = !r->v[TC_TRIGGER_ID].null;
  if (id_given && !h) {
    if (on_conflict != SQLITE_REPLACE) {
      if ((rc = check_id_free(s, r, st)) != SQLITE_OK) return rc;
    } else if ((rc = replace_if_taken(c, s, r, now, st)) != SQLITE_DONE) {
      return rc;
    }
  }
  if ((rc = trigger_check_status(c, s, r, &spec, now, 0, st)) != SQLITE_OK)
    return rc;
  if (h && h->checked && (rc = h->checked(h->arg, r, &spec)) != SQLITE_OK)
    return rc;
  if ((rc = check_action_sql(s, r, st)) != SQLITE_OK) return rc;
  /* Determinism: created_at (given, or the clock's default) is "now". */
  now = r->v[TC_CREATED_AT].i;
  if (!id_given && (rc = trigger_default_id(s, r, &spec)) != SQLITE_OK)
    return rc;
  /* A new trigger, perhaps under the id of a deleted one: its own
  ** incarnation, so its run ids never meet the old history's. */
  i64 inc;
  rc = store_next_incarnation(s, trg_val_text(&r->v[TC_TRIGGER_ID]), &inc);
  if (rc != SQLITE_OK) return rc;
  trg_val_set_int(&r->v[TC_INCARNATION], inc);
  trg_val_set_int(&r->v[TC_CLAIMS], 0);
  trg_val_set_int(&r->v[TC_RUNNING], 0);
  trg_val_set_int(&r->v[TC_FAIL_STREAK], 0);
  trg_val_set_int(&r->v[TC_RUN_COUNT], 0);
  trg_val_set_int(&r->v[TC_EVENT_COUNT], 0);
  trigger_arm(r, &spec, now);
  trg_val_set_int(&r->v[TC_UPDATED_AT], now);
  if ((rc = set_dedupe_key(r, &spec)) != SQLITE_OK) return rc;
  if (!h) {
    rc = insert_new(s, r, st);
    return rc ? rc : trigger_event_write(s, r, "created", NULL, NULL, now);
  }
  /* the create action: a request that repeats an active trigger is a
  ** duplicate even when its own schedule has no occurrence left */
  if ((rc = find_duplicate(s, r, 1, st)) != SQLITE_OK) return rc;
  if (h->admit && (rc = h->admit(h->arg, r)) != SQLITE_OK) return rc;
  if (id_given && (rc = check_id_free(s, r, st)) != SQLITE_OK) return rc;
  return store_trigger_insert(s, r);
}

int trigger_write_insert(trg_ctx *c, store *s, trg_row *r, i64 now,
                         int on_conflict, const trigger_insert_hooks *hooks,
                         trigger_status *st) {
  trigger_status_clear(st);
  return st->rc = insert_row(c, s, r, now, on_conflict, hooks, st);
}
