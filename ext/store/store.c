/*
** store.c -- every SQL statement of the extension lives here: the shadow
** tables (triggers_data, triggers_state, triggers_rundata,
** triggers_config), their indexes, the schema version, cached prepared
** statements, loading and saving rows, transactions and config values.
** See store.h.
**
** A trigger is one row in each of two tables, joined on id:
**   triggers_data   what the trigger is: its definition, status, dedupe
**                   key (the columns a fire never writes)
**   triggers_state  what a fire writes: next_due_at, fire_at, counters,
**                   last_*, updated_at; with copies of trigger_id and
**                   agent_id for its two time indexes
** A fire rewrites a ~50-byte state row instead of the ~270-byte whole
** trigger: the tick dirties a fifth of the table pages it did with one
** table (bench/README.md measures it; at 10k-100k fires per tick the
** pages written, not the instructions run, are the cost).
**
** Indexes, and what each one serves:
**   triggers_data(trigger_id) UNIQUE       lookups, INSERT OR REPLACE
**   triggers_data_status(status)
**   triggers_data_created(agent_id, scope, created_at)  creation quotas,
**                                           agent_id lookups
**   triggers_data_dedupe(agent_id, dedupe_key) UNIQUE, active rows only
**   triggers_state_due(next_due_at, trigger_id) WHERE next_due_at NOT NULL
**                                           the tick's probe (in claim
**                                           order), next wakeup, lookups
**   triggers_state_agent(agent_id, next_due_at, trigger_id)
**                    WHERE agent_id <> ''  per-agent ticks, the summary's
**                                           pending items
**   triggers_rundata(run_id) UNIQUE
**   triggers_rundata(trigger_id, incarnation, scheduled_for, attempt) UNIQUE
**                    a trigger's runs, the next incarnation of an id
**   triggers_rundata_lease(lease_until) WHERE status = 'running'
**   triggers_rundata_retry(retry_at) WHERE retry_at NOT NULL
**   triggers_rundata_agent(agent_id, scheduled_for)
**   triggers_rundata_sched(scheduled_for)
**   triggers_rundata_finished(status, finished_at) WHERE finished_at NOT NULL
**   triggers_rundata_outcome(agent_id, status, finished_at)
**                    WHERE finished_at NOT NULL  the summary's latest runs
**
** A fire rewrites next_due_at (and fire_at = next_due_at + jitter), so
** exactly two indexes hold a time that a fire changes, and the second
** only for a trigger that has an agent: a trigger without one (agent_id
** '') costs one index entry per fire, and a tick or wakeup for agent ''
** walks triggers_state_due skipping other agents' rows. The jitter is applied by the tick
** as a filter on the rows it reads, not by an index of its own. A claimed
** run enters neither of the finished-run indexes until it finishes.
*/
#include "store/store.h"

#include <string.h>

#include "store/stored.h"
#include "text/run_text.h"

SQLITE_EXTENSION_INIT3

const trg_coldef trg_cols[TC_NCOL] = {
    {"trigger_id", 'T', 0, "TEXT NOT NULL UNIQUE"},
    {"agent_id", 'T', 0, "TEXT NOT NULL DEFAULT ''"},
    {"scope", 'T', 0, "TEXT NOT NULL DEFAULT ''"},
    {"display_name", 'T', 0, "TEXT"},
    {"instructions", 'T', 0, "TEXT NOT NULL"},
    {"trigger_type", 'T', 0, "TEXT NOT NULL"},
    {"interval_ms", 'I', 0, "INTEGER"},
    {"scheduled_at", 'S', 0, "INTEGER"},
    {"cron_expression", 'T', 0, "TEXT"},
    {"timezone", 'T', 0, "TEXT NOT NULL DEFAULT 'UTC'"},
    {"start_at", 'S', 0, "INTEGER"},
    {"end_at", 'S', 0, "INTEGER"},
    {"wake_mode", 'T', 0, "TEXT"},
    {"created_by", 'T', 0, "TEXT"},
    {"enabled", 'I', 0, "INTEGER"},
    {"max_runs", 'I', 0, "INTEGER"},
    {"misfire_policy", 'T', 0, "TEXT"},
    {"overlap_policy", 'T', 0, "TEXT"},
    {"max_attempts", 'I', 0, "INTEGER"},
    {"backoff_ms", 'I', 0, "INTEGER"},
    {"jitter_ms", 'I', 0, "INTEGER"},
    {"window_ms", 'I', 0, "INTEGER"},
    {"pause_after_failures", 'I', 0, "INTEGER"},
    {"metadata", 'J', 0, "TEXT"},
    {"status", 'T', 1, "TEXT NOT NULL"},
    {"run_count", 'I', 1, "INTEGER NOT NULL DEFAULT 0"},
    {"next_due_at", 'I', 1, "INTEGER"},
    {"last_run_at", 'I', 1, "INTEGER"},
    {"last_status", 'T', 1, "TEXT"},
    {"last_error", 'T', 1, "TEXT"},
    {"dedupe_key", 'T', 1, "TEXT"},
    {"created_at", 'S', 0, "INTEGER NOT NULL"},
    {"updated_at", 'I', 1, "INTEGER NOT NULL"},
    {"fire_at", 'I', 1, "INTEGER"},
    {"claims", 'I', 1, "INTEGER NOT NULL DEFAULT 0"},
    {"running", 'I', 1, "INTEGER NOT NULL DEFAULT 0"},
    {"fail_streak", 'I', 1, "INTEGER NOT NULL DEFAULT 0"},
    {"incarnation", 'I', 1, "INTEGER NOT NULL DEFAULT 1"},
};

const trg_coldef run_cols[RC_NCOL] = {
    {"run_id", 'T', 0, "TEXT NOT NULL UNIQUE"},
    {"trigger_id", 'T', 0, "TEXT NOT NULL"},
    {"agent_id", 'T', 0, "TEXT NOT NULL"},
    {"scheduled_for", 'I', 0, "INTEGER NOT NULL"},
    {"attempt", 'I', 0, "INTEGER NOT NULL"},
    {"status", 'T', 0, "TEXT NOT NULL"},
    {"owner", 'T', 0, "TEXT"},
    {"claimed_at", 'I', 0, "INTEGER"},
    {"lease_until", 'I', 0, "INTEGER"},
    {"finished_at", 'I', 0, "INTEGER"},
    {"latency_ms", 'I', 0, "INTEGER"},
    {"error", 'T', 0, "TEXT"},
    {"result", 'T', 0, "TEXT"},
    {"payload", 'J', 0, "TEXT"},
    {"retry_at", 'I', 0, "INTEGER"},
    {"deferrals", 'I', 0, "INTEGER NOT NULL DEFAULT 0"},
    {"incarnation", 'I', 0, "INTEGER NOT NULL DEFAULT 1"},
    {"lease_ms", 'I', 0, "INTEGER"},
};

/* The trigger columns stored in triggers_state (see the header). */
static const uint64_t state_cols =
    (1ull << TC_RUN_COUNT) | (1ull << TC_NEXT_DUE_AT) |
    (1ull << TC_LAST_RUN_AT) | (1ull << TC_LAST_STATUS) |
    (1ull << TC_LAST_ERROR) | (1ull << TC_UPDATED_AT) | (1ull << TC_FIRE_AT) |
    (1ull << TC_CLAIMS) | (1ull << TC_RUNNING) | (1ull << TC_FAIL_STREAK);

int store_col_in_state(int col) { return (int)((state_cols >> col) & 1); }

/* The trigger columns of one table in column order: triggers_data's
** (state 0), or triggers_state's (state 1), which begin with its copies
** of trigger_id and agent_id. Returns how many. */
static int table_cols(int state, int out[TC_NCOL + 2]) {
  int n = 0;
  if (state) {
    out[n++] = TC_TRIGGER_ID;
    out[n++] = TC_AGENT_ID;
  }
  for (int c = 0; c < TC_NCOL; c++) {
    if (store_col_in_state(c) == state) out[n++] = c;
  }
  return n;
}

/* ---- values ---------------------------------------------------------- */

/* Drop v's text: freed, unless it lives in its row's arena. */
static void val_free_text(trg_val *v) {
  if (!v->borrowed) sqlite3_free(v->t);
  v->t = NULL;
  v->borrowed = 0;
}

void val_set_null(trg_val *v) {
  val_free_text(v);
  v->null = 1;
  v->i = 0;
  v->oom = 0;
  v->bad = 0;
}

void val_set_int(trg_val *v, i64 i) {
  val_free_text(v);
  v->null = 0;
  v->i = i;
  v->oom = 0;
  v->bad = 0;
}

char *trg_strndup(const char *t, int n) {
  char *copy = sqlite3_malloc(n + 1);
  if (copy) {
    memcpy(copy, t, (size_t)n);
    copy[n] = 0;
  }
  return copy;
}

