/*
** time_claim.c -- the schedule in words and the time-claim check
** (time_claim.h). The message is read by when_find, the reader of
** trigger_find_when (never a second reader); the words are describe.h's,
** the wording of trigger_describe.
*/
#include "agent/time_claim.h"

#include <stdio.h>
#include <string.h>

#include "base/args.h"
#include "store/config.h"
#include "time/civil.h"
#include "time/describe.h"
#include "time/when.h"

SQLITE_EXTENSION_INIT3

static const char *const weekday_names[] = {"Sunday",    "Monday",   "Tuesday",
                                            "Wednesday", "Thursday", "Friday",
                                            "Saturday"};

/* Instant ms on the wall clock of zone z: its fields. */
static void local_fields(i64 ms, const tz_zone *z, civil_time *t) {
  i64 off = tz_offset_at(z, civil_floor_div(ms, 1000));
  civil_from_ms(ms + off * 1000, t);
}

/* "Monday 2026-03-09 at 09:00 (America/New_York)", seconds when not 0;
** with day_only "Monday 2026-03-09 (America/New_York)". */
static char *local_words(i64 ms, const tz_zone *z, int day_only) {
  civil_time t;
  local_fields(ms, z, &t);
  i64 days = civil_days_from_date(t.year, t.month, t.day);
  char clock[16] = "";
  if (!day_only && t.second)
    snprintf(clock, sizeof clock, " at %02d:%02d:%02d", t.hour, t.minute,
             t.second);
  else if (!day_only)
    snprintf(clock, sizeof clock, " at %02d:%02d", t.hour, t.minute);
  return sqlite3_mprintf("%s %04d-%02d-%02d%s (%s)",
                         weekday_names[civil_weekday(days)], t.year, t.month,
                         t.day, clock, tz_name(z));
}

/* Instant ms as ISO-8601 at zone z's offset ("Z" in UTC). */
static void iso_in(i64 ms, const tz_zone *z, char buf[CIVIL_ISO_MAX]) {
  int utc = z == tz_utc();
  civil_format_iso(ms, utc ? 0 : tz_offset_at(z, civil_floor_div(ms, 1000)),
                   utc, buf);
}

char *agent_schedule_text(const sched_spec *s, i64 now) {
  char *words = sqlite3_malloc(DESCRIBE_MAX);
  if (!words) return NULL;
  if (describe_schedule(s, words, DESCRIBE_MAX) < 0) words[0] = 0;
  i64 first;
  char *when = sched_first(s, now, &first) ? local_words(first, s->zone, 0)
                                           : sqlite3_mprintf("none");
  char *out = when ? sqlite3_mprintf("%s; first: %s", words, when) : NULL;
  sqlite3_free(words);
  sqlite3_free(when);
  return out;
}

/* The first n (up to CLAIM_OCCURRENCES) occurrences of s after now. */
static int occurrences(const sched_spec *s, i64 now,
                       i64 out[CLAIM_OCCURRENCES]) {
  int n = 0;
  i64 t;
  if (!sched_first(s, now, &t)) return 0;
  out[n++] = t;
  while (n < CLAIM_OCCURRENCES && sched_next(s, t, &t)) out[n++] = t;
  return n;
}

/* The schedule the message's reading w means, in *m (its cron in the
** zone the phrase was read in, which names a zone of its own when it
** says one). 0, or -1 when it cannot be built (then no check). */
static int message_spec(create_req *q, const when_result *w, sched_spec *m) {
  memset(m, 0, sizeof *m);
  m->zone = q->spec.zone;
  m->start_at = m->end_at = SCHED_NONE;
  m->created_at = q->now;
  char err[200];
  switch (w->kind) {
    case WHEN_ONCE:
      m->type = SCHED_ONCE;
      m->scheduled_at = w->due_at;
      return 0;
    case WHEN_INTERVAL:
      m->type = SCHED_INTERVAL;
      m->interval_ms = w->interval_ms;
      m->start_at = w->due_at;
      return 0;
    case WHEN_CRON:
      m->type = SCHED_CRON;
      if (trg_zone(q->call.ctx, w->tz, &m->zone, err, sizeof err) != 0)
        return -1;
      return cron_parse(w->cron, &m->cron, err, sizeof err) == 0 ? 0 : -1;
    default: return -1;
  }
}

