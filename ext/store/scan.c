/*
** scan.c -- the virtual tables' reads (scan.h): one SELECT over the shadow
** table(s) per xFilter, built from the terms (events newest first, the
** others in rowid order), each column taken from the table that holds
** it (a trigger is the join of triggers_data and triggers_state:
** columns.h).
*/
#include "store/scan.h"

#include <string.h>

#include "store/columns.h"
#include "store/run_key.h"
#include "store/stored.h"

SQLITE_EXTENSION_INIT3

/* A term's operator, as written into the statement; NULL when it is not
** one of the five. */
static const char *op_sql(const char *op) {
  static const char *const ops[] = {"=", ">", ">=", "<", "<=", 0};
  for (int i = 0; ops[i]; i++) {
    if (strcmp(op, ops[i]) == 0) return ops[i];
  }
  return NULL;
}

/* The public columns of table t, and their number in *ncol. */
static const store_coldef *table_cols(store_vtab t, int *ncol) {
  switch (t) {
    case STORE_VTAB_TRIGGERS: *ncol = TC_NPUBLIC; return store_trigger_cols;
    case STORE_VTAB_EVENTS: *ncol = EC_NCOL; return store_event_cols;
    case STORE_VTAB_CALENDAR: *ncol = CC_NCOL; return store_calendar_cols;
    default: *ncol = RC_NPUBLIC; return store_run_cols;
  }
}

/* How the reads qualify column col of table t: a trigger is the join of
** triggers_data (d.) and triggers_state (s.); the others are one table. */
static const char *col_prefix(store_vtab t, int col) {
  if (t != STORE_VTAB_TRIGGERS) return "";
  return store_col_in_state(col) ? "s." : "d.";
}

/* The columns the reads select: the rowid, then every public column. */
static void select_list(sqlite3_str *s, store_vtab t) {
  int ncol;
  const store_coldef *cols = table_cols(t, &ncol);
  sqlite3_str_appendf(s, "SELECT %s", t == STORE_VTAB_TRIGGERS ? "d.id" : "id");
  for (int i = 0; i < ncol; i++) {
    sqlite3_str_appendf(s, ", %s%s", col_prefix(t, i), cols[i].name);
  }
}

/* " ORDER BY" the order terms (rows equal on them in no set order, so that
** an index on those columns serves the whole ORDER BY), or with no terms
** the table's own order: rowid, events newest first (the time index
** walked backwards). */
static void order_by(sqlite3_str *s, store_vtab t, const store_order *order,
                     int norder) {
  int ncol;
  const store_coldef *cols = table_cols(t, &ncol);
  sqlite3_str_appendall(s, " ORDER BY ");
  if (norder == 0) {
    sqlite3_str_appendall(s, t == STORE_VTAB_EVENTS     ? "at DESC, id DESC"
                             : t == STORE_VTAB_TRIGGERS ? "d.id"
                                                        : "id");
    return;
  }
  for (int i = 0; i < norder; i++) {
    int col = order[i].col;
    sqlite3_str_appendf(s, "%s%s%s%s", i ? ", " : "", col_prefix(t, col),
                        cols[col].name, order[i].desc ? " DESC" : "");
  }
}

/* A read of runs by status alone. triggers_rundata has no index on status
** itself (a run row already pays for five), so `status = ?1` would walk
** the whole table; each kind of run is in a partial index instead: a
** running run in triggers_rundata_lease, one waiting to be re-offered in
** triggers_rundata_retry, a finished one in triggers_rundata_finished
** (status, finished_at). A row that is none of these (not running, no
** retry_at, no finished_at) exists only by a change made outside the
** extension; a lookup by status does not find it (one by run_id,
** trigger_id, agent_id or scheduled_for does). */
static char *runs_by_status_sql(const char *status, const store_order *order,
                                int norder) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  if (status && strcmp(status, "running") == 0) {
    select_list(s, STORE_VTAB_RUNS);
    sqlite3_str_appendall(s, " FROM main.triggers_rundata"
                             " INDEXED BY triggers_rundata_lease"
                             " WHERE status = 'running' AND status = ?1");
  } else {
    sqlite3_str_appendall(s, "SELECT * FROM (");
    select_list(s, STORE_VTAB_RUNS);
    sqlite3_str_appendall(s, " FROM main.triggers_rundata"
                             " INDEXED BY triggers_rundata_finished"
                             " WHERE finished_at IS NOT NULL AND status = ?1"
                             " UNION ALL ");
    select_list(s, STORE_VTAB_RUNS);
    sqlite3_str_appendall(s, " FROM main.triggers_rundata"
                             " INDEXED BY triggers_rundata_retry"
                             " WHERE retry_at IS NOT NULL"
                             " AND finished_at IS NULL AND status = ?1)");
  }
  order_by(s, STORE_VTAB_RUNS, order, norder);
  return sqlite3_str_finish(s);
}

