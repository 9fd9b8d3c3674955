/*
** prune.h -- trigger_prune(): finished runs deleted from the history, and
** events from their log.
*/
#ifndef TRIGGERS_PRUNE_H
#define TRIGGERS_PRUNE_H

#include "store/store.h"

/* Delete up to limit (-1: no limit) runs that finished before `before`
** (success, failed, skipped or expired, no retry pending); *deleted how
** many. When there is none nothing is written: no write transaction (an
** idle host prunes once a minute and must not take the write lock). */
int store_prune_runs(store *s, i64 before, i64 limit, i64 *deleted);
/* The same for events (trigger_events) older than `before`. */
int store_prune_events(store *s, i64 before, i64 limit, i64 *deleted);

#endif
