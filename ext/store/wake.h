/*
** wake.h -- what trigger_next_wakeup reads: the triggers in next_due_at
** order, and the first retry and lease end of the runs.
*/
#ifndef TRIGGERS_WAKE_H
#define TRIGGERS_WAKE_H

#include "store/store.h"

/* One trigger as the wakeup walk sees it: next_due_at and fire_at with
** their SQLite types (a value changed outside the extension may not be an
** integer), wake_mode (NULL when NULL), and whether it is a SQL job
** (action_sql set). */
typedef struct store_wake_row {
  int due_type, fire_type;
  i64 due, fire;
  const char *wake_mode;
  int sql;
} store_wake_row;
/* Walk the triggers with a next_due_at (agent NULL: all; else that
** agent's, '' included) in next_due_at order, calling visit until it
** returns nonzero or none are left. */
int store_wake_walk(store *s, const char *agent,
                    int (*visit)(void *arg, const store_wake_row *w),
                    void *arg);
/* The earliest retry_at (a retry or deferral pending) and lease_until (a
** running run) among the runs a tick with agents (JSON array; NULL: all)
** and wake_mode (NULL: any) would take, of SQL jobs (sql 1) or of the
** other triggers (0; a deleted trigger's runs among them): *have 0 when
** there is none. */
int store_wake_runs(store *s, const char *agents, const char *wake_mode,
                    int sql, int *have, i64 *at);

#endif
