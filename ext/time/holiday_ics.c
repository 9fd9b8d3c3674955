/*
** holiday_ics.c -- the days of an iCalendar holiday file (holiday_ics.h).
**
** Owns: unfolding content lines (CRLF or LF; a line that starts with a
** space or a tab continues the one before), the component structure
** (BEGIN/END, a VEVENT's nested components passed over), and a VEVENT's
** DTSTART, DTEND, SUMMARY, RRULE, RDATE and EXDATE; the recurrence itself
** is rrule.h's (the event's RRULE, RDATE and EXDATE lines compiled as one
** set, DTSTART its date at midnight, in UTC: days are dates here).
*/
#include "time/holiday_ics.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/civil.h"
#include "time/rrule.h"

#define ICS_RULE_MAX 16384 /* RRULE, RDATE and EXDATE lines of one event */
#define ICS_OCC_MAX 100000 /* occurrences of one event looked at */

typedef struct ics_event {
  int64_t start, end; /* days; end exclusive, 0: none given */
  int has_start, timed, start_line;
  char name[ICS_NAME_MAX];
  char rule[ICS_RULE_MAX]; /* content lines for rrule_compile */
  size_t rule_len;
  int has_rrule;
} ics_event;

typedef struct ics_reader {
  const char *p, *end;
  int line, next_line;    /* the unfolded line's first physical line */
  char buf[ICS_LINE_MAX]; /* the unfolded line */
  char *err;
  size_t errlen;
} ics_reader;

