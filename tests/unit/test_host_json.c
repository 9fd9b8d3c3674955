/*
** test_host_json.c -- unit tests of host/db/json.c, the scanner trigger-host
** reads the claim's JSON with (linked alone, with a plain xmalloc): arrays
** and objects walked item by item with every kind of white space, values
** skipped whole (strings holding brackets, nested containers, scalars),
** each malformed form ending the walk with -1, keys compared plain and
** escaped, strings decoded (every escape, \u in 1 to 4 UTF-8 bytes,
** surrogate pairs; lone surrogates, bad hex and NUL refused), integers
** read with their bounds.
**   make build/unit/test_host_json && build/unit/test_host_json
*/
#include <stdlib.h>

#include "check.h"
#include "core/util.h"
#include "db/json.h"

/* host/core/util.c's, without the logging it pulls in: json.c only allocates. */
void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) abort();
  return p;
}

static json_span js(const char *s) { return (json_span){s, strlen(s)}; }

/* The elements of the array text as "a|b|c", then "!" when the walk
** ended malformed; a second call after the end finds nothing again. */
static void elements(const char *text, const char *want) {
  json_iter it;
  json_span e;
  char got[256] = "";
  int rc, found;
  json_iter_init(&it, js(text));
  while ((rc = json_next_element(&it, &e, &found)) == 0 && found) {
    if (*got) strcat(got, "|");
    strncat(got, e.p, e.n);
  }
  if (rc < 0) strcat(got, "!");
  CHECK_STR(got, want, text);
  CHECK(json_next_element(&it, &e, &found) == 0 && !found, "after the end: %s",
        text);
}

/* The members of the object text as "k=v,k=v", "!" when malformed. */
static void members(const char *text, const char *want) {
  json_iter it;
  json_span k, v;
  char got[256] = "";
  int rc, found;
  json_iter_init(&it, js(text));
  while ((rc = json_next_member(&it, &k, &v, &found)) == 0 && found) {
    if (*got) strcat(got, ",");
    strncat(got, k.p, k.n);
    strcat(got, "=");
    strncat(got, v.p, v.n);
  }
  if (rc < 0) strcat(got, "!");
  CHECK_STR(got, want, text);
}

static void check_walk(void) {
  elements("[]", "");
  elements(" \t\r\n[ \t\r\n] ", "");
  elements("[1,-2.5e+3,true,null]", "1|-2.5e+3|true|null");
  elements("[ \"a]\" , {\"b\":[1,\"}\"]} ,[[]] ]",
           "\"a]\"|{\"b\":[1,\"}\"]}|[[]]");
  elements("[\"\\\"]\"]", "\"\\\"]\"");
  /* malformed: no '[', a missing comma, nothing where a value goes, an
  ** unterminated string or container, a raw control byte in a string,
  ** a backslash at the very end, text that ends after an item */
  elements("", "!");
  elements("{}", "!");
  elements("[1 2]", "1!");
  elements("[1,]", "1!");
  elements("[,1]", "!");
  elements("[\"abc", "!");
  elements("[[1,2", "!");
  elements("[{\"a\":\"x]", "!");
  elements("[\"a\x01\"]", "!");
  elements("[\"a\\", "!");
  elements("[1", "1!");
  elements("[1,", "1!");
  elements("[", "!");
  members("{}", "");
  members("{ \"a\" : 1 , \"b\":{\"c\":[]} }", "\"a\"=1,\"b\"={\"c\":[]}");
  members("[]", "!");
  members("{a:1}", "!");
  members("{\"a\" 1}", "!");
  members("{\"a\"", "!");
  members("{\"a\":}", "!");
  members("{\"a\":", "!");
  members("{\"a", "!");
  members("{\"a\":1 \"b\":2}", "\"a\"=1!");
}

/* json_string of the token text: the decoded bytes, or NULL. */
static void str(const char *token, const char *want) {
  char *got = json_string(js(token));
  if (!want) {
    CHECK(!got, "%s: refused, got '%s'", token, got ? got : "");
  } else {
    CHECK_STR(got, want, token);
  }
  free(got);
}

