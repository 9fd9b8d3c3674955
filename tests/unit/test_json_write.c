/*
** test_json_write.c -- json_write: the literal of the extension's text
** (valid UTF-8: bytes as themselves but '"', '\\' and controls), its
** length and pieces; the literal of any bytes as trigger-host writes it
** (whole characters kept, DEL escaped, each invalid subpart and a NUL
** inside the bytes as U+FFFD); integer digits at both ends of the range.
*/
#include "../../ext/text/json_write.h"

#include <limits.h>
#include <stdio.h>

#include "check.h"

#define FFFD "\xEF\xBF\xBD"

/* s quoted with json_quote_to, checked against json_quoted_len. */
static void quote(const char *s, const char *want, const char *what) {
  char out[128];
  char *end = json_quote_to(out, s);
  *end = 0;
  CHECK_STR(out, want, what);
  CHECK_EQ_I64(json_quoted_len(s), end - out, what);
}

/* s[0..n) quoted piece by piece as the host does: runs, then escapes. */
static void any(const char *s, size_t n, const char *want, const char *what) {
  char out[128], buf[8];
  size_t k = 0;
  while (n) {
    size_t run = json_any_span(s, n), used = 0;
    memcpy(out + k, s, run);
    k += run;
    s += run;
    n -= run;
    if (!n) break;
    const char *esc = json_any_escape(s, n, &used, buf);
    CHECK(used >= 1 && used <= n, "%s: used %zu of %zu", what, used, n);
    memcpy(out + k, esc, strlen(esc));
    k += strlen(esc);
    s += used;
    n -= used;
  }
  out[k] = 0;
  CHECK_STR(out, want, what);
}

static void digits(long long x, const char *want) {
  char buf[24];
  int n = json_int_digits(buf, x);
  buf[n] = 0;
  CHECK_STR(buf, want, "json_int_digits");
}

int main(void) {
  quote("", "\"\"", "empty");
  quote("plain text", "\"plain text\"", "plain");
  quote("a\"b\\c", "\"a\\\"b\\\\c\"", "quote and backslash");
  quote("l1\nl2\r\tx", "\"l1\\nl2\\r\\tx\"", "short escapes");
  quote("\x01\x1f", "\"\\u0001\\u001f\"", "other controls as \\u00XX");
  quote("\x7f caf\xC3\xA9", "\"\x7f caf\xC3\xA9\"", "DEL and UTF-8 as is");
  CHECK_EQ_I64(json_plain_span("abc\"d"), 3, "span stops at a quote");
  CHECK_EQ_I64(json_plain_span("abc"), 3, "span to the end");

  any("caf\xC3\xA9 \xE2\x82\xAC", 9, "caf\xC3\xA9 \xE2\x82\xAC", "UTF-8 kept");
  any("a\"b\\\n\t\r\x01", 8, "a\\\"b\\\\\\n\\t\\r\\u0001", "escapes");
  any("x\x7fy", 3, "x\\u007fy", "DEL escaped");
  any("ok \xFF\xFE!", 6, "ok " FFFD FFFD "!", "stray bytes");
  any("\xE2\x82", 2, FFFD, "a cut sequence is one subpart");
  any("\xC0\xAF", 2, FFFD FFFD, "overlong: two subparts");
  any("ab\0cd", 5, "ab" FFFD "cd", "a NUL inside the bytes");
  any("", 0, "", "empty");

  digits(0, "0");
  digits(-7, "-7");
  digits(1767225600000LL, "1767225600000");
  digits(LLONG_MAX, "9223372036854775807");
  digits(LLONG_MIN, "-9223372036854775808");
  return check_report("json_write");
}
