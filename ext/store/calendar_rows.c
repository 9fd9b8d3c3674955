/*
** calendar_rows.c -- the rows of triggers_calendar (calendar_rows.h): one
** per (calendar, day), found by its UNIQUE index; a calendar's triggers by
** triggers_data_calendar (schema.c).
*/
#include "store/calendar_rows.h"

#include <string.h>

#include "time/civil.h"

SQLITE_EXTENSION_INIT3

static char *sql_text(store_sql which) {
  switch (which) {
    case ST_CAL_INSERT:
      return sqlite3_mprintf("INSERT OR IGNORE INTO main.triggers_calendar"
                             "(calendar, day, name) VALUES(?1, ?2, ?3)");
    case ST_CAL_BY_ID:
      return sqlite3_mprintf("SELECT calendar, day, name FROM"
                             " main.triggers_calendar WHERE id = ?1");
    case ST_CAL_UPDATE:
      return sqlite3_mprintf("UPDATE main.triggers_calendar SET calendar = ?2,"
                             " day = ?3, name = ?4 WHERE id = ?1");
    case ST_CAL_DELETE:
      return sqlite3_mprintf(
          "DELETE FROM main.triggers_calendar WHERE id = ?1");
    case ST_CAL_DAYS:
      return sqlite3_mprintf("SELECT day FROM main.triggers_calendar"
                             " WHERE calendar = ?1 ORDER BY day LIMIT ?2");
    case ST_CAL_COUNT:
      return sqlite3_mprintf("SELECT count(*) FROM main.triggers_calendar"
                             " WHERE calendar = ?1");
    case ST_CAL_TRIGGERS:
      return sqlite3_mprintf("SELECT id FROM main.triggers_data"
                             " INDEXED BY triggers_data_calendar"
                             " WHERE calendar = ?1 AND status = 'scheduled'");
    default: return NULL;
  }
}

int store_calendar_add(store *s, const char *calendar, const char *day,
                       const char *name, int *added, i64 *rowid) {
  sqlite3_stmt *st = store_stmt(s, ST_CAL_INSERT, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, calendar, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, day, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, name ? name : "", -1, SQLITE_STATIC);
  int rc = store_step_done(st, SQLITE_OK);
  *added = rc == SQLITE_OK && sqlite3_changes(s->db) > 0;
  if (rowid) *rowid = sqlite3_last_insert_rowid(s->db);
  return rc;
}

static char *copy_col(sqlite3_stmt *st, int i, int *rc) {
  const char *t = (const char *)sqlite3_column_text(st, i);
  char *out = sqlite3_mprintf("%s", t ? t : "");
  if (!out) *rc = SQLITE_NOMEM;
  return out;
}

int store_calendar_get(store *s, i64 id, char **calendar, char **day,
                       char **name) {
  sqlite3_stmt *st = store_stmt(s, ST_CAL_BY_ID, sql_text);
  *calendar = *day = *name = NULL;
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, id);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *calendar = copy_col(st, 0, &rc);
    *day = copy_col(st, 1, &rc);
    *name = copy_col(st, 2, &rc);
  }
  sqlite3_reset(st);
  return rc;
}

int store_calendar_set(store *s, i64 id, const char *calendar, const char *day,
                       const char *name) {
  sqlite3_stmt *st = store_stmt(s, ST_CAL_UPDATE, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_text(st, 2, calendar, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, day, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, name ? name : "", -1, SQLITE_STATIC);
  return store_step_done(st, SQLITE_OK);
}

int store_calendar_remove(store *s, i64 id) {
  sqlite3_stmt *st = store_stmt(s, ST_CAL_DELETE, sql_text);
  if (!st) return store_err(s);
  return store_step_done(st, sqlite3_bind_int64(st, 1, id));
}

int store_calendar_count(store *s, const char *calendar, i64 *n) {
  sqlite3_stmt *st = store_stmt(s, ST_CAL_COUNT, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, calendar, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  *n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

/* 'YYYY-MM-DD' (the table's CHECK holds its shape) as days. */
static int32_t day_number(const char *t) {
  int y = 0, m = 0, d = 0;
  for (int i = 0; i < 4; i++) y = y * 10 + (t[i] - '0');
  m = (t[5] - '0') * 10 + (t[6] - '0');
  d = (t[8] - '0') * 10 + (t[9] - '0');
  return (int32_t)civil_days_from_date(y, m, d);
}

int store_calendar_days(store *s, const char *calendar, int32_t *out, int max,
                        int *n) {
  sqlite3_stmt *st = store_stmt(s, ST_CAL_DAYS, sql_text);
  *n = 0;
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, calendar, -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 2, max);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    if (t && strlen(t) == 10) out[(*n)++] = day_number(t);
  }
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_calendar_triggers_open(store *s, const char *calendar,
                                 store_cursor *c) {
  c->which = ST_CAL_TRIGGERS;
  c->st = store_stmt(s, ST_CAL_TRIGGERS, sql_text);
  if (!c->st) return store_err(s);
  sqlite3_bind_text(c->st, 1, calendar, -1, SQLITE_TRANSIENT);
  return SQLITE_OK;
}

int store_calendar_triggers_next(store_cursor *c, i64 *id) {
  int rc = sqlite3_step(c->st);
  if (rc == SQLITE_ROW) *id = sqlite3_column_int64(c->st, 0);
  return rc;
}