int val_set_text(trg_val *v, const char *t) {
  char *copy = t ? trg_strndup(t, (int)strlen(t)) : NULL;
  if (t && !copy) {
    v->oom = 1; /* see trg_val: the row can no longer be saved */
    return SQLITE_NOMEM;
  }
  val_free_text(v);
  v->t = copy;
  v->null = copy == NULL;
  v->i = 0;
  v->oom = 0;
  v->bad = 0;
  return SQLITE_OK;
}

int val_set_owned(trg_val *v, char *t) {
  if (!t) {
    v->oom = 1;
    return SQLITE_NOMEM;
  }
  val_free_text(v);
  v->t = t;
  v->null = 0;
  v->i = 0;
  v->oom = 0;
  v->bad = 0;
  return SQLITE_OK;
}

void val_borrow(trg_val *v, const char *t) {
  val_free_text(v);
  v->t = (char *)t;
  v->borrowed = 1;
  v->null = 0;
  v->i = 0;
  v->oom = 0;
  v->bad = 0;
}

/* A value of the row could not be set: nothing of it may be written. */
static int vals_poisoned(const trg_val *v, int n) {
  for (int i = 0; i < n; i++) {
    if (v[i].oom) return 1;
  }
  return 0;
}

const char *val_text(const trg_val *v) { return v->t ? v->t : ""; }

void row_init(trg_row *r) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < TC_NCOL; i++) r->v[i].null = 1;
}

void row_clear(trg_row *r) {
  for (int i = 0; i < TC_NCOL; i++) val_free_text(&r->v[i]);
  sqlite3_free(r->arena);
  memset(r, 0, sizeof *r);
  for (int i = 0; i < TC_NCOL; i++) r->v[i].null = 1;
}

void run_clear(run_row *r) {
  for (int i = 0; i < RC_NCOL; i++) val_free_text(&r->v[i]);
  memset(r, 0, sizeof *r);
  for (int i = 0; i < RC_NCOL; i++) r->v[i].null = 1;
}

/* How a stored value of column kind `kind` is read: with its text (text
** and JSON columns; an integer column's text or real, kept for the
** message, see trg_val.bad) or as an integer. Sets v->null and v->bad
** from the value's SQLite type, which is read before any conversion. */
static int val_read_kind(sqlite3_stmt *st, int c, char kind, trg_val *v) {
  int type = sqlite3_column_type(st, c);
  int texty = kind == 'T' || kind == 'J';
  v->null = type == SQLITE_NULL;
  v->bad = 0;
  if (v->null) return 0;
  if (texty ? type != SQLITE_TEXT : type != SQLITE_INTEGER) {
    v->bad = (unsigned char)type;
    return texty || type == SQLITE_TEXT || type == SQLITE_FLOAT;
  }
  if (!texty) v->i = sqlite3_column_int64(st, c);
  return texty;
}

static int vals_read(sqlite3_stmt *st, int first, const trg_coldef *defs, int n,
                     trg_val *v) {
  for (int i = 0; i < n; i++) {
    int c = first + i;
    val_free_text(&v[i]);
    v[i].i = 0;
    v[i].oom = 0;
    if (!val_read_kind(st, c, defs[i].kind, &v[i])) continue;
    const char *t = (const char *)sqlite3_column_text(st, c);
    if (!t) return SQLITE_NOMEM;
    v[i].t = trg_strndup(t, sqlite3_column_bytes(st, c));
    if (!v[i].t) return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

static int val_bind(sqlite3_stmt *st, int idx, char kind, const trg_val *v) {
  if (v->null) return sqlite3_bind_null(st, idx);
  if (kind == 'T' || kind == 'J') {
    return sqlite3_bind_text(st, idx, val_text(v), -1, SQLITE_STATIC);
  }
  return sqlite3_bind_int64(st, idx, v->i);
}

static int vals_bind(sqlite3_stmt *st, int first, const trg_coldef *defs, int n,
                     const trg_val *v) {
  if (vals_poisoned(v, n)) return SQLITE_NOMEM;
  int rc = SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    rc = val_bind(st, first + i, defs[i].kind, &v[i]);
  }
  return rc;
}

/* Bind the columns of one trigger table (table_cols) to ?first.. */
static int table_bind(sqlite3_stmt *st, int first, const trg_row *r,
                      const int *cols, int n) {
  int rc = SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    rc = val_bind(st, first + i, trg_cols[cols[i]].kind, &r->v[cols[i]]);
  }
  return rc;
}

int store_row_read(sqlite3_stmt *st, int first, trg_row *r) {
  /* The texts go into one allocation (r->arena): a tick reads a whole
  ** row per due trigger, and one malloc per text column was a tenth of
  ** a fire's cost. */
  row_clear(r);
  r->id = sqlite3_column_int64(st, first);
  const unsigned char *text[TC_NCOL];
  int len[TC_NCOL], total = 0;
  for (int i = 0; i < TC_NCOL; i++) {
    int c = first + 1 + i;
    text[i] = NULL;
    if (!val_read_kind(st, c, trg_cols[i].kind, &r->v[i])) continue;
    text[i] = sqlite3_column_text(st, c);
    if (!text[i]) return SQLITE_NOMEM;
    total += (len[i] = sqlite3_column_bytes(st, c)) + 1;
  }
  if (total == 0) return SQLITE_OK;
  char *p = r->arena = sqlite3_malloc(total);
  if (!p) return SQLITE_NOMEM;
  for (int i = 0; i < TC_NCOL; i++) {
    if (!text[i]) continue;
    memcpy(p, text[i], (size_t)len[i]);
    p[len[i]] = 0;
    r->v[i].t = p;
    r->v[i].borrowed = 1;
    p += len[i] + 1;
  }
  return SQLITE_OK;
}

int store_run_read(sqlite3_stmt *st, int first, run_row *r) {
  r->id = sqlite3_column_int64(st, first);
  return vals_read(st, first + 1, run_cols, RC_NCOL, r->v);
}

/* ---- statement texts ------------------------------------------------- */

/* "a, b, c" of a column table; sqlite3_malloc'd. */
static char *col_list(const trg_coldef *defs, int n, const char *suffix) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  for (int i = 0; i < n; i++) {
    sqlite3_str_appendf(s, "%s%s%s", i ? ", " : "", defs[i].name, suffix);
  }
  return sqlite3_str_finish(s);
}

static char *param_list(int n) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  for (int i = 0; i < n; i++)
    sqlite3_str_appendf(s, "%s?%d", i ? "," : "", i + 1);
  return sqlite3_str_finish(s);
}

/* A whole trigger is read from the join of its two tables, aliased d
** (triggers_data) and s (triggers_state); the tick's probes drive the
** join from the state table's time index. */
#define TRIGGER_FROM STORE_TRIGGER_FROM
#define TRIGGER_FROM_STATE(index)              \
  "main.triggers_state AS s INDEXED BY " index \
  " CROSS JOIN main.triggers_data AS d ON d.id = s.id"

/* A time the probes of the tick never reach: past the instant range, and
** every text or blob (which sort after all numbers). A row holding one
** was changed outside the extension (DESIGN.md §4); the tick looks for
** such rows with one more probe of the same indexes (ST_RUNS_ANY, then
** ST_DUE_STRAY, ST_RUNS_STRAY_*), so that they are paused, not lost. */
#define STRAY ((long long)SCHED_MS_MAX)

/* After the row, the due probes (ST_DUE, ST_DUE_AGENTS, ST_DUE_STRAY)
** select the state row's copies of trigger_id and agent_id, the keys of
** its indexes, at DUE_COPIES and DUE_COPIES + 1. */
#define STATE_COPIES "s.trigger_id, s.agent_id"
#define DUE_COPIES (TC_NCOL + 1)

/* "d.trigger_id, ..., s.next_due_at, ...": every trigger column, each
** from the table that holds it. */
static char *trigger_select_list(void) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  for (int c = 0; c < TC_NCOL; c++) {
    sqlite3_str_appendf(s, "%s%s.%s", c ? ", " : "",
                        store_col_in_state(c) ? "s" : "d", trg_cols[c].name);
  }
  return sqlite3_str_finish(s);
}

/* INSERT of one trigger table's columns: ?1.. in table_cols order, after
** an explicit id ?1 when with_id (triggers_state takes triggers_data's). */
static char *trigger_insert_sql(int state) {
  int cols[TC_NCOL + 2], n = table_cols(state, cols);
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "INSERT INTO main.%s(%s",
                      state ? "triggers_state" : "triggers_data",
                      state ? "id, " : "");
  for (int i = 0; i < n; i++)
    sqlite3_str_appendf(s, "%s%s", i ? ", " : "", trg_cols[cols[i]].name);
  sqlite3_str_appendall(s, ") VALUES(");
  for (int i = 0; i < n + state; i++)
    sqlite3_str_appendf(s, "%s?%d", i ? "," : "", i + 1);
  sqlite3_str_appendall(s, ")");
  return sqlite3_str_finish(s);
}

