/*
** verb.c -- an operator's change of one trigger or run (see verb.h).
*/
#include "db/verb.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The status of what ?1 names, or 'none'. */
#define STATUS_OF(table, key)                                               \
  "SELECT coalesce((SELECT status FROM main." table " WHERE " key " = ?1)," \
  " 'none')"

/* A verb of a trigger or run: its status checked, then fn(?1). */
#define ON_TRIGGER(word, fn) \
  { word, "trigger", STATUS_OF("triggers", "trigger_id"), "SELECT " fn "(?1)" }
#define ON_RUN(word, fn) \
  { word, "run", STATUS_OF("trigger_runs", "run_id"), "SELECT " fn "(?1)" }

static const struct verb_def {
  const char *word, *noun;
  const char *status_sql; /* NULL: nothing to check (signal) */
  const char *sql;        /* ?1 the target, ?2 the argument */
} defs[] = {
    ON_TRIGGER("pause", "trigger_pause"),
    ON_TRIGGER("resume", "trigger_resume"),
    ON_TRIGGER("cancel", "trigger_cancel"),
    ON_TRIGGER("fire", "trigger_fire"),
    ON_RUN("retry", "trigger_run_retry"),
    ON_RUN("cancel-run", "trigger_run_cancel"),
    {"signal", "key", NULL, "SELECT trigger_signal(?1, ?2)"},
};

/* ?1 trigger_fire's run: handed back deferred; its run_id. */
static const char defer_sql[] =
    "SELECT trigger_run_finish(json_extract(?1, '$.run_id'), 'deferred'),"
    " json_extract(?1, '$.run_id')";
/* ?1 a run's JSON: its run_id, twice (ask's two columns). */
static const char run_id_sql[] =
    "SELECT json_extract(?1, '$.run_id'), json_extract(?1, '$.run_id')";

static const struct verb_def *def_of(const char *word) {
  for (size_t i = 0; word && i < sizeof defs / sizeof *defs; i++)
    if (strcmp(word, defs[i].word) == 0) return &defs[i];
  return NULL;
}

const char *verb_noun(const char *word) {
  const struct verb_def *d = def_of(word);
  return d ? d->noun : NULL;
}

/* A statement's failure: REFUSED when the extension said no (its
** message), else FAILED. */
static verb_result failure(sqlite3 *db, verb_out *out) {
  int code = sqlite3_errcode(db);
  free(out->why);
  out->why = xstrdup(sqlite3_errmsg(db));
  return code == SQLITE_ERROR || code == SQLITE_CONSTRAINT ? VERB_REFUSED
                                                           : VERB_FAILED;
}

/* One text answer of sql (?1 text1, ?2 text2 when given) into *first
** (free(); NULL for SQL NULL), and a second column into *second when
** asked. */
static verb_result ask(sqlite3 *db, const char *sql, const char *text1,
                       const char *text2, char **first, char **second,
                       verb_out *out) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
    return failure(db, out);
  sqlite3_bind_text(st, 1, text1, -1, SQLITE_STATIC);
  if (text2) sqlite3_bind_text(st, 2, text2, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    const char *a = (const char *)sqlite3_column_text(st, 0);
    *first = a ? xstrdup(a) : NULL;
    const char *b = second ? (const char *)sqlite3_column_text(st, 1) : NULL;
    if (second) *second = b ? xstrdup(b) : NULL;
  }
  verb_result r = rc == SQLITE_ROW ? VERB_DONE : failure(db, out);
  sqlite3_finalize(st);
  return r;
}

/* NOT_FOUND, REFUSED (fire of a trigger that is not scheduled) or DONE. */
static verb_result check(const struct verb_def *d, const char *target,
                         const char *status, verb_out *out) {
  if (!status || strcmp(status, "none") == 0) return VERB_NOT_FOUND;
  if (strcmp(d->word, "fire") != 0 || strcmp(status, "scheduled") == 0 ||
      strcmp(status, "cancelled") == 0) /* cancelled: trigger_fire's no */
    return VERB_DONE;
  out->why = xprintf("trigger '%s' is %s: a queued run is claimed only while "
                     "it is scheduled (resume it first)",
                     target, status);
  return VERB_REFUSED;
}

verb_result verb_apply(sqlite3 *db, const char *verb, const char *target,
                       const char *arg, verb_out *out) {
  memset(out, 0, sizeof *out);
  const struct verb_def *d = def_of(verb);
  if (!d) {
    out->why = xprintf("%s: not a verb", verb);
    return VERB_REFUSED;
  }
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return failure(db, out);
  char *status = NULL, *finished = NULL;
  verb_result r = VERB_DONE;
  if (d->status_sql) {
    r = ask(db, d->status_sql, target, NULL, &status, NULL, out);
    if (r == VERB_DONE) r = check(d, target, status, out);
  }
  if (r == VERB_DONE) r = ask(db, d->sql, target, arg, &out->answer, NULL, out);
  if (r == VERB_DONE && strcmp(verb, "fire") == 0)
    r = ask(db, defer_sql, out->answer, NULL, &finished, &out->run_id, out);
  if (r == VERB_DONE && strcmp(verb, "retry") == 0)
    r = ask(db, run_id_sql, out->answer, NULL, &finished, &out->run_id, out);
  free(status);
  free(finished);
  if (r == VERB_DONE &&
      sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
    r = failure(db, out);
  if (r != VERB_DONE) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  return r;
}

void verb_out_free(verb_out *out) {
  free(out->answer);
  free(out->run_id);
  free(out->why);
  memset(out, 0, sizeof *out);
}
