/*
** quarantine_row.h -- a trigger row read back that holds a value the
** extension would refuse (docs/tables.md#changed-shadow-tables), taken out
** of the schedule, writing only what that takes: the part the tick
** (tick/quarantine.c) and a signal (signal.c) share.
*/
#ifndef TRIGGERS_QUARANTINE_ROW_H
#define TRIGGERS_QUARANTINE_ROW_H

#include "store/store.h"

/* The longest status text (a bad one reads as ""), and r's copied. */
#define TRIGGER_STATUS_MAX 16
void trigger_status_copy(const trg_row *r, char out[TRIGGER_STATUS_MAX]);

/* Take trigger r out of the schedule at now with why (taken): paused (a
** completed, cancelled or expired trigger keeps its status; `status`
** given: that one), next_due_at NULL, last_error "<why>; trigger paused";
** ended: how many running runs of it were just closed or found missing
** (its running count goes down by as many, to 0 at least). r is updated
** to what was written. */
int trigger_quarantine(store *s, trg_row *r, char *why, const char *status,
                       i64 ended, i64 now);

#endif