static void check_strings(void) {
  str("\"plain\"", "plain");
  str("\"\"", "");
  str("\"\\\" \\\\ \\/ \\b\\f\\n\\r\\t\"", "\" \\ / \b\f\n\r\t");
  str("\"\\u0041\\u00e9\\u00E9\\u20AC\\ud83d\\ude00\"",
      "A\xc3\xa9\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  str("\"\\u07ff\\u0800\\uffff\"", "\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf");
  /* refused: not a string token, cut, bad escapes, NUL, lone surrogates */
  str("plain", NULL);
  str("\"", NULL);
  str("\"ab", NULL);
  str("\"a\"b", NULL);
  str("\"\\x\"", NULL);
  str("\"\\u00\"", NULL);
  str("\"\\u00g0\"", NULL);
  str("\"\\u0G00\"", NULL);
  str("\"\\u0000\"", NULL);
  str("\"\\udc00\"", NULL);
  str("\"\\ud800\"", NULL);
  str("\"\\ud800x\\udc00\"", NULL);
  str("\"\\ud800\\x0000\"", NULL);
  str("\"\\ud800\\ud800\"", NULL);
  str("\"\\ud800\\ue000\"", NULL);
  str("\"\\ud800\\uzzzz\"", NULL);
  str("\"\\udbff\\udfff\"", "\xf4\x8f\xbf\xbf");
}

static void check_keys_and_ints(void) {
  CHECK(json_key_is(js("\"run_id\""), "run_id"), "plain key");
  CHECK(!json_key_is(js("\"run_id\""), "run"), "other length");
  CHECK(!json_key_is(js("\"run_ie\""), "run_id"), "other bytes");
  CHECK(!json_key_is(js("\""), "run_id"), "one byte");
  CHECK(json_key_is(js("\"run\\u005fid\""), "run_id"), "escaped key");
  CHECK(!json_key_is(js("\"run\\u005fix\""), "run_id"), "escaped, other");
  CHECK(!json_key_is(js("\"run\\q\""), "run_q"), "bad escape");
  long long x = 7;
  CHECK(json_int64(js("0"), &x) == 0 && x == 0, "0");
  CHECK(json_int64(js("-42"), &x) == 0 && x == -42, "-42");
  CHECK(json_int64(js("9223372036854775807"), &x) == 0 &&
            x == 9223372036854775807LL,
        "INT64_MAX");
  CHECK(json_int64(js("-9223372036854775808"), &x) == 0 && x == INT64_MIN,
        "INT64_MIN");
  x = 7;
  CHECK(json_int64(js("9223372036854775808"), &x) == -1 && x == 7,
        "one past INT64_MAX");
  CHECK(json_int64(js(""), &x) == -1, "empty");
  CHECK(json_int64(js("-"), &x) == -1, "a sign alone");
  CHECK(json_int64(js("1.5"), &x) == -1, "a fraction");
  CHECK(json_int64(js("12a"), &x) == -1, "a letter");
  CHECK(json_int64(js("123456789012345678901234"), &x) == -1, "24 bytes");
}

/* Each member seen by json_next_element_members, as "k=v;". */
static void collect(void *arg, json_span key, json_span val) {
  char *got = arg;
  strncat(got, key.p, key.n);
  strcat(got, "=");
  strncat(got, val.p, val.n);
  strcat(got, ";");
}

/* The elements of text as "elem{members}|...", "!" when malformed. */
static void elements_members(const char *text, const char *want) {
  json_iter it;
  json_span e;
  char got[512] = "";
  int rc, found, first = 1;
  json_iter_init(&it, js(text));
  for (;;) {
    char seen[256] = "";
    rc = json_next_element_members(&it, &e, collect, seen, &found);
    if (rc != 0 || !found) break;
    if (!first) strcat(got, "|");
    first = 0;
    strncat(got, e.p, e.n);
    strcat(got, "{");
    strcat(got, seen);
    strcat(got, "}");
  }
  if (rc < 0) strcat(got, "!");
  CHECK_STR(got, want, text);
}

static void check_element_members(void) {
  /* the same elements as json_next_element finds, an object's members
  ** seen on the way (a nested object is one member's value) */
  elements_members("[]", "");
  elements_members(
      "[{\"a\":1, \"b\":{\"c\":\"}\"}} , 2]",
      "{\"a\":1, \"b\":{\"c\":\"}\"}}{\"a\"=1;\"b\"={\"c\":\"}\"};}|"
      "2{}");
  elements_members("[{}]", "{}{}");
  /* an object malformed inside: the members before the fault are seen,
  ** the element ends at its brackets, and the walk goes on */
  elements_members("[{\"a\":1 \"b\":2},{\"c\":3}]",
                   "{\"a\":1 \"b\":2}{\"a\"=1;}|{\"c\":3}{\"c\"=3;}");
  /* unterminated: malformed as for json_next_element */
  elements_members("[{\"a\":1", "!");
  elements_members("[{\"a\":\"x}]", "!");
}

int main(void) {
  check_walk();
  check_element_members();
  check_strings();
  check_keys_and_ints();
  return check_report("host_json");
}