/* UPDATE of one trigger table's columns ?1.., WHERE id = ?(n+1). */
static char *trigger_update_sql(int state) {
  int cols[TC_NCOL + 2], n = table_cols(state, cols);
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "UPDATE main.%s SET ",
                      state ? "triggers_state" : "triggers_data");
  for (int i = 0; i < n; i++) {
    sqlite3_str_appendf(s, "%s%s = ?%d", i ? ", " : "", trg_cols[cols[i]].name,
                        i + 1);
  }
  sqlite3_str_appendf(s, " WHERE id = ?%d", n + 1);
  return sqlite3_str_finish(s);
}

/* The wakeup's run probes (ST_WAKE_RETRY, ST_WAKE_LEASE): only runs a tick
** with agents ?1 and wake_mode ?2 (NULL: any) would take; ends in "AND". */
#define WAKE_RUN_FILTER                                                    \
  " LEFT JOIN main.triggers_data AS d ON d.trigger_id = r.trigger_id"      \
  " AND d.incarnation = r.incarnation"                                     \
  " WHERE (?1 IS NULL OR r.agent_id IN (SELECT value FROM json_each(?1)))" \
  " AND (?2 IS NULL OR d.wake_mode IS NULL OR d.wake_mode = ?2) AND"

/* The state columns a tick writes (ST_TICK_UPDATE_HOT, ?2..?11 after the
** id). */
static const int hot_cols[] = {TC_NEXT_DUE_AT, TC_FIRE_AT,    TC_CLAIMS,
                               TC_RUNNING,     TC_RUN_COUNT,  TC_LAST_RUN_AT,
                               TC_LAST_STATUS, TC_LAST_ERROR, TC_UPDATED_AT,
                               TC_FAIL_STREAK};
#define HOT_NCOL ((int)(sizeof hot_cols / sizeof hot_cols[0]))

/* The columns of a run that change after its insert (ST_RUN_UPDATE). Its
** identity (run_id, trigger_id, agent_id, scheduled_for, attempt,
** incarnation) and payload never do: an UPDATE that does not name them
** leaves the indexes on them alone (two of them unique and in random
** order: a page each per finished run otherwise). */
static const int run_state_cols[] = {
    RC_STATUS,      RC_OWNER,      RC_CLAIMED_AT, RC_LEASE_UNTIL,
    RC_FINISHED_AT, RC_LATENCY_MS, RC_ERROR,      RC_RESULT,
    RC_RETRY_AT,    RC_DEFERRALS,  RC_LEASE_MS};
#define RUN_STATE_NCOL ((int)(sizeof run_state_cols / sizeof run_state_cols[0]))

/* The multi-row INSERT is OR IGNORE, never plain: a statement that writes
** several rows and may abort (a NOT NULL or UNIQUE failure) makes SQLite
** copy every page it changes into a statement journal first, which cost
** more than the statements saved. A run that exists is left out, which
** sqlite3_changes() shows; the tick then deletes the runs it inserted
** after its mark (store_runs_drop_after) and redoes those rows one by one. */

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

static char *sql_text(store_sql which) {
  char *tc = trigger_select_list();
  char *rc = col_list(run_cols, RC_NCOL, "");
  char *out = NULL;
  if (!tc || !rc) goto done;
  switch (which) {
    case ST_TRIG_BY_ROWID:
      out = sqlite3_mprintf(
          "SELECT d.id, %s FROM " TRIGGER_FROM " WHERE d.id = ?1", tc);
      break;
    case ST_TRIG_BY_TID:
      out = sqlite3_mprintf(
          "SELECT d.id, %s FROM " TRIGGER_FROM " WHERE d.trigger_id = ?1", tc);
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
    case ST_DUE:
      out = sqlite3_mprintf(
          "SELECT d.id, %s, " STATE_COPIES " FROM " TRIGGER_FROM_STATE(
              "triggers_state_due") " WHERE s.next_due_at <= ?1"
                                    " AND (s.next_due_at, s.trigger_id) > (?4, ?5)"
                                    " ORDER BY s.next_due_at, s.trigger_id LIMIT ?2",
          tc);
      break;
    case ST_DUE_AGENTS:
      /* Agent '' is not in triggers_state_agent (see the header): its
      ** rows come from the due index, merged in claim order. */
      out = sqlite3_mprintf(
          "SELECT d.id, %s, " STATE_COPIES " FROM " TRIGGER_FROM_STATE(
              "triggers_state_agent") " WHERE s.agent_id IN (SELECT value FROM json_each(?3))"
                                      " AND s.agent_id <> '' AND s.next_due_at <= ?1"
                                      " AND (s.next_due_at, s.trigger_id) > (?4, ?5)"
                                      " UNION ALL SELECT d.id, %s, " STATE_COPIES
                                      " FROM " TRIGGER_FROM_STATE(
                                          "triggers_state_due") " WHERE s.agent_id = ''"
                                                                " AND '' IN (SELECT value FROM json_each(?3))"
                                                                " AND s.next_due_at <= ?1"
                                                                " AND (s.next_due_at, s.trigger_id) > (?4, ?5)"
                                                                " ORDER BY %d, %d LIMIT ?2",
          tc, tc, TC_NEXT_DUE_AT + 2, DUE_COPIES + 1);
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
    case ST_RUN_INSERT: {
      char *p = param_list(RC_NCOL);
      if (p)
        out = sqlite3_mprintf(
            "INSERT OR IGNORE INTO main.triggers_rundata(%s) VALUES(%s)", rc,
            p);
      sqlite3_free(p);
      break;
    }
    case ST_RUN_INSERT_MANY: out = runs_insert_many_sql(rc); break;
    case ST_RUNS_MARK:
      out = sqlite3_mprintf("SELECT max(id) FROM main.triggers_rundata");
      break;
    case ST_RUNS_DROP_AFTER:
      out = sqlite3_mprintf("DELETE FROM main.triggers_rundata WHERE id > ?1");
      break;
    case ST_RUN_BY_ID:
      out = sqlite3_mprintf(
          "SELECT id, %s FROM main.triggers_rundata WHERE run_id = ?1", rc);
      break;
    case ST_RUN_UPDATE: {
      sqlite3_str *s = sqlite3_str_new(NULL);
      sqlite3_str_appendall(s, "UPDATE main.triggers_rundata SET ");
      for (int i = 0; i < RUN_STATE_NCOL; i++) {
        sqlite3_str_appendf(s, "%s%s = ?%d", i ? ", " : "",
                            run_cols[run_state_cols[i]].name, i + 1);
      }
      sqlite3_str_appendf(s, " WHERE id = ?%d", RUN_STATE_NCOL + 1);
      out = sqlite3_str_finish(s);
      break;
    }
    case ST_RUN_RUNNING:
      out = sqlite3_mprintf("SELECT run_id FROM main.triggers_rundata"
                            " WHERE id = ?1 AND status = 'running'");
      break;
    case ST_RUN_DELETE:
      out = sqlite3_mprintf("DELETE FROM main.triggers_rundata WHERE id = ?1");
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
    case ST_RUNS_ANY:
      out = sqlite3_mprintf(
          "SELECT EXISTS (SELECT 1 FROM main.triggers_rundata"
          " INDEXED BY triggers_rundata_lease"
          " WHERE status = 'running' AND lease_until <= ?1)"
          " OR EXISTS (SELECT 1 FROM main.triggers_rundata"
          " INDEXED BY triggers_rundata_retry WHERE retry_at <= ?1),"
          " EXISTS (SELECT 1 FROM main.triggers_state"
          " INDEXED BY triggers_state_due WHERE next_due_at > %lld)"
          " OR EXISTS (SELECT 1 FROM main.triggers_rundata"
          " INDEXED BY triggers_rundata_lease WHERE status = 'running'"
          " AND (lease_until IS NULL OR lease_until > %lld))"
          " OR EXISTS (SELECT 1 FROM main.triggers_rundata"
          " INDEXED BY triggers_rundata_retry WHERE retry_at > %lld)",
          STRAY, STRAY, STRAY);
      break;
    case ST_DUE_STRAY:
      out = sqlite3_mprintf(
          "SELECT d.id, %s, " STATE_COPIES " FROM " TRIGGER_FROM_STATE(
              "triggers_state_due") " WHERE s.next_due_at > %lld LIMIT ?2",
          tc, STRAY);
      break;
    case ST_RUNS_STRAY_LEASE:
      out = sqlite3_mprintf(
          "SELECT id, %s FROM main.triggers_rundata INDEXED BY triggers_rundata_lease"
          " WHERE status = 'running' AND (lease_until IS NULL"
          " OR lease_until > %lld) AND ?1 = ?1 LIMIT ?2",
          rc, STRAY);
      break;
    case ST_RUNS_STRAY_RETRY:
      out = sqlite3_mprintf(
          "SELECT id, %s FROM main.triggers_rundata INDEXED BY triggers_rundata_retry"
          " WHERE retry_at > %lld AND ?1 = ?1 LIMIT ?2",
          rc, STRAY);
      break;
    case ST_JSON_IS_OBJECT:
      /* Not json_valid(): it answers 0 when it runs out of memory.
      ** json_type() fails with SQLITE_ERROR on malformed JSON and
      ** SQLITE_NOMEM on that. */
      out = sqlite3_mprintf("SELECT json_type(?1) = 'object'");
      break;
    case ST_JSON_EACH:
      out = sqlite3_mprintf(
          "SELECT key, type, value, CASE WHEN type IN ('array', 'object')"
          " THEN value ELSE json_quote(value) END FROM json_each(?1)");
      break;
    case ST_RUN_PENDING_FOR:
      out = sqlite3_mprintf(
          "SELECT 1 FROM main.triggers_rundata WHERE trigger_id = ?1"
          " AND incarnation = ?2"
          " AND (retry_at IS NOT NULL OR status = 'running') LIMIT 1");
      break;
    case ST_RUN_LAST_INCARNATION:
      out = sqlite3_mprintf(
          "SELECT incarnation FROM main.triggers_rundata WHERE trigger_id = ?1"
          " ORDER BY incarnation DESC LIMIT 1");
      break;
    case ST_WAKE_TRIGGERS:
      /* Walked in next_due_at order until next_due_at passes the
      ** earliest fire_at seen (fire_at >= next_due_at): see tick.c. */
      out = sqlite3_mprintf(
          "SELECT s.next_due_at, s.fire_at, d.wake_mode FROM " TRIGGER_FROM_STATE(
              "triggers_state_due") " WHERE s.next_due_at IS NOT NULL"
                                    " ORDER BY s.next_due_at, s.trigger_id");
      break;
    case ST_WAKE_TRIGGERS_AGENT:
      out = sqlite3_mprintf(
          "SELECT s.next_due_at, s.fire_at, d.wake_mode FROM " TRIGGER_FROM_STATE(
              "triggers_state_agent") " WHERE s.agent_id = ?1"
                                      " AND s.agent_id <> ''"
                                      " AND s.next_due_at IS NOT NULL"
                                      " ORDER BY s.next_due_at, s.trigger_id");
      break;
    case ST_WAKE_TRIGGERS_NOAGENT:
      out = sqlite3_mprintf(
          "SELECT s.next_due_at, s.fire_at, d.wake_mode FROM " TRIGGER_FROM_STATE(
              "triggers_state_due") " WHERE s.next_due_at IS NOT NULL"
                                    " AND s.agent_id = ''"
                                    " ORDER BY s.next_due_at, s.trigger_id");
      break;
    case ST_WAKE_RETRY:
      /* The first pending retry (or deferral) a tick with agents ?1 and
      ** wake_mode ?2 (NULL: any) would re-offer, in retry_at order. */
      out = sqlite3_mprintf(
          "SELECT r.retry_at FROM main.triggers_rundata AS r"
          " INDEXED BY triggers_rundata_retry" WAKE_RUN_FILTER
          " r.retry_at IS NOT NULL ORDER BY r.retry_at LIMIT 1");
      break;
    case ST_WAKE_LEASE:
      /* The first lease to expire that such a tick would reclaim. */
      out = sqlite3_mprintf(
          "SELECT r.lease_until FROM main.triggers_rundata AS r"
          " INDEXED BY triggers_rundata_lease" WAKE_RUN_FILTER
          " r.status = 'running' ORDER BY r.lease_until LIMIT 1");
      break;
    case ST_BEGIN: out = sqlite3_mprintf("BEGIN IMMEDIATE"); break;
    case ST_COMMIT: out = sqlite3_mprintf("COMMIT"); break;
    case ST_ROLLBACK: out = sqlite3_mprintf("ROLLBACK"); break;
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
    case ST_RUN_CLOSE:
      out = sqlite3_mprintf(
          "UPDATE main.triggers_rundata SET status = ?2, error = ?3,"
          " finished_at = ?4, retry_at = NULL WHERE id = ?1");
      break;
    case ST_SAVEPOINT: out = sqlite3_mprintf("SAVEPOINT triggers_txn"); break;
    case ST_ROLLBACK_TO:
      out = sqlite3_mprintf("ROLLBACK TO triggers_txn");
      break;
    case ST_RELEASE: out = sqlite3_mprintf("RELEASE triggers_txn"); break;
    case ST_CONFIG_GET:
      out = sqlite3_mprintf(
          "SELECT value FROM main.triggers_config WHERE key = ?1");
      break;
    case ST_CONFIG_SET:
      out = sqlite3_mprintf(
          "INSERT OR REPLACE INTO main.triggers_config(key, value) VALUES(?1, ?2)");
      break;
    case ST_COUNT: break;
  }
done:
  sqlite3_free(tc);
  sqlite3_free(rc);
  return out;
}

