/*
** schedule.h -- one trigger's schedule: validation of the schedule
** columns, the first and next occurrence, catching up after a gap, and
** reading instants (INTEGER ms or ISO-8601, local in the trigger's zone).
**
** Pure: the caller passes the zone (from tzdb) and every instant; nothing
** here reads the clock. Interval schedules are anchored: occurrences are
** anchor + k * interval_ms (k >= 0) where anchor = start_at, or
** created_at + interval_ms; they never drift with execution time.
*/
#ifndef TRIGGERS_SCHEDULE_H
#define TRIGGERS_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "time/cron.h"
#include "time/rrule.h"
#include "time/tz.h"

#define SCHED_ERR_MAX 200
#define SCHED_NONE INT64_MIN    /* "no value" for optional instants */
#define SCHED_EVENT_KEY_MAX 512 /* bytes of an event trigger's key */
/* Instants are bounded to the years 1-9999 (0001-01-01T00:00:00Z ..
** 9999-12-31T23:59:59.999Z) and durations to that span, so that no sum of
** an instant and a duration (next occurrence, jitter, lease, backoff)
** can overflow. */
#define SCHED_MS_MIN (-62135596800000LL)
#define SCHED_MS_MAX 253402300799999LL
#define SCHED_SPAN_MAX (SCHED_MS_MAX - SCHED_MS_MIN)
/* 1 when ms is within SCHED_MS_MIN..SCHED_MS_MAX. */
int sched_instant_ok(int64_t ms);
/* The same as a check: 0, or -1 and "N ms is outside the years 1-9999". */
int sched_instant_check(int64_t ms, char *err, size_t errlen);
/* A double that is an exact integer within the instant range -> 1 and
** *out; otherwise 0 (NaN, infinities, fractions, huge values). */
int sched_ms_from_double(double x, int64_t *out);

typedef enum sched_type {
  SCHED_INVALID = 0,
  SCHED_INTERVAL = 1,
  SCHED_ONCE = 2,
  SCHED_CRON = 3,
  SCHED_RRULE = 4,
  SCHED_EVENT = 5 /* due when signalled; scheduled_at, when set, is its
                     timeout (docs/reactive.md) */
} sched_type;

/* What an occurrence on a calendar day does (calendar_policy). */
enum {
  SCHED_CAL_NONE = 0,
  SCHED_CAL_SKIP,     /* it does not run */
  SCHED_CAL_PREVIOUS, /* it runs on the business day before */
  SCHED_CAL_NEXT      /* it runs on the business day after */
};
#define SCHED_CAL_MAX 4096    /* days in one calendar */
#define SCHED_CAL_NAME_MAX 64 /* bytes of a calendar's name, with the NUL */
#define SCHED_BUSINESS_DEFAULT 0x1F /* MO..FR */

/* "skip" | "previous_business_day" | "next_business_day" -> SCHED_CAL_*;
** SCHED_CAL_NONE otherwise. */
int sched_cal_policy_parse(const char *s);
const char *sched_cal_policy_name(int policy);
/* 1 when name can name a calendar: 1..SCHED_CAL_NAME_MAX - 1 bytes, not
** only blanks. */
int sched_cal_name_ok(const char *name);
/* "MO,TU,WE,TH,FR" (any case, blanks around items) -> bits (bit 0 =
** Monday); 0, or -1 for text that is not a list of distinct weekdays. */
int sched_business_days_parse(const char *text, uint8_t *bits);

typedef struct sched_spec {
  sched_type type;
  int64_t interval_ms;  /* SCHED_INTERVAL */
  int64_t scheduled_at; /* SCHED_ONCE, UTC ms; SCHED_EVENT: the timeout, or
                           SCHED_NONE */
  cron_expr cron;       /* SCHED_CRON */
  const tz_zone *zone;  /* never NULL */
  int64_t start_at;     /* SCHED_NONE when absent */
  int64_t end_at;       /* SCHED_NONE when absent */
  int64_t created_at;   /* interval anchor default: created_at + interval */
  /* SCHED_EVENT: the key it waits for, a copy (the spec outlives the row
  ** it was read from); "" otherwise */
  char event_key[SCHED_EVENT_KEY_MAX + 1];
  /* SCHED_RRULE (docs/calendar.md): DTSTART, wall-clock seconds in zone
  ** (sched_rrule_dtstart), and the compiled set, last: it is ~12 KB, and
  ** sched_spec_clear leaves it alone unless the type is rrule. */
  /* Holidays (docs/calendar.md#holidays-and-business-days), cron and
  ** rrule: cal_policy SCHED_CAL_NONE when the trigger names no calendar;
  ** else its name, the business days, and its days in cal_days (last). */
  int cal_policy;
  uint8_t business_days; /* bit 0 = Monday .. bit 6 = Sunday */
  int ncal;              /* days in cal_days */
  char cal_name[SCHED_CAL_NAME_MAX];
  int64_t dtstart;
  int dtstart_implied; /* DTSTART is the `after` of a call on a bare rule,
                       ** no trigger's: trigger_describe leaves unsaid
                       ** what it supplies (docs/calendar.md#in-words) */
  rrule_set rrule;
  int32_t cal_days[SCHED_CAL_MAX]; /* days since 1970-01-01, ascending */
} sched_spec;

