/*
** verb.h -- one change of one trigger by an operator, from the shell
** (cli/verbs.h) or the status page's forms (http/actions.h): pause,
** resume, cancel or fire, as one call of the extension's function
** (trigger_pause, trigger_resume, trigger_cancel, trigger_fire) in one
** BEGIN IMMEDIATE with the check that the trigger exists, so its checks
** and its events are the extension's.
**
** fire queues a run now for the host that serves the trigger:
** trigger_fire claims it and trigger_run_finish(run, 'deferred') hands it
** back in the same transaction, so the next claim of any host takes it
** (same run id) and runs it as any other. A trigger that is not scheduled
** (paused, completed, expired) is refused: the claim would skip its run.
*/
#ifndef HOST_VERB_H
#define HOST_VERB_H

#include <sqlite3.h>

/* What a change came to; the exit status of the shell's verbs. */
typedef enum {
  VERB_DONE = 0,     /* also when the trigger was so already */
  VERB_REFUSED = 1,  /* the extension (or fire's check) refused: why */
  VERB_FAILED = 3,   /* the database failed: why */
  VERB_NOT_FOUND = 4 /* no such trigger */
} verb_result;

typedef struct verb_out {
  char *answer; /* the function's JSON (the trigger; fire: the run) */
  char *run_id; /* fire: the queued run */
  char *why;    /* REFUSED, FAILED: the message */
} verb_out;

/* 1 when word is pause, resume, cancel or fire. */
int verb_known(const char *word);

/* Apply verb to trigger_id on db (a read-write connection with the
** extension loaded, no transaction open). out's strings: free(). */
verb_result verb_apply(sqlite3 *db, const char *verb, const char *trigger_id,
                       verb_out *out);
void verb_out_free(verb_out *out);

#endif
