/*
** loop.h -- the scheduler of trigger-host: one timer for every database,
** claims when a database's wakeup is due and dispatch slots are free,
** reports outcomes, reacts to signals. Used by all three modes.
*/
#ifndef HOST_LOOP_H
#define HOST_LOOP_H

#include "core/opts.h"
#include "db/hostdb.h"
#include "dispatch/printtx.h"

/* Run until stopped (run, serve) or until one pass is done (tick); ptx:
** print mode's stdout as main() found it (printtx.h). Returns the process
** exit status (see --help). */
int loop_main(const host_opts *o, hostdb *dbs, int ndbs, const printtx *ptx);

#endif
