/*
** json_reply.c -- the end of a JSON object in a reply (json_reply.h).
*/
#include "agent/json_reply.h"

size_t agent_json_object_end(const char *s, size_t n, size_t open,
                             size_t *string) {
  size_t depth = 0, str = n;
  *string = n;
  for (size_t i = open; i < n; i++) {
    char c = s[i];
    if (str < n) { /* inside a string: only its end counts */
      if (c == '\\') i++;
      else if (c == '"') str = n;
      continue;
    }
    if (c == '"') {
      str = i;
    } else if (c == '{' || c == '[') {
      depth++;
    } else if ((c == '}' || c == ']') && depth > 0 && --depth == 0) {
      return i + 1;
    }
  }
  *string = str;
  return 0;
}
