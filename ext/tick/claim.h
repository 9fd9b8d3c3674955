/*
** claim.h -- the tick's third step: claiming the due triggers.
*/
#ifndef TRIGGERS_CLAIM_H
#define TRIGGERS_CLAIM_H

#include "tick/tick.h"

/* Claim what is due at t->now within t->budget, batch by batch, with the
** write-behind on (t->narrow). */
int tick_claim_due(tick *t);

#endif