void store_init(store *s, sqlite3 *db) {
  memset(s, 0, sizeof *s);
  s->db = db;
}

void store_close(store *s) {
  for (int i = 0; i < ST_COUNT; i++) {
    sqlite3_finalize(s->st[i]);
    s->st[i] = NULL;
  }
}

store *store_new(sqlite3 *db) {
  store *s = sqlite3_malloc(sizeof *s);
  if (s) store_init(s, db);
  return s;
}

void store_free(void *s) {
  store_close(s);
  sqlite3_free(s);
}

void store_reset_all(store *s) {
  for (int i = 0; i < ST_COUNT; i++) {
    if (s->st[i] && sqlite3_stmt_busy(s->st[i])) sqlite3_reset(s->st[i]);
  }
}

void store_cost_start(store *s) {
  for (int i = 0; i < ST_COUNT; i++) {
    if (!s->st[i]) continue;
    sqlite3_stmt_status(s->st[i], SQLITE_STMTSTATUS_VM_STEP, 1);
    sqlite3_stmt_status(s->st[i], SQLITE_STMTSTATUS_FULLSCAN_STEP, 1);
  }
}

void store_cost(const store *s, i64 *vm_steps, i64 *fullscan_steps) {
  *vm_steps = *fullscan_steps = 0;
  for (int i = 0; i < ST_COUNT; i++) {
    if (!s->st[i]) continue;
    *vm_steps += sqlite3_stmt_status(s->st[i], SQLITE_STMTSTATUS_VM_STEP, 0);
    *fullscan_steps +=
        sqlite3_stmt_status(s->st[i], SQLITE_STMTSTATUS_FULLSCAN_STEP, 0);
  }
}

sqlite3_stmt *store_stmt(store *s, store_sql which) {
  if (!s->st[which]) {
    char *sql = sql_text(which);
    if (!sql) return NULL;
    int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                &s->st[which], NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) return NULL;
  } else {
    sqlite3_reset(s->st[which]);
    sqlite3_clear_bindings(s->st[which]);
  }
  return s->st[which];
}

/* ---- schema ---------------------------------------------------------- */

/* CREATE TABLE main.name(id INTEGER PRIMARY KEY, <each *defs[i]>extra). */
static char *table_ddl(const char *name, const trg_coldef *const *defs, int n,
                       const char *extra) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "CREATE TABLE main.%s(id INTEGER PRIMARY KEY", name);
  for (int i = 0; i < n; i++) {
    sqlite3_str_appendf(s, ", %s %s", defs[i]->name, defs[i]->decl);
  }
  sqlite3_str_appendf(s, "%s)", extra);
  return sqlite3_str_finish(s);
}

/* triggers_state's copy of trigger_id: not UNIQUE (triggers_data's is). */
static const trg_coldef state_trigger_id = {"trigger_id", 'T', 0,
                                            "TEXT NOT NULL"};

/* CREATE TABLE of triggers_data (state 0) or triggers_state (state 1). */
static char *trigger_table_ddl(int state) {
  int cols[TC_NCOL + 2], n = table_cols(state, cols);
  const trg_coldef *defs[TC_NCOL + 2];
  for (int i = 0; i < n; i++) {
    defs[i] = state && cols[i] == TC_TRIGGER_ID ? &state_trigger_id
                                                : &trg_cols[cols[i]];
  }
  return table_ddl(state ? "triggers_state" : "triggers_data", defs, n, "");
}

static char *runs_table_ddl(void) {
  const trg_coldef *defs[RC_NCOL];
  for (int i = 0; i < RC_NCOL; i++) defs[i] = &run_cols[i];
  return table_ddl("triggers_rundata", defs, RC_NCOL,
                   ", UNIQUE(trigger_id, incarnation, scheduled_for, attempt)");
}

static const char *const index_ddl =
    "CREATE INDEX main.triggers_data_status ON triggers_data(status);"
    "CREATE INDEX main.triggers_data_created ON triggers_data(agent_id, scope, created_at);"
    "CREATE UNIQUE INDEX main.triggers_data_dedupe ON triggers_data(agent_id, dedupe_key)"
    " WHERE dedupe_key IS NOT NULL AND status IN ('scheduled', 'paused');";

/* The run indexes of version 1 (created again when version 4 rebuilds
** triggers_rundata). */
static const char *const index_runs_ddl =
    "CREATE INDEX main.triggers_rundata_lease ON triggers_rundata(lease_until)"
    " WHERE status = 'running';"
    "CREATE INDEX main.triggers_rundata_retry ON triggers_rundata(retry_at)"
    " WHERE retry_at IS NOT NULL;"
    "CREATE INDEX main.triggers_rundata_agent ON triggers_rundata(agent_id, scheduled_for);"
    "CREATE INDEX main.triggers_rundata_sched ON triggers_rundata(scheduled_for);";

