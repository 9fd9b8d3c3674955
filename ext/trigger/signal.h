/*
** signal.h -- a signal (docs/reactive.md): every active event trigger
** waiting for a key made due, from trigger_signal(), an INSERT INTO
** trigger_signals and a finished run's chain (run:<trigger_id>:<status>).
** The writes go through the caller's store, inside its transaction: a
** transaction rolled back signals nothing.
*/
#ifndef TRIGGERS_SIGNAL_H
#define TRIGGERS_SIGNAL_H

#include "store/store.h"

/* Signal key with payload (a JSON object's text, or NULL) at now:
** SQLITE_OK with *count the event triggers made due, or the error with
** *err (sqlite3_malloc'd, "<what>: <problem>", nothing written: a blank or
** too long key, a payload that is not a JSON object or too large, signals
** nested TRG_SIGNAL_DEPTH_MAX deep). A trigger whose stored row fails its
** check (changed outside the extension) is paused with last_error naming
** the column, and its auto_paused event, as a tick would pause it. */
int trigger_signal(trg_ctx *c, store *s, const char *key, const char *payload,
                   i64 now, i64 *count, char **err);

/* A finished run's chain: the signal "run:<trigger_id>:<status>" for a
** status that chains (success, failed, expired, cancelled; others do
** nothing), no payload. */
int trigger_signal_run_end(trg_ctx *c, store *s, const char *trigger_id,
                           const char *status, i64 now, char **err);

#endif