/* 1 when one of the terms is on column col. */
static int has_term(const store_term *terms, int n, int col) {
  for (int i = 0; i < n; i++) {
    if (terms[i].col == col) return 1;
  }
  return 0;
}

/* The first `run_id = ?` term of a read of runs, or -1. triggers_rundata
** has no index on run_id (it is derived from the run's key): the read
** seeks the key, parsed from the value (run_key.h), in parameters
** n+1..n+4 (NULL when it does not parse: no row). */
static int run_id_term(store_vtab t, const store_term *terms, int n) {
  for (int i = 0; t == STORE_VTAB_RUNS && i < n; i++) {
    if (terms[i].col == RC_RUN_ID && terms[i].op &&
        strcmp(terms[i].op, "=") == 0)
      return i;
  }
  return -1;
}

/* 1 when a read of runs is by agent_id without a run_id or trigger_id
** (each of which seeks the key): triggers_rundata_agent holds only the
** runs not finished, triggers_rundata_outcome the finished ones, so the
** read is the two, one per index (schema.c). */
static int runs_by_agent(store_vtab t, const store_term *terms, int n) {
  if (t != STORE_VTAB_RUNS || !has_term(terms, n, RC_AGENT_ID)) return 0;
  for (int i = 0; i < n; i++) {
    if ((terms[i].col == RC_RUN_ID || terms[i].col == RC_TRIGGER_ID) &&
        terms[i].op && strcmp(terms[i].op, "=") == 0)
      return 0;
  }
  return 1;
}

/* " WHERE <terms>" of table t (extra, when not NULL, ANDed); 0, or -1
** when a term is not one of the table's. */
static int where_terms(sqlite3_str *s, store_vtab t, const store_term *terms,
                       int n, const char *extra) {
  int ncol;
  const store_coldef *cols = table_cols(t, &ncol);
  /* Triggers read by agent and status: the status term is written
  ** +d.status, which no index serves, so SQLite walks the agent's index
  ** (an agent's triggers are few) and sorts them, rather than walk the
  ** status index in id order through every trigger of that status (1M
  ** for `trigger-host status --agent` of an unknown agent). */
  int by_agent = t == STORE_VTAB_TRIGGERS && has_term(terms, n, TC_AGENT_ID);
  for (int i = 0; i < n; i++) {
    const char *op = op_sql(terms[i].op);
    int col = terms[i].col;
    if (!op || col < 0 || col >= ncol) return -1;
    /* A range is marked selective: without it SQLite (no statistics)
    ** guesses that a range keeps a quarter of the rows and walks the whole
    ** table in id order rather than sort what the index finds. */
    int range = strcmp(op, "=") != 0;
    sqlite3_str_appendf(
        s, "%s%s%s%s%s %s ?%d%s", i ? " AND " : " WHERE ",
        range ? "likelihood(" : "", by_agent && col == TC_STATUS ? "+" : "",
        col_prefix(t, col), cols[col].name, op, i + 1, range ? ", 0.001)" : "");
  }
  if (extra) sqlite3_str_appendf(s, "%s%s", n ? " AND " : " WHERE ", extra);
  return 0;
}

/* A read of runs by agent (runs_by_agent): the finished ones through
** triggers_rundata_outcome, the others through triggers_rundata_agent. */
static char *runs_by_agent_sql(const store_term *terms, int n,
                               const store_order *order, int norder) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendall(s, "SELECT * FROM (");
  select_list(s, STORE_VTAB_RUNS);
  sqlite3_str_appendall(s, " FROM main.triggers_rundata"
                           " INDEXED BY triggers_rundata_outcome");
  int rc = where_terms(s, STORE_VTAB_RUNS, terms, n, "finished_at IS NOT NULL");
  sqlite3_str_appendall(s, " UNION ALL ");
  select_list(s, STORE_VTAB_RUNS);
  sqlite3_str_appendall(s, " FROM main.triggers_rundata"
                           " INDEXED BY triggers_rundata_agent");
  if (rc == 0)
    rc = where_terms(s, STORE_VTAB_RUNS, terms, n, "finished_at IS NULL");
  sqlite3_str_appendall(s, ")");
  order_by(s, STORE_VTAB_RUNS, order, norder);
  if (rc != 0) {
    sqlite3_free(sqlite3_str_finish(s));
    return NULL;
  }
  return sqlite3_str_finish(s);
}

