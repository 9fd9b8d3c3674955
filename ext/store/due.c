/*
** due.c -- what the tick reads (due.h): the due triggers in claim order, a
** batch at a time, through triggers_state_due (triggers_state_agent for a
** tick of some agents), the runs whose lease passed
** (triggers_rundata_lease) and those to re-offer (triggers_rundata_retry).
** A time that is not an instant in the range, which these probes would
** never reach, is refused by SQLite since schema version 6 (the CHECKs of
** columns.c; docs/tables.md#changed-shadow-tables): no probe looks for one.
*/
#include "store/due.h"

#include <string.h>

#include "store/columns.h"
#include "store/values.h"

SQLITE_EXTENSION_INIT3

/* After the row, the due probes (ST_DUE, ST_DUE_AGENTS)
** select the state row's copies of trigger_id and agent_id, the keys of
** its indexes, at DUE_COPIES and DUE_COPIES + 1. */
#define STATE_COPIES "s.trigger_id, s.agent_id"
#define DUE_COPIES (TC_NCOL + 1)

/* ?1 now: a lease passed or a run waits to be re-offered. */
#define RUNS_ANY                                     \
  "EXISTS (SELECT 1 FROM main.triggers_rundata"      \
  " INDEXED BY triggers_rundata_lease"               \
  " WHERE status = 'running' AND lease_until <= ?1)" \
  " OR EXISTS (SELECT 1 FROM main.triggers_rundata"  \
  " INDEXED BY triggers_rundata_retry WHERE retry_at <= ?1)"

/* The text of statement `which` (NULL: out of memory, or not one of this
** file's). */
static char *sql_text(store_sql which) {
  char *tc = store_trigger_select_list(),
       *rc = store_col_list(store_run_cols, RC_NCOL, "");
  char *out = NULL;
  if (!tc || !rc) goto done;
  switch (which) {
    case ST_DUE:
      out = sqlite3_mprintf(
          "SELECT d.id, %s, " STATE_COPIES " FROM " STORE_TRIGGER_FROM_STATE(
              "triggers_state_due") " WHERE s.next_due_at <= ?1"
                                    " AND (s.next_due_at, s.trigger_id) > (?4, ?5)"
                                    " ORDER BY s.next_due_at, s.trigger_id LIMIT ?2",
          tc);
      break;
    case ST_DUE_AGENTS:
      /* Agent '' is not in triggers_state_agent (schema.c): its
      ** rows come from the due index, merged in claim order. */
      out = sqlite3_mprintf(
          "SELECT d.id, %s, " STATE_COPIES " FROM " STORE_TRIGGER_FROM_STATE(
              "triggers_state_agent") " WHERE s.agent_id IN (SELECT value FROM json_each(?3))"
                                      " AND s.agent_id <> '' AND s.next_due_at <= ?1"
                                      " AND (s.next_due_at, s.trigger_id) > (?4, ?5)"
                                      " UNION ALL SELECT d.id, %s, " STATE_COPIES
                                      " FROM " STORE_TRIGGER_FROM_STATE(
                                          "triggers_state_due") " WHERE s.agent_id = ''"
                                                                " AND '' IN (SELECT value FROM json_each(?3))"
                                                                " AND s.next_due_at <= ?1"
                                                                " AND (s.next_due_at, s.trigger_id) > (?4, ?5)"
                                                                " ORDER BY %d, %d LIMIT ?2",
          tc, tc, TC_NEXT_DUE_AT + 2, DUE_COPIES + 1);
      break;
    case ST_RUNS_LEASED:
      out = sqlite3_mprintf(
          "SELECT id, %s FROM main.triggers_rundata INDEXED BY triggers_rundata_lease"
          " WHERE status = 'running' AND lease_until <= ?1"
          " ORDER BY lease_until, run_id LIMIT ?2",
          rc);
      break;
    case ST_RUNS_RETRY:
      out = sqlite3_mprintf(
          "SELECT id, %s FROM main.triggers_rundata INDEXED BY triggers_rundata_retry"
          " WHERE retry_at <= ?1 ORDER BY retry_at, run_id LIMIT ?2",
          rc);
      break;
    case ST_RUNS_ANY: out = sqlite3_mprintf("SELECT " RUNS_ANY); break;
    case ST_TICK_ANY:
      out = sqlite3_mprintf(
          "SELECT EXISTS (SELECT 1 FROM main.triggers_state"
          " INDEXED BY triggers_state_due WHERE next_due_at <= ?1) OR " RUNS_ANY);
      break;
    default: break;
  }
done:
  sqlite3_free(tc);
  sqlite3_free(rc);
  return out;
}