/* Zero every member but the rrule set (rrule_compile fills that). */
void sched_spec_clear(sched_spec *s);

/* DTSTART of an rrule schedule: start_at's wall-clock time in the zone,
** else created_at's (whole seconds). */
int64_t sched_rrule_dtstart(const sched_spec *s);

/* "interval" | "once" | "cron" | "rrule" | "event" -> type; SCHED_INVALID
** otherwise. */
sched_type sched_type_parse(const char *s);
const char *sched_type_name(sched_type t);

/* The next occurrence of a schedule's own type (internal to schedule.c
** and schedule_calendar.c). */
typedef int (*sched_next_fn)(const sched_spec *s, int64_t after, int64_t *out);
/* With a calendar (cal_policy not SCHED_CAL_NONE): next's first
** occurrence after `after` as the policy moves or skips it (internal to
** schedule.c; schedule_calendar.c). */
int sched_calendar_next(const sched_spec *s, int64_t after, int64_t *out,
                        sched_next_fn next);

/*
** First occurrence strictly after `after` that lies within start_at ..
** end_at. For once triggers that is scheduled_at when it is > after.
** Returns 1 and *out, or 0 when there is none (an occurrence after
** SCHED_MS_MAX, 9999-12-31, is none: it could not be stored or printed).
*/
int sched_next(const sched_spec *s, int64_t after, int64_t *out);

/*
** The initial next_due_at of a new (or rescheduled) trigger at time `now`:
** once -> scheduled_at (even when already past: it is simply overdue);
** event -> its timeout (scheduled_at) the same way, or none (it waits for
** a signal);
** interval -> the anchor when it is not before now (start_at, an
** occurrence the trigger names: at now it runs now; default created_at +
** interval_ms), else the first grid point strictly after now;
** cron -> the first occurrence strictly after now, at or after start_at,
** as sched_next(now) and trigger_next_due(expr, created_at) say (a
** trigger created at 09:00:00.000 with `0 9 * * *` first runs the next
** day); rrule -> the same as cron (DTSTART itself is an occurrence only
** when it is after now and matches the rule).
*/
int sched_first(const sched_spec *s, int64_t now, int64_t *out);

/*
** Occurrences from `due` (an occurrence, <= now) up to now inclusive:
** *count (capped at max_count; *more set when the cap cut it), *latest,
** and *next_after, the first occurrence > now (0 return value = none).
** Interval schedules are computed arithmetically; cron and rrule ones
** iterate, so callers pass a cap.
*/
typedef struct sched_catchup {
  int64_t count;
  int more;
  int64_t latest;
  int64_t before_latest; /* the occurrence before latest (count >= 2) */
  int has_next;
  int64_t next_after;
} sched_catchup;
void sched_catch_up(const sched_spec *s, int64_t due, int64_t now,
                    int64_t max_count, sched_catchup *out);

/*
** Read an instant given as text: ISO-8601 with an offset or 'Z' is exact;
** without one it is local time in `zone` (gaps move forward by the gap
** length, repeated times take the earlier instant: docs/time.md).
** A string of digits (optionally signed) is ms. Returns 0 or -1 + message.
*/
int sched_parse_instant(const char *text, const tz_zone *zone, int64_t *out,
                        char *err, size_t errlen);

/*
** Canonical schedule text for dedupe keys: the cron canonical form, the
** interval in ms ("60000"), the once instant in UTC ms, an event's
** "event:<key>" with "@<timeout ms>" when it has one, or the rrule's
** canonical text (rrule_canonical) followed, when start_at is given, by
** "\nDTSTART:YYYYMMDDTHHMMSS" (its wall-clock time; without start_at
** the creation time is left out, as an interval's anchor is); a cron or
** rrule with a calendar adds "\nCALENDAR:<name>;<policy>". Returns
** length or -1 when buf is too small (SCHED_CANON_MAX always suffices).
*/
#define SCHED_CANON_MAX (RRULE_CANON_MAX + 32)
int sched_canonical(const sched_spec *s, char *buf, size_t n);

#endif
