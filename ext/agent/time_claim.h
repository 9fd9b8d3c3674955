/*
** time_claim.h -- what a create's schedule means to the person who asked
** (docs/create-action.md#the-time-claim-check): the schedule in words with
** its first occurrence in the trigger's zone (the result's
** "scheduleText"), and the time-claim check, which reads the person's
** message (the request's source_text, XML <sourceText>, or the context's
** message) with the reader of trigger_find_when and refuses a schedule
** that means another time than the message names.
*/
#ifndef TRIGGERS_TIME_CLAIM_H
#define TRIGGERS_TIME_CLAIM_H

#include "agent/create_request.h"

/* Two instants closer than this are one time (a model's rounding). */
#define CLAIM_SLACK_MS 60000
/* Recurring schedules agree when their first this many occurrences do. */
#define CLAIM_OCCURRENCES 3

/* The schedule s in words (describe.h) and its first occurrence after now
** in its zone: "At 09:00, only on Monday (America/New_York); first:
** Monday 2026-03-09 at 09:00 (America/New_York)". sqlite3_malloc'd, or
** NULL when out of memory. */
char *agent_schedule_text(const sched_spec *s, i64 now);

/* The check (q->spec is the request's validated schedule): with a message
** (q->source) that names a time at min_confidence or more, the
** schedule's first occurrences must be that time's (within
** CLAIM_SLACK_MS; a day only, when the message names no clock time).
** SQLITE_OK when they agree or the message names no time; else an
** INVALID_SCHEDULE refusal quoting both, with q->claim_phrase,
** claim_said and claim_asked set for the event. */
int agent_time_claim_check(create_req *q);

#endif
