/*
** fn_calendar.c -- trigger_calendar_import(calendar, ics [, options]): the
** all-day events of an iCalendar holiday file added to a calendar of
** trigger_calendar_days (docs/calendar.md#importing-an-icalendar-file).
**
**   SELECT trigger_calendar_import('us', readfile('us-holidays.ics'));
**   SELECT trigger_calendar_import('de', :ics, '{"years":5,"from":"2026-01-01"}');
**
** Single events add their days; recurring ones (a yearly RRULE) add the
** days of their occurrences from 1 January of the year of options.from
** (default: now) for options.years years (default 10, at most 100). A day
** the calendar already holds is kept as it is. Returns the number of days
** added. In one transaction with the rescheduling of the calendar's
** triggers (options.now, default the wall clock): text that is not
** iCalendar is an error that names where, and nothing is written.
*/
#include <stdio.h>
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "store/calendar_rows.h"
#include "store/json.h"
#include "store/schema.h"
#include "store/txn.h"
#include "time/civil.h"
#include "time/holiday_ics.h"
#include "trigger/calendar.h"

SQLITE_EXTENSION_INIT3

#define IMPORT_YEARS_MAX 100

typedef struct import {
  store *s;
  const char *calendar;
  i64 held;  /* days the calendar holds */
  i64 added; /* days added */
  int full;  /* it reached SCHED_CAL_MAX */
} import;

static int add_day(void *arg, int64_t day, const char *name) {
  import *im = arg;
  int y, m, d, added;
  char text[16];
  civil_date_from_days(day, &y, &m, &d);
  if (y < 1 || y > 9999) return SQLITE_OK; /* no date of the table */
  snprintf(text, sizeof text, "%04d-%02d-%02d", y, m, d);
  if (im->held >= SCHED_CAL_MAX) {
    im->full = 1;
    return SQLITE_CONSTRAINT_CHECK;
  }
  int rc = store_calendar_add(im->s, im->calendar, text, name, &added, NULL);
  im->added += added;
  im->held += added;
  return rc;
}

typedef struct import_opts {
  i64 years, from, now;
} import_opts;

/* options: {"years": 1..100, "from": instant, "now": instant}. 0, or -1
** with the error set. */
static int read_options(sqlite3_context *ctx, store *s, sqlite3_value *v,
                        import_opts *o) {
  const char *fname = "trigger_calendar_import";
  const char *json;
  char *err = NULL, buf[TRG_ECHO_MAX];
  int ob = 0;
  if (trg_value_text(v, 1, "argument 3 (options)", &json, &err) != SQLITE_OK ||
      store_json_is_object(s, json, &ob) != SQLITE_OK || !ob) {
    trg_result_error(ctx, SQLITE_ERROR, fname, "%s",
                     err ? err : "argument 3 (options) must be a JSON object");
    sqlite3_free(err);
    return -1;
  }
  store_json_each it;
  int rc = store_json_each_open(s, json, &it), bad = 0;
  while (!bad && rc == SQLITE_OK &&
         (rc = store_json_each_next(&it)) == SQLITE_ROW) {
    const char *k = it.m.key, *t = it.m.type;
    rc = SQLITE_OK;
    if (strcmp(k, "years") == 0 && strcmp(t, "integer") == 0) {
      o->years = sqlite3_value_int64(it.m.value);
      bad = o->years < 1 || o->years > IMPORT_YEARS_MAX;
    } else if ((strcmp(k, "from") == 0 || strcmp(k, "now") == 0) &&
               (strcmp(t, "integer") == 0 || strcmp(t, "text") == 0)) {
      char msg[SCHED_ERR_MAX];
      i64 *to = k[0] == 'f' ? &o->from : &o->now;
      bad = strcmp(t, "integer") == 0
                ? sched_instant_check(*to = sqlite3_value_int64(it.m.value),
                                      msg, sizeof msg) != 0
                : sched_parse_instant(it.m.text, tz_utc(), to, msg,
                                      sizeof msg) != 0;
    } else {
      bad = 1;
    }
    if (bad) {
      trg_result_error(ctx, SQLITE_ERROR, fname,
                       "argument 3 (options): %s: unknown key or bad value "
                       "(known: years, an integer 1..%d; from and now, an "
                       "instant)",
                       trg_echo(k, buf), IMPORT_YEARS_MAX);
    }
  }
  return store_json_options_end(ctx, fname, &it, bad, rc);
}

/* The import inside its transaction: SQLITE_OK, or an error with *msg. */
static int import_days(trg_ctx *c, store *s, import *im, const char *ics,
                       int len, const import_opts *o, char **msg) {
  civil_time t;
  char err[ICS_ERR_MAX];
  civil_from_ms(o->from, &t);
  int64_t from_day = civil_days_from_date(t.year, 1, 1);
  int64_t to_day = civil_days_from_date(t.year + o->years, 1, 1);
  int rc = store_calendar_count(s, im->calendar, &im->held);
  if (rc != SQLITE_OK) return rc;
  rc = ics_holidays(ics, (size_t)len, from_day, to_day, add_day, im, err,
                    sizeof err);
  if (rc == -1) {
    *msg = sqlite3_mprintf("argument 2 (ics): %s", err);
    return *msg ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (im->full) {
    *msg = sqlite3_mprintf("calendar '%s' would hold more than %d days, the "
                           "most a calendar may",
                           im->calendar, SCHED_CAL_MAX);
    return *msg ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK)
    rc = trigger_calendar_changed(c, s, im->calendar, o->now);
  return rc;
}

static void fn_import(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_calendar_import";
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  if (store_require_installed(ctx, fname) != 0) return;
  const char *calendar = trg_arg_text(ctx, fname, argv, 0, "calendar");
  if (!calendar) return;
  if (!sched_cal_name_ok(calendar)) {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "argument 1 (calendar): must be a name of 1 to %d "
                     "bytes, not blank",
                     SCHED_CAL_NAME_MAX - 1);
    return;
  }
  const char *ics = trg_arg_text(ctx, fname, argv, 1, "ics");
  if (!ics) return;
  int len = sqlite3_value_bytes(argv[1]);
  store s;
  store_init(&s, db);
  import_opts o = {10, 0, trg_wall_clock_ms()};
  o.from = o.now;
  if (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL) {
    i64 from0 = o.from = INT64_MIN;
    if (read_options(ctx, &s, argv[2], &o) != 0) {
      store_close(&s);
      return;
    }
    if (o.from == from0) o.from = o.now; /* no "from" given */
  }
import im = {& s, calendar, 0, 0, 0 };
  char *msg = NULL;
  store_txn t;
  memset(&t, 0, sizeof t);
  int rc = store_txn_begin(db, &t);
  if (rc == SQLITE_OK) {
    rc = import_days(sqlite3_user_data(ctx), &s, &im, ics, len, &o, &msg);
    store_reset_all(&s);
    rc = store_txn_end(db, &t, rc);
  }
  store_close(&s);
  if (rc != SQLITE_OK) {
    trg_result_error(ctx, rc, fname, "%s",
                     msg ? msg : store_txn_errmsg(&t, db));
    sqlite3_free(msg);
    return;
  }
  sqlite3_result_int64(ctx, im.added);
}

int sql_fn_calendar_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_calendar_import", 2, 3, TRG_FN_SIDE, fn_import},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
