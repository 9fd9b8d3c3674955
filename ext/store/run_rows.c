/*
** run_rows.c -- a run's row in triggers_rundata (run_rows.h): loaded by
** run_id (through its key: run_key.h), inserted one at a time or STORE_MANY per statement (the tick's
** write-behind), saved in its changing columns, closed, deleted, and the
** lookups of a trigger's runs (one pending, the last incarnation).
*/
#include "store/run_rows.h"

#include <string.h>

#include "store/columns.h"
#include "store/run_key.h"
#include "store/values.h"

SQLITE_EXTENSION_INIT3

/* The columns of a run that change after its insert (ST_RUN_UPDATE). Its
** identity (run_id, trigger_id, agent_id, scheduled_for, attempt,
** incarnation) and payload never do: an UPDATE that does not name them
** leaves the indexes on them alone (two of them unique and in random
** order: a page each per finished run otherwise). */
static const int run_state_cols[] = {RC_STATUS,
                                     RC_OWNER,
                                     RC_CLAIMED_AT,
                                     RC_LEASE_UNTIL,
                                     RC_FINISHED_AT,
                                     RC_LATENCY_MS,
                                     RC_ERROR,
                                     RC_RESULT,
                                     RC_RETRY_AT,
                                     RC_DEFERRALS,
                                     RC_LEASE_MS,
                                     RC_USAGE,
                                     RC_CANCEL_REQUESTED_AT};
#define RUN_STATE_NCOL ((int)(sizeof run_state_cols / sizeof run_state_cols[0]))

/* What a running run's end changes (ST_RUN_END): its lease, retry and
** claim stay as they are, and an UPDATE that does not name retry_at
** leaves the retry index alone. */
static const int run_end_cols[] = {RC_STATUS, RC_FINISHED_AT, RC_LATENCY_MS,
                                   RC_ERROR,  RC_RESULT,      RC_USAGE};
#define RUN_END_NCOL ((int)(sizeof run_end_cols / sizeof run_end_cols[0]))

/* UPDATE main.triggers_rundata SET <cols> = ?1.. WHERE id = ?(n + 1). */
static char *run_update_sql(const int *cols, int n) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendall(s, "UPDATE main.triggers_rundata SET ");
  for (int i = 0; i < n; i++) {
    sqlite3_str_appendf(s, "%s%s = ?%d", i ? ", " : "",
                        store_run_cols[cols[i]].name, i + 1);
  }
  sqlite3_str_appendf(s, " WHERE id = ?%d", n + 1);
  return sqlite3_str_finish(s);
}

/* INSERT of STORE_MANY run rows (columns cols), ?1.. row after row. */
static char *runs_insert_many_sql(const char *cols) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(
      s, "INSERT OR IGNORE INTO main.triggers_rundata(%s) VALUES", cols);
  for (int r = 0; r < STORE_MANY; r++) {
    for (int i = 0; i < RC_NCOL; i++) {
      sqlite3_str_appendf(s, "%s?%d",
                          i   ? ","
                          : r ? ",("
                              : "(",
                          r * RC_NCOL + i + 1);
    }
    sqlite3_str_appendall(s, ")");
  }
  return sqlite3_str_finish(s);
}

/* A claim's runs (ST_RUN_CLAIM_MANY): what differs from run to run, bound
** per row; what a tick's claims share (the status and the claim, lease or
** end the tick gave them), bound once per statement as ?1..; and the
** columns they leave at the table's default (NULL, deferrals 0), not
** named. A run of another shape (an outcome with its error, a re-offer)
** goes in through ST_RUN_INSERT_MANY / ST_RUN_INSERT: the rows written
** are the same, with a third of the binds (bench/README.md). */
static const int claim_own_cols[] = {
    RC_RUN_ID,  RC_TRIGGER_ID,  RC_AGENT_ID, RC_SCHEDULED_FOR,
    RC_ATTEMPT, RC_INCARNATION, RC_PAYLOAD};
static const int claim_shared_cols[] = {
    RC_STATUS,   RC_OWNER,       RC_CLAIMED_AT, RC_LEASE_UNTIL,
    RC_LEASE_MS, RC_FINISHED_AT, RC_LATENCY_MS};
