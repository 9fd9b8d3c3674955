/*
** verbs.c -- pause, resume, cancel and fire from the shell (see verbs.h;
** the change itself is db/verb.c, shared with the status page's forms).
*/
#include "cli/verbs.h"

#include <stdio.h>

#include "core/log.h"
#include "db/clidb.h"
#include "db/verb.h"

static const char *verb_word(host_mode m) {
  switch (m) {
    case MODE_PAUSE: return "pause";
    case MODE_RESUME: return "resume";
    case MODE_CANCEL: return "cancel";
    case MODE_RETRY: return "retry";
    case MODE_CANCEL_RUN: return "cancel-run";
    case MODE_SIGNAL: return "signal";
    default: return "fire";
  }
}

int verbs_main(const host_opts *o) {
  const char *path = o->dbs[0], *word = verb_word(o->mode);
  sqlite3 *db = NULL;
  int rc = clidb_open(path, o, 1, &db);
  if (rc) return rc;
  verb_out out;
  verb_result r = verb_apply(db, word, o->target, o->payload, &out);
  if (r == VERB_NOT_FOUND)
    log_fatal("%s %s: no such %s in %s", word, o->target, verb_noun(word),
              path);
  else if (r == VERB_REFUSED) log_fatal("%s %s: %s", word, o->target, out.why);
  else if (r == VERB_FAILED)
    log_fatal("%s: %s %s: %s", path, word, o->target, out.why);
  else if (o->json || o->mode == MODE_SIGNAL) puts(out.answer);
  else if (out.run_id) puts(out.run_id);
  rc = (int)r;
  if (!rc && fflush(stdout) != 0) rc = 3;
  verb_out_free(&out);
  sqlite3_close(db);
  return rc;
}
