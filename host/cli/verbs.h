/*
** verbs.h -- `trigger-host pause|resume|cancel|fire DB TRIGGER_ID`,
** `retry|cancel-run DB RUN_ID`, `signal DB KEY [JSON]`: one trigger or
** run changed from the shell, as `systemctl stop UNIT` changes a unit,
** through the extension's own functions (db/verb.h): the same checks,
** the same events, in one transaction with the check that the trigger
** or run exists.
**
** fire queues a run now for the host that serves the trigger and prints
** the run id; retry prints the new attempt's run id; signal prints how
** many event triggers it made due.
**
** Otherwise silent on success like systemctl (--json prints what the
** function returned). Exit status (docs/trigger-host.1, EXIT STATUS): 0
** done (also when it was so already), 1 refused by the extension (resume
** or fire a cancelled trigger, retry a running run: its message), 2
** usage, 3 database or extension error, 4 no such trigger or run (like
** systemctl's "not found").
*/
#ifndef HOST_VERBS_H
#define HOST_VERBS_H

#include "core/opts.h"

/* The exit status of an id that names nothing (verbs.h). */
#define EXIT_NOT_FOUND 4

/* Carry out o->mode on o->target in o->dbs[0]; the exit status. */
int verbs_main(const host_opts *o);

#endif
