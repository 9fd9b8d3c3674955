/*
** occurrences.c -- libical's reading of an iCalendar text, for the oracle
** test of trigger_ical (tests/py/sql/test_ical.py): parses the text on
** stdin with libical's parser and prints, for each VEVENT, one line
** "UID SECONDS" per occurrence (UTC seconds) that libical expands from
** its DTSTART, RRULE, RDATE and EXDATE (zones from the text's VTIMEZONEs)
** in [FROM, TO). Exit status 2 when the text does not parse.
**   occurrences FROM TO < feed.ics
*/
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void occurrence(icalcomponent *ev, struct icaltime_span *span,
                       void *arg) {
  (void)arg;
  printf("%s %lld\n", icalcomponent_get_uid(ev), (long long)span->start);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: occurrences FROM TO < feed.ics\n");
    return 1;
  }
  size_t cap = 1 << 20, n = 0, k;
  char *text = malloc(cap + 1);
  while (text && (k = fread(text + n, 1, cap - n, stdin)) > 0) {
    n += k;
    if (n < cap) continue;
    char *grown = realloc(text, (cap *= 2) + 1);
    if (!grown) free(text);
    text = grown;
  }
  if (!text) return 1;
  text[n] = 0;
  icalcomponent *cal = icalparser_parse_string(text);
  if (!cal || icalcomponent_isa(cal) != ICAL_VCALENDAR_COMPONENT) {
    fprintf(stderr, "not a VCALENDAR: %s\n", icalerror_strerror(icalerrno));
    return 2;
  }
  icaltimezone *utc = icaltimezone_get_utc_timezone();
  struct icaltimetype from =
      icaltime_from_timet_with_zone((time_t)atoll(argv[1]), 0, utc);
  struct icaltimetype to =
      icaltime_from_timet_with_zone((time_t)atoll(argv[2]), 0, utc);
  for (icalcomponent *ev =
           icalcomponent_get_first_component(cal, ICAL_VEVENT_COMPONENT);
       ev; ev = icalcomponent_get_next_component(cal, ICAL_VEVENT_COMPONENT)) {
    icalcomponent_foreach_recurrence(ev, from, to, occurrence, NULL);
  }
  icalcomponent_free(cal);
  free(text);
  return 0;
}
