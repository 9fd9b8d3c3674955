/*
** describe_words.c -- the words and the writer the describers share
** (describe.c for cron, intervals and instants; describe_rrule.c for
** calendar rules): a bounded writer into a caller's buffer, lists of
** short items joined the way cronstrue joins them, month names and
** ordinal words. Below both describers, so neither calls the other back.
*/
#include "time/describe_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text/coverage.h"

/* ---- a bounded writer (describe_int.h) ---------------------------------- */

void desc_put(wbuf *w, const char *s) {
  size_t k = strlen(s);
  if (w->len + k >= w->n) {
    w->over = 1;
    return;
  }
  memcpy(w->p + w->len, s, k + 1);
  w->len += k;
}

/* desc_put() of a formatted text, written in place (on overflow the
** buffer may hold part of it: the result is -1 then) */
void desc_putf(wbuf *w, const char *fmt, ...) {
  va_list ap;
  size_t room = w->n - w->len;
  va_start(ap, fmt);
  int k = vsnprintf(w->p + w->len, room, fmt, ap);
  va_end(ap);
  if ((size_t)k >= room) w->over = 1; /* k < 0 too */
  else w->len += (size_t)k;
}

void desc_item_add(items *it, const char *fmt, ...) {
  if (NEVER(it->n == ITEMS_MAX)) return; /* 79 day items at most */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(it->v[it->n++], sizeof it->v[0], fmt, ap);
  va_end(ap);
}

void desc_put_join(wbuf *w, const items *it, int serial_comma) {
  for (int k = 0; k < it->n; k++) {
    if (k > 0 && k == it->n - 1)
      desc_put(w, it->n > 2 && serial_comma ? ", and " : " and ");
    else if (k > 0) desc_put(w, ", ");
    desc_put(w, it->v[k]);
  }
}

const char *const desc_month_names[13] = {
    "",     "January", "February",  "March",   "April",    "May",     "June",
    "July", "August",  "September", "October", "November", "December"};

const char *const desc_ordinals[6] = {"",      "first",  "second",
                                      "third", "fourth", "fifth"};
