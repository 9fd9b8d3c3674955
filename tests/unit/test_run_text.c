/*
** test_run_text.c -- run_text_clean: valid text kept, ill-formed
** subsequences replaced by U+FFFD (one per maximal subpart, as Python's
** errors="replace"), the bound kept on a character boundary.
*/
#include "../../ext/text/run_text.h"

#include "check.h"

#define FFFD "\xEF\xBF\xBD"

static void clean(const char *in, size_t n, size_t max, const char *want,
                  const char *what) {
  char out[64];
  size_t len = run_text_clean(in, n, max, out);
  CHECK_STR(out, want, what);
  CHECK_EQ_I64(len, strlen(want), what);
}

int main(void) {
  clean("summary: all green", 18, 4096, "summary: all green", "ascii kept");
  clean("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82", 14, 64,
        "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x99\x82", "2-, 3-, 4-byte kept");
  clean("ok \xFF\xFE then \xE2\x82", 13, 64, "ok " FFFD FFFD " then " FFFD,
        "stray bytes and a cut sequence");
  clean("\xC0\xAF", 2, 64, FFFD FFFD, "overlong C0: two subparts");
  clean("\xE0\x80\x80", 3, 64, FFFD FFFD FFFD, "overlong E0 80");
  clean("\xED\xA0\x80", 3, 64, FFFD FFFD FFFD, "surrogate");
  clean("\xF4\x90\x80\x80", 4, 64, FFFD FFFD FFFD FFFD, "above U+10FFFF");
  clean("\xF0\x9F\x99x", 4, 64, FFFD "x", "4-byte cut by ASCII");
  clean("\xE2\x82\xAC\xE2", 4, 64, "\xE2\x82\xAC" FFFD, "cut at the end");
  clean("ab\0cd", 5, 64, "ab" FFFD "cd", "a NUL becomes U+FFFD");
  clean("x\xC3\xA9\xC3\xA9", 5, 4, "x\xC3\xA9", "bound on a boundary");
  clean("x\xC3\xA9\xC3\xA9", 5, 5, "x\xC3\xA9\xC3\xA9", "bound exactly met");
  clean("ab\xFF", 3, 4, "ab", "no room for U+FFFD");
  clean("", 0, 4096, "", "empty");
  return check_report("run_text");
}
