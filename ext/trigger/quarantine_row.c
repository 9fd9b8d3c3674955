/*
** quarantine_row.c -- see quarantine_row.h
** (docs/tables.md#changed-shadow-tables): the status a quarantined trigger
** takes, its last_error, and the one write (store_trigger_quarantine).
*/
#include "trigger/quarantine_row.h"

#include <string.h>

#include "store/trigger_rows.h"

SQLITE_EXTENSION_INIT3

void trigger_status_copy(const trg_row *r, char out[TRIGGER_STATUS_MAX]) {
  const trg_val *st = &r->v[TC_STATUS];
  size_t n = st->bad ? 0 : strlen(trg_val_text(st));
  if (n >= TRIGGER_STATUS_MAX) n = 0;
  memcpy(out, trg_val_text(st), n);
  out[n] = 0;
}

int trigger_quarantine(store *s, trg_row *r, char *why, const char *status,
                       i64 ended, i64 now) {
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
  int rc = msg ? store_trigger_quarantine(s, r->id, status, paused, msg, now,
                                          running)
               : SQLITE_NOMEM;
  /* The row as written now, for the JSON the lifecycle calls return. */
  if (rc == SQLITE_OK) rc = trg_val_set_text(&r->v[TC_STATUS], status);
  if (paused) trg_val_set_int(&r->v[TC_ENABLED], 0);
  if (running >= 0) trg_val_set_int(&r->v[TC_RUNNING], running);
  trg_val_set_null(&r->v[TC_NEXT_DUE_AT]);
  trg_val_set_null(&r->v[TC_FIRE_AT]);
  trg_val_set_int(&r->v[TC_UPDATED_AT], now);
  if (rc == SQLITE_OK) rc = trg_val_set_owned(&r->v[TC_LAST_ERROR], msg);
  else sqlite3_free(msg);
  return rc;
}
