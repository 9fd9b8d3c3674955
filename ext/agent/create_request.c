/*
** create_request.c -- a create's request and context read into the row
** they ask for (create_request.h): each key through request_field.h, the
** metadata's own members checked, a "when" phrase turned into schedule
** columns, the user and the creator from the context.
*/
#include "agent/create_request.h"

#include <string.h>

#include "agent/json_reply.h"
#include "agent/request_field.h"
#include "base/args.h"
#include "base/json_out.h"
#include "store/columns.h"
#include "store/config.h"
#include "store/json.h"
#include "time/when.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/* Columns a request may not set: they come from the context or policy. */
static int request_may_set(int col) {
  return !store_trigger_cols[col].ro && col != TC_AGENT_ID && col != TC_SCOPE &&
         col != TC_CREATED_BY && col != TC_CREATED_AT;
}

/* A refusal with its reason; no reason (out of memory) is an error. */
int agent_create_fail(create_req *q, const char *code, char *reason) {
  if (!reason) return SQLITE_NOMEM;
  q->code = code;
  sqlite3_free(q->reason);
  q->reason = reason;
  return SQLITE_ERROR;
}

/* *ob: whether json (NULL: none) is a JSON object. SQLITE_OK or the
** error. */
static int json_object_type(create_req *q, const char *json, int *ob) {
  *ob = 0;
  return json ? store_json_is_object(q->call.st, json, ob) : SQLITE_OK;
}

/* *dst = a copy of text (NULL: none). SQLITE_OK or SQLITE_NOMEM. */
static int set_text(char **dst, const char *text) {
  sqlite3_free(*dst);
  *dst = text ? sqlite3_mprintf("%s", text) : NULL;
  return text && !*dst ? SQLITE_NOMEM : SQLITE_OK;
}

/* context.user_id: text (kept for the per-user quotas) or null (none). */
static int read_user(create_req *q, const char *text) {
  return set_text(&q->user, text);
}

