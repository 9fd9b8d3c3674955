/*
** ical.h -- what trigger_ical reads (docs/ical.md): the active triggers,
** whole rows in trigger_id order, and the runs that finished in a range
** with their trigger's name; both narrowed to some agents and a scope.
*/
#ifndef TRIGGERS_STORE_ICAL_H
#define TRIGGERS_STORE_ICAL_H

#include "store/store.h"

/* agents: a JSON array of agent ids (NULL: every agent); scope (NULL:
** every scope). The texts must live until the cursor closes. */
typedef struct store_ical_filter {
  const char *agents;
  const char *scope;
} store_ical_filter;

/* The triggers in status scheduled, by trigger_id. */
int store_ical_triggers(store *s, const store_ical_filter *f, store_cursor *c);
/* SQLITE_ROW with *r read (trg_row_clear it before the next), SQLITE_DONE,
** or an error. */
int store_ical_trigger_next(store_cursor *c, trg_row *r);

/* A run finished in the range; texts valid until the cursor moves. */
typedef struct store_ical_run {
  const char *run_id, *trigger_id, *status;
  i64 scheduled_for;
  int has_claimed;
  i64 claimed_at, finished_at;
  const char *error, *result; /* NULL when NULL */
  const char *display_name;   /* its trigger's; NULL when gone */
} store_ical_run;
/* The runs with finished_at in [from, to), oldest first (then run_id), at
** most limit. */
int store_ical_runs(store *s, const store_ical_filter *f, i64 from, i64 to,
                    int limit, store_cursor *c);
int store_ical_run_next(store_cursor *c, store_ical_run *r);

#endif
