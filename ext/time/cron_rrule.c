/*
** cron_rrule.c -- a cron expression as an RRULE where one means the same
** (cron_rrule.h has the mapping). The parts are printed from the compiled
** bitmasks (cron.h), so spellings of one expression give one rule.
*/
#include "time/cron_rrule.h"

#include "text/text_buf.h"

/* RFC 5545 weekday names, cron's numbering (0 = Sunday). */
static const char *const WEEKDAY[7] = {"SU", "MO", "TU", "WE",
                                       "TH", "FR", "SA"};

/* ";NAME=" then the values lo..hi whose bit is set in mask, comma-
** separated. */
static void put_list(text_buf *b, const char *name, uint64_t mask, int lo,
                     int hi) {
  const char *sep = "";
  text_buf_put(b, ";");
  text_buf_put(b, name);
  text_buf_put(b, "=");
  for (int v = lo; v <= hi; v++) {
    if (!(mask >> v & 1)) continue;
    text_buf_put(b, sep);
    text_buf_put_int(b, v);
    sep = ",";
  }
}

/* The BYMONTHDAY values of a restricted day-of-month field: plain days,
** then L as -1 and L-n as -(n+1). */
static void put_monthdays(text_buf *b, const cron_expr *c) {
  put_list(b, "BYMONTHDAY", c->dom, 1, 31);
  int any = c->dom != 0;
  if (c->dom_last) {
    text_buf_put(b, any ? ",-1" : "-1");
    any = 1;
  }
  for (int k = 1; k <= 30; k++) {
    if (!(c->dom_last_minus >> k & 1)) continue;
    text_buf_put(b, any ? ",-" : "-");
    text_buf_put_int(b, k + 1);
    any = 1;
  }
}

/* The BYDAY values of a restricted day-of-week field: plain weekdays,
** then w#k as kWD and wL as -1WD. */
static void put_weekdays(text_buf *b, const cron_expr *c) {
  const char *sep = "";
  text_buf_put(b, ";BYDAY=");
  for (int w = 0; w < 7; w++) {
    int day = (w + 1) % 7; /* Monday first, as RFC 5545 lists them */
    if (c->dow >> day & 1) {
      text_buf_put(b, sep);
      text_buf_put(b, WEEKDAY[day]);
      sep = ",";
    }
  }
  for (int w = 0; w < 7; w++) {
    int day = (w + 1) % 7;
    for (int k = 1; k <= 5; k++) {
      if (!(c->dow_nth[day] >> k & 1)) continue;
      text_buf_put(b, sep);
      text_buf_put_int(b, k);
      text_buf_put(b, WEEKDAY[day]);
      sep = ",";
    }
    if (c->dow_last >> day & 1) {
      text_buf_put(b, sep);
      text_buf_put(b, "-1");
      text_buf_put(b, WEEKDAY[day]);
      sep = ",";
    }
  }
}

/* Which day parts the expression needs: 'D' none, 'W' plain weekdays,
** 'M' monthly weekdays or month days; 0 with *why when no RRULE says it. */
static char day_kind(const cron_expr *c, int *by_weekday, const char **why) {
  *by_weekday = 0;
  if (c->day_any) return 'D';
  if (!c->dom_star && !c->dow_star) {
    *why = "the day-of-month OR day-of-week rule";
    return 0;
  }
  if (!c->dom_star) {
    if (c->dom_nearest_wd || c->dom_last_weekday) {
      *why = "a nearest weekday (W)";
      return 0;
    }
    return 'M';
  }
  *by_weekday = 1;
  if (c->dow_special && c->dow) {
    /* RFC 5545 allows BYDAY=SU,-1FR, but readers differ on it (the
    ** expander of docs/calendar.md refuses it, as RRULE SHOULD occur once) */
    *why = "weekdays with and without a week number (# or L)";
    return 0;
  }
  return c->dow_special ? 'M' : 'W';
}

int cron_rrule(const cron_expr *c, char *buf, size_t n, const char **why) {
  const char *none = NULL;
  int by_weekday;
  char kind = day_kind(c, &by_weekday, why ? why : &none);
  if (!kind) return 0;
  text_buf b;
  text_buf_init(&b, buf, n);
  text_buf_put(&b, kind == 'D'   ? "FREQ=DAILY"
                   : kind == 'W' ? "FREQ=WEEKLY"
                                 : "FREQ=MONTHLY");
  if ((c->months & 0x1FFEu) != 0x1FFEu)
    put_list(&b, "BYMONTH", c->months, 1, 12);
  if (kind != 'D' && !by_weekday) put_monthdays(&b, c);
  if (kind != 'D' && by_weekday) put_weekdays(&b, c);
  put_list(&b, "BYHOUR", c->hours, 0, 23);
  put_list(&b, "BYMINUTE", c->minutes, 0, 59);
  put_list(&b, "BYSECOND", c->seconds, 0, 59);
  return b.full ? -1 : (int)b.len;
}
