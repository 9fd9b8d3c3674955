/*
** usage_file.h -- $TRIGGER_USAGE_FILE (docs/reactive.md#usage-from-a-command):
** each --exec run gets a private empty file (mode 0600, in $TMPDIR or
** /tmp) named by that variable; the command may write its usage there, a
** JSON object like {"cost":0.42,"tokens":1800}. After the command ends the
** host reads at most USAGE_FILE_MAX bytes of it and removes it: a usage
** that is not an object with a cost number >= 0 and tokens an integer >= 0
** (when given), not valid UTF-8 or longer than that is dropped with a
** warning, and the run is reported as it would be without one.
*/
#ifndef HOST_USAGE_FILE_H
#define HOST_USAGE_FILE_H

#define USAGE_FILE_MAX 4096 /* the extension's bound of a run's usage */

/* A new private empty file's path (malloc'ed), or NULL (logged). */
char *usage_file_new(void);
/* Read path's usage and remove the file: malloc'ed JSON text, or NULL
** (nothing written, or dropped with a warning naming run_id); *cost its
** cost (*has_cost 0 when it has none). */
char *usage_file_take(const char *path, const char *run_id, double *cost,
                      int *has_cost);

#endif