static const int claim_null_cols[] = {RC_ERROR,    RC_RESULT,
                                      RC_USAGE,    RC_CANCEL_REQUESTED_AT,
                                      RC_RETRY_AT, RC_RETRY_OF};
#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define CLAIM_OWN NCOLS(claim_own_cols)
#define CLAIM_SHARED NCOLS(claim_shared_cols)

/* INSERT of STORE_MANY runs of one claim's shape (claim_own_cols). */
static char *runs_claim_many_sql(void) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendall(s, "INSERT OR IGNORE INTO main.triggers_rundata(");
  for (int i = 0; i < CLAIM_OWN; i++)
    sqlite3_str_appendf(s, "%s, ", store_run_cols[claim_own_cols[i]].name);
  for (int i = 0; i < CLAIM_SHARED; i++)
    sqlite3_str_appendf(s, "%s%s", i ? ", " : "",
                        store_run_cols[claim_shared_cols[i]].name);
  sqlite3_str_appendall(s, ") VALUES");
  for (int r = 0; r < STORE_MANY; r++) {
    sqlite3_str_appendall(s, r ? ",(" : "(");
    for (int i = 0; i < CLAIM_OWN; i++)
      sqlite3_str_appendf(s, "?%d,", CLAIM_SHARED + r * CLAIM_OWN + i + 1);
    for (int i = 0; i < CLAIM_SHARED; i++)
      sqlite3_str_appendf(s, "%s?%d", i ? "," : "", i + 1);
    sqlite3_str_appendall(s, ")");
  }
  return sqlite3_str_finish(s);
}

/* The text of statement `which` (NULL: out of memory, or not one of this
** file's). */
static char *sql_text(store_sql which) {
  char *rc = store_col_list(store_run_cols, RC_NCOL, "");
  char *out = NULL;
  if (!rc) goto done;
  switch (which) {
    case ST_RUN_INSERT: {
      char *p = store_param_list(RC_NCOL);
      if (p)
        out = sqlite3_mprintf(
            "INSERT OR IGNORE INTO main.triggers_rundata(%s) VALUES(%s)", rc,
            p);
      sqlite3_free(p);
      break;
    }
    case ST_RUN_INSERT_MANY: out = runs_insert_many_sql(rc); break;
    case ST_RUN_CLAIM_MANY: out = runs_claim_many_sql(); break;
    case ST_RUNS_MARK:
      out = sqlite3_mprintf("SELECT max(id) FROM main.triggers_rundata");
      break;
    case ST_RUNS_DROP_AFTER:
      out = sqlite3_mprintf("DELETE FROM main.triggers_rundata WHERE id > ?1");
      break;
    case ST_RUN_BY_ID:
      out = sqlite3_mprintf(
          "SELECT id, %s FROM main.triggers_rundata WHERE trigger_id = ?2"
          " AND incarnation = ?3 AND scheduled_for = ?4 AND attempt = ?5"
          " AND run_id = ?1",
          rc);
      break;
    case ST_RUN_UPDATE:
      out = run_update_sql(run_state_cols, RUN_STATE_NCOL);
      break;
    case ST_RUN_END: out = run_update_sql(run_end_cols, RUN_END_NCOL); break;
    case ST_RUN_RUNNING:
      out = sqlite3_mprintf("SELECT run_id FROM main.triggers_rundata"
                            " WHERE id = ?1 AND status = 'running'");
      break;
    case ST_RUN_DELETE:
      out = sqlite3_mprintf("DELETE FROM main.triggers_rundata WHERE id = ?1");
      break;
    case ST_RUN_CLOSE:
      out = sqlite3_mprintf(
          "UPDATE main.triggers_rundata SET status = ?2, error = ?3,"
          " finished_at = ?4, retry_at = NULL WHERE id = ?1");
      break;
    case ST_RUN_PENDING_FOR:
      out = sqlite3_mprintf(
          "SELECT 1 FROM main.triggers_rundata WHERE trigger_id = ?1"
          " AND incarnation = ?2"
          " AND (retry_at IS NOT NULL OR status = 'running') LIMIT 1");
      break;
    case ST_RUN_HOLDING_FOR:
      /* newest first: a running run is among a trigger's latest */
      out = sqlite3_mprintf(
          "SELECT 1 FROM main.triggers_rundata WHERE trigger_id = ?1"
          " AND incarnation = ?2 AND status = 'running'"
          " ORDER BY scheduled_for DESC, attempt DESC LIMIT 1");
      break;
    case ST_RUN_LAST_INCARNATION:
      out = sqlite3_mprintf(
          "SELECT incarnation FROM main.triggers_rundata WHERE trigger_id = ?1"
          " ORDER BY incarnation DESC LIMIT 1");
      break;
    case ST_RUN_LATEST_ATTEMPT:
      out = sqlite3_mprintf(
          "SELECT id, %s FROM main.triggers_rundata WHERE trigger_id = ?1"
          " AND incarnation = ?2 AND scheduled_for = ?3"
          " ORDER BY attempt DESC LIMIT 1",
          rc);
      break;
    default: break;
  }
done:
  sqlite3_free(rc);
  return out;
}

