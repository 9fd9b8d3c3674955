/*
** verb.c -- an operator's change of one trigger (see verb.h).
*/
#include "db/verb.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The trigger's status, or 'none'. */
static const char status_sql[] =
    "SELECT coalesce((SELECT status FROM main.triggers WHERE trigger_id = ?1),"
    " 'none')";

/* ?1 the trigger, ?2 the verb. */
static const char verb_sql[] =
    "SELECT CASE ?2 WHEN 'pause' THEN trigger_pause(?1)"
    " WHEN 'resume' THEN trigger_resume(?1)"
    " WHEN 'cancel' THEN trigger_cancel(?1)"
    " WHEN 'fire' THEN trigger_fire(?1) END";
/* ?1 trigger_fire's run: handed back deferred; its run_id. */
static const char defer_sql[] =
    "SELECT trigger_run_finish(json_extract(?1, '$.run_id'), 'deferred'),"
    " json_extract(?1, '$.run_id')";

static const char *const verbs[] = {"pause", "resume", "cancel", "fire"};

int verb_known(const char *word) {
  for (size_t i = 0; word && i < sizeof verbs / sizeof *verbs; i++)
    if (strcmp(word, verbs[i]) == 0) return 1;
  return 0;
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
** (free()), and a second column into *second when asked. */
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
    *first = xstrdup((const char *)sqlite3_column_text(st, 0));
    if (second) *second = xstrdup((const char *)sqlite3_column_text(st, 1));
  }
  verb_result r = rc == SQLITE_ROW ? VERB_DONE : failure(db, out);
  sqlite3_finalize(st);
  return r;
}

/* NOT_FOUND, REFUSED (fire of a trigger that is not scheduled) or DONE. */
static verb_result check(const char *verb, const char *trigger_id,
                         const char *status, verb_out *out) {
  if (strcmp(status, "none") == 0) return VERB_NOT_FOUND;
  if (strcmp(verb, "fire") != 0 || strcmp(status, "scheduled") == 0 ||
      strcmp(status, "cancelled") == 0) /* cancelled: trigger_fire's no */
    return VERB_DONE;
  out->why = xprintf("trigger '%s' is %s: a queued run is claimed only while "
                     "it is scheduled (resume it first)",
                     trigger_id, status);
  return VERB_REFUSED;
}

verb_result verb_apply(sqlite3 *db, const char *verb, const char *trigger_id,
                       verb_out *out) {
  memset(out, 0, sizeof *out);
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return failure(db, out);
  char *status = NULL, *finished = NULL;
  verb_result r = ask(db, status_sql, trigger_id, NULL, &status, NULL, out);
  if (r == VERB_DONE) r = check(verb, trigger_id, status, out);
  if (r == VERB_DONE)
    r = ask(db, verb_sql, trigger_id, verb, &out->answer, NULL, out);
  if (r == VERB_DONE && strcmp(verb, "fire") == 0)
    r = ask(db, defer_sql, out->answer, NULL, &finished, &out->run_id, out);
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
