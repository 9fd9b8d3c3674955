/*
** vtab_calendar.c -- the `trigger_calendar_days` virtual table
** (docs/calendar.md#holidays-and-business-days): the days of the holiday
** calendars that cron and rrule triggers name in `calendar`, one row per
** (calendar, day), read from the shadow table triggers_calendar.
**
**   INSERT INTO trigger_calendar_days(calendar, day, name)
**     VALUES ('us', '2026-07-03', 'Independence Day (observed)');
**   DELETE FROM trigger_calendar_days WHERE calendar = 'us' AND day = ?;
**   SELECT day, name FROM trigger_calendar_days WHERE calendar = 'us';
**
** The application writes it (or trigger_calendar_import does): INSERT,
** UPDATE and DELETE check each value (a calendar name of 1..63 bytes, a
** real date 'YYYY-MM-DD', a name of text), and every change reschedules
** the scheduled triggers of the calendars it touches in the same
** statement (trigger/calendar.h). Lookups by calendar (and day) are index
** probes. Innocuous, like the other tables.
*/
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "sql/vtab_scan.h"
#include "store/calendar_rows.h"
#include "time/civil.h"
#include "trigger/calendar.h"

SQLITE_EXTENSION_INIT3

static const scan_key calendar_keys[] = {
    {CC_CALENDAR, 0, 10.0, 0},
    {CC_DAY, 0, 50.0, 0},
};

static const scan_desc calendar_desc = {
    "trigger_calendar_days", STORE_VTAB_CALENDAR,
    store_calendar_cols,     CC_NCOL,
    calendar_keys,           sizeof calendar_keys / sizeof calendar_keys[0]};

static int calendar_connect(sqlite3 *db, void *aux, int argc,
                            const char *const *argv, sqlite3_vtab **out,
                            char **err) {
  return sql_scan_connect_reader(db, aux, &calendar_desc, argc, argv, out, err);
}

/* A day: 'YYYY-MM-DD' that names a real date. */
static int is_day(const char *t) {
  if (strlen(t) != 10 || t[4] != '-' || t[7] != '-') return 0;
  for (int i = 0; i < 10; i++) {
    if (i != 4 && i != 7 && (t[i] < '0' || t[i] > '9')) return 0;
  }
  int y = (t[0] - '0') * 1000 + (t[1] - '0') * 100 + (t[2] - '0') * 10 +
          (t[3] - '0');
  int m = (t[5] - '0') * 10 + (t[6] - '0');
  int d = (t[8] - '0') * 10 + (t[9] - '0');
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 &&
         d <= civil_days_in_month(y, m);
}