/* The run indexes that schema version 2 changed: created by store_create
** and by the migration from version 1. */
static const char *const index_v2_ddl =
    "CREATE INDEX main.triggers_rundata_finished ON triggers_rundata(status, finished_at)"
    " WHERE finished_at IS NOT NULL;"
    "CREATE INDEX main.triggers_rundata_outcome ON triggers_rundata(agent_id, status, finished_at)"
    " WHERE finished_at IS NOT NULL;";

/* The time indexes, on triggers_state since version 3. */
static const char *const index_v3_ddl =
    "CREATE INDEX main.triggers_state_due ON triggers_state(next_due_at, trigger_id)"
    " WHERE next_due_at IS NOT NULL;"
    "CREATE INDEX main.triggers_state_agent ON triggers_state(agent_id, next_due_at, trigger_id)"
    " WHERE agent_id <> '';";

int store_create(sqlite3 *db, char **err) {
  char *data = trigger_table_ddl(0);
  char *state = trigger_table_ddl(1);
  char *runs = runs_table_ddl();
  char *cfg = sqlite3_mprintf(
      "CREATE TABLE main.triggers_config(key TEXT PRIMARY KEY, value)"
      " WITHOUT ROWID;"
      "INSERT INTO main.triggers_config VALUES('schema_version', %d);",
      TRIGGERS_SCHEMA_VERSION);
  int rc = SQLITE_NOMEM;
  if (data && state && runs && cfg) {
    const char *const steps[] = {data,         state,       runs,
                                 cfg,          index_ddl,   index_runs_ddl,
                                 index_v2_ddl, index_v3_ddl};
    rc = SQLITE_OK;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0] && rc == SQLITE_OK;
         i++) {
      rc = sqlite3_exec(db, steps[i], 0, 0, err);
    }
  }
  sqlite3_free(data);
  sqlite3_free(state);
  sqlite3_free(runs);
  sqlite3_free(cfg);
  return rc;
}

/* Version 2 -> 3: the columns a fire writes move from triggers_data to
** the new triggers_state, with the two time indexes. */
static char *migrate_v3_sql(void) {
  int cols[TC_NCOL + 2], n = table_cols(1, cols);
  char *ddl = trigger_table_ddl(1);
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "%s;INSERT INTO main.triggers_state(id", ddl);
  for (int i = 0; i < n; i++)
    sqlite3_str_appendf(s, ", %s", trg_cols[cols[i]].name);
  sqlite3_str_appendall(s, ") SELECT id");
  for (int i = 0; i < n; i++)
    sqlite3_str_appendf(s, ", %s", trg_cols[cols[i]].name);
  sqlite3_str_appendall(s, " FROM main.triggers_data;"
                           "DROP INDEX IF EXISTS main.triggers_data_due;"
                           "DROP INDEX IF EXISTS main.triggers_data_agent;");
  for (int i = 2; i < n; i++) {
    sqlite3_str_appendf(s, "ALTER TABLE main.triggers_data DROP COLUMN %s;",
                        trg_cols[cols[i]].name);
  }
  sqlite3_str_appendall(s, index_v3_ddl);
  sqlite3_free(ddl);
  return sqlite3_str_finish(s);
}

/* The recorded schema version into *v. None, or a value that is not a
** version number (changed outside the extension), is an error with *err
** set, so that neither a connection nor trigger_install() acts on a guess. */
static int schema_version(sqlite3 *db, i64 *v, char **err) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT typeof(value) = 'integer' AND value >= 1,"
                              " value FROM main.triggers_config"
                              " WHERE key = 'schema_version'",
                              -1, &st, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && sqlite3_column_int(st, 0)) {
    *v = sqlite3_column_int64(st, 1);
    rc = SQLITE_OK;
  } else if (rc == SQLITE_ROW && sqlite3_column_type(st, 1) != SQLITE_NULL) {
    const char *t = (const char *)sqlite3_column_text(st, 1);
    char buf[STORED_SHOWN + 4];
    *err =
        sqlite3_mprintf("triggers: triggers_config.schema_version is "
                        "'%s', not a version number (changed outside "
                        "the extension; this one writes %d)",
                        stored_shown(t ? t : "", buf), TRIGGERS_SCHEMA_VERSION);
    rc = SQLITE_ERROR;
  } else if (rc == SQLITE_ROW || rc == SQLITE_DONE || rc == SQLITE_ERROR) {
    *err = sqlite3_mprintf("triggers: shadow tables missing or damaged "
                           "(triggers_config has no schema_version)");
    rc = SQLITE_ERROR;
  }
  sqlite3_finalize(st);
  return rc;
}

int store_check(sqlite3 *db, char **err) {
  i64 v = 0;
  int rc = schema_version(db, &v, err);
  if (rc != SQLITE_OK) return rc;
  if (v > TRIGGERS_SCHEMA_VERSION) {
    *err = sqlite3_mprintf("triggers: schema version %lld is newer than "
                           "this extension (%d); upgrade the extension",
                           v, TRIGGERS_SCHEMA_VERSION);
    return SQLITE_ERROR;
  }
  if (v < TRIGGERS_SCHEMA_VERSION) {
    *err = sqlite3_mprintf("triggers: schema version %lld is older than "
                           "this extension's (%d); run SELECT "
                           "trigger_install(); to upgrade it in place",
                           v, TRIGGERS_SCHEMA_VERSION);
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

/* Version 3 -> 4: trigger incarnations and a run's result. SQLite cannot
** change triggers_rundata's UNIQUE key in place, so its rows go through a
** copy into the new table (every row and id kept): a success's note moves
** from error to result, every run and trigger is incarnation 1 (run ids
** unchanged; no claim's lease_ms is known, so a heartbeat falls back to
** lease_until - claimed_at). last_error that version 3 copied from a success note is
** cleared (it is the last failure's error now). The copy is a table in
** main, not a TEMP one: it lives in the file like the history it copies
** (a TEMP table may be held in memory, temp_store), and a change to the
** TEMP schema would expire every prepared statement of the connection. */
static char *migrate_v4_sql(void) {
  char *runs = runs_table_ddl();
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendall(
      s, "UPDATE main.triggers_state SET last_error = NULL"
         " WHERE last_status = 'success' AND last_error = (SELECT r.error"
         " FROM main.triggers_rundata AS r WHERE r.trigger_id ="
         " triggers_state.trigger_id AND r.status = 'success'"
         " ORDER BY r.finished_at DESC, r.id DESC LIMIT 1);"
         "CREATE TABLE main.triggers_migrate_runs AS"
         " SELECT * FROM main.triggers_rundata;"
         "DROP TABLE main.triggers_rundata;");
  sqlite3_str_appendf(s, "%s;INSERT INTO main.triggers_rundata(id", runs);
  for (int i = 0; i < RC_NCOL; i++) {
    if (i != RC_INCARNATION && i != RC_LEASE_MS)
      sqlite3_str_appendf(s, ", %s", run_cols[i].name);
  }
  sqlite3_str_appendall(s, ") SELECT id");
  for (int i = 0; i < RC_NCOL; i++) {
    if (i == RC_ERROR) {
      sqlite3_str_appendall(
          s, ", CASE WHEN status = 'success' THEN NULL ELSE error END");
    } else if (i == RC_RESULT) {
      sqlite3_str_appendall(s, ", CASE WHEN status = 'success' THEN error END");
    } else if (i != RC_INCARNATION && i != RC_LEASE_MS) {
      sqlite3_str_appendf(s, ", %s", run_cols[i].name);
    }
  }
  sqlite3_str_appendf(s,
                      " FROM main.triggers_migrate_runs ORDER BY id;"
                      "DROP TABLE main.triggers_migrate_runs;%s%s"
                      "ALTER TABLE main.triggers_data ADD COLUMN %s %s;",
                      index_runs_ddl, index_v2_ddl,
                      trg_cols[TC_INCARNATION].name,
                      trg_cols[TC_INCARNATION].decl);
  if (!runs) sqlite3_str_reset(s);
  sqlite3_free(runs);
  return sqlite3_str_finish(s);
}

/* Results moved by migrate_v4_sql that are longer than a result may be
** now: cut (and made valid UTF-8) as trigger_run_finish does. */
static int bound_results(sqlite3 *db) {
  sqlite3_stmt *sel = NULL, *upd = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT id, result FROM main.triggers_rundata"
                              " WHERE length(CAST(result AS BLOB)) > ?1",
                              -1, &sel, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_prepare_v2(
        db, "UPDATE main.triggers_rundata SET result = ?2 WHERE id = ?1", -1,
        &upd, NULL);
  }
  char *buf = rc == SQLITE_OK ? sqlite3_malloc(TRG_RESULT_MAX + 1) : NULL;
  if (rc == SQLITE_OK && !buf) rc = SQLITE_NOMEM;
  if (rc == SQLITE_OK) sqlite3_bind_int(sel, 1, TRG_RESULT_MAX);
  while (rc == SQLITE_OK && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(sel, 1);
    if (!t) {
      rc = SQLITE_NOMEM;
      break;
    }
    size_t n = run_text_clean(t, (size_t)sqlite3_column_bytes(sel, 1),
                              TRG_RESULT_MAX, buf);
    sqlite3_bind_int64(upd, 1, sqlite3_column_int64(sel, 0));
    sqlite3_bind_text(upd, 2, buf, (int)n, SQLITE_STATIC);
    rc = sqlite3_step(upd);
    sqlite3_reset(upd);
    rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  sqlite3_free(buf);
  sqlite3_finalize(sel);
  sqlite3_finalize(upd);
  return rc;
}

/* Run the SQL that make() builds (NULL: out of memory). */
static int exec_built(sqlite3 *db, char *(*make)(void), char **err) {
  char *sql = make();
  int rc = sql ? sqlite3_exec(db, sql, 0, 0, err) : SQLITE_NOMEM;
  sqlite3_free(sql);
  return rc;
}

int store_migrate(sqlite3 *db, char **err) {
  i64 v = 0;
  int rc = schema_version(db, &v, err);
  if (rc != SQLITE_OK || v >= TRIGGERS_SCHEMA_VERSION) return rc;
  if (v < 2) {
    /* 1 -> 2: one time index per access path (see the header). */
    rc = sqlite3_exec(db,
                      "DROP INDEX IF EXISTS main.triggers_data_fire;"
                      "DROP INDEX IF EXISTS main.triggers_data_pending;"
                      "DROP INDEX IF EXISTS main.triggers_rundata_finished;"
                      "DROP INDEX IF EXISTS main.triggers_rundata_outcome;",
                      0, 0, err);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, index_v2_ddl, 0, 0, err);
  }
  if (rc == SQLITE_OK && v < 3) rc = exec_built(db, migrate_v3_sql, err);
  if (rc == SQLITE_OK) rc = exec_built(db, migrate_v4_sql, err); /* 3 -> 4 */
  if (rc == SQLITE_OK) rc = bound_results(db);
  if (rc == SQLITE_OK) {
    char *sql = sqlite3_mprintf("UPDATE main.triggers_config SET value = %d"
                                " WHERE key = 'schema_version'",
                                TRIGGERS_SCHEMA_VERSION);
    rc = sql ? sqlite3_exec(db, sql, 0, 0, err) : SQLITE_NOMEM;
    sqlite3_free(sql);
  }
  return rc;
}

int store_drop(sqlite3 *db) {
  return sqlite3_exec(db,
                      "DROP TABLE IF EXISTS main.triggers_data;"
                      "DROP TABLE IF EXISTS main.triggers_state;"
                      "DROP TABLE IF EXISTS main.triggers_rundata;"
                      "DROP TABLE IF EXISTS main.triggers_config;",
                      0, 0, 0);
}

int store_installed(sqlite3 *db) {
  i64 v = 0;
  int isnull = 1;
  int rc = store_exec_i64(db,
                          "SELECT count(*) FROM main.sqlite_schema WHERE"
                          " type = 'table' AND name = 'triggers_data'",
                          0, 0, &v, &isnull);
  return rc == SQLITE_OK && v == 1;
}

void store_connect_table(sqlite3 *db) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT 1 FROM main.triggers WHERE 0", -1, &st,
                         NULL) == SQLITE_OK) {
    sqlite3_finalize(st);
  }
}

