/*
** json_out.c -- JSON appended to a sqlite3_str (see json_out.h): the
** literal's pieces, as text/json_write.c cuts them, one append each.
*/
#include "base/json_out.h"

#include "text/json_write.h"

SQLITE_EXTENSION_INIT3

void json_str(sqlite3_str *out, const char *s) {
  if (!s) {
    sqlite3_str_appendall(out, "null");
    return;
  }
  char buf[8];
  sqlite3_str_appendchar(out, 1, '"');
  for (;;) {
    size_t run = json_plain_span(s);
    sqlite3_str_append(out, s, (int)run);
    s += run;
    if (!*s) break;
    sqlite3_str_appendall(out, json_escape((unsigned char)*s++, buf));
  }
  sqlite3_str_appendchar(out, 1, '"');
}
