/*
** version.h -- trigger-host's version (TRIGGERS_VERSION, util.h) and the
** extension's trigger_version(): `trigger-host --version` and the start
** line.
*/
#ifndef HOST_VERSION_H
#define HOST_VERSION_H

#include "db/hostdb.h"

/* trigger_version() of the extension h has loaded (or, with --via, the far
** side's): malloc'ed, NULL when it cannot be asked. */
char *version_of_db(hostdb *h);

/* --version: "trigger-host VERSION", then "extension PATH VERSION" when
** the extension loads (into a :memory: database), else why it did not.
** Returns the exit status, 0. */
int version_print(const host_opts *o);

#endif
