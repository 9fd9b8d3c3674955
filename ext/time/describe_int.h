/*
** describe_int.h -- what the describers of ext/time share (describe.c,
** describe_rrule.c; the writer and words live in describe_words.c): a
** bounded writer into a caller's buffer, lists of
** short items joined the way cronstrue joins them, month names and
** ordinal words. Internal to ext/time.
*/
#ifndef TRIGGERS_DESCRIBE_INT_H
#define TRIGGERS_DESCRIBE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "time/rrule.h"
#include "time/tz.h"

typedef struct wbuf {
  char *p;
  size_t n, len;
  int over; /* something did not fit */
} wbuf;

void desc_put(wbuf *w, const char *s);
void desc_putf(wbuf *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A list of short items, joined "a and b" / "a, b, and c" (cronstrue
** uses the serial comma except between times of day). */
#define ITEMS_MAX 128
typedef struct items {
  char v[ITEMS_MAX][48];
  int n;
} items;

void desc_item_add(items *it, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void desc_put_join(wbuf *w, const items *it, int serial_comma);

/* A recurrence set in words (describe_rrule.c): dtstart its wall-clock
** DTSTART; known 0 when DTSTART is only the time a function was asked
** about (a bare rule), so the times and days it supplies go unsaid. */
void describe_rrule_set(wbuf *w, const rrule_set *s, int64_t dtstart,
                        int known);

extern const char *const desc_month_names[13]; /* [1] "January" */
extern const char *const desc_ordinals[6];     /* [1] "first" .. "fifth" */

#endif