/* What already holds `name`: 0 nothing, 1 ours, -1 something else. */
static int name_owner(sqlite3 *db, const char *name, const char *module) {
  sqlite3_stmt *st = NULL;
  int owner = 0;
  if (sqlite3_prepare_v2(
          db,
          "SELECT type, coalesce(sql, '') FROM main.sqlite_schema"
          " WHERE lower(name) = lower(?1)",
          -1, &st, NULL) != SQLITE_OK) {
    return -1;
  }
  sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW) {
    const char *sql = (const char *)sqlite3_column_text(st, 1);
    char *want = sqlite3_mprintf("USING %s", module);
    owner = (want && sql && sqlite3_strlike("%VIRTUAL TABLE%", sql, 0) == 0 &&
             sqlite3_strglob("*[Uu][Ss][Ii][Nn][Gg] *", sql) == 0 &&
             strstr(sql, want) != NULL)
                ? 1
                : -1;
    sqlite3_free(want);
  }
  sqlite3_finalize(st);
  return owner;
}

int store_install(sqlite3 *db, char **err) {
  static const char *const names[][2] = {
      {"triggers", "triggers"},
      {"trigger_runs", "trigger_runs"},
  };
  static const char *const shadows[] = {"triggers_data", "triggers_state",
                                        "triggers_rundata", "triggers_config"};
  int ours = name_owner(db, "triggers", "triggers") == 1;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (name_owner(db, names[i][0], names[i][1]) < 0) {
      *err = sqlite3_mprintf("table '%s' already exists and is not a "
                             "sqlite-triggers table; nothing was changed",
                             names[i][0]);
      return SQLITE_ERROR;
    }
  }
  if (!ours) {
    for (size_t i = 0; i < sizeof shadows / sizeof shadows[0]; i++) {
      if (name_owner(db, shadows[i], "-") != 0) {
        *err = sqlite3_mprintf("table '%s' already exists; nothing was "
                               "changed",
                               shadows[i]);
        return SQLITE_ERROR;
      }
    }
  }
  store_txn t;
  int rc = store_txn_begin(db, &t);
  if (rc != SQLITE_OK) return rc;
  rc = sqlite3_exec(
      db,
      "CREATE VIRTUAL TABLE IF NOT EXISTS main.triggers USING triggers;"
      "CREATE VIRTUAL TABLE IF NOT EXISTS main.trigger_runs"
      " USING trigger_runs;",
      0, 0, err);
  if (rc == SQLITE_OK) rc = store_migrate(db, err);
  return store_txn_end(db, &t, rc);
}

/* ---- rows ------------------------------------------------------------ */

int store_row_step(sqlite3_stmt *st, trg_row *r) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    int rr = store_row_read(st, 0, r);
    if (rr != SQLITE_OK) rc = rr;
  }
  sqlite3_reset(st);
  return rc;
}

int store_trigger_load(store *s, const char *trigger_id, trg_row *r) {
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_BY_TID);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  return store_row_step(st, r);
}

int store_trigger_load_id(store *s, i64 id, trg_row *r) {
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_BY_ROWID);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, id);
  return store_row_step(st, r);
}

/* Run one cached statement to completion with a trigger table's columns
** bound: INSERT (ids: the id first, for triggers_state) or UPDATE (the id
** last). */
static int table_write(store *s, store_sql which, int state, int id_first,
                       const trg_row *r) {
  int cols[TC_NCOL + 2], n = table_cols(state, cols);
  sqlite3_stmt *st = store_stmt(s, which);
  if (!st) return store_err(s);
  int rc = SQLITE_OK;
  if (id_first >= 0) {
    rc = id_first ? sqlite3_bind_int64(st, 1, r->id)
                  : sqlite3_bind_int64(st, n + 1, r->id);
  }
  if (rc == SQLITE_OK) rc = table_bind(st, id_first > 0 ? 2 : 1, r, cols, n);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_trigger_insert(store *s, trg_row *r) {
  if (vals_poisoned(r->v, TC_NCOL)) return SQLITE_NOMEM;
  int rc = table_write(s, ST_TRIG_INSERT, 0, -1, r);
  if (rc != SQLITE_OK) return rc;
  r->id = sqlite3_last_insert_rowid(s->db);
  return table_write(s, ST_STATE_INSERT, 1, 1, r);
}

int store_trigger_save(store *s, const trg_row *r) {
  if (vals_poisoned(r->v, TC_NCOL)) return SQLITE_NOMEM;
  int rc = table_write(s, ST_TRIG_UPDATE, 0, 0, r);
  return rc == SQLITE_OK ? table_write(s, ST_STATE_UPDATE, 1, 0, r) : rc;
}

int store_trigger_delete(store *s, i64 id) {
  int rc = SQLITE_OK;
  for (int i = 0; i < 2 && rc == SQLITE_OK; i++) {
    sqlite3_stmt *st = store_stmt(s, i ? ST_STATE_DELETE : ST_TRIG_DELETE);
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
  sqlite3_stmt *st = store_stmt(s, which);
  if (!st) return store_err(s);
  int rc = sqlite3_bind_int64(st, 1, r->id);
  if (rc == SQLITE_OK) rc = table_bind(st, 2, r, cols, n);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_trigger_save_tick(store *s, const trg_row *r, int status_changed) {
  /* ?2.. in ST_TICK_STATUS order (ST_TICK_UPDATE_HOT: hot_cols). */
  static const int status_cols[] = {TC_STATUS, TC_ENABLED};
  if (vals_poisoned(r->v, TC_NCOL)) return SQLITE_NOMEM;
  int rc = SQLITE_OK;
  if (status_changed) rc = tick_write(s, ST_TICK_STATUS, r, status_cols, 2);
  if (rc == SQLITE_OK) {
    rc = tick_write(s, ST_TICK_UPDATE_HOT, r, hot_cols, HOT_NCOL);
  }
  return rc;
}

/* Step a bound statement that returns no rows and reset it. */
static int step_reset(sqlite3_stmt *st, int rc) {
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_trigger_quarantine(store *s, i64 id, const char *status, int paused,
                             const char *why, i64 now, i64 running) {
  sqlite3_stmt *st = store_stmt(s, ST_QUARANTINE_DATA);
  if (!st) return store_err(s);
  int rc = sqlite3_bind_int64(st, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, status, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK && paused) rc = sqlite3_bind_int(st, 3, 0);
  rc = step_reset(st, rc);
  if (rc != SQLITE_OK) return rc;
  if (!(st = store_stmt(s, ST_QUARANTINE_STATE))) return store_err(s);
  rc = sqlite3_bind_int64(st, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, why, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 3, now);
  if (rc == SQLITE_OK && running >= 0) rc = sqlite3_bind_int64(st, 4, running);
  return step_reset(st, rc);
}

int store_run_close(store *s, i64 id, const char *status, const char *error,
                    i64 now) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_CLOSE);
  if (!st) return store_err(s);
  int rc = sqlite3_bind_int64(st, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, status, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 3, error, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, 4, now);
  return step_reset(st, rc);
}

int store_run_load(store *s, const char *run_id, run_row *r) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_BY_ID);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    int rr = store_run_read(st, 0, r);
    if (rr != SQLITE_OK) rc = rr;
  }
  sqlite3_reset(st);
  return rc;
}

