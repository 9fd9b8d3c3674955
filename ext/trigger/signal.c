/*
** signal.c -- see signal.h. A signal probes the partial index
** triggers_data_event for the active event triggers of its key (work
** proportional to them, never to the table), and for each writes its
** state row: due now, or with debounce_ms at the signal + debounce_ms but
** never later than the first pending signal + debounce_max_ms (default
** 10 x debounce_ms); the count of signals folded into its next run, the
** last one's time and payload (the claim puts them in the run's
** payload.event: tick/fire_json.c).
*/
#include "trigger/signal.h"

#include <string.h>

#include "store/json.h"
#include "store/trigger_rows.h"
#include "time/schedule.h"
#include "trigger/event.h"
#include "trigger/quarantine_row.h"
#include "trigger/transition.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/* "<what>: <problem>" into *err; SQLITE_ERROR (SQLITE_NOMEM without it). */
static int signal_err(char **err, char *msg) {
  *err = msg;
  return msg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* The key and payload as a signal takes them. */
static int check_signal(store *s, const char *key, const char *payload,
                        char **err) {
  const char *k = key;
  while (*k == ' ' || *k == '\t' || *k == '\n' || *k == '\r') k++;
  if (!*k)
    return signal_err(err, sqlite3_mprintf("event_key: must not be empty"));
  if (strlen(key) > TRG_EVENT_KEY_MAX) {
    return signal_err(err,
                      sqlite3_mprintf("event_key: is %d bytes, more "
                                      "than %d",
                                      (int)strlen(key), TRG_EVENT_KEY_MAX));
  }
  if (!payload) return SQLITE_OK;
  if (strlen(payload) > TRG_EVENT_PAYLOAD_MAX) {
    return signal_err(err, sqlite3_mprintf("payload: is %d bytes, more than "
                                           "%d",
                                           (int)strlen(payload),
                                           TRG_EVENT_PAYLOAD_MAX));
  }
  int ok;
  int rc = store_json_is_object(s, payload, &ok);
  if (rc != SQLITE_OK) return rc;
  if (!ok)
    return signal_err(err, sqlite3_mprintf("payload: must be a JSON object"));
  return SQLITE_OK;
}

/* When a signal at now makes r due: now (an earlier pending due stays), or
** debounced. A timeout still ahead never delays it. */
static i64 signal_due(const trg_row *r, i64 now) {
  const trg_val *due = &r->v[TC_NEXT_DUE_AT], *deb = &r->v[TC_DEBOUNCE_MS];
  i64 pending = r->v[TC_EVENT_COUNT].i;
  i64 at = now;
  if (!deb->null) {
    const trg_val *mx = &r->v[TC_DEBOUNCE_MAX_MS];
    i64 first = pending > 0 && !r->v[TC_EVENT_FIRST_AT].null
                    ? r->v[TC_EVENT_FIRST_AT].i
                    : now;
    i64 cap = first + (mx->null ? 10 * deb->i : mx->i);
    at = now + deb->i;
    if (at > cap) at = cap;
    if (at > SCHED_MS_MAX) at = SCHED_MS_MAX;
    /* a pending timeout earlier than the debounced time still holds */
    if (pending == 0 && !due->null && due->i < at) at = due->i;
  } else if (!due->null && due->i < at) {
    at = due->i; /* already due: signalled before, or its timeout */
  }
  return at;
}

/* An event trigger whose stored row fails its check (changed outside the
** extension, docs/tables.md#changed-shadow-tables) is paused with why
** (taken) as a tick would pause it, with its auto_paused event: a signal
** may be the only read such a trigger ever gets. */
static int quarantine(store *s, trg_row *r, char *why, i64 now) {
  char before[TRIGGER_STATUS_MAX];
  trigger_status_copy(r, before);
  int rc = trigger_quarantine(s, r, why, NULL, 0, now);
  const char *kind = NULL;
  char *detail = NULL;
  if (rc == SQLITE_OK)
    rc = trigger_event_of_change(r, before, 0, &kind, &detail);
  if (rc == SQLITE_OK && kind)
    rc = trigger_event_write(s, r, kind, NULL, detail, now);
  sqlite3_free(detail);
  return rc;
}

/* One event trigger signalled: 1 in *done, or 0 when its row fails its
** check (paused) or is no event trigger's (passed over). */
static int signal_one(trg_ctx *c, store *s, i64 id, const char *payload,
                      i64 now, int *done) {
  trg_row r;
  trg_row_init(&r);
  *done = 0;
  int rc = store_trigger_load_id(s, id, &r);
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  else if (rc == SQLITE_ROW) {
    sched_spec spec;
    char *why = NULL;
    rc = trigger_check(c, s, &r, &spec, now, TRIGGER_STORED | TRIGGER_NO_JSON,
                       &why);
    if (why) { /* changed outside the extension: taken out, as a tick does */
      rc = quarantine(s, &r, why, now);
      goto out;
    }
    int bad = rc != SQLITE_OK;
    if (rc == SQLITE_NOMEM) goto out;
    rc = SQLITE_OK;
    if (bad || spec.type != SCHED_EVENT) goto out; /* passed over */
    i64 at = signal_due(&r, now);
    if (r.v[TC_EVENT_COUNT].i == 0)
      trg_val_set_int(&r.v[TC_EVENT_FIRST_AT], now);
    trg_val_set_int(&r.v[TC_EVENT_COUNT], r.v[TC_EVENT_COUNT].i + 1);
    trg_val_set_int(&r.v[TC_EVENT_AT], now);
    if (payload) rc = trg_val_set_text(&r.v[TC_EVENT_PAYLOAD], payload);
    else trg_val_set_null(&r.v[TC_EVENT_PAYLOAD]);
    trg_val_set_int(&r.v[TC_UPDATED_AT], now);
    trigger_set_next(&r, 1, at);
    if (rc == SQLITE_OK) rc = store_trigger_save_event(s, &r);
    *done = rc == SQLITE_OK;
  }
out:
  trg_row_clear(&r);
  return rc;
}

int trigger_signal(trg_ctx *c, store *s, const char *key, const char *payload,
                   i64 now, i64 *count, char **err) {
  *count = 0;
  *err = NULL;
  int rc = check_signal(s, key, payload, err);
  if (rc != SQLITE_OK) return rc;
  if (c->signal_depth >= TRG_SIGNAL_DEPTH_MAX) {
    return signal_err(
        err, sqlite3_mprintf("signal '%s' nested %d deep (a chain that "
                             "signals itself): stopped",
                             key, TRG_SIGNAL_DEPTH_MAX));
  }
  i64 *ids;
  int n;
  rc = store_event_trigger_ids(s, key, &ids, &n);
  c->signal_depth++;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    int done;
    rc = signal_one(c, s, ids[i], payload, now, &done);
    *count += done;
  }
  c->signal_depth--;
  sqlite3_free(ids);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && !*err) {
    /* a write refused (an SQL trigger of the application on a shadow
    ** table failed): its message, before anything resets it */
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(s->db));
  }
  return rc;
}

int trigger_signal_run_end(trg_ctx *c, store *s, const char *trigger_id,
                           const char *status, i64 now, char **err) {
  *err = NULL;
  if (strcmp(status, "success") != 0 && strcmp(status, "failed") != 0 &&
      strcmp(status, "expired") != 0 && strcmp(status, "cancelled") != 0)
    return SQLITE_OK;
  char *key = sqlite3_mprintf("run:%s:%s", trigger_id, status);
  if (!key) return SQLITE_NOMEM;
  i64 n;
  /* a key too long for an event_key can be no trigger's: nothing to do */
  int rc = strlen(key) > TRG_EVENT_KEY_MAX
               ? SQLITE_OK
               : trigger_signal(c, s, key, NULL, now, &n, err);
  sqlite3_free(key);
  return rc;
}
