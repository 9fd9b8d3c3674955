/*
** args.h -- the command line of trigger-host read into its options
** (core/opts.h): the mode, the databases (a directory's *.db files for
** serve), every flag checked with its defaults, and the --help text.
*/
#ifndef HOST_ARGS_H
#define HOST_ARGS_H

#include "core/opts.h"

/* Parse argv. Returns -1 to continue, else an exit status (0 for --help,
** 2 for a usage error or a missing database file, already reported on
** stderr). With --version only the flags are read: -1 and o->version. */
int args_parse(host_opts *o, int argc, char **argv);
/* Free what args_parse allocated in o. */
void args_free(host_opts *o);

#endif