int store_run_insert(store *s, const run_row *r) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_INSERT);
  if (!st) return store_err(s);
  int rc = vals_bind(st, 1, run_cols, RC_NCOL, r->v);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_next_incarnation(store *s, const char *trigger_id, i64 *inc) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_LAST_INCARNATION);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  *inc = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) + 1 : 1;
  sqlite3_reset(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_run_mark(store *s, i64 *mark) {
  sqlite3_stmt *st = store_stmt(s, ST_RUNS_MARK);
  if (!st) return store_err(s);
  int rc = sqlite3_step(st);
  *mark = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

int store_run_insert_all(store *s, const run_row *runs, int n, int *all_new) {
  int rc = SQLITE_OK, at = 0;
  i64 added = 0;
  for (; n - at >= STORE_MANY && rc == SQLITE_OK; at += STORE_MANY) {
    sqlite3_stmt *st = store_stmt(s, ST_RUN_INSERT_MANY);
    if (!st) return store_err(s);
    for (int i = 0; i < STORE_MANY && rc == SQLITE_OK; i++) {
      rc = vals_bind(st, i * RC_NCOL + 1, run_cols, RC_NCOL, runs[at + i].v);
    }
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) {
      rc = SQLITE_OK;
      added += sqlite3_changes(s->db);
    }
  }
  for (; at < n && rc == SQLITE_OK; at++) {
    rc = store_run_insert(s, &runs[at]);
    if (rc == SQLITE_OK) added += sqlite3_changes(s->db);
  }
  *all_new = added == n;
  return rc;
}

int store_runs_drop_after(store *s, i64 mark) {
  sqlite3_stmt *st = store_stmt(s, ST_RUNS_DROP_AFTER);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, mark);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_tick_hot_all(store *s, trg_row *const *rows, int n) {
  /* One row per statement: an UPDATE ... FROM (VALUES ...) of many rows
  ** measured slower per row than this (it materializes the values). */
  int rc = SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    rc = store_trigger_save_tick(s, rows[i], 0);
  }
  return rc;
}

/* ---- the tick's reads -------------------------------------------------- */

/* The state row's copies of trigger_id and agent_id (DUE_COPIES, after
** the row) against the row's own: a copy that differs marks the value
** TRG_BAD_COPY. *key_differs: the trigger_id copy, the key the probe
** walks in, is not the row's id. */
static int check_copies(sqlite3_stmt *st, trg_row *r, int *key_differs) {
  static const int cols[] = {TC_TRIGGER_ID, TC_AGENT_ID};
  *key_differs = 0;
  for (int k = 0; k < 2; k++) {
    trg_val *v = &r->v[cols[k]];
    int type = sqlite3_column_type(st, DUE_COPIES + k);
    const char *copy = (const char *)sqlite3_column_text(st, DUE_COPIES + k);
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
  sqlite3_stmt *st = store_stmt(s, agents ? ST_DUE_AGENTS : ST_DUE);
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
        key ? key : sqlite3_mprintf("%s", val_text(&last->v[TC_TRIGGER_ID]));
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

int store_due_strays(store *s, trg_row *rows, int max, int *n) {
  sqlite3_stmt *st = store_stmt(s, ST_DUE_STRAY);
  *n = 0;
  if (!st) return store_err(s);
  sqlite3_bind_int(st, 2, max);
  char *key;
  int rc = due_rows(st, rows, max, n, &key);
  sqlite3_free(key);
  return rc;
}

int store_runs_read(store *s, store_runs_kind kind, i64 now,
                    int (*keep)(void *arg, const run_row *run), void *arg,
                    run_row **runs, int *n, i64 *read) {
  static const store_sql probes[] = {ST_RUNS_LEASED, ST_RUNS_RETRY,
                                     ST_RUNS_STRAY_LEASE, ST_RUNS_STRAY_RETRY};
  sqlite3_stmt *st = store_stmt(s, probes[kind]);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, now);
  sqlite3_bind_int64(st, 2, -1);
  int rc, cap = *n;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (*n == cap) {
      cap = cap ? cap * 2 : 16;
      run_row *grown =
          sqlite3_realloc64(*runs, (sqlite3_uint64)cap * sizeof *grown);
      if (!grown) {
        rc = SQLITE_NOMEM;
        break;
      }
      *runs = grown;
    }
    run_row *run = &(*runs)[*n];
    memset(run, 0, sizeof *run);
    ++*read;
    /* Read whole before keep() looks at it: reading a value as text
    ** first would hide its stored type from the run's check. */
    rc = store_run_read(st, 0, run);
    ++*n;
    if (rc != SQLITE_OK) break;
    if (keep && !keep(arg, run)) run_clear(&(*runs)[--*n]);
  }
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_runs_any(store *s, i64 now, int *due, int *strays) {
  sqlite3_stmt *st = store_stmt(s, ST_RUNS_ANY);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, now);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *due = sqlite3_column_int(st, 0);
    *strays = sqlite3_column_int(st, 1);
    rc = SQLITE_OK;
  }
  sqlite3_reset(st);
  return rc == SQLITE_OK ? rc : store_err(s);
}

int store_run_pending(store *s, const char *trigger_id, i64 incarnation) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_PENDING_FOR);
  if (!st) return -1;
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, incarnation);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* ---- trigger_next_wakeup's reads --------------------------------------- */

int store_wake_walk(store *s, const char *agent,
                    int (*visit)(void *arg, const store_wake_row *w),
                    void *arg) {
  /* Agent '' is not in triggers_state_agent (see the header). */
  store_sql which = !agent   ? ST_WAKE_TRIGGERS
                    : *agent ? ST_WAKE_TRIGGERS_AGENT
                             : ST_WAKE_TRIGGERS_NOAGENT;
  sqlite3_stmt *st = store_stmt(s, which);
  if (!st) return store_err(s);
  if (agent && *agent) sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    store_wake_row w;
    w.due_type = sqlite3_column_type(st, 0);
    w.due = sqlite3_column_int64(st, 0);
    w.fire_type = sqlite3_column_type(st, 1);
    w.fire = sqlite3_column_int64(st, 1);
    w.wake_mode = (const char *)sqlite3_column_text(st, 2);
    if (visit(arg, &w)) break;
  }
  sqlite3_reset(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_wake_runs(store *s, const char *agents, const char *wake_mode,
                    int *have, i64 *at) {
  static const store_sql probes[] = {ST_WAKE_RETRY, ST_WAKE_LEASE};
  int rc = SQLITE_OK;
  *have = 0;
  for (size_t i = 0; i < 2 && rc == SQLITE_OK; i++) {
    sqlite3_stmt *st = store_stmt(s, probes[i]);
    if (!st) return store_err(s);
    if (agents) sqlite3_bind_text(st, 1, agents, -1, SQLITE_STATIC);
    if (wake_mode) sqlite3_bind_text(st, 2, wake_mode, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
      i64 v = sqlite3_column_int64(st, 0);
      if (!*have || v < *at) *at = v;
      *have = 1;
    } else if (step != SQLITE_DONE) {
      rc = step;
    }
    sqlite3_reset(st);
  }
  return rc;
}

/* ---- trigger rows: lookups --------------------------------------------- */

int store_trigger_exists(store *s, const char *trigger_id) {
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_EXISTS);
  if (!st) return -store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -rc;
}

