/*
** fn_create.c -- the agent-facing create action (DESIGN.md §7):
** trigger_create(request_json [, context_json]),
** trigger_create_xml(xml [, context_json]) and
** trigger_dedupe_key(instructions, trigger_type, schedule, scope [, tz]).
**
** One path for both forms: the XML is parsed (xml_request.c) into the
** same request as the JSON form. Then, in one transaction:
**   1. request and context must be JSON objects of at most 64 KiB (XML's
**      bound, create_bounds.h)                        -> INVALID_REQUEST
**   2. context.autonomy_available false               -> AUTONOMY_UNAVAILABLE
**   3. context.role not in creator_roles (default user) -> PERMISSION_DENIED
**   4. the row is read and validated like an INSERT  -> INVALID_REQUEST
**      (schedule columns: INVALID_SCHEDULE); a "when" phrase is read by
**      when.c and must reach min_confidence           -> INVALID_SCHEDULE
**      Keys are matched in any spelling (request_field.h); a key that is
**      no field is listed in the result's "ignored", never dropped. The
**      request's metadata may not give a key twice; its own user_id is
**      dropped (listed in "ignored"): the user is the context's.
**   5. policy bounds: each field an agent may set within its
**      max_agent_* / min_agent_backoff_ms key (create_bounds.c)
**                                                     -> INVALID_REQUEST
**      interval (or a cron's shortest gap) within
**      min_interval_ms..max_interval_ms, once instants in the future and
**      at most max_interval_ms ahead                  -> INVALID_SCHEDULE
**   6. an active trigger of the agent with the same dedupe key
**      -> success:true, created:false, existingTriggerId
**   7. period below confirm_below_ms without context.confirmed
**                                                     -> CONFIRMATION_REQUIRED
**   8. max_active_per_scope / max_creations_per_window per (agent, scope);
**      with context.user_id (kept in metadata.user_id) max_active_per_user
**      and max_creations_per_window per (agent, user)
**                                                     -> TRIGGER_QUOTA_EXCEEDED
**      a trigger_id the request names that a trigger (of any agent) has,
**      or another agent's runs carry                  -> INVALID_REQUEST
**   9. the row is written.
** Steps 4-9 are one call of trg_write_insert (trigger/write.h), the path
** of INSERT INTO triggers, with the policy (5, 7, 8) as its hooks: the
** row is validated once, and the code of a refusal comes from the column
** the status names (schedule columns: INVALID_SCHEDULE).
** Failures return the result JSON (never an SQL error) and change nothing
** but the log: every call leaves exactly one event in trigger_events, in
** its transaction (created, duplicate, or rejected with its code and, in
** detail, the reason and a "when" phrase with its confidence, each cut to
** CREATE_EVENT_TEXT_MAX bytes).
** With "dry_run": true in the context every step runs and the result is
** the one the call would give, with "dryRun": true; the transaction is
** rolled back: no trigger, no event.
*/
#include <stdlib.h>
#include <string.h>

#include "agent/create_bounds.h"
#include "agent/request_field.h"
#include "agent/xml_request.h"
#include "base/args.h"
#include "base/json_out.h"
#include "base/register.h"
#include "store/agent.h"
#include "store/config.h"
#include "store/event_rows.h"
#include "store/json.h"
#include "store/kept.h"
#include "store/schema.h"
#include "store/txn.h"
#include "text/dedupe.h"
#include "text/utf8.h"
#include "time/civil.h"
#include "time/when.h"
#include "trigger/write.h"

SQLITE_EXTENSION_INIT3

typedef struct create_req {
  sqlite3 *db;
  trg_ctx *ctx;
  store *st;   /* the statements the call uses: kept, or else own */
  store own;   /* the call's own (prepared per call, closed at its end) */
  store *kept; /* the connection's statements (store/kept.h), or NULL */
  i64 now;
  trg_row row;
  sched_spec spec;
  char *role;
  char *user; /* context.user_id, if any (per-user quotas) */
  char *when; /* the request's "when" phrase (or "when_text"), if any */
  size_t metadata_bytes; /* the request's own metadata (create_bounds.h) */
  int id_given;          /* the request named its trigger_id */
  int when_text;         /* when is a message to find the phrase in (§8) */
  int autonomy, confirmed;
  int dry_run;      /* context.dry_run: every check, nothing written */
  double when_conf; /* the phrase's confidence, once read (when_read) */
  int when_read;
  const char *pre_code; /* refused before the request was read (bad text,
                           XML): the context is read for the event only */
  const char *pre_reason;
  sqlite3_str *ignored; /* names that are no field (request_field.h) */
  /* a CONFIRMATION_REQUIRED refusal waits until no duplicate is found */
  const char *pending_code;
  char *pending_reason;
  /* outcome */
  const char *code;
  char *reason;
  char *trigger_id;
  char *existing;
  int created;
} create_req;

/* Columns a request may not set: they come from the context or policy. */
static int request_may_set(int col) {
  return !trg_cols[col].ro && col != TC_AGENT_ID && col != TC_SCOPE &&
         col != TC_CREATED_BY && col != TC_CREATED_AT;
}

/* A refusal with its reason; no reason (out of memory) is an error. */
static int fail(create_req *q, const char *code, char *reason) {
  if (!reason) return SQLITE_NOMEM;
  q->code = code;
  sqlite3_free(q->reason);
  q->reason = reason;
  return SQLITE_ERROR;
}

/* 1 object, 0 not, or a negative SQLite error code. */
static int json_object_type(create_req *q, const char *json) {
  int ok = json ? store_json_is_object(q->st, json) : 0;
  return ok < 0 ? -store_err(q->st) : ok;
}