/* The SELECT of table t with the terms; sqlite3_malloc'd, NULL when out of
** memory or a term is not one of the table's. */
static char *scan_sql(store_vtab t, const store_term *terms, int n,
                      const store_order *order, int norder) {
  if (runs_by_agent(t, terms, n))
    return runs_by_agent_sql(terms, n, order, norder);
  sqlite3_str *s = sqlite3_str_new(NULL);
  select_list(s, t);
  sqlite3_str_appendf(s, " FROM %s",
                      t == STORE_VTAB_TRIGGERS   ? STORE_TRIGGER_FROM
                      : t == STORE_VTAB_EVENTS   ? "main.triggers_events"
                      : t == STORE_VTAB_CALENDAR ? "main.triggers_calendar"
                                                 : "main.triggers_rundata");
  if (where_terms(s, t, terms, n, NULL) != 0) {
    sqlite3_free(sqlite3_str_finish(s));
    return NULL;
  }
  if (run_id_term(t, terms, n) >= 0) {
    sqlite3_str_appendf(s,
                        " AND trigger_id = ?%d AND incarnation = ?%d"
                        " AND scheduled_for = ?%d AND attempt = ?%d",
                        n + 1, n + 2, n + 3, n + 4);
  }
  /* finished_at leads no index: it is the second key of (status,
  ** finished_at), so without a status term each status is probed */
  if (t == STORE_VTAB_RUNS && has_term(terms, n, RC_FINISHED_AT) &&
      !has_term(terms, n, RC_STATUS)) {
    sqlite3_str_appendall(s, " AND status IN (");
    store_run_statuses_sql(s);
    sqlite3_str_appendall(s, ")");
  }
  order_by(s, t, order, norder);
  return sqlite3_str_finish(s);
}

/* 1 when the read is of runs by `status = ?` alone (runs_by_status_sql). */
static int runs_by_status(store_vtab t, const store_term *terms, int n) {
  return t == STORE_VTAB_RUNS && n == 1 && terms[0].col == RC_STATUS &&
         terms[0].op && strcmp(terms[0].op, "=") == 0;
}

int store_scan_open(sqlite3 *db, store_vtab t, const store_term *terms, int n,
                    sqlite3_value **argv, const store_order *order, int norder,
                    store_scan *sc) {
  sc->st = NULL;
  sc->eof = 1;
  char *sql =
      runs_by_status(t, terms, n)
          ? runs_by_status_sql((const char *)sqlite3_value_text(argv[0]), order,
                               norder)
          : scan_sql(t, terms, n, order, norder);
  if (!sql) return SQLITE_NOMEM;
  int rc = sqlite3_prepare_v3(db, sql, -1, 0, &sc->st, NULL);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) return rc;
  for (int i = 0; i < n; i++) sqlite3_bind_value(sc->st, i + 1, argv[i]);
  int key = run_id_term(t, terms, n);
  store_run_key k;
  if (key >= 0 && sqlite3_value_type(argv[key]) == SQLITE_TEXT &&
      store_run_key_parse((const char *)sqlite3_value_text(argv[key]), &k)) {
    rc = store_run_key_bind(sc->st, n + 1, &k);
    if (rc != SQLITE_OK) return rc;
  }
  return store_scan_next(sc);
}

int store_scan_next(store_scan *sc) {
  int rc = sqlite3_step(sc->st);
  sc->eof = rc != SQLITE_ROW;
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

sqlite3_value *store_scan_column(store_scan *sc, int col) {
  return sqlite3_column_value(sc->st, col + 1);
}

i64 store_scan_rowid(store_scan *sc) { return sqlite3_column_int64(sc->st, 0); }

void store_scan_close(store_scan *sc) {
  sqlite3_finalize(sc->st);
  sc->st = NULL;
  sc->eof = 1;
}
