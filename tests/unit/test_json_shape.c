/*
** test_json_shape.c -- json_shape_object: 1 only for a text that is
** certainly one JSON object (json1 would say 'object'), 0 ("not sure",
** json1 decides) for everything else.
*/
#include "../../ext/text/json_shape.h"

#include "check.h"

static void yes(const char *s) {
  CHECK(json_shape_object(s) == 1, "want 1: %s", s);
}
static void unsure(const char *s) {
  CHECK(json_shape_object(s) == 0, "want 0: %s", s);
}

int main(void) {
  yes("{}");
  yes(" \t\r\n{ } \n");
  yes("{\"text\":\"a \\\"b\\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u00e9\",\"n\":-12,"
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
  unsure("{\"a\":01}");
  unsure("{\"a\":-}");
  unsure("{\"a\":+1}");
  unsure("{\"a\":tru}");
  unsure("{\"a\":\"x\ty\"}");
  unsure("{\"a\":\"\\x\"}");
  unsure("{\"a\":\"\\u12\"}");
  unsure("{\"a\":\"\\u12g4\"}");
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
  return check_report("json_shape");
}
