/*
** transition.c -- a trigger's status and schedule as they change
** (transition.h): the one place a pause, a resume (with its failure
** streak reset), a cancel and an arming are written into a row.
*/
#include "trigger/transition.h"

#include <stdio.h>
#include <string.h>

#include "text/sha256.h"

SQLITE_EXTENSION_INIT3

i64 trigger_jitter(const char *trigger_id, i64 occurrence, i64 jitter_ms) {
  if (jitter_ms <= 1) return 0;
  char buf[32];
  unsigned char d[32];
  sha256_ctx h;
  sha256_init(&h);
  sha256_update(&h, trigger_id, strlen(trigger_id) + 1);
  snprintf(buf, sizeof buf, "%lld", (long long)occurrence);
  sha256_update(&h, buf, strlen(buf));
  sha256_final(&h, d);
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x = (x << 8) | d[i];
  return (i64)(x % (uint64_t)jitter_ms);
}

void trigger_set_next(trg_row *r, int has_next, i64 next) {
  if (!has_next) {
    trg_val_set_null(&r->v[TC_NEXT_DUE_AT]);
    trg_val_set_null(&r->v[TC_FIRE_AT]);
    return;
  }
  trg_val_set_int(&r->v[TC_NEXT_DUE_AT], next);
  i64 j = r->v[TC_JITTER_MS].null ? 0 : r->v[TC_JITTER_MS].i;
  trg_val_set_int(
      &r->v[TC_FIRE_AT],
      next + trigger_jitter(trg_val_text(&r->v[TC_TRIGGER_ID]), next, j));
}

static void set_status(trg_row *r, const char *st) {
  trg_val_borrow(&r->v[TC_STATUS], st); /* a literal */
}

int trigger_is_active(const trg_row *r) {
  const char *st = trg_val_text(&r->v[TC_STATUS]);
  return strcmp(st, "scheduled") == 0 || strcmp(st, "paused") == 0;
}

int trigger_event_waits(const trg_row *r) {
  return strcmp(trg_val_text(&r->v[TC_TRIGGER_TYPE]), "event") == 0 &&
         (r->v[TC_MAX_RUNS].null || r->v[TC_CLAIMS].i < r->v[TC_MAX_RUNS].i);
}

void trigger_event_taken(trg_row *r) {
  trg_val_set_int(&r->v[TC_EVENT_COUNT], 0);
  trg_val_set_null(&r->v[TC_EVENT_AT]);
  trg_val_set_null(&r->v[TC_EVENT_PAYLOAD]);
  trg_val_set_null(&r->v[TC_EVENT_FIRST_AT]);
}

/* No occurrence left: completed once nothing is in flight; an event
** trigger with runs left waits for a signal instead. */
static void set_exhausted(trg_row *r) {
  trigger_set_next(r, 0, 0);
  set_status(r, trigger_event_waits(r) ? "scheduled" : "completed");
}

static void pause_row(trg_row *r) {
  trg_val_set_int(&r->v[TC_ENABLED], 0);
  set_status(r, "paused");
  trigger_set_next(r, 0, 0);
}

void trigger_arm(trg_row *r, const sched_spec *spec, i64 now) {
  if (!r->v[TC_ENABLED].i) {
    pause_row(r);
    return;
  }
  i64 next;
  if (!r->v[TC_MAX_RUNS].null && r->v[TC_CLAIMS].i >= r->v[TC_MAX_RUNS].i) {
    set_exhausted(r);
  } else if (spec->type == SCHED_EVENT && r->v[TC_EVENT_COUNT].i > 0) {
    /* signalled already: stays due when it was */
    set_status(r, "scheduled");
    trigger_set_next(r, 1,
                     r->v[TC_NEXT_DUE_AT].null ? now : r->v[TC_NEXT_DUE_AT].i);
  } else if (sched_first(spec, now, &next)) {
    set_status(r, "scheduled");
    trigger_set_next(r, 1, next);
  } else {
    set_exhausted(r);
  }
}

static void resume_row(trg_row *r, const sched_spec *spec, i64 now) {
  trg_val_set_int(&r->v[TC_ENABLED], 1);
  i64 next;
  if (!r->v[TC_MAX_RUNS].null && r->v[TC_CLAIMS].i >= r->v[TC_MAX_RUNS].i) {
    set_exhausted(r);
  } else if (spec->type == SCHED_EVENT && r->v[TC_EVENT_COUNT].i > 0) {
    set_status(r, "scheduled"); /* signalled before the pause: due now */
    trigger_set_next(r, 1, now);
  } else if (sched_next(spec, now, &next)) {
    set_status(r, "scheduled");
    trigger_set_next(r, 1, next);
  } else if (spec->type == SCHED_ONCE && r->v[TC_CLAIMS].i == 0) {
    /* Its instant passed while paused: it will never run. */
    trigger_set_next(r, 0, 0);
    set_status(r, "expired");
    trg_val_set_text(&r->v[TC_LAST_ERROR],
                     "expired: its time passed while it was paused");
  } else {
    set_exhausted(r);
  }
}

static void cancel_row(trg_row *r) {
  trigger_set_next(r, 0, 0);
  set_status(r, "cancelled");
}

void trigger_transition(trg_row *r, trigger_change change,
                        const sched_spec *spec, i64 now) {
  switch (change) {
    case TRIGGER_PAUSE: pause_row(r); break;
    case TRIGGER_RESUME:
      resume_row(r, spec, now);
      trg_val_set_int(&r->v[TC_FAIL_STREAK], 0); /* a fresh start */
      break;
    case TRIGGER_CANCEL: cancel_row(r); break;
  }
}

int trigger_change_check(const trg_row *r, trigger_change change, int *todo,
                         char **err) {
  static const struct {
    const char *already, *from, *verb;
  } rule[] = {[TRIGGER_PAUSE] = {"paused", "scheduled", "paused"},
              [TRIGGER_RESUME] = {"scheduled", "paused", "resumed"},
              [TRIGGER_CANCEL] = {"cancelled", NULL, NULL}};
  const char *st = trg_val_text(&r->v[TC_STATUS]);
  *todo = 0;
  *err = NULL;
  if (strcmp(st, rule[change].already) == 0) return SQLITE_OK;
  if (rule[change].from && strcmp(st, rule[change].from) != 0) {
    *err = sqlite3_mprintf("trigger '%s' is %s and cannot be %s",
                           trg_val_text(&r->v[TC_TRIGGER_ID]), st,
                           rule[change].verb);
    return *err ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  *todo = 1;
  return SQLITE_OK;
}
