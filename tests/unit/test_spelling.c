/*
** test_spelling.c -- spelling.h: the spellings a model writes of one name
** or enum value (case, '-', '_', camel, white space) are the same; any
** other difference is not; spelling_find picks the one member of a set.
*/
#include "../../ext/text/spelling.h"

#include "check.h"

static void same(const char *a, const char *b, int want) {
  CHECK(spelling_same(a, b) == want, "'%s' vs '%s': want %s", a, b,
        want ? "same" : "different");
  CHECK(spelling_same(b, a) == want, "'%s' vs '%s' (swapped)", b, a);
}

int main(void) {
  static const char *const wake[] = {"inject_now", "next_autonomy_cycle", 0};
  static const char *const types[] = {"interval", "once", "cron", 0};
  static const char *const spellings[] = {
      "inject_now", "INJECT_NOW",    "Inject-Now", "injectNow",   "InjectNow",
      "inject now", " inject_now\n", "INJECTNOW",  "inject--now", 0};
  for (int i = 0; spellings[i]; i++) {
    CHECK_EQ_I64(spelling_find(spellings[i], wake), 0, spellings[i]);
  }
  CHECK_EQ_I64(spelling_find("nextAutonomyCycle", wake), 1, "camel");
  CHECK_EQ_I64(spelling_find("NEXT-AUTONOMY-CYCLE", wake), 1, "kebab upper");
  CHECK_EQ_I64(spelling_find("INTERVAL", types), 0, "upper");
  CHECK_EQ_I64(spelling_find("Cron", types), 2, "title");
  CHECK_EQ_I64(spelling_find("hourly", types), -1, "unknown");
  CHECK_EQ_I64(spelling_find("", types), -1, "empty");
  CHECK_EQ_I64(spelling_find("-_ ", types), -1, "separators only");
  CHECK_EQ_I64(spelling_find(0, types), -1, "NULL");
  CHECK_EQ_I64(spelling_find("intervals", types), -1, "longer");
  CHECK_EQ_I64(spelling_find("interva", types), -1, "shorter");

  same("maxRuns", "max_runs", 1);
  same("MAXRUNS", "max_runs", 1);
  same("max-runs", "maxRuns", 1);
  same("max.runs", "max_runs", 0); /* '.' is not a separator */
  same("max_runs2", "max_runs", 0);
  same("windowMs", "window_ms", 1);
  same("when", "when_text", 0);
  same("whenText", "when_text", 1);
  same("\xC3\x84rger", "\xC3\xA4rger", 0); /* only ASCII is folded */
  same("caf\xC3\xA9", "CAF\xC3\xA9", 1);
  same("", "", 1);
  same("_", "", 1);
  /* Every separator: '-', '_', space, tab, newline, CR, VT, FF. */
  same("max\trun\rs", "max_runs", 1);
  same("\vmax\fruns\n", "MaxRuns", 1);
  same("max\vruns", "max\fruns", 1);
  same("max\x01runs", "maxruns", 0); /* other control bytes are not */

  /* A length that stops before the NUL, and a NUL before the length. */
  CHECK(spelling_same_n("responseXYZ", 8, "response"), "prefix of 8");
  CHECK(!spelling_same_n("respons", 8, "response"), "NUL ends a");
  CHECK(spelling_same_n("Response>", 8, "RESPONSE"), "case, bounded");
  return check_report("test_spelling");
}