/* Step a bound read of one run into r and reset it: SQLITE_ROW, or
** SQLITE_DONE when there is none. */
static int run_step(sqlite3_stmt *st, trg_run *r) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    int rr = store_run_read(st, 0, r);
    if (rr != SQLITE_OK) rc = rr;
  }
  sqlite3_reset(st);
  return rc;
}

int store_run_latest_attempt(store *s, const char *trigger_id, i64 incarnation,
                             i64 scheduled_for, trg_run *r) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_LATEST_ATTEMPT, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, incarnation);
  sqlite3_bind_int64(st, 3, scheduled_for);
  return run_step(st, r);
}

int store_run_load(store *s, const char *run_id, trg_run *r) {
  store_run_key k;
  if (!store_run_key_parse(run_id, &k)) return SQLITE_DONE; /* names none */
  sqlite3_stmt *st = store_stmt(s, ST_RUN_BY_ID, sql_text);
  if (!st) return store_err(s);
  int rc = store_run_key_bind(st, 2, &k);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
  if (rc != SQLITE_OK) {
    sqlite3_reset(st);
    return rc;
  }
  return run_step(st, r);
}

int store_run_insert(store *s, const trg_run *r) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_INSERT, sql_text);
  if (!st) return store_err(s);
  int rc = store_vals_bind(st, 1, store_run_cols, RC_NCOL, r->v);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Whether two values are the same (both NULL, or the same integer or
** text). */
static int val_same(const trg_val *a, const trg_val *b, char kind) {
  if (a->null || b->null) return a->null == b->null;
  if (kind == 'T' || kind == 'J')
    return strcmp(trg_val_text(a), trg_val_text(b)) == 0;
  return a->i == b->i;
}

/* Whether run r has the shape of ST_RUN_CLAIM_MANY with the shared values
** of run first (NULL: r's own). */
static int claim_shaped(const trg_run *r, const trg_run *first) {
  if (trg_vals_poisoned(r->v, RC_NCOL)) return 0;
  for (int i = 0; i < NCOLS(claim_null_cols); i++)
    if (!r->v[claim_null_cols[i]].null) return 0;
  const trg_val *d = &r->v[RC_DEFERRALS];
  if (d->null || d->i != 0) return 0;
  for (int i = 0; first && i < CLAIM_SHARED; i++) {
    int c = claim_shared_cols[i];
    if (!val_same(&r->v[c], &first->v[c], store_run_cols[c].kind)) return 0;
  }
  return 1;
}

/* The columns cols[0..n) of run r bound to ?first.. */
static int bind_cols(sqlite3_stmt *st, int first, const trg_run *r,
                     const int *cols, int n) {
  int rc = SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK; i++)
    rc = store_val_bind(st, first + i, store_run_cols[cols[i]].kind,
                        &r->v[cols[i]]);
  return rc;
}

