/*
** event.c -- the lifecycle's events (event.h): the kind of a status
** change, and the row written for it through store/event_rows.h.
*/
#include "trigger/event.h"

#include <string.h>

#include "base/json_out.h"
#include "store/event_rows.h"

SQLITE_EXTENSION_INIT3

const char *trigger_event_kind(const char *before, const char *after,
                               int by_app) {
  if (strcmp(before, after) == 0) return NULL;
  if (strcmp(after, "paused") == 0) return by_app ? "paused" : "auto_paused";
  if (strcmp(after, "scheduled") == 0)
    return strcmp(before, "paused") == 0 ? "resumed" : NULL;
  static const char *const ends[] = {"completed", "expired", "cancelled"};
  for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
    if (strcmp(after, ends[i]) == 0) return ends[i]; /* static: kept */
  }
  return NULL;
}

int trigger_event_write(store *s, const trg_row *r, const char *kind,
                        const char *code, const char *detail, i64 at) {
  const trg_val *id = &r->v[TC_TRIGGER_ID];
  store_event e = {at,
                   trg_val_text(&r->v[TC_AGENT_ID]),
                   trg_val_text(&r->v[TC_SCOPE]),
                   id->null ? NULL : trg_val_text(id),
                   kind,
                   code,
                   detail};
  return store_event_append(s, &e);
}

int trigger_event_of_change(const trg_row *r, const char *before, int by_app,
                            const char **kind, char **detail) {
  *kind = trigger_event_kind(before, trg_val_text(&r->v[TC_STATUS]), by_app);
  *detail = NULL;
  const trg_val *why = &r->v[TC_LAST_ERROR];
  if (!*kind || why->null ||
      (strcmp(*kind, "auto_paused") != 0 && strcmp(*kind, "expired") != 0))
    return SQLITE_OK;
  sqlite3_str *j = sqlite3_str_new(NULL);
  sqlite3_str_appendall(j, "{\"reason\":");
  json_str(j, trg_val_text(why));
  sqlite3_str_appendchar(j, 1, '}');
  *detail = sqlite3_str_finish(j);
  return *detail ? SQLITE_OK : SQLITE_NOMEM;
}