int store_trigger_duplicate(store *s, const char *agent_id,
                            const char *dedupe_key, i64 id, char **existing) {
  *existing = NULL;
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_DUPLICATE);
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

int store_run_save(store *s, const run_row *r) {
  sqlite3_stmt *st = store_stmt(s, ST_RUN_UPDATE);
  if (!st) return store_err(s);
  int rc = vals_poisoned(r->v, RC_NCOL) ? SQLITE_NOMEM : SQLITE_OK;
  for (int i = 0; i < RUN_STATE_NCOL && rc == SQLITE_OK; i++) {
    int c = run_state_cols[i];
    rc = val_bind(st, i + 1, run_cols[c].kind, &r->v[c]);
  }
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, RUN_STATE_NCOL + 1, r->id);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_run_delete(store *s, i64 id, char **running) {
  /* A running run holds its trigger (the overlap policy, the running
  ** count): deleting it would hold the trigger for good. */
  *running = NULL;
  sqlite3_stmt *st = store_stmt(s, ST_RUN_RUNNING);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, id);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *running = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
    rc = *running ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
  }
  sqlite3_reset(st);
  if (rc != SQLITE_DONE) return rc;
  if (!(st = store_stmt(s, ST_RUN_DELETE))) return store_err(s);
  sqlite3_bind_int64(st, 1, id);
  rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* ---- transactions ---------------------------------------------------- */

enum { TXN_NONE, TXN_BEGIN, TXN_SAVEPOINT };

int store_err(store *s) {
  int rc = sqlite3_errcode(s->db);
  return rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_NOMEM
                                                                  : rc;
}

static void undo_free(store_txn *t) {
  if (t->own_undo) {
    sqlite3_finalize(t->undo[0]);
    sqlite3_finalize(t->undo[1]);
  }
  t->undo[0] = t->undo[1] = NULL;
}

int store_txn_begin(sqlite3 *db, store_txn *t) {
  t->msg[0] = 0;
  t->s = NULL;
  t->undo[0] = t->undo[1] = NULL;
  t->own_undo = 1;
  int rc;
  if (sqlite3_get_autocommit(db)) {
    t->mode = TXN_BEGIN;
    rc = sqlite3_prepare_v2(db, "ROLLBACK", -1, &t->undo[0], NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
  } else {
    t->mode = TXN_SAVEPOINT;
    rc = sqlite3_prepare_v2(db, "ROLLBACK TO triggers_txn", -1, &t->undo[0],
                            NULL);
    if (rc == SQLITE_OK) {
      rc =
          sqlite3_prepare_v2(db, "RELEASE triggers_txn", -1, &t->undo[1], NULL);
    }
    if (rc == SQLITE_OK)
      rc = sqlite3_exec(db, "SAVEPOINT triggers_txn", 0, 0, 0);
  }
  if (rc != SQLITE_OK) {
    undo_free(t);
    t->mode = TXN_NONE;
  }
  return rc;
}

/* Step a prepared statement that returns no rows (the undo statements). */
static int step_stmt(sqlite3_stmt *st) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Step a statement that returns no rows, e.g. BEGIN. */
static int step_done(store *s, store_sql which) {
  sqlite3_stmt *st = store_stmt(s, which);
  return st ? step_stmt(st) : store_err(s);
}

int store_txn_begin_cached(store *s, store_txn *t) {
  s->err = 0;
  t->msg[0] = 0;
  t->s = s;
  t->undo[0] = t->undo[1] = NULL;
  t->own_undo = 0;
  int rc;
  if (sqlite3_get_autocommit(s->db)) { /* undo prepared first: store_txn */
    t->undo[0] = store_stmt(s, ST_ROLLBACK);
    rc = t->undo[0] ? step_done(s, ST_BEGIN) : store_err(s);
    t->mode = TXN_BEGIN;
  } else {
    t->undo[0] = store_stmt(s, ST_ROLLBACK_TO);
    if (t->undo[0]) t->undo[1] = store_stmt(s, ST_RELEASE);
    rc = t->undo[1] ? step_done(s, ST_SAVEPOINT) : store_err(s);
    t->mode = TXN_SAVEPOINT;
  }
  if (rc != SQLITE_OK) t->mode = TXN_NONE;
  return rc;
}

/* Keep the failure's message before a rollback resets it. */
static void keep_errmsg(sqlite3 *db, store_txn *t) {
  t->msg[0] = 0;
  if (sqlite3_errcode(db) != SQLITE_OK) {
    sqlite3_snprintf((int)sizeof t->msg, t->msg, "%s", sqlite3_errmsg(db));
  }
}

int store_txn_end(sqlite3 *db, store_txn *t, int rc) {
  if (rc == SQLITE_OK && t->s && t->s->err) rc = t->s->err;
  if (t->mode == TXN_BEGIN) {
    if (rc == SQLITE_OK) {
      rc = t->s ? step_done(t->s, ST_COMMIT)
                : sqlite3_exec(db, "COMMIT", 0, 0, 0);
      if (rc == SQLITE_OK) goto done;
    }
    keep_errmsg(db, t);
    if (!sqlite3_get_autocommit(db)) step_stmt(t->undo[0]);
  } else if (t->mode == TXN_SAVEPOINT) {
    if (rc == SQLITE_OK) {
      rc = step_stmt(t->undo[1]);
      if (rc == SQLITE_OK) goto done;
    }
    keep_errmsg(db, t);
    /* After SQLITE_FULL / NOMEM / IOERR SQLite may already have rolled
    ** back the caller's whole transaction (and with it the savepoint):
    ** then there is nothing left to undo. */
    if (!sqlite3_get_autocommit(db)) {
      step_stmt(t->undo[0]);
      step_stmt(t->undo[1]);
    }
  }
done:
  undo_free(t);
  t->mode = TXN_NONE;
  return rc;
}

const char *store_txn_errmsg(const store_txn *t, sqlite3 *db) {
  return t->msg[0] ? t->msg : sqlite3_errmsg(db);
}

/* ---- config and small queries ---------------------------------------- */

char *store_config_get(store *s, const char *key) {
  sqlite3_stmt *st = store_stmt(s, ST_CONFIG_GET);
  char *out = NULL;
  if (!st) {
    if (!s->err) s->err = store_err(s); /* not "unset": see store.err */
    return NULL;
  }
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
    const char *v = (const char *)sqlite3_column_text(st, 0);
    out = v ? sqlite3_mprintf("%s", v) : NULL;
    if (!out && !s->err) s->err = SQLITE_NOMEM;
  } else if (rc != SQLITE_ROW && rc != SQLITE_DONE && !s->err) {
    s->err = rc;
  }
  sqlite3_reset(st);
  return out;
}

int store_config_set(store *s, const char *key, const char *value) {
  sqlite3_stmt *st = store_stmt(s, ST_CONFIG_SET);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_exec_i64(sqlite3 *db, const char *sql, i64 bind1, int nbind, i64 *out,
                   int *isnull) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc != SQLITE_OK) return rc;
  if (nbind) sqlite3_bind_int64(st, 1, bind1);
  rc = sqlite3_step(st);
  *isnull = 1;
  if (rc == SQLITE_ROW) {
    *isnull = sqlite3_column_type(st, 0) == SQLITE_NULL;
    *out = sqlite3_column_int64(st, 0);
    rc = SQLITE_OK;
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  }
  sqlite3_finalize(st);
  return rc;
}

int store_json_is_object(store *s, const char *text) {
  sqlite3_stmt *st = store_stmt(s, ST_JSON_IS_OBJECT);
  if (!st) return -1;
  sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  int ok = rc == SQLITE_ROW     ? sqlite3_column_int(st, 0)
           : rc == SQLITE_ERROR ? 0
                                : -1;
  sqlite3_reset(st);
  return ok;
}

int store_json_each_open(store *s, const char *json, store_json_each *it) {
  memset(it, 0, sizeof *it);
  it->s = s;
  it->st = store_stmt(s, ST_JSON_EACH);
  if (!it->st) return store_err(s);
  return sqlite3_bind_text(it->st, 1, json, -1, SQLITE_STATIC);
}

int store_json_each_next(store_json_each *it) {
  sqlite3_stmt *st = it->st;
  int rc = st ? sqlite3_step(st) : SQLITE_MISUSE;
  if (rc != SQLITE_ROW) return rc;
  store_json_member *m = &it->m;
  m->key = (const char *)sqlite3_column_text(st, 0);
  m->type = (const char *)sqlite3_column_text(st, 1);
  m->value = sqlite3_column_value(st, 2);
  m->text = (const char *)sqlite3_column_text(st, 2);
  m->json = (const char *)sqlite3_column_text(st, 3);
  /* Every column but a null value has text: NULL is out of memory. */
  if (!m->key || !m->type || !m->json ||
      (!m->text && sqlite3_column_type(st, 2) != SQLITE_NULL)) {
    return SQLITE_NOMEM;
  }
  return SQLITE_ROW;
}

void store_json_each_close(store_json_each *it) {
  if (it->st) sqlite3_reset(it->st);
  it->st = NULL;
}
