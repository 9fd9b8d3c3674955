/*
** libical_oracle.c -- libical's expansion of one RRULE, for the corpus
** generator (make_corpus.py), which compiles it against Debian's
** libical-dev and runs it once per rule under a timeout (libical is known
** to loop without end on some rules).
**
**   libical_oracle DTSTART RULE N
**
** DTSTART is a floating YYYYMMDDTHHMMSS, RULE a RECUR value. Prints the
** first N occurrences from DTSTART in floating time, one YYYYMMDDTHHMMSS a
** line, then "END" when the rule ended first; or one line "ERROR ..." when
** libical refuses the rule. It stops itself after 2 s of CPU time
** (SIGXCPU), so that what counts as libical not answering does not depend
** on the machine's load. Not part of the build or of `make test`.
*/
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

int main(int argc, char **argv) {
  struct icalrecurrencetype rule;
  struct icaltimetype start;
  icalrecur_iterator *it;
  int n, i;
  if (argc != 4) {
    fprintf(stderr, "usage: libical_oracle DTSTART RULE N\n");
    return 2;
  }
  {
    struct rlimit cpu = {2, 3};
    setrlimit(RLIMIT_CPU, &cpu);
  }
  n = atoi(argv[3]);
  icalerror_set_errors_are_fatal(0);
  rule = icalrecurrencetype_from_string(argv[2]);
  if (rule.freq == ICAL_NO_RECURRENCE) {
    printf("ERROR rule not parsed\n");
    return 0;
  }
  start = icaltime_from_string(argv[1]);
  if (icaltime_is_null_time(start)) {
    printf("ERROR dtstart not parsed\n");
    return 0;
  }
  it = icalrecur_iterator_new(rule, start);
  if (!it) {
    printf("ERROR iterator not created\n");
    return 0;
  }
  for (i = 0; i < n; i++) {
    struct icaltimetype t = icalrecur_iterator_next(it);
    if (icaltime_is_null_time(t)) {
      printf("END\n");
      break;
    }
    printf("%04d%02d%02dT%02d%02d%02d\n", t.year, t.month, t.day, t.hour,
           t.minute, t.second);
  }
  icalrecur_iterator_free(it);
  return 0;
}
