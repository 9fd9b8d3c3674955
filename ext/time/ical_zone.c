/*
** ical_zone.c -- DATE-TIME values and a zone's VTIMEZONE (ical_zone.h).
*/
#include "time/ical_zone.h"

#include <stdio.h>

#include "time/civil.h"

/* How far before a range its observance's start is looked for: more than
** a year, so a zone with yearly changes always shows one. */
#define LOOKBACK_S (400LL * 86400)
/* The start of an observance older than any range (Outlook's 1601). */
#define OLDEST_START "16010101T000000"

void ical_time_format(int64_t s, int utc, char buf[ICAL_TIME_MAX]) {
  civil_time t;
  civil_from_ms(s * 1000, &t);
  snprintf(buf, ICAL_TIME_MAX, "%04d%02d%02dT%02d%02d%02d%s", t.year, t.month,
           t.day, t.hour, t.minute, t.second, utc ? "Z" : "");
}

int ical_wall_of(const tz_zone *z, int64_t utc_s, int64_t *wall) {
  tz_local r;
  *wall = utc_s + tz_offset_at(z, utc_s);
  tz_local_lookup(z, *wall, &r);
  return r.count >= 1 && r.utc[0] == utc_s;
}

/* "+HHMM", or "+HHMMSS" when the offset has seconds. */
static void offset_text(int32_t off, char buf[16]) {
  char sign = off < 0 ? '-' : '+';
  int32_t a = off < 0 ? -off : off;
  if (a % 60)
    snprintf(buf, 16, "%c%02d%02d%02d", sign, (int)(a / 3600),
             (int)(a / 60 % 60), (int)(a % 60));
  else
    snprintf(buf, 16, "%c%02d%02d", sign, (int)(a / 3600), (int)(a / 60 % 60));
}

/* One observance beginning at local time start (text), from offset
** `from` to offset `to`. */
static void observance(ical_writer *w, const char *start, int32_t from,
                       int32_t to) {
  const char *kind = to > from ? "DAYLIGHT" : "STANDARD";
  char off[16];
  ical_line(w, "BEGIN", kind);
  ical_line(w, "DTSTART", start);
  offset_text(from, off);
  ical_line(w, "TZOFFSETFROM", off);
  offset_text(to, off);
  ical_line(w, "TZOFFSETTO", off);
  ical_line(w, "END", kind);
}

/* The observance beginning at transition t (an instant). */
static void transition(ical_writer *w, const tz_zone *z, int64_t t) {
  int32_t from = tz_offset_at(z, t - 1), to = tz_offset_at(z, t);
  char start[ICAL_TIME_MAX];
  ical_time_format(t + from, 0, start);
  observance(w, start, from, to);
}

void ical_vtimezone(ical_writer *w, const tz_zone *z, const char *tzid,
                    int64_t from_s, int64_t to_s) {
  ical_line(w, "BEGIN", "VTIMEZONE");
  ical_line_text(w, "TZID", tzid);
  /* the last transition at or before from_s, if a recent one exists */
  int64_t last = INT64_MIN;
  for (int64_t t = tz_next_transition(z, from_s - LOOKBACK_S); t <= from_s;
       t = tz_next_transition(z, t)) {
    last = t;
  }
  if (last == INT64_MIN) {
    int32_t off = tz_offset_at(z, from_s);
    observance(w, OLDEST_START, off, off);
  } else {
    transition(w, z, last);
  }
  for (int64_t t = tz_next_transition(z, from_s); t <= to_s;
       t = tz_next_transition(z, t)) {
    transition(w, z, t);
  }
  ical_line(w, "END", "VTIMEZONE");
}
