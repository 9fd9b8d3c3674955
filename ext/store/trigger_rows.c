/*
** trigger_rows.c -- a trigger's rows (trigger_rows.h): one in
** triggers_data and one in triggers_state, loaded by id or trigger_id,
** inserted, saved whole or only in what a tick changes, deleted, taken
** out of the schedule (quarantine), and the lookups of a new trigger
** (its id taken, an active duplicate).
*/
#include "store/trigger_rows.h"

#include <stdlib.h>

#include "store/columns.h"
#include "store/values.h"

SQLITE_EXTENSION_INIT3

/* INSERT of one trigger table's columns: ?1.. in table_cols order, after
** an explicit id ?1 when with_id (triggers_state takes triggers_data's). */
static char *trigger_insert_sql(int state) {
  int cols[TC_NCOL + 2], n = store_table_cols(state, cols);
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "INSERT INTO main.%s(%s",
                      state ? "triggers_state" : "triggers_data",
                      state ? "id, " : "");
  for (int i = 0; i < n; i++)
    sqlite3_str_appendf(s, "%s%s", i ? ", " : "",
                        store_trigger_cols[cols[i]].name);
  sqlite3_str_appendall(s, ") VALUES(");
  for (int i = 0; i < n + state; i++)
    sqlite3_str_appendf(s, "%s?%d", i ? "," : "", i + 1);
  sqlite3_str_appendall(s, ")");
  return sqlite3_str_finish(s);
}

/* UPDATE of one trigger table's columns ?1.., WHERE id = ?(n+1). */
static char *trigger_update_sql(int state) {
  int cols[TC_NCOL + 2], n = store_table_cols(state, cols);
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "UPDATE main.%s SET ",
                      state ? "triggers_state" : "triggers_data");
  for (int i = 0; i < n; i++) {
    sqlite3_str_appendf(s, "%s%s = ?%d", i ? ", " : "",
                        store_trigger_cols[cols[i]].name, i + 1);
  }
  sqlite3_str_appendf(s, " WHERE id = ?%d", n + 1);
  return sqlite3_str_finish(s);
}

/* The state columns a tick writes (ST_TICK_UPDATE_HOT, ?2..?11 after the
** id); all but the first two: ST_TICK_COUNTS. */
static const int hot_cols[] = {TC_NEXT_DUE_AT, TC_FIRE_AT,    TC_CLAIMS,
                               TC_RUNNING,     TC_RUN_COUNT,  TC_LAST_RUN_AT,
                               TC_LAST_STATUS, TC_LAST_ERROR, TC_UPDATED_AT,
                               TC_FAIL_STREAK};
#define HOT_NCOL ((int)(sizeof hot_cols / sizeof hot_cols[0]))

/* What a fire changes when its outcome columns are as read
** (ST_TICK_FIRE, ?2..?6 after the id): the rest of hot_cols is left
** out of the UPDATE. */
static const int fire_cols[] = {TC_NEXT_DUE_AT, TC_FIRE_AT, TC_CLAIMS,
                                TC_RUNNING, TC_UPDATED_AT};
#define FIRE_NCOL ((int)(sizeof fire_cols / sizeof fire_cols[0]))

/* What a signal (or the claim that takes it) writes (ST_EVENT_SAVE, ?2..
** after the id). */
static const int event_cols[] = {
    TC_NEXT_DUE_AT,   TC_FIRE_AT,        TC_EVENT_COUNT, TC_EVENT_AT,
    TC_EVENT_PAYLOAD, TC_EVENT_FIRST_AT, TC_UPDATED_AT};
#define EVENT_NCOL ((int)(sizeof event_cols / sizeof event_cols[0]))

