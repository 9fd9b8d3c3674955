/*
** when_words.c -- what one word (or a few) of a message is, for the
** judges of when_context.c (when_msg.h; docs/when.md "Finding a phrase in
** a message"): a time-like word, a date in numbers the grammar does not
** read, an ordinal, a month's name, a number or a unit of time in words, a
** duration, the end of a working day. Each looks only at the bytes of
** the message around [a, b).
*/
#include <string.h>

#include "text/ascii.h"
#include "time/when_msg.h"

#define N(a) WHEN_COUNT(a)

/* Words that, next to a phrase it did not read, mean the phrase is only a
** piece of the time meant. */
static const char *const time_words[] = {
    "today",     "tomorrow",  "tonight", "tmrw",     "noon",    "midnight",
    "morning",   "afternoon", "evening", "night",    "oclock",  "o'clock",
    "am",        "pm",        "a.m.",    "p.m.",     "monday",  "tuesday",
    "wednesday", "thursday",  "friday",  "saturday", "sunday",  "mon",
    "tue",       "tues",      "wed",     "weds",     "thu",     "thur",
    "thurs",     "fri",       "sat",     "sun",      "weekend", "asap",
    "eod",       "lunchtime", "midday",  "minutes",  "minute",  "mins",
    "min",       "hours",     "hour",    "hrs",      "days",    "weeks",
    "months",    "arvo",      "cob",     "eob",      "sunrise", "sunset",
    "dawn",      "dusk",      "week",    "m-f"};

/* "3ish", "9am-ish", "tomorrow-ish" (not "publish"). */
int when_ish_word(const char *t, size_t a, size_t b) {
  static const char *const stems[] = {"noon",    "midnight", "tomorrow",
                                      "tonight", "today",    "morning",
                                      "evening", "lunch",    "lunchtime"};
  if (b - a < 4 || !when_word_is(t + b - 3, 3, "ish")) return 0;
  char before = t[b - 4];
  return before == '-' || ascii_is_digit(before) ||
         when_word_in(t, a, b - 3, stems, N(stems)); /* "noonish" */
}

/* Is the chunk [a, b) time-like: a clock ("9:30", "5pm", "9am-ish"), a day
** or part-of-day word? */
int when_time_like(const char *t, size_t a, size_t b) {
  int digits = 0, colon = 0;
  for (size_t i = a; i < b; i++) {
    if (ascii_is_digit(t[i])) digits++;
    if (t[i] == ':' && digits) colon = 1;
  }
  if (digits && colon) return 1;
  if (digits && b - a >= 3) {
    size_t i = a;
    while (i < b && ascii_is_digit(t[i])) i++;
    if (i + 2 <= b &&
        (when_word_is(t + i, 2, "am") || when_word_is(t + i, 2, "pm")))
      return 1;
  }
  if (when_ish_word(t, a, b)) return 1;
  return when_word_in(t, a, b, time_words, N(time_words));
}

/* Is the chunk [a, b) a date in numbers that the grammar does not read
** (docs/when.md#finding-a-phrase-in-a-message): "2025/03/07" (a year of
** four digits first or last), "07.03.2025", "07.03.25", "7.3." (the
** chunk "7.3" and a '.' after it). Not "24/7", "1.5", "v2.10.3",
** "1.2.10" (a version: day and month of one digit need a year of four
** unless "on" comes before: "on 7.3.25"),
** "10.0.0.1". */
int when_numeric_date(const char *t, size_t len, size_t a, size_t b,
                      int after_on) {
  int width[4] = {0}, n = 0, digits = 0;
  char sep = 0;
  for (size_t i = a; i <= b; i++) {
    if (i < b && ascii_is_digit(t[i])) {
      digits++;
      continue;
    }
    if (!digits || n == 4) return 0;
    width[n++] = digits;
    digits = 0;
    if (i == b) break;
    if ((t[i] != '.' && t[i] != '/') || (sep && t[i] != sep)) return 0;
    sep = t[i];
  }
  int year_last = n == 3 && width[2] == 4 && width[0] <= 2 && width[1] <= 2,
      year_first = n == 3 && width[0] == 4 && width[1] <= 2 && width[2] <= 2;
  if (sep == '/') return year_last || year_first;
  if (sep != '.') return 0;
  int two_two = width[0] == 2 && width[1] == 2;
  return year_last || (n == 3 && width[2] == 2 && (two_two || after_on)) ||
         (n == 2 && width[0] <= 2 && width[1] <= 2 && b < len && t[b] == '.');
}

