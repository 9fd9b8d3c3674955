/*
** calendar.h -- what a change of a holiday calendar does to the triggers
** that use it (docs/calendar.md#holidays-and-business-days): each
** scheduled one is rescheduled from now with the calendar's new days, in
** the caller's transaction.
*/
#ifndef TRIGGERS_TRIGGER_CALENDAR_H
#define TRIGGERS_TRIGGER_CALENDAR_H

#include "trigger/trigger.h"

/* Reschedule the scheduled triggers of `calendar` at `now`: a trigger
** overdue (next_due_at <= now) stays due as it is; the others get the
** first occurrence after now (trigger_arm). A trigger whose row does not
** check (changed outside the extension) is left for the tick to pause. */
int trigger_calendar_changed(trg_ctx *c, store *s, const char *calendar,
                             i64 now);

#endif
