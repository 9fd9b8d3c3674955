/*
** sql_job_rules.c -- the statements a SQL job may not hold (sql_job_rules.h,
** docs/sql-jobs.md#what-a-job-may-not-do), read from a statement's first
** tokens before it is prepared: preparing a PRAGMA already acts.
*/
#include "text/sql_job_rules.h"

#include <string.h>

/* The first word of each refused statement, and why. */
static const struct refused_word {
  const char *word;
  const char *why;
} refused[] = {
    {"attach", "ATTACH changes the databases of the host's connection"},
    {"detach", "DETACH changes the databases of the host's connection"},
    {"vacuum", "VACUUM cannot run inside the job's transaction"},
    {"begin", "the job runs inside the host's transaction"},
    {"commit", "the job runs inside the host's transaction"},
    {"end", "the job runs inside the host's transaction"},
    {"rollback", "the job runs inside the host's transaction"},
    {"savepoint", "the job runs inside the host's transaction"},
    {"release", "the job runs inside the host's transaction"},
};

/* After PRAGMA: [schema.]name, then '=' or '(' sets a value. */
static int pragma_sets(const char *sql, size_t len, size_t pos) {
  sqltok name = sqltok_next(sql, len, &pos);
  if (name.kind == SQLTOK_END) return 0;
  sqltok t = sqltok_next(sql, len, &pos);
  if (t.kind == SQLTOK_OTHER && t.n == 1 && t.p[0] == '.') {
    sqltok_next(sql, len, &pos); /* the name after the schema */
    t = sqltok_next(sql, len, &pos);
  }
  return t.kind == SQLTOK_LPAREN ||
         (t.kind == SQLTOK_OTHER && t.n == 1 && t.p[0] == '=');
}

const char *sqljob_refused(const char *sql, size_t len, size_t pos) {
  sqltok t = sqltok_next(sql, len, &pos);
  if (sqltok_is_word(&t, "explain")) { /* EXPLAIN [QUERY PLAN] stmt */
    t = sqltok_next(sql, len, &pos);
    if (sqltok_is_word(&t, "query")) {
      sqltok_next(sql, len, &pos);
      t = sqltok_next(sql, len, &pos);
    }
  }
  if (t.kind != SQLTOK_WORD) return NULL;
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    if (sqltok_is_word(&t, refused[i].word)) return refused[i].why;
  }
  if (sqltok_is_word(&t, "pragma") && pragma_sets(sql, len, pos))
    return "a PRAGMA that sets a value changes the host's connection";
  return NULL;
}

static int blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';';
}

size_t sqljob_shown(const char *p, size_t n, int *more) {
  size_t len = 0;
  while (len < n && p[len] != '\n' && p[len] != '\r') len++;
  if (len > SQLJOB_SHOWN) {
    len = SQLJOB_SHOWN;
    while (len > 0 && ((unsigned char)p[len] & 0xC0) == 0x80) len--;
  }
  size_t rest = len;
  while (rest < n && blank(p[rest])) rest++;
  while (len > 0 && blank(p[len - 1])) len--;
  *more = rest < n;
  return len;
}

size_t sqljob_next_statement(const char *sql, size_t len, size_t pos) {
  for (;;) {
    size_t at = pos;
    sqltok t = sqltok_next(sql, len, &at);
    if (t.kind == SQLTOK_END) return len;
    /* a quoted token's text starts after its opening quote */
    int quoted = t.kind == SQLTOK_QUOTED || t.kind == SQLTOK_STRING;
    if (t.kind != SQLTOK_SEMI) return (size_t)(t.p - sql) - (size_t)quoted;
    pos = at;
  }
}

size_t sqljob_simple_end(const char *sql, size_t len, size_t pos) {
  for (;;) {
    sqltok t = sqltok_next(sql, len, &pos);
    if (t.kind == SQLTOK_END || t.kind == SQLTOK_SEMI) return pos;
  }
}

int sqljob_param_known(const char *name) {
  static const char *const known[] = {SQLJOB_PARAMS, 0};
  for (int i = 0; known[i]; i++) {
    if (strcmp(name, known[i]) == 0) return 1;
  }
  return 0;
}