/* "5th", "21st": a day of the month in digits. */
int when_ordinal_word(const char *t, size_t a, size_t b) {
  size_t i = a;
  while (i < b && ascii_is_digit(t[i])) i++;
  return i > a && i - a <= 2 && b - i == 2 &&
         (when_word_is(t + i, 2, "st") || when_word_is(t + i, 2, "nd") ||
          when_word_is(t + i, 2, "rd") || when_word_is(t + i, 2, "th"));
}

/* An ordinal in words, up to the 31st: "first", "twelfth", "twenty-first"
** (one chunk), "thirtieth". */
int when_ordinal_in_words(const char *t, size_t a, size_t b) {
  static const char *const words[] = {
      "first",     "second",      "third",      "fourth",     "fifth",
      "sixth",     "seventh",     "eighth",     "ninth",      "tenth",
      "eleventh",  "twelfth",     "thirteenth", "fourteenth", "fifteenth",
      "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth",
      "thirtieth"};
  for (size_t i = b; i > a; i--)
    if (t[i - 1] == '-') {
      a = i;
      break;
    }
  return when_word_in(t, a, b, words, N(words));
}

/* A day said of the word after it: "5th", "1st", "first" ... "last",
** "day", a weekday ("the 5th of next month", "the last day of next week",
** "monday of next week"). */
int when_day_of_word(const char *t, size_t a, size_t b) {
  static const char *const words[] = {"first", "second", "third", "fourth",
                                      "fifth", "last",   "day"};
  return when_ordinal_word(t, a, b) || when_word_in(t, a, b, words, N(words)) ||
         when_time_like(t, a, b);
}

/* A month's full name other than "may" (a verb more often than not). */
int when_month_name_at(const char *t, size_t a, size_t b) {
  for (int m = 1; m <= 12; m++)
    if (m != 5 && when_word_eq(t, a, b, when_month_full[m])) return 1;
  return 0;
}

/* [a, b) is a number in words of two letters or more ("two", "ten"; not
** "a"). */
int when_number_word(const char *t, size_t a, size_t b) {
  for (int k = 0; k < when_n_numbers; k++)
    if (when_numbers[k].name[1] && when_word_eq(t, a, b, when_numbers[k].name))
      return 1;
  return 0;
}

/* Is [a, b) a unit of time ("hours", "wk", "months")? */
int when_unit_word(const char *t, size_t a, size_t b) {
  for (int k = 0; k < when_n_units; k++)
    if (when_word_eq(t, a, b, when_units[k].name)) return 1;
  return 0;
}

/* A duration at [a, b): "a week", "5 days", "two hours", "the next 3
** days" (after "for"). */
int when_duration_at(const char *t, size_t len, size_t a, size_t b) {
  size_t a2, b2;
  if (when_word_eq(t, a, b, "the") && when_next_word(t, len, b, &a2, &b2) &&
      when_word_eq(t, a2, b2, "next"))
    return 1;
  int count = ascii_is_digit(t[a]) || when_word_eq(t, a, b, "a") ||
              when_word_eq(t, a, b, "an") || when_number_word(t, a, b);
  return count && when_next_word(t, len, b, &a2, &b2) &&
         when_unit_word(t, a2, b2);
}

/* "close of business" / "end of business" at [a, b) ("close" first, dir
** +1) or ending there ("business" last, dir -1): the end of a working day,
** which the reader does not read. */
int when_business_end(const char *t, size_t len, size_t a, size_t b, int dir) {
  size_t a2, b2, a3, b3;
  if (dir > 0)
    return (when_word_eq(t, a, b, "close") || when_word_eq(t, a, b, "end")) &&
           when_next_word(t, len, b, &a2, &b2) &&
           when_word_eq(t, a2, b2, "of") &&
           when_next_word(t, len, b2, &a3, &b3) &&
           when_word_eq(t, a3, b3, "business");
  return when_word_eq(t, a, b, "business") &&
         when_prev_word(t, len, a, &a2, &b2) && when_word_eq(t, a2, b2, "of") &&
         when_prev_word(t, len, a2, &a3, &b3) &&
         (when_word_eq(t, a3, b3, "close") || when_word_eq(t, a3, b3, "end"));
}
