/*
** via.h -- --via CMD: a statement run by another program instead of a
** local connection. `/bin/sh -c 'CMD "$1"' trigger-host SQL` runs with
** stdin from /dev/null, TRIGGER_DB set to the database argument, in its
** own process group (a Ctrl-C for the host does not cut a statement in
** half); its stdout is the statement's answer. For a dqlite cluster CMD is
** the `dqlite` shell: `dqlite -s ADDRS "$TRIGGER_DB"`.
*/
#ifndef HOST_VIA_H
#define HOST_VIA_H

#define VIA_TIMEOUT_MS 60000 /* a statement still running is killed */
#define VIA_OUT_MAX (64 << 20)

/* Run sql through cmd. 0 ok and *out = its stdout without the trailing
** newlines (malloc'ed); -1 and *err = why, with the first line of its
** stderr (malloc'ed). */
int via_run(const char *cmd, const char *db, const char *sql, char **out,
            char **err);

#endif
