/*
** test_json_shape.c -- json_shape_object: 1 only for a text that is
** certainly one JSON object (json1 would say 'object'), 0 ("not sure",
** json1 decides) for everything else; json_shape_flat_array: the calls
** it makes for an array of flat objects, and 0 for every other shape.
*/
#include "../../ext/text/json_shape.h"

#include "check.h"

static void yes(const char *s) {
  CHECK(json_shape_object(s) == 1, "want 1: %s", s);
}
static void unsure(const char *s) {
  CHECK(json_shape_object(s) == 0, "want 0: %s", s);
}

/* What a walk saw: "|" per element, "key=value;" per member ("key=~;"
** for null); a member callback that refuses the key "stop". */
typedef struct seen {
  char log[256];
} seen;

static void on_elem(void *arg) {
  seen *s = arg;
  strcat(s->log, "|");
}

static int on_member(void *arg, const char *key, const char *value) {
  seen *s = arg;
  if (strcmp(key, "stop") == 0) return 0;
  size_t n = strlen(s->log);
  snprintf(s->log + n, sizeof s->log - n, "%s=%s;", key, value ? value : "~");
  return 1;
}

/* Walks text with a buffer of cap bytes: its result, and the log in got. */
static int walk(const char *text, size_t cap, seen *got) {
  char buf[64];
  json_shape_walk w = {on_elem, on_member, got, buf, cap};
  got->log[0] = 0;
  return json_shape_flat_array(text, &w);
}

static void flat(const char *text, const char *want) {
  seen got = {""};
  CHECK(walk(text, 64, &got) == 1, "want 1: %s", text);
  CHECK_STR(got.log, want, text);
}

static void flat_unsure(const char *text, size_t cap) {
  seen got = {""};
  CHECK(walk(text, cap, &got) == 0, "want 0 (cap %zu): %s", cap, text);
}

static void test_flat_array(void) {
  flat("[]", "");
  flat(" [ ] \n", "");
  flat("[{}]", "|");
  flat("[{\"run_id\":\"a\",\"status\":\"success\",\"detail\":null}]",
       "|run_id=a;status=success;detail=~;");
  flat(" [ { \"a\" : \"1\" , \"b\" : null } , {} , {\"c\":\"\"} ] ",
       "|a=1;b=~;||c=;");
  /* every standard escape, decoded */
  flat("[{\"k\\\"\":\"q\\\" s\\\\ /\\/ \\b\\f\\n\\r\\t\"}]",
       "|k\"=q\" s\\ // \b\f\n\r\t;");
  /* the buffer: key in the first half (32 of 64 bytes), value in the rest */
  flat("[{\"0123456789012345678901234567890\":\"x\"}]",
       "|0123456789012345678901234567890=x;");
  flat_unsure("[{\"01234567890123456789012345678901\":\"x\"}]", 64);
  flat_unsure("[{\"k\":\"0123456789012345678901234567890123\"}]", 64);
  flat_unsure("[{\"k\":\"abc\"}]", 6); /* value: 3 bytes of room, needs 4 */
  flat("[{\"k\":\"abc\"}]", "|k=abc;");
  flat_unsure("[]", 1); /* no room at all */
  flat_unsure(NULL, 64);
  flat_unsure("", 64);
  flat_unsure("{}", 64);
  flat_unsure("[] x", 64);
  flat_unsure("[", 64);
  flat_unsure("[1]", 64);
  flat_unsure("[{}", 64);
  flat_unsure("[{},]", 64);
  flat_unsure("[{} {}]", 64);
  flat_unsure("[{}] x", 64);
  flat_unsure("[{\"a\":\"1\"}]]", 64);
  flat_unsure("[{a:\"1\"}]", 64);
  flat_unsure("[{\"a\" \"1\"}]", 64);
  flat_unsure("[{\"a\":1}]", 64);
  flat_unsure("[{\"a\":nul}]", 64);
  flat_unsure("[{\"a\":{}}]", 64);
  flat_unsure("[{\"a\":\"1\",}]", 64);
  flat_unsure("[{\"a\":\"1\" \"b\":null}]", 64);
  flat_unsure("[{\"a\":\"open", 64);
  flat_unsure("[{\"a\x01\":\"1\"}]", 64);
  flat_unsure("[{\"a\":\"\\u0041\"}]", 64); /* json1 decodes \u */
  flat_unsure("[{\"\\u0041\":null}]", 64);
  flat_unsure("[{\"a\":\"\\x\"}]", 64);
  /* the member callback stops the walk: 0, after the calls it got */
  seen got = {""};
  CHECK(walk("[{\"a\":\"1\"},{\"stop\":null,\"b\":\"2\"}]", 64, &got) == 0,
        "stop");
  CHECK_STR(got.log, "|a=1;|", "calls before the stop");
}

int main(void) {
  yes("{}");
  yes(" \t\r\n{ } \n");
  yes("{\"text\":\"a \\\"b\\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u00e9\\u00C9\",\"n\":-12,"
      "\"z\":0,\"t\":true,\"f\":false,\"x\":null}");
  yes("{\"a\":[1,[2,{\"b\":[]}],\"c\"],\"d\":{\"e\":{}}}");
  yes("{\"caf\xC3\xA9\":\"\xE2\x82\xAC\"}");
  yes("{\"text\":\"run\",\"source\":\"trigger\",\"triggerId\":\"t1\","
      "\"scheduledFor\":1767225600000}");
  unsure(NULL);
  unsure("");
  unsure("[]");
  unsure("\"{}\"");
  unsure("{} x");
  unsure("{}{}");
  unsure("{");
  unsure("{\"a\"}");
  unsure("{\"a\":}");
  unsure("{\"a\":1,}");
  unsure("{,}");
  unsure("{a:1}");
  unsure("{'a':1}");
  unsure("{\"a\":1.5}");
  unsure("{\"a\":1e3}");
  unsure("{\"a\":1E3}");
  unsure("{\"a\":01}");
  unsure("{\"a\":-}");
  unsure("{\"a\":+1}");
  unsure("{\"a\":tru}");
  unsure("{\"a\":\"x\ty\"}");
  unsure("{\"a\":\"\\x\"}");
  unsure("{\"a\":\"\\u12\"}");
  unsure("{\"a\":\"\\u12g4\"}");
  unsure("{\"a\":\"\\"); /* a backslash, then the end */
  unsure("{\"a\x01\":1}");
  unsure("{\"a\":\"open");
  unsure("{\"a\":[1,2}");
  unsure("{\"a\" 1}");
  unsure("\f{}");
  char deep[2 * JSON_SHAPE_DEPTH + 16] = "{\"a\":";
  size_t n = strlen(deep);
  for (int i = 0; i < JSON_SHAPE_DEPTH; i++) deep[n++] = '[';
  for (int i = 0; i < JSON_SHAPE_DEPTH; i++) deep[n++] = ']';
  deep[n++] = '}';
  deep[n] = 0;
  unsure(deep);
  test_flat_array();
  return check_report("json_shape");
}