/* ST_TICK_FIRE_MANY: STORE_MANY rows' fire_cols in one UPDATE OR IGNORE,
** each column a CASE on the rowid; updated_at (the tick's now) is ?1,
** each row's id and other values FIRE_ROW parameters from ?2. */
#define FIRE_ROW FIRE_NCOL
static char *fire_many_sql(void) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendall(s, "UPDATE OR IGNORE main.triggers_state SET ");
  for (int c = 0; c < FIRE_NCOL - 1; c++) { /* all but updated_at */
    sqlite3_str_appendf(s, "%s = CASE id",
                        store_trigger_cols[fire_cols[c]].name);
    for (int r = 0; r < STORE_MANY; r++) {
      int at = 2 + r * FIRE_ROW;
      sqlite3_str_appendf(s, " WHEN ?%d THEN ?%d", at, at + 1 + c);
    }
    sqlite3_str_appendall(s, " END, ");
  }
  sqlite3_str_appendall(s, "updated_at = ?1 WHERE id IN (");
  for (int r = 0; r < STORE_MANY; r++)
    sqlite3_str_appendf(s, "%s?%d", r ? ", " : "", 2 + r * FIRE_ROW);
  sqlite3_str_appendall(s, ")");
  return sqlite3_str_finish(s);
}

/* The text of statement `which` (NULL: out of memory, or not one of this
** file's). */
static char *sql_text(store_sql which) {
  char *tc = store_trigger_select_list();
  char *out = NULL;
  if (!tc) goto done;
  switch (which) {
    case ST_TRIG_BY_ROWID:
      out = sqlite3_mprintf(
          "SELECT d.id, %s FROM " STORE_TRIGGER_FROM " WHERE d.id = ?1", tc);
      break;
    case ST_TRIG_BY_TID:
      out = sqlite3_mprintf("SELECT d.id, %s FROM " STORE_TRIGGER_FROM
                            " WHERE d.trigger_id = ?1",
                            tc);
      break;
    case ST_TRIG_INSERT: out = trigger_insert_sql(0); break;
    case ST_STATE_INSERT: out = trigger_insert_sql(1); break;
    case ST_TRIG_UPDATE: out = trigger_update_sql(0); break;
    case ST_STATE_UPDATE: out = trigger_update_sql(1); break;
    case ST_TRIG_DELETE:
      out = sqlite3_mprintf("DELETE FROM main.triggers_data WHERE id = ?1");
      break;
    case ST_STATE_DELETE:
      out = sqlite3_mprintf("DELETE FROM main.triggers_state WHERE id = ?1");
      break;
    case ST_TRIG_EXISTS:
      out = sqlite3_mprintf(
          "SELECT 1 FROM main.triggers_data WHERE trigger_id = ?1");
      break;
    case ST_TRIG_DUPLICATE:
      out = sqlite3_mprintf(
          "SELECT trigger_id FROM main.triggers_data INDEXED BY triggers_data_dedupe"
          " WHERE agent_id = ?1 AND dedupe_key = ?2 AND id <> ?3"
          " AND dedupe_key IS NOT NULL AND status IN ('scheduled', 'paused')");
      break;
    case ST_TICK_STATUS:
      out = sqlite3_mprintf(
          "UPDATE main.triggers_data SET status = ?2, enabled = ?3"
          " WHERE id = ?1");
      break;
    case ST_TICK_UPDATE_HOT:
      out = sqlite3_mprintf(
          "UPDATE main.triggers_state SET next_due_at = ?2, fire_at = ?3,"
          " claims = ?4, running = ?5, run_count = ?6, last_run_at = ?7,"
          " last_status = ?8, last_error = ?9, updated_at = ?10,"
          " fail_streak = ?11 WHERE id = ?1");
      break;
    case ST_TICK_FIRE:
      out = sqlite3_mprintf(
          "UPDATE main.triggers_state SET next_due_at = ?2, fire_at = ?3,"
          " claims = ?4, running = ?5, updated_at = ?6 WHERE id = ?1");
      break;
    case ST_TICK_FIRE_MANY: out = fire_many_sql(); break;
    case ST_TICK_COUNTS:
      out = sqlite3_mprintf(
          "UPDATE main.triggers_state SET claims = ?2, running = ?3,"
          " run_count = ?4, last_run_at = ?5, last_status = ?6,"
          " last_error = ?7, updated_at = ?8, fail_streak = ?9 WHERE id = ?1");
      break;
    case ST_QUARANTINE_DATA:
      /* OR IGNORE: a row whose status was changed to one outside the
      ** dedupe index may collide there when it becomes paused again;
      ** then it keeps that status (it leaves the due index all the same). */
      out =
          sqlite3_mprintf("UPDATE OR IGNORE main.triggers_data SET status = ?2,"
                          " enabled = coalesce(?3, enabled) WHERE id = ?1");
      break;
    case ST_QUARANTINE_STATE:
      out = sqlite3_mprintf(
          "UPDATE main.triggers_state SET next_due_at = NULL, fire_at = NULL,"
          " last_error = ?2, updated_at = ?3, running = coalesce(?4, running)"
          " WHERE id = ?1");
      break;
    case ST_EVENT_IDS:
      out = sqlite3_mprintf(
          "SELECT id FROM main.triggers_data INDEXED BY triggers_data_event"
          " WHERE event_key = ?1 AND event_key IS NOT NULL"
          " AND status = 'scheduled'");
      break;
    case ST_EVENT_ANY_RUN:
      out = sqlite3_mprintf(
          "SELECT 1 FROM main.triggers_data INDEXED BY triggers_data_event"
          " WHERE event_key >= 'run:' AND event_key < 'run;'"
          " AND event_key IS NOT NULL AND status = 'scheduled' LIMIT 1");
      break;
    case ST_EVENT_SAVE:
      out = sqlite3_mprintf(
          "UPDATE main.triggers_state SET next_due_at = ?2, fire_at = ?3,"
          " event_count = ?4, event_at = ?5, event_payload = ?6,"
          " event_first_at = ?7, updated_at = ?8 WHERE id = ?1");
      break;
    default: break;
  }
done:
  sqlite3_free(tc);
  return out;
}