/* Read the context object: agent_id, scope, user_id, role,
** autonomy_available, confirmed, now. */
static int read_context_object(create_req *q, const char *json) {
  q->autonomy = 1;
  q->role = sqlite3_mprintf("user");
  q->now = trg_wall_clock_ms();
  if (!q->role || trg_val_set_text(&q->row.v[TC_AGENT_ID], "") ||
      trg_val_set_text(&q->row.v[TC_SCOPE], "")) {
    return SQLITE_NOMEM;
  }
  if (!json) return SQLITE_OK;
  int ob;
  int rc = json_object_type(q, json, &ob);
  if (rc != SQLITE_OK) return rc;
  if (!ob) {
    return agent_create_fail(q, "INVALID_REQUEST",
                             sqlite3_mprintf("context must be a JSON object"));
  }
  store_json_each st;
  rc = store_json_each_open(q->call.st, json, &st);
  while (rc == SQLITE_OK && (rc = store_json_each_next(&st)) == SQLITE_ROW) {
    const char *k = st.m.key, *type = st.m.type, *text = st.m.text;
    int is_text = strcmp(type, "text") == 0;
    int is_bool = strcmp(type, "true") == 0 || strcmp(type, "false") == 0;
    int truth = strcmp(type, "true") == 0;
    if ((strcmp(k, "agent_id") == 0 || strcmp(k, "scope") == 0) && is_text) {
      rc = trg_val_set_text(&q->row.v[k[0] == 'a' ? TC_AGENT_ID : TC_SCOPE],
                            text);
    } else if (strcmp(k, "role") == 0 && is_text) {
      sqlite3_free(q->role);
      q->role = sqlite3_mprintf("%s", text);
      if (!q->role) rc = SQLITE_NOMEM;
    } else if (strcmp(k, "user_id") == 0 &&
               (is_text || strcmp(type, "null") == 0)) {
      rc = read_user(q, is_text ? text : NULL);
    } else if (strcmp(k, "autonomy_available") == 0 && is_bool) {
      q->autonomy = truth;
    } else if (strcmp(k, "confirmed") == 0 && is_bool) {
      q->confirmed = truth;
    } else if (strcmp(k, "dry_run") == 0 && is_bool) {
      q->dry_run = truth;
    } else if (strcmp(k, "message") == 0 && is_text) {
      rc = set_text(&q->source, text); /* a request's source_text wins */
    } else if (strcmp(k, "now") == 0 && !is_bool) {
      char *err;
      if (trg_instant_of(st.m.value, 1, "context.now", &q->now, &err) !=
          SQLITE_OK) {
        store_json_each_close(&st);
        return agent_create_fail(q, "INVALID_REQUEST",
                                 err); /* NULL err: out of memory */
      }
    } else {
      char *why = sqlite3_mprintf("context.%s: unknown key or wrong type "
                                  "(known: agent_id, scope, user_id, role, "
                                  "autonomy_available, confirmed, dry_run, "
                                  "now, message)",
                                  k);
      store_json_each_close(&st);
      return agent_create_fail(q, "INVALID_REQUEST", why);
    }
    if (rc == SQLITE_ROW) rc = SQLITE_OK;
  }
  store_json_each_close(&st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A context refused by read_context (so some JSON text) may still ask
** for a dry run: found here, so that a dry run never writes, whatever else
** is wrong. */
static void context_dry_run(create_req *q, const char *json) {
  store_json_each st;
  int rc = store_json_each_open(q->call.st, json, &st);
  while (rc == SQLITE_OK && store_json_each_next(&st) == SQLITE_ROW) {
    if (strcmp(st.m.key, "dry_run") == 0 && strcmp(st.m.type, "true") == 0)
      q->dry_run = 1;
  }
  store_json_each_close(&st);
}

/* The code of a refusal (rc) about column col: INVALID_SCHEDULE for a
** bad value of a schedule column, INVALID_REQUEST for anything else, a
** missing required field included (NOT NULL: trigger_type too). */
const char *agent_create_code_for_column(int rc, int col) {
  if (rc == SQLITE_CONSTRAINT_NOTNULL) return "INVALID_REQUEST";
  switch (col) {
    case TC_TRIGGER_TYPE:
    case TC_INTERVAL_MS:
    case TC_SCHEDULED_AT:
    case TC_CRON_EXPRESSION:
    case TC_RRULE:
    case TC_CALENDAR:
    case TC_CALENDAR_POLICY:
    case TC_TIMEZONE:
    case TC_START_AT:
    case TC_END_AT: return "INVALID_SCHEDULE";
    default: return "INVALID_REQUEST";
  }
}

/* A request's agent_id or scope that is the context's: the same, so not
** set by the request. */
static int same_as_context(create_req *q, int col, sqlite3_value *v) {
  if (col != TC_AGENT_ID && col != TC_SCOPE) return 0;
  const char *t = (const char *)sqlite3_value_text(v);
  return sqlite3_value_type(v) == SQLITE_TEXT && t &&
         strcmp(t, trg_val_text(&q->row.v[col])) == 0;
}

/* Why a reply holds no JSON object: no '{' at all, one that is not
** closed (or a string in it), or one that is no valid JSON. */
static int no_object(create_req *q, size_t open, size_t end, size_t string,
                     size_t n) {
  char *why;
  if (open == n) {
    why = sqlite3_mprintf("request must be a JSON object");
  } else if (!end && string < n) {
    why = sqlite3_mprintf("request: the JSON object that opens at byte %lld "
                          "is not closed (the string at byte %lld is not "
                          "closed)",
                          (long long)open, (long long)string);
  } else if (!end) {
    why = sqlite3_mprintf("request: the JSON object that opens at byte %lld "
                          "is not closed",
                          (long long)open);
  } else {
    why = sqlite3_mprintf("request: the JSON object at bytes %lld-%lld is not "
                          "valid JSON",
                          (long long)open, (long long)end);
  }
  return agent_create_fail(q, "INVALID_REQUEST", why);
}

/* A request that is not a JSON object as a whole may be one in a model's
** reply: in a code fence or after prose ("Sure: {...}"); a JSON array is
** not read into (it may hold several). *found: the
** first span from a '{' to the '}' that closes it that is a JSON object
** (json_reply.h; at most 16 spans tried), sqlite3_malloc'd; else a
** refusal that says where the reply broke. */
static int reply_object(create_req *q, const char *json, char **found) {
  size_t n = json ? strlen(json) : 0;
  size_t first = n, first_end = 0, first_string = n, i = 0;
  *found = NULL;
  while (i < n && strchr(" \t\r\n", json[i])) i++;
  if (i < n && json[i] == '[') i = n; /* an array is no request */
  for (size_t tries = 0; i < n && tries < 16; tries++) {
    const char *p = memchr(json + i, '{', n - i);
    if (!p) break;
    size_t string, open = (size_t)(p - json);
    size_t end = agent_json_object_end(json, n, open, &string);
    if (first == n) {
      first = open;
      first_end = end;
      first_string = string;
    }
    if (!end) break;
    char *span = sqlite3_mprintf("%.*s", (int)(end - open), json + open);
    int ob = 0;
    int rc = span ? json_object_type(q, span, &ob) : SQLITE_NOMEM;
    if (rc == SQLITE_OK && ob) {
      *found = span;
      return SQLITE_OK;
    }
    sqlite3_free(span);
    if (rc != SQLITE_OK) return rc;
    i = end;
  }
  return no_object(q, first, first_end, first_string, n);
}

static int read_request(create_req *q, const char *json) {
  int ob;
  int rc = json_object_type(q, json, &ob);
  if (rc != SQLITE_OK) return rc;
  if (!ob) {
    char *object;
    if ((rc = reply_object(q, json, &object))) return rc;
    rc = read_request(q, object);
    sqlite3_free(object);
    return rc;
  }
  store_json_each st;
  rc = store_json_each_open(q->call.st, json, &st);
  uint64_t seen = 0; /* columns given */
  int source_given = 0;
  while (rc == SQLITE_OK && (rc = store_json_each_next(&st)) == SQLITE_ROW) {
    const char *k = st.m.key;
    int col = agent_request_field(k);
    if (col >= RF_WHEN && sqlite3_value_type(st.m.value) != SQLITE_TEXT) {
      char *why = sqlite3_mprintf("field '%s' must be text", k);
      store_json_each_close(&st); /* k is freed with it */
      return agent_create_fail(q, "INVALID_REQUEST", why);
    }
    if (col == RF_SOURCE_TEXT) {
      if (source_given) {
        char *why = sqlite3_mprintf("field '%s' is given twice", k);
        store_json_each_close(&st);
        return agent_create_fail(q, "INVALID_REQUEST", why);
      }
      source_given = 1;
      if ((rc = set_text(&q->source, st.m.text))) break;
      continue;
    }
    if (col == RF_WHEN || col == RF_WHEN_TEXT) {
      const char *phrase = st.m.text;
      if (q->when) {
        store_json_each_close(&st);
        return agent_create_fail(
            q, "INVALID_REQUEST",
            sqlite3_mprintf("give either \"when\" or \"when_text\", "
                            "not both"));
      }
      q->when_text = col == RF_WHEN_TEXT;
      q->when = phrase ? sqlite3_mprintf("%s", phrase) : NULL;
      if (!q->when) {
        store_json_each_close(&st);
        return SQLITE_NOMEM;
      }
      rc = SQLITE_OK;
      continue;
    }
    if (col < 0) { /* not dropped: listed in the result */
      if (agent_request_ignore(q->ignored, k)) {
        rc = SQLITE_NOMEM;
        break;
      }
      rc = SQLITE_OK;
      continue;
    }
    sqlite3_value *v = st.m.value;
    if (!request_may_set(col) && !same_as_context(q, col, v)) {
      char *why = sqlite3_mprintf("field '%s' cannot be set by a request (it "
                                  "comes from the context or is computed)",
                                  k);
      store_json_each_close(&st);
      return agent_create_fail(q, "INVALID_REQUEST", why);
    }
    if (seen & ((uint64_t)1 << col)) {
      char *why = sqlite3_mprintf("field '%s' is given twice (another key "
                                  "also names %s)",
                                  k, store_trigger_cols[col].name);
      store_json_each_close(&st);
      return agent_create_fail(q, "INVALID_REQUEST", why);
    }
    seen |= (uint64_t)1 << col;
    rc = SQLITE_OK;
    if (!request_may_set(col)) continue; /* the context's value, echoed */
    char *err = NULL;
    int vrc = trigger_read_value(col, v, &q->row.v[col], &err);
    if (vrc) {
      store_json_each_close(&st);
      return err ? agent_create_fail(q, agent_create_code_for_column(vrc, col),
                                     err)
                 : vrc;
    }
  }
  store_json_each_close(&st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The metadata (a JSON object) without its member `name`, however the
** request spelled the key ("user\u005fid" is user_id); *dropped when it
** had one. */
static int metadata_drop(create_req *q, const char *name, int *dropped) {
  trg_val *m = &q->row.v[TC_METADATA];
  char *rest = NULL;
  *dropped = 0;
  if (m->null) return SQLITE_OK;
  int rc = store_json_remove(q->call.st, m->t, name, &rest);
  if (rc != SQLITE_OK || !rest) return rc;
  *dropped = 1;
  return trg_val_set_owned(m, rest);
}

/* The request's metadata with member `name` set to the JSON text json
** (metadata.when, metadata.user_id): the request's own member of that
** name is replaced. Metadata that is no JSON object is refused as it is
** without a member to set. */
static int metadata_set(create_req *q, const char *name, const char *json) {
  const trg_val *m = &q->row.v[TC_METADATA];
  int dropped;
  if (!m->null) {
    int ob;
    int orc = json_object_type(q, m->t, &ob);
    if (orc != SQLITE_OK) return orc;
    if (!ob) {
      return agent_create_fail(
          q, "INVALID_REQUEST",
          sqlite3_mprintf("triggers.metadata: must be a JSON object"));
    }
  }
  char *metadata = NULL;
  int rc = metadata_drop(q, name, &dropped);
  if (rc == SQLITE_OK)
    rc = store_json_set(q->call.st, m->null ? NULL : m->t, name, json,
                        &metadata);
  return rc == SQLITE_OK ? trg_val_set_owned(&q->row.v[TC_METADATA], metadata)
                         : rc;
}

/* The request's own metadata: its size (the bounds, create_policy.h); a
** key given twice refused, since readers disagree on which one counts;
** its user_id dropped and listed in "ignored": the user is the context's
** (metadata_user), never the request's, so the per-user quotas count
** what is stored. Metadata that is no JSON object is left to validation. */
static int request_metadata(create_req *q) {
  const trg_val *m = &q->row.v[TC_METADATA];
  if (m->null) return SQLITE_OK;
  q->metadata_bytes = strlen(m->t);
  int ob, dropped;
  int rc = json_object_type(q, m->t, &ob);
  if (rc != SQLITE_OK || !ob) return rc;
  char *dup, buf[TRG_ECHO_MAX];
  rc = store_json_duplicate_key(q->call.st, m->t, &dup);
  if (rc != SQLITE_OK) return rc;
  if (dup) {
    rc = agent_create_fail(
        q, "INVALID_REQUEST",
        sqlite3_mprintf("metadata: key '%s' is given twice (readers "
                        "disagree on which one counts)",
                        trg_echo(dup, buf)));
    sqlite3_free(dup);
    return rc;
  }
  rc = metadata_drop(q, "user_id", &dropped);
  if (rc == SQLITE_OK && dropped &&
      agent_request_ignore(q->ignored, "metadata.user_id"))
    rc = SQLITE_NOMEM;
  return rc;
}

/* A "when" phrase (docs/when.md) becomes the schedule columns, when the
** parser's confidence reaches min_confidence; the phrase, confidence,
** flags and implied parts go into metadata.when. */
/* "when_text": the phrase found in the message replaces q->when (so that
** metadata.when keeps the phrase), and the rest of the message becomes the
** instructions when the request gave none. *found 0 when no phrase was
** found. SQLITE_OK or SQLITE_NOMEM. */
static int when_find_text(create_req *q, const tz_zone *z, when_found *f,
                          int *found) {
  size_t len = strlen(q->when);
  *found = when_find(q->when, len, q->now, z, f) == 0;
  if (!*found) return SQLITE_OK;
  char *phrase =
      sqlite3_mprintf("%.*s", (int)(f->end - f->start), q->when + f->start);
  char *rest = sqlite3_malloc64(len + 1);
  int rc = phrase && rest ? SQLITE_OK : SQLITE_NOMEM;
  if (rc == SQLITE_OK && q->row.v[TC_INSTRUCTIONS].null &&
      when_found_rest(q->when, len, f, rest) > 0)
    rc = trg_val_set_text(&q->row.v[TC_INSTRUCTIONS], rest);
  sqlite3_free(rest);
  if (rc != SQLITE_OK) {
    sqlite3_free(phrase);
    return rc;
  }
  sqlite3_free(q->when);
  q->when = phrase;
  return SQLITE_OK;
}

/* A calendar rule read from "when" (docs/when.md#calendar-rules): its
** rule, DTSTART and zone; "except holidays" names config
** default_calendar's calendar, and with none set the request fails (a
** schedule that runs on holidays would be a confident wrong answer). */
static int when_rrule_columns(create_req *q, const when_result *w) {
  int rc = trg_val_set_text(&q->row.v[TC_RRULE], w->rrule);
  if (rc == SQLITE_OK) rc = trg_val_set_text(&q->row.v[TC_TIMEZONE], w->tz);
  trg_val_set_int(&q->row.v[TC_START_AT], w->start_at);
  if (rc != SQLITE_OK || !w->holidays) return rc;
  char *cal = store_config_get(q->call.st, "default_calendar");
  if (cal && *cal) rc = trg_val_set_text(&q->row.v[TC_CALENDAR], cal);
  else {
    rc = agent_create_fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("%s '%s': it excepts holidays, and no holiday "
                        "calendar is set: set config default_calendar",
                        q->when_text ? "when_text" : "when", q->when));
  }
  sqlite3_free(cal);
  return rc;
}

static int apply_when(create_req *q) {
  static const int sched_cols[] = {TC_TRIGGER_TYPE, TC_INTERVAL_MS,
                                   TC_SCHEDULED_AT, TC_CRON_EXPRESSION,
                                   TC_RRULE};
  for (size_t i = 0; i < sizeof sched_cols / sizeof sched_cols[0]; i++) {
    if (!q->row.v[sched_cols[i]].null) {
      return agent_create_fail(
          q, "INVALID_REQUEST",
          sqlite3_mprintf("give either \"when\" or a schedule (%s), not both",
                          store_trigger_cols[sched_cols[i]].name));
    }
  }
  const tz_zone *z;
  char msg[200];
  const char *tzname =
      q->row.v[TC_TIMEZONE].null ? "UTC" : q->row.v[TC_TIMEZONE].t;
  if (trg_zone(q->call.ctx, tzname, &z, msg, sizeof msg) != 0) {
    return agent_create_fail(q, "INVALID_SCHEDULE",
                             sqlite3_mprintf("triggers.timezone: %s", msg));
  }
  when_found f;
  when_result *w = &f.r;
  double min_conf = store_config_real(q->call.st, "min_confidence");
  const char *key = q->when_text ? "when_text" : "when";
  int found = 1, rc = SQLITE_OK;
  if (q->when_text) rc = when_find_text(q, z, &f, &found);
  else found = when_parse(q->when, q->now, z, w) == 0;
  q->when_read = 1;
  q->when_conf = found ? w->confidence : 0;
  if (rc == SQLITE_OK && !found) {
    return agent_create_fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("%s '%s': %s (confidence 0)", key, q->when, w->reason));
  }
  if (rc) return rc;
  if (w->confidence < min_conf) {
    return agent_create_fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("%s '%s': confidence %.2f is below min_confidence %.2f",
                        key, q->when, w->confidence, min_conf));
  }
  rc = trg_val_set_text(&q->row.v[TC_TRIGGER_TYPE], when_kind_name(w->kind));
  if (w->kind == WHEN_ONCE) {
    trg_val_set_int(&q->row.v[TC_SCHEDULED_AT], w->due_at);
  } else if (w->kind == WHEN_INTERVAL) {
    trg_val_set_int(&q->row.v[TC_INTERVAL_MS], w->interval_ms);
    trg_val_set_int(&q->row.v[TC_START_AT], w->due_at);
  } else if (w->kind == WHEN_RRULE) {
    if (rc == SQLITE_OK) rc = when_rrule_columns(q, w);
  } else {
    if (rc == SQLITE_OK)
      rc = trg_val_set_text(&q->row.v[TC_CRON_EXPRESSION], w->cron);
    if (rc == SQLITE_OK) rc = trg_val_set_text(&q->row.v[TC_TIMEZONE], w->tz);
  }
  if (rc != SQLITE_OK) return rc;
  /* metadata.when = {phrase, confidence, flags, implied} */
  sqlite3_str *j = sqlite3_str_new(q->call.db);
  sqlite3_str_appendall(j, "{\"phrase\":");
  json_str(j, q->when);
  sqlite3_str_appendf(j, ",\"confidence\":%.2f,\"flags\":[", w->confidence);
  for (int i = 0; i < w->n_flags; i++) {
    if (i) sqlite3_str_appendchar(j, 1, ',');
    json_str(j, w->flags[i]);
  }
  sqlite3_str_appendall(j, "],\"implied\":[");
  for (int i = 0; i < w->n_implied; i++) {
    if (i) sqlite3_str_appendchar(j, 1, ',');
    json_str(j, w->implied[i]);
  }
  sqlite3_str_appendall(j, "]}");
  char *when_json = sqlite3_str_finish(j);
  if (!when_json || rc != SQLITE_OK) {
    sqlite3_free(when_json);
    return SQLITE_NOMEM;
  }
  rc = metadata_set(q, "when", when_json);
  sqlite3_free(when_json);
  return rc;
}

/* metadata.user_id is context.user_id (a request's own value replaced):
** what the per-user quotas count. */
static int metadata_user(create_req *q) {
  sqlite3_str *j = sqlite3_str_new(q->call.db);
  json_str(j, q->user);
  char *user_json = sqlite3_str_finish(j);
  int rc = user_json ? metadata_set(q, "user_id", user_json) : SQLITE_NOMEM;
  sqlite3_free(user_json);
  return rc;
}

int agent_create_read_context(create_req *q, const char *json) {
  int rc = read_context_object(q, json);
  if (rc && q->code && !q->dry_run) context_dry_run(q, json);
  return rc;
}

int agent_create_read_request(create_req *q, const char *json) {
  int rc;
  if ((rc = read_request(q, json))) return rc;
  q->id_given = !q->row.v[TC_TRIGGER_ID].null;
  if ((rc = request_metadata(q))) return rc;
  if (q->when && (rc = apply_when(q))) return rc;
  if (q->user && (rc = metadata_user(q))) return rc;
  rc = trg_val_set_text(&q->row.v[TC_CREATED_BY],
                        strcmp(q->role, "agent") == 0 ? "agent" : "user");
  if (rc) return rc;
  trg_val_set_int(&q->row.v[TC_CREATED_AT], q->now);
  return SQLITE_OK;
}
