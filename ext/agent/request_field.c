/*
** request_field.c -- see request_field.h.
*/
#include "agent/request_field.h"

#include <string.h>

#include "base/json_out.h"
#include "text/spelling.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

int agent_request_field(const char *name) {
  for (int i = 0; i < TC_NPUBLIC; i++) {
    if (spelling_same(name, store_trigger_cols[i].name)) return i;
  }
  if (spelling_same(name, "scheduled_at_iso")) return TC_SCHEDULED_AT;
  if (spelling_same(name, "when")) return RF_WHEN;
  if (spelling_same(name, "when_text")) return RF_WHEN_TEXT;
  if (spelling_same(name, "source_text")) return RF_SOURCE_TEXT;
  return -1;
}

int agent_request_ignore(sqlite3_str *list, const char *name) {
  sqlite3_str *q = sqlite3_str_new(NULL);
  json_str(q, name);
  char *quoted = sqlite3_str_finish(q);
  if (!quoted) return SQLITE_NOMEM;
  /* A match that begins and ends at a member's quotes is that member: a
  ** quote inside a member is escaped. */
  const char *have = sqlite3_str_value(list);
  size_t n = strlen(quoted);
  for (const char *p = have ? strstr(have, quoted) : NULL; p;
       p = strstr(p + 1, quoted)) {
    if ((p == have || p[-1] == ',') && (p[n] == ',' || !p[n])) {
      sqlite3_free(quoted);
      return SQLITE_OK;
    }
  }
  if (sqlite3_str_length(list)) sqlite3_str_appendchar(list, 1, ',');
  sqlite3_str_appendall(list, quoted);
  sqlite3_free(quoted);
  return sqlite3_str_errcode(list);
}
