/*
** verbs.c -- pause, resume, cancel and fire from the shell (see verbs.h).
*/
#include "cli/verbs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/clidb.h"
#include "core/log.h"
#include "core/util.h"

/* The trigger's status, or 'none'. */
static const char status_sql[] =
    "SELECT coalesce((SELECT status FROM main.triggers WHERE trigger_id = ?1),"
    " 'none')";

/* ?1 the trigger, ?2 the verb. fire: the run claimed and handed back
** deferred, answered as trigger_fire's run. */
static const char verb_sql[] =
    "SELECT CASE ?2 WHEN 'pause' THEN trigger_pause(?1)"
    " WHEN 'resume' THEN trigger_resume(?1)"
    " WHEN 'cancel' THEN trigger_cancel(?1)"
    " WHEN 'fire' THEN trigger_fire(?1) END";
static const char defer_sql[] =
    "SELECT trigger_run_finish(json_extract(?1, '$.run_id'), 'deferred'),"
    " json_extract(?1, '$.run_id')";

typedef struct verb {
  const host_opts *o;
  const char *path, *word;
  sqlite3 *db;
} verb;

static const char *verb_word(host_mode m) {
  switch (m) {
    case MODE_PAUSE: return "pause";
    case MODE_RESUME: return "resume";
    case MODE_CANCEL: return "cancel";
    default: return "fire";
  }
}

/* A statement's failure: 1 when the extension refused (its message), 3
** when the database failed (logged either way). */
static int refused_or_failed(verb *v) {
  int code = sqlite3_errcode(v->db);
  if (code == SQLITE_ERROR || code == SQLITE_CONSTRAINT) {
    log_fatal("%s %s: %s", v->word, v->o->target, sqlite3_errmsg(v->db));
    return 1;
  }
  return clidb_fail(v->db, v->path, v->word);
}

/* One text answer of sql (?1 text1, ?2 text2) into *out (free()), and a
** second column into *second when asked. 0, or the exit status. */
static int ask(verb *v, const char *sql, const char *text1, const char *text2,
               char **out, char **second) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(v->db, sql, -1, &st, NULL) != SQLITE_OK)
    return clidb_fail(v->db, v->path, v->word);
  sqlite3_bind_text(st, 1, text1, -1, SQLITE_STATIC);
  if (text2) sqlite3_bind_text(st, 2, text2, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *out = xstrdup((const char *)sqlite3_column_text(st, 0));
    if (second) *second = xstrdup((const char *)sqlite3_column_text(st, 1));
  }
  rc = rc == SQLITE_ROW ? 0 : refused_or_failed(v);
  sqlite3_finalize(st);
  return rc;
}

static int exec(verb *v, const char *sql) {
  if (sqlite3_exec(v->db, sql, NULL, NULL, NULL) == SQLITE_OK) return 0;
  return clidb_fail(v->db, v->path, v->word);
}

/* The check, the change and (fire) the hand-back in one transaction.
** *answer: the function's JSON; *run_id for fire. */
static int change(verb *v, char **answer, char **run_id) {
  int rc = exec(v, "BEGIN IMMEDIATE");
  if (rc) return rc;
  char *status = NULL;
  rc = ask(v, status_sql, v->o->target, NULL, &status, NULL);
  if (!rc && strcmp(status, "none") == 0) {
    log_fatal("%s %s: no such trigger in %s", v->word, v->o->target, v->path);
    rc = EXIT_NOT_FOUND;
  } else if (!rc && v->o->mode == MODE_FIRE &&
             strcmp(status, "scheduled") != 0 &&
             strcmp(status, "cancelled") != 0) { /* cancelled: its own no */
    log_fatal("fire %s: the trigger is %s: a queued run is claimed only "
              "while it is scheduled (resume it first)",
              v->o->target, status);
    rc = 1;
  }
  free(status);
  if (!rc) rc = ask(v, verb_sql, v->o->target, v->word, answer, NULL);
  char *finished = NULL;
  if (!rc && v->o->mode == MODE_FIRE)
    rc = ask(v, defer_sql, *answer, NULL, &finished, run_id);
  free(finished);
  if (!rc) rc = exec(v, "COMMIT");
  if (rc) sqlite3_exec(v->db, "ROLLBACK", NULL, NULL, NULL);
  return rc;
}

int verbs_main(const host_opts *o) {
  verb v = {o, o->dbs[0], verb_word(o->mode), NULL};
  int rc = clidb_open(v.path, o, 1, &v.db);
  char *answer = NULL, *run_id = NULL;
  if (!rc) rc = change(&v, &answer, &run_id);
  if (!rc && o->json) puts(answer);
  else if (!rc && run_id) puts(run_id);
  if (!rc && fflush(stdout) != 0) rc = 3;
  free(answer);
  free(run_id);
  sqlite3_close(v.db);
  return rc;
}
