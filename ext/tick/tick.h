/*
** tick.h -- claiming due work and recording outcomes: trigger_run_due,
** trigger_run_finish, trigger_fire and trigger_next_wakeup (DESIGN.md §6).
*/
#ifndef TRIGGERS_TICK_H
#define TRIGGERS_TICK_H

#include "base/triggers_int.h"

int tick_register(sqlite3 *db, trg_ctx *ctx);

#endif
