/*
** events.h -- the events of one tick call (trigger/event.h's kinds: a
** trigger completed, expired, paused, ...), kept while the call runs and
** written at its end, in its transaction, ordered by trigger_id.
*/
#ifndef TRIGGERS_TICK_EVENTS_H
#define TRIGGERS_TICK_EVENTS_H

#include "tick/tick.h"

/* Keep the event of r's change of status from `before` (none when the
** change has no kind). */
int tick_event_keep(tick *t, const trg_row *r, const char *before);
/* Write the kept events (tick_txn_end, before COMMIT) and forget them. */
int tick_events_write(tick *t);
void tick_events_free(tick *t);

#endif