static int row_step(sqlite3_stmt *st, trg_row *r) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    int rr = store_row_read(st, 0, r);
    if (rr != SQLITE_OK) rc = rr;
  }
  sqlite3_reset(st);
  return rc;
}

int store_trigger_load(store *s, const char *trigger_id, trg_row *r) {
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_BY_TID, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  return row_step(st, r);
}

int store_trigger_load_id(store *s, i64 id, trg_row *r) {
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_BY_ROWID, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, id);
  return row_step(st, r);
}

/* Run one cached statement to completion with a trigger table's columns
** bound: INSERT (ids: the id first, for triggers_state) or UPDATE (the id
** last). */
static int table_write(store *s, store_sql which, int state, int id_first,
                       const trg_row *r) {
  int cols[TC_NCOL + 2], n = store_table_cols(state, cols);
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  int rc = SQLITE_OK;
  if (id_first >= 0) {
    rc = id_first ? sqlite3_bind_int64(st, 1, r->id)
                  : sqlite3_bind_int64(st, n + 1, r->id);
  }
  if (rc == SQLITE_OK)
    rc = store_table_bind(st, id_first > 0 ? 2 : 1, r, cols, n);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_trigger_insert(store *s, trg_row *r) {
  if (trg_vals_poisoned(r->v, TC_NCOL)) return SQLITE_NOMEM;
  int rc = table_write(s, ST_TRIG_INSERT, 0, -1, r);
  if (rc != SQLITE_OK) return rc;
  r->id = sqlite3_last_insert_rowid(s->db);
  return table_write(s, ST_STATE_INSERT, 1, 1, r);
}

int store_trigger_save(store *s, const trg_row *r) {
  if (trg_vals_poisoned(r->v, TC_NCOL)) return SQLITE_NOMEM;
  int rc = table_write(s, ST_TRIG_UPDATE, 0, 0, r);
  return rc == SQLITE_OK ? table_write(s, ST_STATE_UPDATE, 1, 0, r) : rc;
}

int store_trigger_delete(store *s, i64 id) {
  int rc = SQLITE_OK;
  for (int i = 0; i < 2 && rc == SQLITE_OK; i++) {
    sqlite3_stmt *st =
        store_stmt(s, i ? ST_STATE_DELETE : ST_TRIG_DELETE, sql_text);
    if (!st) return store_err(s);
    sqlite3_bind_int64(st, 1, id);
    rc = sqlite3_step(st);
    sqlite3_reset(st);
    rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  return rc;
}

/* One cached UPDATE of the tick: ?1 id, ?2.. the columns cols[]. */
static int tick_write(store *s, store_sql which, const trg_row *r,
                      const int *cols, int n) {
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  int rc = sqlite3_bind_int64(st, 1, r->id);
  if (rc == SQLITE_OK) rc = store_table_bind(st, 2, r, cols, n);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_trigger_save_tick(store *s, const trg_row *r, int changed) {
  /* ?2.. in ST_TICK_STATUS order (ST_TICK_UPDATE_HOT: hot_cols). */
  static const int status_cols[] = {TC_STATUS, TC_ENABLED};
  if (trg_vals_poisoned(r->v, TC_NCOL)) return SQLITE_NOMEM;
  int rc = SQLITE_OK;
  if (changed & SAVE_STATUS) {
    rc = tick_write(s, ST_TICK_STATUS, r, status_cols, 2);
  }
  if (rc != SQLITE_OK) return rc;
  if ((changed & SAVE_SCHEDULE) && (changed & SAVE_OUTCOME_SAME)) {
    return tick_write(s, ST_TICK_FIRE, r, fire_cols, FIRE_NCOL);
  }
  if (changed & SAVE_SCHEDULE) {
    return tick_write(s, ST_TICK_UPDATE_HOT, r, hot_cols, HOT_NCOL);
  }
  return tick_write(s, ST_TICK_COUNTS, r, hot_cols + 2, HOT_NCOL - 2);
}

static int by_rowid(const void *a, const void *b) {
  i64 x = (*(trg_row *const *)a)->id, y = (*(trg_row *const *)b)->id;
  return (x > y) - (x < y);
}

/* Whether row r's write is a fire's (ST_TICK_FIRE) with updated_at as
** row first's (NULL: r's own). */
static int fire_shaped(const trg_row *r, const trg_row *first) {
  const trg_val *u = &r->v[TC_UPDATED_AT];
  if (!trg_row_outcome_stored(r) || u->null || trg_vals_poisoned(r->v, TC_NCOL))
    return 0;
  return !first || u->i == first->v[TC_UPDATED_AT].i;
}

/* The fires of rows[0..STORE_MANY) in one statement; *all: each row was
** written (an UPDATE OR IGNORE skips a row it cannot write: then they
** are written one by one, which says why). */
static int fire_many(store *s, trg_row *const *rows, int *all) {
  sqlite3_stmt *st = store_stmt(s, ST_TICK_FIRE_MANY, sql_text);
  *all = 0;
  if (!st) return store_err(s);
  int rc = sqlite3_bind_int64(st, 1, rows[0]->v[TC_UPDATED_AT].i);
  for (int r = 0; r < STORE_MANY && rc == SQLITE_OK; r++) {
    int at = 2 + r * FIRE_ROW;
    rc = sqlite3_bind_int64(st, at, rows[r]->id);
    if (rc == SQLITE_OK)
      rc = store_table_bind(st, at + 1, rows[r], fire_cols, FIRE_NCOL - 1);
  }
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc != SQLITE_DONE) return rc;
  *all = sqlite3_changes(s->db) == STORE_MANY;
  return SQLITE_OK;
}

int store_tick_hot_all(store *s, trg_row **rows, int n) {
  /* In rowid order: each is a row of its own, so the order changes
  ** nothing written, and the table's pages are walked once each instead
  ** of at random. STORE_MANY fires in a row go in one UPDATE: 21.9k ->
  ** 19.6k instructions a fire against one statement a row (8 a
  ** statement: 21.1k, 32: 20.0k; an UPDATE ... FROM (VALUES ...) measured
  ** slower: it materializes the values). bench/README.md has the rest. */
  qsort(rows, (size_t)n, sizeof(trg_row *), by_rowid);
  int rc = SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK;) {
    int k = 0;
    while (k < STORE_MANY && i + k < n &&
           fire_shaped(rows[i + k], k ? rows[i] : NULL))
      k++;
    int all = 0;
    if (k == STORE_MANY && (rc = fire_many(s, rows + i, &all)) != SQLITE_OK)
      return rc;
    if (all) {
      i += k;
      continue;
    }
    /* one row (or a chunk not all written) by itself */
    for (int end = k == STORE_MANY ? i + k : i + 1; i < end && rc == SQLITE_OK;
         i++) {
      int same = trg_row_outcome_stored(rows[i]);
      rc = store_trigger_save_tick(
          s, rows[i], SAVE_SCHEDULE | (same ? SAVE_OUTCOME_SAME : 0));
      if (!same) trg_row_forget_outcome(rows[i]);
    }
  }
  return rc;
}

int store_trigger_quarantine(store *s, i64 id, const char *status, int paused,
                             const char *why, i64 now, i64 running) {
  sqlite3_stmt *st = store_stmt(s, ST_QUARANTINE_DATA, sql_text);
  if (!st) return store_err(s);
  int rc = sqlite3_bind_int64(st, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, status, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK && paused) rc = sqlite3_bind_int(st, 3, 0);
  rc = store_step_done(st, rc);
  if (rc != SQLITE_OK) return rc;
  if (!(st = store_stmt(s, ST_QUARANTINE_STATE, sql_text))) return store_err(s);
  rc = sqlite3_bind_int64(st, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, why, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 3, now);
  if (rc == SQLITE_OK && running >= 0) rc = sqlite3_bind_int64(st, 4, running);
  return store_step_done(st, rc);
}

int store_event_trigger_ids(store *s, const char *key, i64 **ids, int *n) {
  *ids = NULL;
  *n = 0;
  sqlite3_stmt *st = store_stmt(s, ST_EVENT_IDS, sql_text);
  if (!st) return store_err(s);
  int rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC), cap = 0;
  while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (*n == cap) {
      cap = cap ? 2 * cap : 8;
      i64 *grown = sqlite3_realloc64(*ids, (sqlite3_uint64)cap * sizeof **ids);
      if (!grown) {
        rc = SQLITE_NOMEM;
        break;
      }
      *ids = grown;
    }
    (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    rc = SQLITE_OK;
  }
  sqlite3_reset(st);
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc != SQLITE_OK) {
    sqlite3_free(*ids);
    *ids = NULL;
    *n = 0;
  }
  return rc;
}

int store_event_any_chain(store *s, int *any) {
  *any = 0;
  sqlite3_stmt *st = store_stmt(s, ST_EVENT_ANY_RUN, sql_text);
  if (!st) return store_err(s);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  *any = rc == SQLITE_ROW;
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_trigger_save_event(store *s, const trg_row *r) {
  if (trg_vals_poisoned(r->v, TC_NCOL)) return SQLITE_NOMEM;
  return tick_write(s, ST_EVENT_SAVE, r, event_cols, EVENT_NCOL);
}

int store_trigger_exists(store *s, const char *trigger_id, int *found) {
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_EXISTS, sql_text);
  *found = 0;
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  *found = rc == SQLITE_ROW;
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_trigger_duplicate(store *s, const char *agent_id,
                            const char *dedupe_key, i64 id, char **existing) {
  *existing = NULL;
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_DUPLICATE, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, agent_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, dedupe_key, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, id);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *existing = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
    rc = *existing ? SQLITE_OK : SQLITE_NOMEM;
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  }
  sqlite3_reset(st);
  return rc;
}