static int fail(ics_reader *r, const char *fmt, ...) {
  va_list ap;
  int k = snprintf(r->err, r->errlen, "not iCalendar: ");
  if (k > 0 && (size_t)k < r->errlen) {
    va_start(ap, fmt);
    vsnprintf(r->err + k, r->errlen - (size_t)k, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* The next unfolded content line into r->buf: 1, 0 at the end, -1 when
** it is longer than ICS_LINE_MAX. */
static int next_line(ics_reader *r) {
  size_t n = 0;
  if (r->p >= r->end) return 0;
  r->line = r->next_line;
  for (;;) {
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    const char *e = nl ? nl : r->end;
    size_t k = (size_t)(e - r->p);
    if (k && e[-1] == '\r') k--;
    if (n + k >= sizeof r->buf) return -1;
    memcpy(r->buf + n, r->p, k);
    n += k;
    r->p = nl ? nl + 1 : r->end;
    r->next_line++;
    if (r->p >= r->end || (*r->p != ' ' && *r->p != '\t')) break;
    r->p++; /* a folded continuation: its first blank is dropped */
  }
  r->buf[n] = 0;
  return 1;
}

/* The line's name (before ';' or ':'), upper-cased into name; *params
** and *value point into r->buf (params may be "", value after ':'). */
static int split(ics_reader *r, char name[32], const char **params,
                 const char **value) {
  char *colon = strchr(r->buf, ':');
  size_t k = 0;
  if (!colon) return -1;
  *colon = 0;
  *value = colon + 1;
  char *semi = strchr(r->buf, ';');
  size_t nlen = semi ? (size_t)(semi - r->buf) : strlen(r->buf);
  *params = semi ? semi + 1 : "";
  for (; k < nlen && k < 31; k++) name[k] = (char)ascii_to_upper(r->buf[k]);
  name[k] = 0;
  return nlen < 32 ? 0 : -1;
}

/* Case-insensitive search of an upper-case literal in s. */
static int has_text(const char *s, const char *lit) {
  size_t n = strlen(lit);
  for (; *s; s++) {
    size_t i = 0;
    while (i < n && ascii_to_upper((unsigned char)s[i]) == lit[i]) i++;
    if (i == n) return 1;
  }
  return 0;
}

/* A DTSTART or DTEND value: a date (YYYYMMDD, *timed 0) or a date-time
** (YYYYMMDDTHHMMSS[Z], *timed 1); its date as days. 0, or -1 with why. */
static int read_date(const char *v, int64_t *day, int *timed, char *why,
                     size_t wn) {
  int d[8], y, m, dd;
  for (int i = 0; i < 8; i++) {
    if (!ascii_is_digit((unsigned char)v[i])) {
      snprintf(why, wn, "'%.40s' is not a date (YYYYMMDD)", v);
      return -1;
    }
    d[i] = v[i] - '0';
  }
  y = d[0] * 1000 + d[1] * 100 + d[2] * 10 + d[3];
  m = d[4] * 10 + d[5];
  dd = d[6] * 10 + d[7];
  if (y < CIVIL_MIN_YEAR || m < 1 || m > 12 || dd < 1 ||
      dd > civil_days_in_month(y, m)) {
    snprintf(why, wn, "'%.40s' is not a date (YYYYMMDD)", v);
    return -1;
  }
  if (v[8] && v[8] != 'T' && v[8] != 't') {
    snprintf(why, wn, "'%.40s' is not a date (YYYYMMDD)", v);
    return -1;
  }
  *timed = v[8] != 0;
  *day = civil_days_from_date(y, m, dd);
  return 0;
}

/* SUMMARY's text with its escapes read (\\ \; \, \n). */
static void read_text(const char *v, char *out, size_t n) {
  size_t k = 0;
  for (; *v && k + 1 < n; v++) {
    char c = *v;
    if (c == '\\' && v[1]) {
      c = *++v;
      if (c == 'n' || c == 'N') c = ' ';
    }
    out[k++] = c;
  }
  /* not inside a UTF-8 sequence */
  while (k > 0 && k + 1 >= n && ((unsigned char)out[k] & 0xC0) == 0x80) k--;
  out[k] = 0;
}

/* A recurrence line of the event, kept as a content line. */
static int keep_rule_line(ics_reader *r, ics_event *ev, const char *name,
                          const char *params, const char *value) {
  int k = snprintf(ev->rule + ev->rule_len, sizeof ev->rule - ev->rule_len,
                   "%s%s%s:%s\n", name, *params ? ";" : "", params, value);
  if (k < 0 || (size_t)k >= sizeof ev->rule - ev->rule_len)
    return fail(r,
                "line %d: the event's RRULE, RDATE and EXDATE lines are "
                "longer than %d bytes",
                r->line, ICS_RULE_MAX);
  ev->rule_len += (size_t)k;
  return 0;
}

/* One property of a VEVENT. */
static int event_property(ics_reader *r, ics_event *ev, const char *name,
                          const char *params, const char *value) {
  char why[160];
  if (strcmp(name, "DTSTART") == 0 || strcmp(name, "DTEND") == 0) {
    int64_t day;
    int timed;
    if (read_date(value, &day, &timed, why, sizeof why) != 0)
      return fail(r, "line %d: %s %s", r->line, name, why);
    timed = timed && !has_text(params, "VALUE=DATE");
    if (name[2] == 'S') {
      ev->start = day;
      ev->timed = timed;
      ev->has_start = 1;
      ev->start_line = r->line;
    } else {
      ev->end = day;
    }
  } else if (strcmp(name, "SUMMARY") == 0) {
    read_text(value, ev->name, sizeof ev->name);
  } else if (strcmp(name, "RRULE") == 0 || strcmp(name, "RDATE") == 0 ||
             strcmp(name, "EXDATE") == 0) {
    if (name[0] == 'R' && name[1] == 'R') ev->has_rrule = 1;
    return keep_rule_line(r, ev, name, params, value);
  }
  return 0;
}

/* The days of one event: its span from each occurrence. */
static int give_span(int64_t first, int64_t span, const ics_event *ev,
                     ics_day_fn add, void *arg) {
  for (int64_t d = first; d < first + span; d++) {
    int rc = add(arg, d, ev->name);
    if (rc) return rc;
  }
  return 0;
}

static int event_days(ics_reader *r, const ics_event *ev, int64_t from_day,
                      int64_t to_day, ics_day_fn add, void *arg) {
  if (!ev->has_start)
    return fail(r, "line %d: a VEVENT without DTSTART", r->line);
  if (ev->timed) return 0; /* a time of day: not a holiday */
  int64_t span = ev->end > ev->start ? ev->end - ev->start : 1;
  if (span > 366) span = 366;
  /* DTSTART is an instance of the set (RFC 5545), whatever its rule */
  if (!ev->has_rrule || !ev->rule_len) {
    int rc = give_span(ev->start, span, ev, add, arg);
    if (rc || !ev->rule_len) return rc;
  }
  rrule_set set;
  char msg[RRULE_ERR_MAX];
  if (rrule_compile(ev->rule, &set, msg, sizeof msg) != 0)
    return fail(r, "the VEVENT of line %d: %s", ev->start_line, msg);
  int64_t t = (from_day * 86400 - 1) * 1000, next;
  for (int n = 0; n < ICS_OCC_MAX; n++) {
    int rc = rrule_next(&set, ev->start * 86400, NULL, t, &next);
    if (rc != 1 || civil_floor_div(next, 86400000) >= to_day) break;
    rc = give_span(civil_floor_div(next, 86400000), span, ev, add, arg);
    if (rc) return rc;
    t = next;
  }
  return 0;
}

int ics_holidays(const char *text, size_t len, int64_t from_day, int64_t to_day,
                 ics_day_fn add, void *arg, char *err, size_t errlen) {
  ics_reader r = {.p = text,
                  .end = text + len,
                  .line = 0,
                  .next_line = 1,
                  .err = err,
                  .errlen = errlen};
  ics_event ev;
  memset(&ev, 0, sizeof ev);
  char name[32];
  const char *params, *value;
  int rc, in_cal = 0, in_event = 0, nested = 0, ended = 0, any = 0;
  while ((rc = next_line(&r)) == 1) {
    if (!r.buf[0]) continue;
    if (split(&r, name, &params, &value) != 0) {
      if (!any) return fail(&r, "the text does not begin with BEGIN:VCALENDAR");
      return fail(&r, "line %d: '%.40s' is not a content line (NAME:value)",
                  r.line, r.buf);
    }
    if (!any++ && !(strcmp(name, "BEGIN") == 0 && has_text(value, "VCALENDAR")))
      return fail(&r, "the text does not begin with BEGIN:VCALENDAR");
    if (ended) return fail(&r, "line %d: text after END:VCALENDAR", r.line);
    int begin = strcmp(name, "BEGIN") == 0, end = strcmp(name, "END") == 0;
    if (begin && !in_cal) {
      in_cal = 1;
    } else if (begin && in_event) {
      nested++;
    } else if (end && in_event && nested) {
      nested--;
    } else if (begin && has_text(value, "VEVENT") && strlen(value) == 6) {
      in_event = 1;
      memset(&ev, 0, sizeof ev);
    } else if (end && in_event) {
      in_event = 0;
      rc = event_days(&r, &ev, from_day, to_day, add, arg);
      if (rc) return rc;
    } else if (end && has_text(value, "VCALENDAR")) {
      ended = 1;
    } else if (in_event && !nested) {
      rc = event_property(&r, &ev, name, params, value);
      if (rc) return rc;
    }
  }
  if (rc < 0)
    return fail(&r, "line %d is longer than %d bytes", r.next_line,
                ICS_LINE_MAX);
  if (!any) return fail(&r, "the text does not begin with BEGIN:VCALENDAR");
  if (!ended) return fail(&r, "no END:VCALENDAR (the text is cut short?)");
  return 0;
}
