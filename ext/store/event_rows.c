/*
** event_rows.c -- the event log's rows (event_rows.h): appended by one cached
** INSERT (the time and trigger_id indexes; the create action's kinds
** also enter a partial index, schema.c).
*/
#include "store/event_rows.h"

SQLITE_EXTENSION_INIT3

#ifndef TRIGGERS_BENCH_NO_EVENTS
static char *sql_text(store_sql which) {
  if (which != ST_EVENT_INSERT) return NULL;
  return sqlite3_mprintf(
      "INSERT INTO main.triggers_events(at, agent_id, scope, trigger_id,"
      " kind, code, detail) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
}

static void bind_text(sqlite3_stmt *st, int i, const char *t) {
  if (t) sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
  else sqlite3_bind_null(st, i);
}
#endif

int store_event_append(store *s, const store_event *e) {
#ifdef TRIGGERS_BENCH_NO_EVENTS /* bench/events_tick.c's baseline build */
  (void)s;
  (void)e;
  return SQLITE_OK;
#else
  sqlite3_stmt *st = store_stmt(s, ST_EVENT_INSERT, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, e->at);
  bind_text(st, 2, e->agent_id ? e->agent_id : "");
  bind_text(st, 3, e->scope ? e->scope : "");
  bind_text(st, 4, e->trigger_id);
  bind_text(st, 5, e->kind);
  bind_text(st, 6, e->code);
  bind_text(st, 7, e->detail);
  return store_step_done(st, SQLITE_OK);
#endif
}
