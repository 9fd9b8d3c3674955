/*
** verb.h -- one change by an operator, from the shell (cli/verbs.h) or
** the status page's forms (http/actions.h), as one call of the
** extension's function in one BEGIN IMMEDIATE with the check that what
** it names exists, so its checks and its events are the extension's:
**
**   pause, resume, cancel, fire  TRIGGER_ID  trigger_pause, ..._fire
**   retry, cancel-run            RUN_ID      trigger_run_retry,
**                                            trigger_run_cancel
**   signal                       KEY [JSON]  trigger_signal
**
** fire queues a run now for the host that serves the trigger:
** trigger_fire claims it and trigger_run_finish(run, 'deferred') hands it
** back in the same transaction, so the next claim of any host takes it
** (same run id) and runs it as any other. A trigger that is not scheduled
** (paused, completed, expired) is refused: the claim would skip its run.
** retry records the occurrence's next attempt for the next claim.
*/
#ifndef HOST_VERB_H
#define HOST_VERB_H

#include <sqlite3.h>

/* What a change came to; the exit status of the shell's verbs. */
typedef enum {
  VERB_DONE = 0,     /* also when it was so already */
  VERB_REFUSED = 1,  /* the extension (or fire's check) refused: why */
  VERB_FAILED = 3,   /* the database failed: why */
  VERB_NOT_FOUND = 4 /* no such trigger or run */
} verb_result;

typedef struct verb_out {
  char *answer; /* the function's answer (JSON; signal: a count) */
  char *run_id; /* fire, retry: the queued run */
  char *why;    /* REFUSED, FAILED: the message */
} verb_out;

/* What word's target is: "trigger", "run", "key"; NULL for no verb. */
const char *verb_noun(const char *word);

/* Apply verb to target (arg: signal's payload JSON, or NULL) on db (a
** read-write connection with the extension loaded, no transaction open).
** out's strings: free(). */
verb_result verb_apply(sqlite3 *db, const char *verb, const char *target,
                       const char *arg, verb_out *out);
void verb_out_free(verb_out *out);

#endif
