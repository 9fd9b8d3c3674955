/*
** calendar.c -- the triggers of a holiday calendar rescheduled when its
** days change (calendar.h).
*/
#include "trigger/calendar.h"

#include "store/calendar_rows.h"
#include "store/trigger_rows.h"
#include "trigger/transition.h"

SQLITE_EXTENSION_INIT3

/* The ids of the calendar's scheduled triggers, read before any is
** written (the write would change the index the read walks). */
static int calendar_trigger_ids(store *s, const char *calendar, i64 **ids,
                                int *n) {
  store_cursor cur;
  int cap = 0, rc = store_calendar_triggers_open(s, calendar, &cur);
  i64 id;
  *ids = NULL;
  *n = 0;
  while (rc == SQLITE_OK &&
         (rc = store_calendar_triggers_next(&cur, &id)) == SQLITE_ROW) {
    if (*n == cap) {
      cap = cap ? cap * 2 : 16;
      i64 *more = sqlite3_realloc64(*ids, (sqlite3_uint64)cap * sizeof id);
      if (!more) {
        rc = SQLITE_NOMEM;
        break;
      }
      *ids = more;
    }
    (*ids)[(*n)++] = id;
    rc = SQLITE_OK;
  }
  if (rc == SQLITE_OK || rc == SQLITE_DONE) rc = SQLITE_OK;
  if (cur.st) store_cursor_close(&cur);
  return rc;
}

/* One trigger: its schedule from now with the calendar's days. */
static int reschedule(trg_ctx *c, store *s, i64 id, sched_spec *spec, i64 now) {
  trg_row r;
  trg_row_init(&r);
  int rc = store_trigger_load_id(s, id, &r);
  if (rc == SQLITE_ROW) {
    char *err = NULL;
    int bad = trigger_check(c, s, &r, spec, now,
                            TRIGGER_STORED | TRIGGER_NO_JSON, &err);
    sqlite3_free(err);
    rc = SQLITE_OK;
    if (bad == SQLITE_NOMEM) rc = SQLITE_NOMEM;
    else if (bad == SQLITE_OK && r.v[TC_ENABLED].i &&
             !(r.v[TC_NEXT_DUE_AT].null == 0 && r.v[TC_NEXT_DUE_AT].i <= now)) {
      trigger_arm(&r, spec, now);
      trg_val_set_int(&r.v[TC_UPDATED_AT], now);
      rc = store_trigger_save(s, &r);
    }
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  }
  trg_row_clear(&r);
  return rc;
}

int trigger_calendar_changed(trg_ctx *c, store *s, const char *calendar,
                             i64 now) {
  i64 *ids;
  int n;
  int rc = calendar_trigger_ids(s, calendar, &ids, &n);
  /* a spec holds a whole calendar (~30 KB): one, on the heap */
  sched_spec *spec = n ? sqlite3_malloc(sizeof *spec) : NULL;
  if (rc == SQLITE_OK && n && !spec) rc = SQLITE_NOMEM;
  for (int i = 0; rc == SQLITE_OK && i < n; i++)
    rc = reschedule(c, s, ids[i], spec, now);
  sqlite3_free(spec);
  sqlite3_free(ids);
  return rc;
}