/* One row's values, checked: texts valid UTF-8; *name '' for NULL; an
** UPDATE's unchanged column its old value (old; NULL for an INSERT).
** SQLITE_OK, or an error with *msg naming the column. */
static int read_day_row(sqlite3_value **v, char *const *old,
                        const char **calendar, const char **day,
                        const char **name, char **msg) {
  static const char *const what[] = {"trigger_calendar_days.calendar",
                                     "trigger_calendar_days.day",
                                     "trigger_calendar_days.name"};
  const char **out[] = {calendar, day, name};
  char buf[TRG_ECHO_MAX];
  for (int i = 0; i < CC_NCOL; i++) {
    if (old && sqlite3_value_nochange(v[i])) {
      *out[i] = old[i];
      continue;
    }
    int type = sqlite3_value_type(v[i]);
    if (type == SQLITE_NULL && i == CC_NAME) {
      *name = "";
      continue;
    }
    if (type == SQLITE_NULL) {
      *msg = sqlite3_mprintf("NOT NULL constraint failed: %s", what[i]);
      return *msg ? SQLITE_CONSTRAINT_NOTNULL : SQLITE_NOMEM;
    }
    if (type != SQLITE_TEXT) {
      *msg = sqlite3_mprintf("%s: must be text", what[i]);
      return *msg ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
    }
    int rc = trg_value_text(v[i], 0, what[i], out[i], msg);
    if (rc != SQLITE_OK)
      return rc == SQLITE_ERROR ? SQLITE_CONSTRAINT_CHECK : rc;
  }
  if (!sched_cal_name_ok(*calendar)) {
    *msg = sqlite3_mprintf("trigger_calendar_days.calendar: must be a name "
                           "of 1 to %d bytes, not blank",
                           SCHED_CAL_NAME_MAX - 1);
    return *msg ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
  }
  if (!is_day(*day)) {
    *msg = sqlite3_mprintf("trigger_calendar_days.day: '%s' is not a date "
                           "(YYYY-MM-DD)",
                           trg_echo(*day, buf));
    return *msg ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* A calendar that would hold more days than a schedule reads. */
static int check_room(store *s, const char *calendar, char **msg) {
  i64 n;
  int rc = store_calendar_count(s, calendar, &n);
  if (rc != SQLITE_OK || n < SCHED_CAL_MAX) return rc;
  *msg = sqlite3_mprintf("trigger_calendar_days: calendar '%s' holds %d "
                         "days, the most a calendar may",
                         calendar, SCHED_CAL_MAX);
  return *msg ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
}

static int do_insert(scan_tab *t, sqlite3_value **v, sqlite3_int64 *rowid,
                     char **msg) {
  const char *calendar, *day, *name;
  int added = 0;
  i64 id = 0;
  int rc = read_day_row(v, NULL, &calendar, &day, &name, msg);
  if (rc == SQLITE_OK) rc = check_room(&t->st, calendar, msg);
  if (rc == SQLITE_OK)
    rc = store_calendar_add(&t->st, calendar, day, name, &added, &id);
  *rowid = id;
  if (rc == SQLITE_OK && !added) {
    *msg = sqlite3_mprintf("UNIQUE constraint failed: calendar '%s' already "
                           "holds %s",
                           calendar, day);
    return *msg ? SQLITE_CONSTRAINT_UNIQUE : SQLITE_NOMEM;
  }
  if (rc == SQLITE_OK)
    rc =
        trigger_calendar_changed(t->ctx, &t->st, calendar, trg_wall_clock_ms());
  return rc;
}

static int do_update(scan_tab *t, i64 id, sqlite3_value **v, char **msg) {
  const char *calendar, *day, *name;
  char *old[CC_NCOL];
  int rc = store_calendar_get(&t->st, id, &old[0], &old[1], &old[2]);
  char *old_cal = old[0];
  if (rc == SQLITE_DONE) {
    rc = SQLITE_OK; /* the row vanished: nothing to update */
  } else if (rc == SQLITE_ROW && (rc = read_day_row(v, old, &calendar, &day,
                                                    &name, msg)) == SQLITE_OK) {
    int moved = strcmp(old_cal, calendar) != 0;
    rc = moved ? check_room(&t->st, calendar, msg) : SQLITE_OK;
    if (rc == SQLITE_OK)
      rc = store_calendar_set(&t->st, id, calendar, day, name);
    if ((rc & 0xff) == SQLITE_CONSTRAINT && !*msg) {
      *msg = sqlite3_mprintf("UNIQUE constraint failed: calendar '%s' "
                             "already holds %s",
                             calendar, day);
    }
    i64 now = trg_wall_clock_ms();
    if (rc == SQLITE_OK)
      rc = trigger_calendar_changed(t->ctx, &t->st, calendar, now);
    if (rc == SQLITE_OK && moved)
      rc = trigger_calendar_changed(t->ctx, &t->st, old_cal, now);
  }
  for (int i = 0; i < CC_NCOL; i++) sqlite3_free(old[i]);
  return rc;
}

static int do_delete(scan_tab *t, i64 id) {
  char *calendar, *day, *name;
  int rc = store_calendar_get(&t->st, id, &calendar, &day, &name);
  if (rc == SQLITE_ROW) {
    rc = store_calendar_remove(&t->st, id);
    if (rc == SQLITE_OK)
      rc = trigger_calendar_changed(t->ctx, &t->st, calendar,
                                    trg_wall_clock_ms());
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  }
  sqlite3_free(calendar);
  sqlite3_free(day);
  sqlite3_free(name);
  return rc;
}

static int calendar_update(sqlite3_vtab *tab, int argc, sqlite3_value **argv,
                           sqlite3_int64 *rowid) {
  scan_tab *t = (scan_tab *)tab;
  char *msg = NULL;
  int rc = sql_scan_refuse_in_preload(tab);
  if (rc != SQLITE_OK) return rc;
  if (argc == 1) {
    rc = do_delete(t, sqlite3_value_int64(argv[0]));
  } else if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    rc = do_insert(t, argv + 2, rowid, &msg);
  } else if (sqlite3_value_int64(argv[0]) != sqlite3_value_int64(argv[1])) {
    msg = sqlite3_mprintf("trigger_calendar_days: the rowid cannot be changed");
    rc = msg ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
  } else {
    rc = do_update(t, sqlite3_value_int64(argv[0]), argv + 2, &msg);
  }
  if (rc != SQLITE_OK && !msg && rc != SQLITE_NOMEM)
    msg = sqlite3_mprintf("%s", trg_errmsg(t->db, rc));
  if (msg) sql_scan_error(tab, rc, msg);
  return rc;
}

static sqlite3_module calendar_module = {
    /* iVersion    */ 3,
    /* xCreate     */ calendar_connect,
    /* xConnect    */ calendar_connect,
    /* xBestIndex  */ sql_scan_best_index,
    /* xDisconnect */ sql_scan_disconnect,
    /* xDestroy    */ sql_scan_disconnect,
    /* xOpen       */ sql_scan_open,
    /* xClose      */ sql_scan_close,
    /* xFilter     */ sql_scan_filter,
    /* xNext       */ sql_scan_next,
    /* xEof        */ sql_scan_eof,
    /* xColumn     */ sql_scan_column,
    /* xRowid      */ sql_scan_rowid,
    /* xUpdate     */ calendar_update,
    /* xBegin      */ 0,
    /* xSync       */ 0,
    /* xCommit     */ 0,
    /* xRollback   */ 0,
    /* xFindMethod */ 0,
    /* xRename     */ sql_scan_rename,
    /* xSavepoint  */ 0,
    /* xRelease    */ 0,
    /* xRollbackTo */ 0,
    /* xShadowName */ 0,
};

int sql_vtab_calendar_register(sqlite3 *db, trg_ctx *ctx) {
  trg_ctx_retain(ctx);
  return sqlite3_create_module_v2(db, "trigger_calendar_days", &calendar_module,
                                  ctx, trg_ctx_release);
}