/* STORE_MANY runs at runs[0..): of one claim's shape, or any; *added:
** plus the rows that went in. */
static int insert_many(store *s, const trg_run *runs, i64 *added) {
  int shaped = claim_shaped(&runs[0], NULL);
  for (int i = 1; shaped && i < STORE_MANY; i++)
    shaped = claim_shaped(&runs[i], &runs[0]);
  sqlite3_stmt *st =
      store_stmt(s, shaped ? ST_RUN_CLAIM_MANY : ST_RUN_INSERT_MANY, sql_text);
  if (!st) return store_err(s);
  int rc = SQLITE_OK;
  if (shaped) {
    rc = bind_cols(st, 1, &runs[0], claim_shared_cols, CLAIM_SHARED);
    for (int i = 0; i < STORE_MANY && rc == SQLITE_OK; i++)
      rc = bind_cols(st, CLAIM_SHARED + i * CLAIM_OWN + 1, &runs[i],
                     claim_own_cols, CLAIM_OWN);
  } else {
    for (int i = 0; i < STORE_MANY && rc == SQLITE_OK; i++)
      rc = store_vals_bind(st, i * RC_NCOL + 1, store_run_cols, RC_NCOL,
                           runs[i].v);
  }
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc != SQLITE_DONE) return rc;
  *added += sqlite3_changes(s->db);
  return SQLITE_OK;
}

int store_run_insert_all(store *s, const trg_run *runs, int n, int *all_new) {
  int rc = SQLITE_OK, at = 0;
  i64 added = 0;
  for (; n - at >= STORE_MANY && rc == SQLITE_OK; at += STORE_MANY)
    rc = insert_many(s, &runs[at], &added);
  for (; at < n && rc == SQLITE_OK; at++) {
    rc = store_run_insert(s, &runs[at]);
    if (rc == SQLITE_OK) added += sqlite3_changes(s->db);
  }
  *all_new = added == n;
  return rc;
}

int store_run_mark(store *s, i64 *mark) {
  sqlite3_stmt *st = store_stmt(s, ST_RUNS_MARK, sql_text);
  if (!st) return store_err(s);
  int rc = sqlite3_step(st);
  *mark = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

int store_runs_drop_after(store *s, i64 mark) {
  sqlite3_stmt *st = store_stmt(s, ST_RUNS_DROP_AFTER, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, mark);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Run statement `which` (an UPDATE of columns cols of run r). */
static int run_update(store *s, store_sql which, const int *cols, int n,
                      const trg_run *r) {
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  int rc = trg_vals_poisoned(r->v, RC_NCOL) ? SQLITE_NOMEM : SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    rc =
        store_val_bind(st, i + 1, store_run_cols[cols[i]].kind, &r->v[cols[i]]);
  }
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, n + 1, r->id);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_run_save(store *s, const trg_run *r) {
  return run_update(s, ST_RUN_UPDATE, run_state_cols, RUN_STATE_NCOL, r);
}

int store_run_save_end(store *s, const trg_run *r) {
  return run_update(s, ST_RUN_END, run_end_cols, RUN_END_NCOL, r);
}

int store_run_close(store *s, i64 id, const char *status, const char *error,
                    i64 now) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_CLOSE, sql_text);
  if (!st) return store_err(s);
  int rc = sqlite3_bind_int64(st, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, status, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 3, error, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 4, now);
  return store_step_done(st, rc);
}

int store_run_delete(store *s, i64 id, char **running) {
  /* A running run holds its trigger (the overlap policy, the running
  ** count): deleting it would hold the trigger for good. */
  *running = NULL;
  sqlite3_stmt *st = store_stmt(s, ST_RUN_RUNNING, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, id);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *running = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
    rc = *running ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
  }
  sqlite3_reset(st);
  if (rc != SQLITE_DONE) return rc;
  if (!(st = store_stmt(s, ST_RUN_DELETE, sql_text))) return store_err(s);
  sqlite3_bind_int64(st, 1, id);
  rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_next_incarnation(store *s, const char *trigger_id, i64 *inc) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_LAST_INCARNATION, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  *inc = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) + 1 : 1;
  sqlite3_reset(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* *found: whether statement which (?1 trigger_id, ?2 incarnation) finds
** a row. SQLITE_OK or the error. */
static int run_exists(store *s, store_sql which, const char *trigger_id,
                      i64 incarnation, int *found) {
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  *found = 0;
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, incarnation);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  *found = rc == SQLITE_ROW;
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : store_err(s);
}

int store_run_pending(store *s, const char *trigger_id, i64 incarnation,
                      int *pending) {
  return run_exists(s, ST_RUN_PENDING_FOR, trigger_id, incarnation, pending);
}

int store_run_holding(store *s, const char *trigger_id, i64 incarnation,
                      int *holding) {
  return run_exists(s, ST_RUN_HOLDING_FOR, trigger_id, incarnation, holding);
}
