/*
** tick_opts.h -- the options object of trigger_run_due and
** trigger_next_wakeup (docs/lifecycle.md#claiming-trigger_run_due): limit,
** owner, lease_ms, agents, wake_mode, ack, sql. Parsed through json_each with a
** message naming the bad key; the last text parsed and its result are kept
** on the connection.
*/
#ifndef TRIGGERS_TICK_OPTS_H
#define TRIGGERS_TICK_OPTS_H

#include "store/store.h"

typedef struct tick_opts {
  i64 limit;
  char *owner;
  i64 lease_ms;
  char *agents; /* JSON array text, or NULL for all agents */
  int agents_empty;
  char *wake_mode;
  int ack;
  int sql; /* 1: SQL jobs only (action_sql set), 0: none of them */
} tick_opts;

/* Options text json (NULL: defaults) into *o, reusing the parse kept on
** c when the text is the same. SQLITE_ERROR with *err for bad options. */
int tick_opts_read(store *s, trg_ctx *c, const char *json, tick_opts *o,
                   char **err);
void tick_opts_free(tick_opts *o);
/* Whether a run or trigger of agent_id is one these options may take. */
int tick_opts_allow_agent(const tick_opts *o, const char *agent_id);
/* Whether trigger r (its wake_mode, whether it is a SQL job) is one these
** options may take. */
int tick_opts_allow_trigger(const tick_opts *o, const trg_row *r);

#endif