/* The state row's copies of trigger_id and agent_id (DUE_COPIES, after
** the row) against the row's own: a copy that differs marks the value
** TRG_BAD_COPY. *key_differs: the trigger_id copy, the key the probe
** walks in, is not the row's id. */
static int check_copies(sqlite3_stmt *st, trg_row *r, int *key_differs) {
  static const int cols[] = {TC_TRIGGER_ID, TC_AGENT_ID};
  *key_differs = 0;
  for (int k = 0; k < 2; k++) {
    trg_val *v = &r->v[cols[k]];
    /* one call into the statement a value (see values.c) */
    sqlite3_value *cv = sqlite3_column_value(st, DUE_COPIES + k);
    int type = sqlite3_value_type(cv);
    const char *copy = (const char *)sqlite3_value_text(cv);
    if (!copy && type != SQLITE_NULL) return SQLITE_NOMEM;
    if (type == SQLITE_TEXT && v->t && strcmp(copy, v->t) == 0) continue;
    if (!v->bad) v->bad = TRG_BAD_COPY;
    if (k == 0) *key_differs = 1;
  }
  return SQLITE_OK;
}

/* Step a due probe into rows[0..*n) (at most max); *key: a copy of the
** probe's key of the last row when it differs from the row's trigger_id,
** else NULL. The statement is reset. */
static int due_rows(sqlite3_stmt *st, trg_row *rows, int max, int *n,
                    char **key) {
  int rc = SQLITE_OK;
  *n = 0;
  *key = NULL;
  while (*n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    int key_differs = 0;
    rc = store_row_read(st, 0, &rows[*n]);
    if (rc == SQLITE_OK) rc = check_copies(st, &rows[*n], &key_differs);
    sqlite3_free(*key);
    *key = NULL;
    if (rc == SQLITE_OK && key_differs) {
      *key = sqlite3_mprintf("%s", sqlite3_column_text(st, DUE_COPIES));
      if (!*key) rc = SQLITE_NOMEM;
    }
    ++*n;
    if (rc != SQLITE_OK) break;
  }
  sqlite3_reset(st);
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

int store_due_read(store *s, i64 now, const char *agents, store_due_pos *pos,
                   trg_row *rows, int want, int *n) {
  sqlite3_stmt *st = store_stmt(s, agents ? ST_DUE_AGENTS : ST_DUE, sql_text);
  *n = 0;
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, now);
  sqlite3_bind_int64(st, 2, want);
  if (agents) sqlite3_bind_text(st, 3, agents, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 4, pos->due);
  sqlite3_bind_text(st, 5, pos->key ? pos->key : "", -1, SQLITE_STATIC);
  char *key;
  int rc = due_rows(st, rows, want, n, &key);
  if (rc == SQLITE_OK && *n > 0) { /* the next batch starts after it */
    const trg_row *last = &rows[*n - 1];
    sqlite3_free(pos->key);
    pos->due = last->v[TC_NEXT_DUE_AT].i;
    pos->key =
        key ? key
            : sqlite3_mprintf("%s", trg_val_text(&last->v[TC_TRIGGER_ID]));
    key = NULL;
    if (!pos->key) rc = SQLITE_NOMEM;
  }
  sqlite3_free(key);
  return rc;
}

void store_due_pos_free(store_due_pos *pos) {
  sqlite3_free(pos->key);
  pos->key = NULL;
}

int store_runs_read(store *s, store_runs_kind kind, i64 now,
                    int (*keep)(void *arg, const trg_run *run), void *arg,
                    trg_run **runs, int *n, i64 *read) {
  static const store_sql probes[] = {ST_RUNS_LEASED, ST_RUNS_RETRY};
  sqlite3_stmt *st = store_stmt(s, probes[kind], sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, now);
  sqlite3_bind_int64(st, 2, -1);
  int rc, cap = *n;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (*n == cap) {
      cap = cap ? cap * 2 : 16;
      trg_run *grown =
          sqlite3_realloc64(*runs, (sqlite3_uint64)cap * sizeof *grown);
      if (!grown) {
        rc = SQLITE_NOMEM;
        break;
      }
      *runs = grown;
    }
    trg_run *run = &(*runs)[*n];
    memset(run, 0, sizeof *run);
    ++*read;
    /* Read whole before keep() looks at it: reading a value as text
    ** first would hide its stored type from the run's check. */
    rc = store_run_read(st, 0, run);
    ++*n;
    if (rc != SQLITE_OK) break;
    if (keep && !keep(arg, run)) trg_run_clear(&(*runs)[--*n]);
  }
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Step the one-row EXISTS probe `which` at now into *any. */
static int probe_any(store *s, store_sql which, i64 now, int *any) {
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, now);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *any = sqlite3_column_int(st, 0);
    rc = SQLITE_OK;
  }
  sqlite3_reset(st);
  return rc == SQLITE_OK ? rc : store_err(s);
}

int store_runs_any(store *s, i64 now, int *due) {
  return probe_any(s, ST_RUNS_ANY, now, due);
}

int store_tick_any(store *s, i64 now, int *any) {
  return probe_any(s, ST_TICK_ANY, now, any);
}