/* context.user_id: text (kept for the per-user quotas) or null (none). */
static int read_user(create_req *q, const char *text) {
  sqlite3_free(q->user);
  q->user = text ? sqlite3_mprintf("%s", text) : NULL;
  return text && !q->user ? SQLITE_NOMEM : SQLITE_OK;
}

/* Read the context object: agent_id, scope, user_id, role,
** autonomy_available, confirmed, now. */
static int read_context(create_req *q, const char *json) {
  q->autonomy = 1;
  q->role = sqlite3_mprintf("user");
  q->now = trg_wall_clock_ms();
  if (!q->role || val_set_text(&q->row.v[TC_AGENT_ID], "") ||
      val_set_text(&q->row.v[TC_SCOPE], "")) {
    return SQLITE_NOMEM;
  }
  if (!json) return SQLITE_OK;
  int ob = json_object_type(q, json);
  if (ob < 0) return -ob;
  if (ob != 1) {
    return fail(q, "INVALID_REQUEST",
                sqlite3_mprintf("context must be a JSON object"));
  }
  store_json_each st;
  int rc = store_json_each_open(q->st, json, &st);
  while (rc == SQLITE_OK && (rc = store_json_each_next(&st)) == SQLITE_ROW) {
    const char *k = st.m.key, *type = st.m.type, *text = st.m.text;
    int is_text = strcmp(type, "text") == 0;
    int is_bool = strcmp(type, "true") == 0 || strcmp(type, "false") == 0;
    int truth = strcmp(type, "true") == 0;
    if ((strcmp(k, "agent_id") == 0 || strcmp(k, "scope") == 0) && is_text) {
      rc = val_set_text(&q->row.v[k[0] == 'a' ? TC_AGENT_ID : TC_SCOPE], text);
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
    } else if (strcmp(k, "now") == 0 && !is_bool) {
      char *err;
      if (trg_instant_of(st.m.value, 1, "context.now", &q->now, &err) !=
          SQLITE_OK) {
        store_json_each_close(&st);
        return fail(q, "INVALID_REQUEST", err); /* NULL err: out of memory */
      }
    } else {
      char *why = sqlite3_mprintf("context.%s: unknown key or wrong type "
                                  "(known: agent_id, scope, user_id, role, "
                                  "autonomy_available, confirmed, dry_run, "
                                  "now)",
                                  k);
      store_json_each_close(&st);
      return fail(q, "INVALID_REQUEST", why);
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
  int rc = store_json_each_open(q->st, json, &st);
  while (rc == SQLITE_OK && store_json_each_next(&st) == SQLITE_ROW) {
    if (strcmp(st.m.key, "dry_run") == 0 && strcmp(st.m.type, "true") == 0)
      q->dry_run = 1;
  }
  store_json_each_close(&st);
}

static int role_allowed(create_req *q) {
  char *roles = config_text(q->st, "creator_roles");
  int ok = 0;
  if (roles) {
    size_t n = strlen(q->role);
    for (char *p = roles; *p && !ok;) {
      char *end = strchr(p, ',');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      while (len && *p == ' ') {
        p++;
        len--;
      }
      while (len && p[len - 1] == ' ') len--;
      ok = n && len == n && strncmp(p, q->role, n) == 0;
      p = end ? end + 1 : p + strlen(p);
    }
  }
  sqlite3_free(roles);
  return ok;
}

/* The code of a refusal (rc) about column col: INVALID_SCHEDULE for a
** bad value of a schedule column, INVALID_REQUEST for anything else, a
** missing required field included (NOT NULL: trigger_type too). */
static const char *code_for_column(int rc, int col) {
  if (rc == SQLITE_CONSTRAINT_NOTNULL) return "INVALID_REQUEST";
  switch (col) {
    case TC_TRIGGER_TYPE:
    case TC_INTERVAL_MS:
    case TC_SCHEDULED_AT:
    case TC_CRON_EXPRESSION:
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
         strcmp(t, val_text(&q->row.v[col])) == 0;
}

static int read_request(create_req *q, const char *json) {
  int ob = json_object_type(q, json);
  if (ob < 0) return -ob;
  if (ob != 1) {
    return fail(q, "INVALID_REQUEST",
                sqlite3_mprintf("request must be a JSON object"));
  }
  store_json_each st;
  int rc = store_json_each_open(q->st, json, &st);
  uint64_t seen = 0; /* columns given */
  while (rc == SQLITE_OK && (rc = store_json_each_next(&st)) == SQLITE_ROW) {
    const char *k = st.m.key;
    int col = request_field(k);
    if (col == RF_WHEN || col == RF_WHEN_TEXT) {
      const char *phrase = st.m.text;
      if (sqlite3_value_type(st.m.value) != SQLITE_TEXT) {
        char *why = sqlite3_mprintf("field '%s' must be text", k);
        store_json_each_close(&st); /* k is freed with it */
        return fail(q, "INVALID_REQUEST", why);
      }
      if (q->when) {
        store_json_each_close(&st);
        return fail(q, "INVALID_REQUEST",
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
      if (request_ignore(q->ignored, k)) {
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
      return fail(q, "INVALID_REQUEST", why);
    }
    if (seen & ((uint64_t)1 << col)) {
      char *why = sqlite3_mprintf("field '%s' is given twice (another key "
                                  "also names %s)",
                                  k, trg_cols[col].name);
      store_json_each_close(&st);
      return fail(q, "INVALID_REQUEST", why);
    }
    seen |= (uint64_t)1 << col;
    rc = SQLITE_OK;
    if (!request_may_set(col)) continue; /* the context's value, echoed */
    char *err = NULL;
    int vrc = trg_read_value(col, v, &q->row.v[col], &err);
    if (vrc) {
      store_json_each_close(&st);
      return err ? fail(q, code_for_column(vrc, col), err) : vrc;
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
  int rc = store_json_remove(q->st, m->t, name, &rest);
  if (rc != SQLITE_OK || !rest) return rc;
  *dropped = 1;
  return val_set_owned(m, rest);
}

/* The request's metadata with member `name` set to the JSON text json
** (metadata.when, metadata.user_id): the request's own member of that
** name is replaced. Metadata that is no JSON object is refused as it is
** without a member to set. */
static int metadata_set(create_req *q, const char *name, const char *json) {
  const trg_val *m = &q->row.v[TC_METADATA];
  int dropped;
  if (!m->null) {
    int ob = json_object_type(q, m->t);
    if (ob < 0) return -ob;
    if (!ob) {
      return fail(q, "INVALID_REQUEST",
                  sqlite3_mprintf("triggers.metadata: must be a JSON object"));
    }
  }
  char *metadata = NULL;
  int rc = metadata_drop(q, name, &dropped);
  if (rc == SQLITE_OK)
    rc = store_json_set(q->st, m->null ? NULL : m->t, name, json, &metadata);
  return rc == SQLITE_OK ? val_set_owned(&q->row.v[TC_METADATA], metadata) : rc;
}

/* The request's own metadata: its size (the bounds, create_bounds.h); a
** key given twice refused, since readers disagree on which one counts;
** its user_id dropped and listed in "ignored": the user is the context's
** (metadata_user), never the request's, so the per-user quotas count
** what is stored. Metadata that is no JSON object is left to validation. */
static int request_metadata(create_req *q) {
  const trg_val *m = &q->row.v[TC_METADATA];
  if (m->null) return SQLITE_OK;
  q->metadata_bytes = strlen(m->t);
  int ob = json_object_type(q, m->t);
  if (ob <= 0) return -ob;
  char *dup, buf[TRG_ECHO_MAX];
  int rc = store_json_duplicate_key(q->st, m->t, &dup), dropped;
  if (rc != SQLITE_OK) return rc;
  if (dup) {
    rc = fail(q, "INVALID_REQUEST",
              sqlite3_mprintf("metadata: key '%s' is given twice (readers "
                              "disagree on which one counts)",
                              trg_echo(dup, buf)));
    sqlite3_free(dup);
    return rc;
  }
  rc = metadata_drop(q, "user_id", &dropped);
  if (rc == SQLITE_OK && dropped &&
      request_ignore(q->ignored, "metadata.user_id"))
    rc = SQLITE_NOMEM;
  return rc;
}

/* A "when" phrase (WHEN.md) becomes the schedule columns, when the
** parser's confidence reaches min_confidence; the phrase, confidence,
** flags and implied parts go into metadata.when. */
/* "when_text": the phrase found in the message replaces q->when (so that
** metadata.when keeps the phrase), and the rest of the message becomes the
** instructions when the request gave none. -1 when no phrase was found. */
static int when_find_text(create_req *q, const tz_zone *z, when_found *f) {
  size_t len = strlen(q->when);
  if (when_find(q->when, len, q->now, z, f) != 0) return -1;
  char *phrase =
      sqlite3_mprintf("%.*s", (int)(f->end - f->start), q->when + f->start);
  char *rest = sqlite3_malloc64(len + 1);
  int rc = phrase && rest ? SQLITE_OK : SQLITE_NOMEM;
  if (rc == SQLITE_OK && q->row.v[TC_INSTRUCTIONS].null &&
      when_find_rest(q->when, len, f->start, f->end, rest) > 0)
    rc = val_set_text(&q->row.v[TC_INSTRUCTIONS], rest);
  sqlite3_free(rest);
  if (rc != SQLITE_OK) {
    sqlite3_free(phrase);
    return rc;
  }
  sqlite3_free(q->when);
  q->when = phrase;
  return SQLITE_OK;
}

static int apply_when(create_req *q) {
  static const int sched_cols[] = {TC_TRIGGER_TYPE, TC_INTERVAL_MS,
                                   TC_SCHEDULED_AT, TC_CRON_EXPRESSION};
  for (size_t i = 0; i < sizeof sched_cols / sizeof sched_cols[0]; i++) {
    if (!q->row.v[sched_cols[i]].null) {
      return fail(
          q, "INVALID_REQUEST",
          sqlite3_mprintf("give either \"when\" or a schedule (%s), not both",
                          trg_cols[sched_cols[i]].name));
    }
  }
  const tz_zone *z;
  char msg[200];
  const char *tzname =
      q->row.v[TC_TIMEZONE].null ? "UTC" : q->row.v[TC_TIMEZONE].t;
  if (trg_zone(q->ctx, tzname, &z, msg, sizeof msg) != 0) {
    return fail(q, "INVALID_SCHEDULE",
                sqlite3_mprintf("triggers.timezone: %s", msg));
  }
  when_found f;
  when_result *w = &f.r;
  double min_conf = config_real(q->st, "min_confidence");
  const char *key = q->when_text ? "when_text" : "when";
  int rc = q->when_text                        ? when_find_text(q, z, &f)
           : when_parse(q->when, q->now, z, w) ? -1
                                               : SQLITE_OK;
  q->when_read = 1;
  q->when_conf = rc < 0 ? 0 : w->confidence;
  if (rc < 0) {
    return fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("%s '%s': %s (confidence 0)", key, q->when, w->reason));
  }
  if (rc) return rc;
  if (w->confidence < min_conf) {
    return fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("%s '%s': confidence %.2f is below min_confidence %.2f",
                        key, q->when, w->confidence, min_conf));
  }
  rc = val_set_text(&q->row.v[TC_TRIGGER_TYPE], when_kind_name(w->kind));
  if (w->kind == WHEN_ONCE) {
    val_set_int(&q->row.v[TC_SCHEDULED_AT], w->due_at);
  } else if (w->kind == WHEN_INTERVAL) {
    val_set_int(&q->row.v[TC_INTERVAL_MS], w->interval_ms);
    val_set_int(&q->row.v[TC_START_AT], w->due_at);
  } else {
    if (rc == SQLITE_OK)
      rc = val_set_text(&q->row.v[TC_CRON_EXPRESSION], w->cron);
    if (rc == SQLITE_OK) rc = val_set_text(&q->row.v[TC_TIMEZONE], w->tz);
  }
  /* metadata.when = {phrase, confidence, flags, implied} */
  sqlite3_str *j = sqlite3_str_new(q->db);
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

/* Shortest gap between the next occurrences of a cron schedule (sampled
** over the next 200 occurrences), or -1 when it never fires. */
static i64 cron_shortest_gap(const sched_spec *s, i64 now) {
  i64 prev, next, best = -1;
  if (!sched_next(s, now, &prev)) return -1;
  for (int i = 0; i < 200 && sched_next(s, prev, &next); i++) {
    if (best < 0 || next - prev < best) best = next - prev;
    prev = next;
  }
  return best < 0 ? INT64_MAX : best;
}

static int check_policy(create_req *q) {
  i64 min_iv = config_int(q->st, "min_interval_ms");
  i64 max_iv = config_int(q->st, "max_interval_ms");
  i64 confirm = config_int(q->st, "confirm_below_ms");
  i64 period = INT64_MAX;
  const sched_spec *s = &q->spec;
  char a[CIVIL_ISO_MAX];
  if (s->type == SCHED_INTERVAL) {
    period = s->interval_ms;
  } else if (s->type == SCHED_CRON) {
    period = cron_shortest_gap(s, q->now);
    if (period < 0) {
      return fail(q, "INVALID_SCHEDULE",
                  sqlite3_mprintf("cron_expression '%s' never fires after now",
                                  val_text(&q->row.v[TC_CRON_EXPRESSION])));
    }
  } else { /* SCHED_ONCE */
    civil_format_iso(s->scheduled_at, 0, 1, a);
    if (s->scheduled_at <= q->now) {
      return fail(q, "INVALID_SCHEDULE",
                  sqlite3_mprintf("scheduled_at %s is not in the future", a));
    }
    if (s->scheduled_at - q->now > max_iv) {
      return fail(
          q, "INVALID_SCHEDULE",
          sqlite3_mprintf(
              "scheduled_at %s is further ahead than max_interval_ms %lld", a,
              (long long)max_iv));
    }
  }
  if (period != INT64_MAX && period < min_iv) {
    return fail(q, "INVALID_SCHEDULE",
                sqlite3_mprintf(
                    "%s every %lld ms is more often than min_interval_ms %lld",
                    s->type == SCHED_CRON ? "cron_expression fires"
                                          : "interval_ms: runs",
                    (long long)period, (long long)min_iv));
  }
  if (s->type == SCHED_INTERVAL && period > max_iv) {
    return fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("interval_ms %lld is above max_interval_ms %lld",
                        (long long)period, (long long)max_iv));
  }
  if (period != INT64_MAX && period < confirm && !q->confirmed) {
    return fail(
        q, "CONFIRMATION_REQUIRED",
        sqlite3_mprintf("runs every %lld ms, below confirm_below_ms %lld: "
                        "repeat with context.confirmed = true",
                        (long long)period, (long long)confirm));
  }
  return SQLITE_OK;
}

static int check_quota(create_req *q) {
  i64 max_active = config_int(q->st, "max_active_per_scope");
  i64 max_new = config_int(q->st, "max_creations_per_window");
  i64 window = config_int(q->st, "creation_window_ms");
  i64 active, recent;
  int rc = store_agent_quota(q->st, val_text(&q->row.v[TC_AGENT_ID]),
                             val_text(&q->row.v[TC_SCOPE]), q->now - window,
                             &active, &recent);
  if (rc != SQLITE_OK) return rc;
  if (active >= max_active) {
    return fail(
        q, "TRIGGER_QUOTA_EXCEEDED",
        sqlite3_mprintf(
            "%lld active triggers in this agent and scope (max_active_per_scope %lld)",
            (long long)active, (long long)max_active));
  }
  if (recent >= max_new) {
    return fail(
        q, "TRIGGER_QUOTA_EXCEEDED",
        sqlite3_mprintf(
            "%lld triggers created in the last %lld ms (max_creations_per_window %lld)",
            (long long)recent, (long long)window, (long long)max_new));
  }
  return SQLITE_OK;
}

/* With context.user_id: max_active_per_user active triggers of the user
** in this agent (any scope), and max_creations_per_window created by the
** user within creation_window_ms. */
static int check_user_quota(create_req *q) {
  if (!q->user) return SQLITE_OK;
  i64 max_active = config_int(q->st, "max_active_per_user");
  i64 max_new = config_int(q->st, "max_creations_per_window");
  i64 window = config_int(q->st, "creation_window_ms");
  i64 active, recent;
  int rc = store_agent_user_quota(q->st, val_text(&q->row.v[TC_AGENT_ID]),
                                  q->user, q->now - window, &active, &recent);
  if (rc != SQLITE_OK) return rc;
  if (active >= max_active) {
    return fail(q, "TRIGGER_QUOTA_EXCEEDED",
                sqlite3_mprintf("%lld active triggers of user '%s' in this "
                                "agent (max_active_per_user %lld)",
                                (long long)active, q->user,
                                (long long)max_active));
  }
  if (recent >= max_new) {
    return fail(q, "TRIGGER_QUOTA_EXCEEDED",
                sqlite3_mprintf("%lld triggers created by user '%s' in the "
                                "last %lld ms (max_creations_per_window %lld, "
                                "per user)",
                                (long long)recent, q->user, (long long)window,
                                (long long)max_new));
  }
  return SQLITE_OK;
}

/* Hook after validation (write.h): the policy bounds (step 5) and the
** confirmation (7), which waits until the duplicate check (6) found
** nothing: a duplicate still answers with the existing trigger. */
static int policy_checked(void *arg, const trg_row *r, const sched_spec *spec) {
  create_req *q = arg;
  char *why;
  q->spec = *spec;
  int rc = create_bounds_check(q->st, r, q->metadata_bytes, &why);
  if (rc == SQLITE_ERROR) return fail(q, "INVALID_REQUEST", why);
  if (rc == SQLITE_OK) rc = check_policy(q);
  if (rc && q->code && strcmp(q->code, "CONFIRMATION_REQUIRED") == 0) {
    q->pending_code = q->code;
    q->pending_reason = q->reason;
    q->code = NULL;
    q->reason = NULL;
    return SQLITE_OK;
  }
  return rc;
}

/* A trigger_id the request names must be free: no trigger of any agent
** has it, and no other agent's runs carry it (a deleted trigger's
** history, which the new trigger would sit on). One answer whoever holds
** it, so a create (or a dry run) never tells whose id it is. */
static int check_id_available(create_req *q, const trg_row *r) {
  int held = 0;
  const char *id = val_text(&r->v[TC_TRIGGER_ID]);
  int rc = store_agent_id_held(q->st, id, val_text(&r->v[TC_AGENT_ID]), &held);
  if (rc != SQLITE_OK || !held) return rc;
  char buf[TRG_ECHO_MAX];
  return fail(q, "INVALID_REQUEST",
              sqlite3_mprintf("trigger_id '%s' is not available (a trigger "
                              "has it, or another agent's runs do): leave "
                              "trigger_id out for a generated one",
                              trg_echo(id, buf)));
}

/* Hook before the write: no duplicate, so a waiting confirmation refusal
** stands (7); then the quotas (8) and a trigger_id the request names. */
static int policy_admit(void *arg, const trg_row *r) {
  create_req *q = arg;
  if (q->pending_code) {
    int rc = fail(q, q->pending_code, q->pending_reason);
    q->pending_code = NULL;
    q->pending_reason = NULL;
    return rc;
  }
  int rc = check_quota(q);
  if (rc == SQLITE_OK) rc = check_user_quota(q);
  if (rc == SQLITE_OK && q->id_given) rc = check_id_available(q, r);
  return rc;
}

/* Steps 4-9: one write through the path of INSERT INTO triggers. */
static int write_row(create_req *q) {
  trg_insert_hooks hooks = {policy_checked, policy_admit, q};
  trg_status st = TRG_STATUS_INIT;
  int rc = trg_write_insert(q->ctx, q->st, &q->row, q->now, SQLITE_ABORT,
                            &hooks, &st);
  if (rc == SQLITE_OK) {
    q->created = 1;
    q->trigger_id = sqlite3_mprintf("%s", val_text(&q->row.v[TC_TRIGGER_ID]));
    if (!q->trigger_id) rc = SQLITE_NOMEM;
  } else if (st.existing) { /* 6: success, not created */
    q->existing = st.existing;
    st.existing = NULL;
    rc = SQLITE_OK;
  } else if (st.msg && !q->code) { /* the row: a request or schedule error */
    rc = fail(q, code_for_column(rc, st.col), st.msg);
    st.msg = NULL;
  }
  trg_status_clear(&st);
  return rc;
}

/* metadata.user_id is context.user_id (a request's own value replaced):
** what the per-user quotas count. */
static int metadata_user(create_req *q) {
  sqlite3_str *j = sqlite3_str_new(q->db);
  json_str(j, q->user);
  char *user_json = sqlite3_str_finish(j);
  int rc = user_json ? metadata_set(q, "user_id", user_json) : SQLITE_NOMEM;
  sqlite3_free(user_json);
  return rc;
}

/* Steps 2-9 in one transaction; q->code set on a refusal. */
static int create_in_txn(create_req *q, const char *request,
                         const char *context) {
  int rc = read_context(q, context);
  if (rc && q->code && !q->dry_run) context_dry_run(q, context);
  if (q->pre_code) { /* the context only named the agent, scope, dry run */
    if (rc && !q->code) return rc;
    return fail(q, q->pre_code, sqlite3_mprintf("%s", q->pre_reason));
  }
  if (rc) return rc;
  if (!q->autonomy) {
    return fail(
        q, "AUTONOMY_UNAVAILABLE",
        sqlite3_mprintf(
            "autonomy is not available, so a trigger could not run; nothing was created"));
  }
  if (!role_allowed(q)) {
    char *roles = config_text(q->st, "creator_roles");
    rc = fail(
        q, "PERMISSION_DENIED",
        sqlite3_mprintf("role '%s' may not create triggers (creator_roles: %s)",
                        q->role, roles ? roles : ""));
    sqlite3_free(roles);
    return rc;
  }
  if ((rc = read_request(q, request))) return rc;
  q->id_given = !q->row.v[TC_TRIGGER_ID].null;
  if ((rc = request_metadata(q))) return rc;
  if (q->when && (rc = apply_when(q))) return rc;
  if (q->user && (rc = metadata_user(q))) return rc;
  rc = val_set_text(&q->row.v[TC_CREATED_BY],
                    strcmp(q->role, "agent") == 0 ? "agent" : "user");
  if (rc) return rc;
  val_set_int(&q->row.v[TC_CREATED_AT], q->now);
  return write_row(q);
}

/* Text t as a JSON string of the event's detail: at most
** CREATE_EVENT_TEXT_MAX bytes, cut on a character boundary and ending in
** "..." when longer, so a huge refused input logs a bounded event. */
static void event_text(sqlite3_str *j, const char *t) {
  size_t n = strlen(t);
  char cut[CREATE_EVENT_TEXT_MAX + 1];
  if (n > CREATE_EVENT_TEXT_MAX) {
    int keep = utf8_prefix(t, n, CREATE_EVENT_TEXT_MAX - 3);
    memcpy(cut, t, (size_t)keep);
    memcpy(cut + keep, "...", 4);
    t = cut;
  }
  json_str(j, t);
}

/* The call's one event (DESIGN.md §12): created, duplicate, or rejected
** with its code and, in detail, the reason (and a "when" phrase with its
** confidence: a low-confidence candidate is logged, never dropped); each
** text of a rejected one bounded (event_text; a trigger_id longer than
** that is left out). */
static int write_event(create_req *q) {
  const trg_val *id = &q->row.v[TC_TRIGGER_ID];
  store_event e = {q->now,
                   val_text(&q->row.v[TC_AGENT_ID]),
                   val_text(&q->row.v[TC_SCOPE]),
                   NULL,
                   "created",
                   NULL,
                   NULL};
  char *detail = NULL;
  if (q->code) {
    e.kind = "rejected";
    e.code = q->code;
    e.trigger_id =
        id->null || strlen(id->t) > CREATE_EVENT_TEXT_MAX ? NULL : id->t;
    sqlite3_str *j = sqlite3_str_new(NULL);
    sqlite3_str_appendall(j, "{\"reason\":");
    event_text(j, q->reason); /* a refusal has its reason (fail()) */
    if (q->when) {
      sqlite3_str_appendall(j, ",\"phrase\":");
      event_text(j, q->when);
    }
    if (q->when_read)
      sqlite3_str_appendf(j, ",\"confidence\":%.2f", q->when_conf);
    sqlite3_str_appendchar(j, 1, '}');
    if (!(detail = sqlite3_str_finish(j))) return SQLITE_NOMEM;
    size_t n = strlen(detail);
    if (!utf8_check(detail, n, NULL)) { /* a parser's message echoing bytes */
      char *ok = sqlite3_malloc64(utf8_repair(detail, n, NULL) + 1);
      if (!ok) {
        sqlite3_free(detail);
        return SQLITE_NOMEM;
      }
      ok[utf8_repair(detail, n, ok)] = 0;
      sqlite3_free(detail);
      detail = ok;
    }
    e.detail = detail;
  } else if (q->existing) {
    e.kind = "duplicate";
    e.trigger_id = q->existing;
  } else {
    e.trigger_id = q->trigger_id;
  }
  int rc = store_event_append(q->st, &e);
  sqlite3_free(detail);
  return rc;
}

/* The action result as JSON text, or NULL when out of memory. */
static char *result_text(create_req *q) {
  sqlite3_str *s = sqlite3_str_new(q->db);
  int ok = q->code == NULL;
  sqlite3_str_appendf(
      s, "{\"actionName\":\"CREATE_TASK\",\"success\":%s,\"created\":%s",
      ok ? "true" : "false", q->created ? "true" : "false");
  if (q->trigger_id) {
    sqlite3_str_appendall(s, ",\"triggerId\":");
    json_str(s, q->trigger_id);
  }
  if (q->existing) {
    sqlite3_str_appendall(s, ",\"existingTriggerId\":");
    json_str(s, q->existing);
  }
  if (ok && !q->row.v[TC_DEDUPE_KEY].null) {
    sqlite3_str_appendall(s, ",\"dedupeKey\":");
    json_str(s, q->row.v[TC_DEDUPE_KEY].t);
  }
  if (!ok) {
    sqlite3_str_appendall(s, ",\"error\":");
    json_str(s, q->code);
    sqlite3_str_appendall(s, ",\"reason\":");
    json_str(s, q->reason);
  }
  if (sqlite3_str_length(q->ignored)) {
    sqlite3_str_appendf(s, ",\"ignored\":[%s]", sqlite3_str_value(q->ignored));
  }
  if (q->dry_run) sqlite3_str_appendall(s, ",\"dryRun\":true");
  sqlite3_str_appendchar(s, 1, '}');
  if (sqlite3_str_errcode(s) != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(s));
    return NULL;
  }
  return sqlite3_str_finish(s);
}

static void early_refusal(sqlite3_context *ctx, const char *code,
                          const char *reason);

/* One create: request (or, with pre_code, a refusal found before it was
** read) and context in one transaction that ends with the call's event;
** a dry run's is rolled back instead (nothing written, no event). */
static void run_create(sqlite3_context *ctx, const char *request,
                       const char *context, const char *pre_code,
                       const char *pre_reason) {
  create_req q;
  memset(&q, 0, sizeof q);
  q.db = sqlite3_context_db_handle(ctx);
  q.ctx = sqlite3_user_data(ctx);
  q.pre_code = pre_code;
  q.pre_reason = pre_reason;
  row_init(&q.row);
  store_init(&q.own, q.db);
  q.st = &q.own;
  if (pre_code && !trg_ctx_has_table(q.ctx)) {
    /* refused before anything is read: without the tables, no log */
    char *err = NULL;
    int found = store_installed(q.db, &err);
    sqlite3_free(err);
    if (found == 0) {
      early_refusal(ctx, pre_code, pre_reason);
      return;
    }
  }
  if (store_require_installed(ctx, "trigger_create") != 0) return;
  q.ignored = sqlite3_str_new(NULL);
  if ((q.kept = store_kept_take(q.ctx, q.db))) q.st = q.kept;
  store_txn txn;
  char *json = NULL;
  int rc = q.kept ? store_txn_begin_cached(q.kept, &txn)
                  : store_txn_begin(q.db, &txn);
  if (rc == SQLITE_OK) {
    rc = create_in_txn(&q, request, context);
    if ((rc == SQLITE_OK || q.code) && !q.dry_run && !q.st->err) {
      int erc = write_event(&q); /* a refusal is kept: it is committed */
      if (erc != SQLITE_OK) {
        rc = erc;
        q.code = NULL;
      }
    }
    /* before COMMIT no statement may stay active */
    if (q.kept) store_reset_all(q.kept);
    else store_close(&q.own);
    if (q.st->err) { /* a setting could not be read: an error, not a refusal */
      rc = q.st->err;
      q.code = NULL;
    }
    if (rc == SQLITE_OK || q.code) {
      /* The answer is built before COMMIT: after it nothing may fail. */
      if (q.code) q.created = 0;
      if (!(json = result_text(&q))) {
        rc = SQLITE_NOMEM;
        q.code = NULL;
      }
    }
    int answer = rc == SQLITE_OK || q.code; /* else an error */
    rc = store_txn_end(q.db, &txn,
                       !answer     ? rc
                       : q.dry_run ? SQLITE_ABORT /* rolled back: nothing */
                                   : SQLITE_OK);
    if (answer && q.dry_run) rc = SQLITE_OK;
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(json);
    if (rc == SQLITE_NOMEM) {
      sqlite3_result_error_nomem(ctx);
    } else {
      trg_result_error(ctx, rc, "trigger_create", "%s",
                       store_txn_errmsg(&txn, q.db));
    }
  } else {
    sqlite3_result_text(ctx, json, -1, sqlite3_free);
  }
  if (q.kept) store_kept_give(q.ctx, q.kept);
  store_close(&q.own);
  row_clear(&q.row);
  sqlite3_free(q.role);
  sqlite3_free(q.user);
  sqlite3_free(q.when);
  sqlite3_free(q.reason);
  sqlite3_free(q.pending_reason);
  sqlite3_free(q.trigger_id);
  sqlite3_free(q.existing);
  sqlite3_free(sqlite3_str_finish(q.ignored));
}

static const char *opt_text(sqlite3_value **argv, int argc, int pos) {
  if (pos >= argc || sqlite3_value_type(argv[pos]) == SQLITE_NULL) return NULL;
  return (const char *)sqlite3_value_text(argv[pos]);
}

/* A refusal before any work, in a database without the extension's
** tables (nowhere to log it): the result JSON with a code and reason. */
static void early_refusal(sqlite3_context *ctx, const char *code,
                          const char *reason) {
  sqlite3_str *s = sqlite3_str_new(sqlite3_context_db_handle(ctx));
  sqlite3_str_appendall(s, "{\"actionName\":\"CREATE_TASK\",\"success\":false,"
                           "\"created\":false,\"error\":");
  json_str(s, code);
  sqlite3_str_appendall(s, ",\"reason\":");
  json_str(s, reason);
  sqlite3_str_appendchar(s, 1, '}');
  trg_result_str(ctx, s);
}

/* The context argument when it is valid text within the size bound
** (else NULL): a refusal found before the request was read still logs its
** agent and scope. */
static const char *good_context(int argc, sqlite3_value **argv) {
  const char *t = NULL;
  char *err = NULL;
  if (argc < 2 || sqlite3_value_type(argv[1]) == SQLITE_NULL ||
      sqlite3_value_bytes(argv[1]) > CREATE_INPUT_MAX_BYTES ||
      trg_value_text(argv[1], 1, "context", &t, &err) != SQLITE_OK)
    t = NULL;
  sqlite3_free(err);
  return t;
}

/* A refusal before the request was read: answered and logged as any. */
static void refused(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                    const char *code, const char *reason) {
  run_create(ctx, NULL, good_context(argc, argv), code, reason);
}

/* The JSON text at argv[pos] (absent or NULL: fine) must be at most
** CREATE_INPUT_MAX_BYTES long (XML's bound), and valid UTF-8 without NUL,
** its escapes included (utf8.h); otherwise the refusal names the member,
** e.g. "request.instructions: the escape \udc80 at byte 17 is a lone
** surrogate". 0 fine, -1 answered. */
static int refuse_bad_text(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                           int pos, const char *what) {
  if (pos >= argc || sqlite3_value_type(argv[pos]) == SQLITE_NULL) return 0;
  const char *t;
  char *err;
  int len = sqlite3_value_bytes(argv[pos]);
  int rc = len > CREATE_INPUT_MAX_BYTES
               ? trg_errf(&err, "%s is %d bytes, more than the %d allowed",
                          what, len, CREATE_INPUT_MAX_BYTES)
               : trg_value_text(argv[pos], 1, what, &t, &err);
  if (rc == SQLITE_OK) return 0;
  if (err) refused(ctx, argc, argv, "INVALID_REQUEST", err);
  else sqlite3_result_error_nomem(ctx);
  sqlite3_free(err);
  return -1;
}

static void fn_create(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
    refused(ctx, argc, argv, "INVALID_REQUEST", "request must be JSON text");
    return;
  }
  if (refuse_bad_text(ctx, argc, argv, 0, "request") ||
      refuse_bad_text(ctx, argc, argv, 1, "context")) {
    return;
  }
  run_create(ctx, (const char *)sqlite3_value_text(argv[0]),
             opt_text(argv, argc, 1), NULL, NULL);
}

static void fn_create_xml(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  int t = sqlite3_value_type(argv[0]);
  if (t != SQLITE_TEXT && t != SQLITE_BLOB) {
    refused(ctx, argc, argv, "INVALID_REQUEST", "xml must be text");
    return;
  }
  if (refuse_bad_text(ctx, argc, argv, 1, "context")) return;
  const char *xml = t == SQLITE_TEXT
                        ? (const char *)sqlite3_value_text(argv[0])
                        : (const char *)sqlite3_value_blob(argv[0]);
  size_t len = (size_t)sqlite3_value_bytes(argv[0]);
  xml_request r;
  const char *code = NULL;
  char err[300];
  if (xml_request_parse(xml ? xml : "", len, &r, &code, err, sizeof err) != 0) {
    refused(ctx, argc, argv, code, err);
    return;
  }
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendchar(s, 1, '{');
  for (int i = 0; i < r.n; i++) {
    if (i) sqlite3_str_appendchar(s, 1, ',');
    json_str(s, r.item[i].key);
    sqlite3_str_appendchar(s, 1, ':');
    if (r.item[i].is_number) sqlite3_str_appendall(s, r.item[i].value);
    else json_str(s, r.item[i].value); /* NULL: null, an ignored element */
  }
  sqlite3_str_appendchar(s, 1, '}');
  xml_request_free(&r);
  char *json = sqlite3_str_finish(s);
  if (!json) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  run_create(ctx, json, opt_text(argv, argc, 1), NULL, NULL);
  sqlite3_free(json);
}

static void fn_dedupe_key(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  const char *fname = "trigger_dedupe_key";
  const char *instructions = arg_text(ctx, fname, argv, 0, "instructions");
  const char *type =
      instructions ? arg_text(ctx, fname, argv, 1, "trigger_type") : NULL;
  if (!type) return;
  const char *scope = "";
  if (sqlite3_value_type(argv[3]) != SQLITE_NULL &&
      !(scope = arg_text(ctx, fname, argv, 3, "scope"))) {
    return;
  }
  char canon[CRON_CANON_MAX];
  sched_type st = sched_type_parse(type);
  if (st == SCHED_CRON) {
    const char *expr = arg_text(ctx, fname, argv, 2, "schedule");
    cron_expr c;
    char msg[CRON_ERR_MAX];
    if (!expr) return;
    if (cron_parse(expr, &c, msg, sizeof msg) != 0) {
      trg_result_error(ctx, SQLITE_ERROR, fname, "argument 3 (schedule): %s",
                       msg);
      return;
    }
    cron_canonical(&c, canon, sizeof canon);
  } else if (st == SCHED_INTERVAL || st == SCHED_ONCE) {
    i64 v;
    int vt = sqlite3_value_type(argv[2]);
    int isint = st == SCHED_INTERVAL ? trg_int_of(argv[2], &v) : 0;
    if (isint < 0) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    if (st == SCHED_INTERVAL && !isint && vt != SQLITE_NULL) {
      /* "60000" as text is the same interval */
      const char *z = vt == SQLITE_TEXT
                          ? arg_text(ctx, fname, argv, 2, "schedule")
                          : (const char *)sqlite3_value_text(argv[2]);
      if (vt == SQLITE_TEXT && !z) return; /* not UTF-8: reported */
      char buf[TRG_ECHO_MAX];
      trg_result_error(ctx, SQLITE_ERROR, fname,
                       "argument 3 (schedule): '%s' is not an integer number "
                       "of milliseconds",
                       z ? trg_echo(z, buf) : "");
      return;
    } else if (!isint &&
               arg_instant(ctx, fname, argc, argv, 2, "schedule", 0, &v) != 0) {
      return;
    }
    sqlite3_snprintf(sizeof canon, canon, "%lld", (long long)v);
  } else {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "argument 2 (trigger_type): '%s' "
                     "is not one of 'interval', 'once', 'cron'",
                     type);
    return;
  }
  const tz_zone *z;
  const char *tz; /* a cron's zone, canonical ('asia/tokyo': Asia/Tokyo) */
  if (arg_zone(ctx, fname, argc, argv, 4, "UTC", &z, &tz) != 0) return;
  char key[DEDUPE_KEY_LEN + 1];
  dedupe_key(instructions, sched_type_name(st), canon, tz, scope, key);
  sqlite3_result_text(ctx, key, -1, SQLITE_TRANSIENT);
}

int create_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_create", 1, 2, TRG_FN_SIDE, fn_create},
      {"trigger_create_xml", 1, 2, TRG_FN_SIDE, fn_create_xml},
      {"trigger_dedupe_key", 4, 5, TRG_FN_PURE | SQLITE_DETERMINISTIC,
       fn_dedupe_key},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