/* The reading left the clock time to a default ("tomorrow"): only the
** day is the message's. */
static int time_implied(const when_result *w) {
  for (int i = 0; i < w->n_implied; i++) {
    if (strcmp(w->implied[i], "time") == 0) return 1;
  }
  return 0;
}

/* Instants a (the message's) and b (the request's) are one time: within
** CLAIM_SLACK_MS, or on one day in zone z when the message named a day
** only. */
static int same_time(i64 a, i64 b, int day_only, const tz_zone *z) {
  if (!day_only) return (a > b ? a - b : b - a) <= CLAIM_SLACK_MS;
  civil_time ta, tb;
  local_fields(a, z, &ta);
  local_fields(b, z, &tb);
  return ta.year == tb.year && ta.month == tb.month && ta.day == tb.day;
}

/* What a schedule means, for the reason: a once instant as ISO (the
** request's in UTC and in the trigger's zone, the message's in its zone;
** a message that names a day only, that day), a recurring one in words
** with its first occurrence. */
static char *meaning(const sched_spec *s, i64 now, int request) {
  char a[CIVIL_ISO_MAX], b[CIVIL_ISO_MAX];
  if (s->type != SCHED_ONCE) return agent_schedule_text(s, now);
  if (!request || s->zone == tz_utc()) {
    iso_in(s->scheduled_at, request ? tz_utc() : s->zone, a);
    return sqlite3_mprintf("%s", a);
  }
  iso_in(s->scheduled_at, tz_utc(), a);
  iso_in(s->scheduled_at, s->zone, b);
  return sqlite3_mprintf("%s (%s in %s)", a, b, tz_name(s->zone));
}

/* The phrase as the message wrote it (the reader's normalized text when
** it joined two parts). */
static char *phrase_of(const char *text, const when_found *f) {
  if (f->start2 != f->end2) return sqlite3_mprintf("%s", f->r.matched);
  return sqlite3_mprintf("%.*s", (int)(f->end - f->start), text + f->start);
}

int agent_time_claim_check(create_req *q) {
  if (!q->source) return SQLITE_OK;
  double min_conf = store_config_real(q->call.st, "min_confidence");
  when_found f;
  if (when_find(q->source, strlen(q->source), q->now, q->spec.zone, &f) != 0 ||
      f.r.confidence < min_conf)
    return SQLITE_OK; /* the message names no time: nothing to compare */
  sched_spec said;
  if (message_spec(q, &f.r, &said) != 0) return SQLITE_OK;
  i64 a[CLAIM_OCCURRENCES], b[CLAIM_OCCURRENCES];
  int na = occurrences(&said, q->now, a);
  int nb = occurrences(&q->spec, q->now, b);
  int day_only = f.r.kind == WHEN_ONCE && time_implied(&f.r);
  int agree = na == nb && na > 0;
  for (int i = 0; agree && i < na; i++)
    agree = same_time(a[i], b[i], day_only, said.zone);
  if (agree) return SQLITE_OK;
  q->claim_phrase = phrase_of(q->source, &f);
  q->claim_said = day_only && na ? local_words(a[0], said.zone, 1)
                                 : meaning(&said, q->now, 0);
  q->claim_asked = meaning(&q->spec, q->now, 1);
  if (!q->claim_phrase || !q->claim_said || !q->claim_asked)
    return SQLITE_NOMEM;
  char buf[TRG_ECHO_MAX];
  return agent_create_fail(
      q, "INVALID_SCHEDULE",
      sqlite3_mprintf("the message says '%s' (%s), the request says %s: "
                      "give the schedule the message means, or ask the "
                      "person",
                      trg_echo(q->claim_phrase, buf), q->claim_said,
                      q->claim_asked));
}
