/*
** test_sql_job_rules.c -- sql_job_rules.h: which statements a SQL job may
** not hold (read from their first tokens, comments and EXPLAIN passed
** over; a PRAGMA only when it sets a value), where the next statement
** starts (blanks, comments and empty statements skipped), where a simple
** one ends, the parameters a host binds, and a statement's text as a
** message shows it (first line, cut on a character boundary).
*/
#include "../../ext/text/sql_job_rules.h"

#include "check.h"

static void refused(const char *sql, const char *want) {
  const char *why = sqljob_refused(sql, strlen(sql), 0);
  if (!want) CHECK(why == NULL, "'%s': refused: %s", sql, why);
  else CHECK(why && strstr(why, want), "'%s': got %s", sql, why ? why : "NULL");
}

static void shown(const char *stmt, const char *want, int want_more) {
  int more = -1;
  size_t n = sqljob_shown(stmt, strlen(stmt), &more);
  char buf[128];
  snprintf(buf, sizeof buf, "%.*s", (int)n, stmt);
  CHECK_STR(buf, want, stmt);
  CHECK_EQ_I64(more, want_more, stmt);
}

int main(void) {
  refused("DELETE FROM t WHERE x < :now", NULL);
  refused("  -- a comment\n  vacuum", "VACUUM");
  refused("/* x */ Attach 'a.db' AS a", "ATTACH");
  refused("DETACH a", "DETACH");
  refused("begin immediate", "transaction");
  refused("COMMIT", "transaction");
  refused("END", "transaction");
  refused("ROLLBACK TO x", "transaction");
  refused("SAVEPOINT x", "transaction");
  refused("RELEASE x", "transaction");
  refused("EXPLAIN VACUUM", "VACUUM");
  refused("EXPLAIN QUERY PLAN COMMIT", "transaction");
  refused("PRAGMA journal_mode = WAL", "PRAGMA");
  refused("PRAGMA main.journal_mode=DELETE", "PRAGMA");
  refused("pragma synchronous(0)", "PRAGMA");
  refused("PRAGMA optimize", NULL);
  refused("PRAGMA main.integrity_check", NULL);
  refused("SELECT 'vacuum'", NULL);
  refused("\"vacuum\"", NULL); /* a quoted name is no keyword */
  refused("", NULL);

  const char *two = " ;; -- c\n DELETE FROM t; ; SELECT 1; -- end\n";
  size_t len = strlen(two), at = sqljob_next_statement(two, len, 0);
  CHECK(strncmp(two + at, "DELETE", 6) == 0, "first at %zu", at);
  size_t end = sqljob_simple_end(two, len, at);
  CHECK(two[end - 1] == ';', "end at %zu", end);
  at = sqljob_next_statement(two, len, end);
  CHECK(strncmp(two + at, "SELECT", 6) == 0, "second at %zu", at);
  at = sqljob_next_statement(two, len, sqljob_simple_end(two, len, at));
  CHECK_EQ_I64(at, len, "none left");
  CHECK_EQ_I64(sqljob_next_statement("'a'", 3, 0), 0, "a string starts it");

  CHECK(sqljob_param_known(":trigger_id") && sqljob_param_known(":run_id") &&
            sqljob_param_known(":scheduled_for") && sqljob_param_known(":now"),
        "the four");
  CHECK(!sqljob_param_known(":id") && !sqljob_param_known("@now") &&
            !sqljob_param_known(":NOW"),
        "others");

  shown("DELETE FROM t;", "DELETE FROM t", 0);
  shown("DELETE FROM t ;  \n", "DELETE FROM t", 0);
  shown("DELETE\nFROM t", "DELETE", 1);
  shown("SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 "
        "UNION ALL SELECT 5",
        "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SEL", 1);
  /* cut before a character that would be split (é is 2 bytes) */
  shown("SELECT 'ééééééééééééééééééééééééééééééééééééééé'",
        "SELECT 'éééééééééééééééééééééééééé", 1);
  return check_report("test_sql_job_rules");
}
