/*
** event.c -- the lifecycle's events (event.h): the kind of a status
** change, and the row written for it through store/events.h.
*/
#include "trigger/event.h"

#include <string.h>

#include "store/events.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

const char *trg_event_kind(const char *before, const char *after, int by_app) {
  if (strcmp(before, after) == 0) return NULL;
  if (strcmp(after, "paused") == 0) return by_app ? "paused" : "auto_paused";
  if (strcmp(after, "scheduled") == 0)
    return strcmp(before, "paused") == 0 ? "resumed" : NULL;
  if (strcmp(after, "completed") == 0 || strcmp(after, "expired") == 0 ||
      strcmp(after, "cancelled") == 0)
    return after;
  return NULL;
}

int trg_event_write(store *s, const trg_row *r, const char *kind,
                    const char *code, const char *detail, i64 at) {
  const trg_val *id = &r->v[TC_TRIGGER_ID];
  store_event e = {at,
                   val_text(&r->v[TC_AGENT_ID]),
                   val_text(&r->v[TC_SCOPE]),
                   id->null ? NULL : val_text(id),
                   kind,
                   code,
                   detail};
  return store_event_append(s, &e);
}

int trg_event_status(store *s, const trg_row *r, const char *before, int by_app,
                     i64 at) {
  const char *kind = trg_event_kind(before, val_text(&r->v[TC_STATUS]), by_app);
  if (!kind) return SQLITE_OK;
  const trg_val *why = &r->v[TC_LAST_ERROR];
  char *detail = NULL;
  if ((strcmp(kind, "auto_paused") == 0 || strcmp(kind, "expired") == 0) &&
      !why->null) {
    sqlite3_str *j = sqlite3_str_new(NULL);
    sqlite3_str_appendall(j, "{\"reason\":");
    json_str(j, val_text(why));
    sqlite3_str_appendchar(j, 1, '}');
    if (!(detail = sqlite3_str_finish(j))) return SQLITE_NOMEM;
  }
  int rc = trg_event_write(s, r, kind, NULL, detail, at);
  sqlite3_free(detail);
  return rc;
}
