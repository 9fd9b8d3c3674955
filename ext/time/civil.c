/*
** civil.c -- proleptic Gregorian calendar arithmetic and ISO-8601 text.
**
** Owns: leap years, month lengths, the day count <-> date mapping, the
** weekday, splitting millisecond counts into wall-clock fields (floor
** division, so instants before 1970 work) and the ISO-8601 parser and
** formatter described in civil.h.
**
** Day counting works in 400-year cycles: every cycle has 146097 days, so
** dates are shifted to a year that starts on March 1 (the leap day is then
** the last day of the year) and split into cycle, year of cycle and day of
** year with plain integer arithmetic. No table lookups, no loops, no libc
** time functions.
*/
#include "time/civil.h"
#include "text/ascii.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DAYS_PER_CYCLE 146097 /* days in 400 Gregorian years */
#define CYCLE_OFFSET 719468   /* days from 0000-03-01 to 1970-01-01 */

int civil_is_leap(int64_t year) {
  if (year % 4 != 0) return 0;
  if (year % 100 != 0) return 1;
  return year % 400 == 0;
}

int civil_days_in_month(int64_t year, int month) {
  static const unsigned char len[12] = {31, 28, 31, 30, 31, 30,
                                        31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return 0;
  if (month == 2 && civil_is_leap(year)) return 29;
  return len[month - 1];
}

/*
** Day of a March-based year (March 1 = 0) for month m (1..12) and day d.
** The month lengths from March repeat as 31,30,31,30,31 which the linear
** form (153 * mp + 2) / 5 reproduces exactly.
*/
static int64_t march_day_of_year(int month, int day) {
  int mp = month > 2 ? month - 3 : month + 9; /* March = 0 .. February = 11 */
  return (153 * mp + 2) / 5 + day - 1;
}

int64_t civil_days_from_date(int64_t year, int month, int day) {
  int64_t y = month <= 2 ? year - 1 : year; /* Jan/Feb belong to last year */
  int64_t cycle = civil_floor_div(y, 400);
  int64_t year_of_cycle = y - cycle * 400;     /* 0..399 */
  int64_t doy = march_day_of_year(month, day); /* 0..365 */
  int64_t day_of_cycle = year_of_cycle * 365 + year_of_cycle / 4 -
                         year_of_cycle / 100 + doy; /* 0..146096 */
  return cycle * DAYS_PER_CYCLE + day_of_cycle - CYCLE_OFFSET;
}

void civil_date_from_days(int64_t days, int *year, int *month, int *day) {
  int64_t z = days + CYCLE_OFFSET;
  int64_t cycle = civil_floor_div(z, DAYS_PER_CYCLE);
  int64_t doc = z - cycle * DAYS_PER_CYCLE; /* 0..146096 */
  /* Year of cycle: remove the leap days that precede doc. The last day of
  ** the cycle (doc 146096) is the extra leap day of year 399. */
  int64_t yoc = (doc - doc / 1460 + doc / 36524 - doc / 146096) / 365;
  int64_t doy = doc - (365 * yoc + yoc / 4 - yoc / 100); /* 0..365 */
  int64_t mp = (5 * doy + 2) / 153;                      /* 0..11 */
  int64_t d = doy - (153 * mp + 2) / 5 + 1;              /* 1..31 */
  int64_t m = mp < 10 ? mp + 3 : mp - 9;                 /* 1..12 */
  int64_t y = yoc + cycle * 400 + (m <= 2 ? 1 : 0);
  *year = (int)y;
  *month = (int)m;
  *day = (int)d;
}

int civil_weekday(int64_t days) {
  /* 1970-01-01 was a Thursday (4). */
  return (int)civil_floor_mod(days + 4, 7);
}

int64_t civil_to_ms(const civil_time *t) {
  int64_t days = civil_days_from_date(t->year, t->month, t->day);
  int64_t secs = (int64_t)t->hour * 3600 + (int64_t)t->minute * 60 + t->second;
  return days * CIVIL_MS_PER_DAY + secs * 1000 + t->ms;
}

void civil_from_ms(int64_t ms, civil_time *t) {
  int64_t days = civil_floor_div(ms, CIVIL_MS_PER_DAY);
  int64_t rest = ms - days * CIVIL_MS_PER_DAY; /* 0..86399999 */
  civil_date_from_days(days, &t->year, &t->month, &t->day);
  t->hour = (int)(rest / 3600000);
  t->minute = (int)(rest / 60000 % 60);
  t->second = (int)(rest / 1000 % 60);
  t->ms = (int)(rest % 1000);
}

/* ---- ISO-8601 parsing ------------------------------------------------ */

typedef struct iso_cursor {
  const char *s;
  size_t n, i;
  char *err;
  size_t errlen;
} iso_cursor;

static int iso_fail(iso_cursor *c, const char *fmt, ...) {
  if (c->err && c->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Describes the character at the cursor for messages. */
static const char *iso_here(const iso_cursor *c, char *buf, size_t len) {
  unsigned char ch;
  if (c->i >= c->n) return "end of text";
  ch = (unsigned char)c->s[c->i];
  if (ch >= 0x20 && ch < 0x7f) snprintf(buf, len, "'%c'", ch);
  else snprintf(buf, len, "byte 0x%02x", ch);
  return buf;
}

/* Describes up to `width` characters from the cursor for messages. */
static const char *iso_span(const iso_cursor *c, int width, char *buf,
                            size_t len) {
  size_t k, m = 0;
  if (c->i >= c->n) return "end of text";
  buf[m++] = '\'';
  for (k = c->i; k < c->n && k < c->i + (size_t)width && m + 2 < len; k++) {
    unsigned char ch = (unsigned char)c->s[k];
    buf[m++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
  }
  buf[m++] = '\'';
  buf[m] = '\0';
  return buf;
}

/* Reads exactly `width` digits into *v; messages name the field's start. */
static int iso_digits(iso_cursor *c, int width, const char *what, int *v) {
  int k, acc = 0;
  for (k = 0; k < width; k++) {
    char ch = c->i + k < c->n ? c->s[c->i + k] : '\0';
    if (!ascii_is_digit(ch)) {
      char b[16];
      return iso_fail(c, "expected %d-digit %s at offset %zu, found %s", width,
                      what, c->i, iso_span(c, width, b, sizeof b));
    }
    acc = acc * 10 + (ch - '0');
  }
  c->i += (size_t)width;
  *v = acc;
  return 0;
}

static int iso_expect(iso_cursor *c, char want) {
  if (c->i < c->n && c->s[c->i] == want) {
    c->i++;
    return 0;
  }
  {
    char b[16];
    return iso_fail(c, "expected '%c' at offset %zu, found %s", want, c->i,
                    iso_here(c, b, sizeof b));
  }
}

static int iso_range(iso_cursor *c, const char *what, int v, int lo, int hi) {
  if (v < lo || v > hi)
    return iso_fail(c, "%s %d is out of range %d-%d", what, v, lo, hi);
  return 0;
}

static int iso_date(iso_cursor *c, civil_time *t) {
  int dim;
  if (iso_digits(c, 4, "year", &t->year) || iso_expect(c, '-') ||
      iso_digits(c, 2, "month", &t->month) || iso_expect(c, '-') ||
      iso_digits(c, 2, "day", &t->day))
    return -1;
  if (iso_range(c, "year", t->year, CIVIL_MIN_YEAR, CIVIL_MAX_YEAR) ||
      iso_range(c, "month", t->month, 1, 12))
    return -1;
  dim = civil_days_in_month(t->year, t->month);
  if (t->day < 1 || t->day > dim)
    return iso_fail(c, "day %d is out of range 1-%d for %04d-%02d", t->day, dim,
                    t->year, t->month);
  return 0;
}

/* Optional ".fff...": any number of digits, milliseconds kept. */
static int iso_fraction(iso_cursor *c, civil_time *t) {
  int k = 0;
  if (c->i >= c->n || c->s[c->i] != '.') return 0;
  c->i++;
  if (c->i >= c->n || !ascii_is_digit(c->s[c->i])) {
    char b[16];
    return iso_fail(c, "expected digits after '.' at offset %zu, found %s",
                    c->i, iso_here(c, b, sizeof b));
  }
  while (c->i < c->n && ascii_is_digit(c->s[c->i])) {
    if (k < 3) t->ms = t->ms * 10 + (c->s[c->i] - '0');
    k++;
    c->i++;
  }
  for (; k < 3; k++) t->ms *= 10;
  return 0;
}

static int iso_time(iso_cursor *c, civil_time *t) {
  if (iso_digits(c, 2, "hour", &t->hour) || iso_expect(c, ':') ||
      iso_digits(c, 2, "minute", &t->minute))
    return -1;
  if (c->i < c->n && c->s[c->i] == ':') {
    c->i++;
    if (iso_digits(c, 2, "second", &t->second) || iso_fraction(c, t)) return -1;
  }
  return iso_range(c, "hour", t->hour, 0, 23) ||
                 iso_range(c, "minute", t->minute, 0, 59) ||
                 iso_range(c, "second", t->second, 0, 59)
             ? -1
             : 0;
}

/* 'Z', '+hh:mm[:ss]', '-hh:mm[:ss]', '+hhmm' or '+hh' (hh 00-23). */
static int iso_offset(iso_cursor *c, int32_t *offset_s) {
  int sign, hh = 0, mm = 0, ss = 0;
  char ch = c->s[c->i];
  if (ch == 'Z' || ch == 'z') {
    c->i++;
    *offset_s = 0;
    return 0;
  }
  sign = ch == '-' ? -1 : 1;
  c->i++;
  if (iso_digits(c, 2, "offset hour", &hh)) return -1;
  if (c->i < c->n && c->s[c->i] == ':') {
    c->i++;
    if (iso_digits(c, 2, "offset minute", &mm)) return -1;
    if (c->i < c->n && c->s[c->i] == ':') {
      c->i++;
      if (iso_digits(c, 2, "offset second", &ss)) return -1;
    }
  } else if (c->i < c->n && ascii_is_digit(c->s[c->i])) {
    if (iso_digits(c, 2, "offset minute", &mm)) return -1;
  }
  if (iso_range(c, "offset hour", hh, 0, 23) ||
      iso_range(c, "offset minute", mm, 0, 59) ||
      iso_range(c, "offset second", ss, 0, 59))
    return -1;
  *offset_s = sign * (hh * 3600 + mm * 60 + ss);
  return 0;
}

int civil_parse_iso(const char *s, size_t n, civil_time *t, int *has_offset,
                    int32_t *offset_s, char *err, size_t errlen) {
  iso_cursor c;
  civil_time tmp;
  int got_offset = 0;
  int32_t off = 0;
  c.s = s;
  c.n = s ? n : 0;
  c.i = 0;
  c.err = err;
  c.errlen = errlen;
  memset(&tmp, 0, sizeof tmp);
  if (c.n == 0) return iso_fail(&c, "empty date/time text");
  if (iso_date(&c, &tmp)) return -1;
  if (c.i < c.n) {
    char sep = s[c.i];
    if (sep != 'T' && sep != 't' && sep != ' ') {
      char b[16];
      return iso_fail(&c, "expected 'T' or ' ' at offset %zu, found %s", c.i,
                      iso_here(&c, b, sizeof b));
    }
    c.i++;
    if (iso_time(&c, &tmp)) return -1;
    if (c.i < c.n && strchr("Zz+-", s[c.i]) && s[c.i] != '\0') {
      if (iso_offset(&c, &off)) return -1;
      got_offset = 1;
    }
  }
  if (c.i < c.n) {
    char b[16];
    return iso_fail(&c, "unexpected %s at offset %zu",
                    iso_here(&c, b, sizeof b), c.i);
  }
  *t = tmp;
  *has_offset = got_offset;
  *offset_s = off;
  return 0;
}

/* ---- ISO-8601 formatting --------------------------------------------- */

/* v (0 <= v < 10^w) as w decimal digits at p; returns p + w. */
static char *put_digits(char *p, int v, int w) {
  for (int k = w - 1; k >= 0; k--, v /= 10) p[k] = (char)('0' + v % 10);
  return p + w;
}

/* The text of civil_format_iso in range (years 0-9999, |offset| < 100h)
** without snprintf, which was most of its cost (a summary formats eight
** times per call, docs/performance.md). */
static int format_iso_fast(const civil_time *t, int64_t a, int32_t offset_s,
                           int is_utc, char *buf) {
  char *p = put_digits(buf, t->year, 4);
  *p++ = '-';
  p = put_digits(p, t->month, 2);
  *p++ = '-';
  p = put_digits(p, t->day, 2);
  *p++ = 'T';
  p = put_digits(p, t->hour, 2);
  *p++ = ':';
  p = put_digits(p, t->minute, 2);
  *p++ = ':';
  p = put_digits(p, t->second, 2);
  if (t->ms) {
    *p++ = '.';
    p = put_digits(p, t->ms, 3);
  }
  if (is_utc) {
    *p++ = 'Z';
  } else {
    *p++ = offset_s < 0 ? '-' : '+';
    p = put_digits(p, (int)(a / 3600), 2);
    *p++ = ':';
    p = put_digits(p, (int)(a / 60 % 60), 2);
    if (a % 60) {
      *p++ = ':';
      p = put_digits(p, (int)(a % 60), 2);
    }
  }
  *p = '\0';
  return (int)(p - buf);
}

int civil_format_iso(int64_t utc_ms, int32_t offset_s, int is_utc, char *buf) {
  /* Assembled in a roomy buffer so absurd years or offsets cannot overrun;
  ** in range (years 1-9999, |offset| < 100h) the text always fits. */
  char tmp[96];
  civil_time t;
  int len;
  int64_t a = offset_s < 0 ? -(int64_t)offset_s : offset_s;
  civil_from_ms(utc_ms + (is_utc ? 0 : (int64_t)offset_s * 1000), &t);
  if (t.year >= 0 && t.year <= 9999 && a < 100 * 3600)
    return format_iso_fast(&t, a, offset_s, is_utc, buf);
  len = snprintf(tmp, sizeof tmp, "%04d-%02d-%02dT%02d:%02d:%02d", t.year,
                 t.month, t.day, t.hour, t.minute, t.second);
  if (t.ms) len += snprintf(tmp + len, sizeof tmp - (size_t)len, ".%03d", t.ms);
  if (is_utc) len += snprintf(tmp + len, sizeof tmp - (size_t)len, "Z");
  else
    len +=
        snprintf(tmp + len, sizeof tmp - (size_t)len, "%c%02d:%02d",
                 offset_s < 0 ? '-' : '+', (int)(a / 3600), (int)(a / 60 % 60));
  if (!is_utc && a % 60)
    len +=
        snprintf(tmp + len, sizeof tmp - (size_t)len, ":%02d", (int)(a % 60));
  if (len > CIVIL_ISO_MAX - 1) len = CIVIL_ISO_MAX - 1;
  memcpy(buf, tmp, (size_t)len);
  buf[len] = '\0';
  return len;
}
