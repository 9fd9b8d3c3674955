/*
** history.h -- `trigger-host runs DB [TRIGGER_ID]` and `trigger-host
** events DB [TRIGGER_ID]`: what happened, newest first, like
** `journalctl -u UNIT -r`.
**
** runs lists trigger_runs by scheduled_for (newest first, then run_id):
**
**   SCHEDULED  STATUS  ATTEMPT  LATENCY  RUN  ERROR / RESULT
**
** events lists trigger_events (created, paused, resumed, cancelled, ...)
** by `at`, newest first:
**
**   AT  KIND  TRIGGER  AGENT  CODE  DETAIL
**
** Both read through an index (scheduled_for or at; trigger_id with it)
** with the ORDER BY and LIMIT handed to the virtual table, so the first
** 50 of a long history come at once. --limit N (default 50), --all,
** --since TIME (an instant: 2026-03-09, 2026-03-09T07:00:00Z, ms since
** the epoch; or a span ago: 90s, 30min, 2h, 7d), --json (one object: the
** rows with every column, "shown", "more"). Times are UTC. Read-only.
** A TRIGGER_ID that names no trigger and has no history is an error,
** exit 4 (cli/verbs.h); no rows otherwise is not.
*/
#ifndef HOST_HISTORY_H
#define HOST_HISTORY_H

#include "core/opts.h"

/* Print o->mode's (runs or events) listing of o->dbs[0]; the exit status:
** 0, 2 for a --since that is not a time, 3, 4. */
int history_main(const host_opts *o);

#endif
