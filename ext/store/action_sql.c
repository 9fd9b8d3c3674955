/*
** action_sql.c -- a SQL job's statements checked when a trigger's
** action_sql is written (action_sql.h, docs/sql-jobs.md): each statement
** read for what a job may not hold (text/sql_job_rules.h) before it is
** prepared, then compiled against the connection's current schema and
** finalized without a step; its parameters only those a host binds.
*/
#include "store/action_sql.h"

#include <string.h>

#include "text/sql_job_rules.h"

SQLITE_EXTENSION_INIT3

/* The refusal of statement k at p[0..n): "triggers.action_sql: statement
** k (text): why". */
static int refuse(char **err, int k, const char *p, size_t n, const char *why) {
  int more;
  size_t len = sqljob_shown(p, n, &more);
  *err = sqlite3_mprintf("triggers.action_sql: statement %d (%.*s%s): %s", k,
                         (int)len, p, more ? " ..." : "", why);
  return *err ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
}

/* A parameter of st that a host would not bind, or NULL. */
static const char *unknown_param(sqlite3_stmt *st) {
  int n = sqlite3_bind_parameter_count(st);
  for (int i = 1; i <= n; i++) {
    const char *name = sqlite3_bind_parameter_name(st, i);
    if (!name || !sqljob_param_known(name)) return name ? name : "?";
  }
  return NULL;
}

int store_action_sql_check(store *s, const char *sql, char **err) {
  size_t len = strlen(sql), pos = 0;
  int k = 0, rc = SQLITE_OK;
  *err = NULL;
  while (rc == SQLITE_OK &&
         (pos = sqljob_next_statement(sql, len, pos)) < len) {
    const char *start = sql + pos, *tail = NULL;
    /* shown to its first ';' until SQLite has said where it ends */
    size_t n = sqljob_simple_end(sql, len, pos) - pos;
    const char *why = sqljob_refused(sql, len, pos);
    k++;
    if (why) return refuse(err, k, start, n, why);
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v3(s->db, start, (int)(len - pos), 0, &st, &tail);
    if (rc != SQLITE_OK) {
      rc = rc == SQLITE_ERROR ? refuse(err, k, start, n, sqlite3_errmsg(s->db))
                              : rc;
      break;
    }
    n = tail && tail > start ? (size_t)(tail - start) : len - pos;
    const char *param = st ? unknown_param(st) : NULL;
    if (param) {
      char *why_param = sqlite3_mprintf(
          "parameter %s is not one a host binds (" SQLJOB_PARAMS_TEXT ")",
          param);
      rc = why_param ? refuse(err, k, start, n, why_param) : SQLITE_NOMEM;
      sqlite3_free(why_param);
    }
    sqlite3_finalize(st);
    pos += n;
  }
  if (rc == SQLITE_OK && k == 0) {
    *err = sqlite3_mprintf("triggers.action_sql: holds no statement");
    rc = *err ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
  }
  return rc;
}
