/*
** reoffer.h -- the tick's first two steps: expired leases and runs to
** re-offer (and the stray rows the probes never reach).
*/
#ifndef TRIGGERS_REOFFER_H
#define TRIGGERS_REOFFER_H

#include "tick/tick.h"

/* Fail the runs whose lease passed at t->now, re-offer the deferred and
** retried runs that are due, within t->budget. */
int tick_reoffer(tick *t);

#endif
