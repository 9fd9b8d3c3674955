/*
** fn_create.c -- the agent-facing create action (docs/create-action.md):
** trigger_create(request_json [, context_json]),
** trigger_create_xml(xml [, context_json]); the key of a duplicate is
** trigger_dedupe_key's (sql/fn_dedupe.c).
**
** One path for both forms: the XML is parsed (xml_request.c) into the
** same request as the JSON form. Then, in one transaction (the request
** and context read by create_request.c, the policy create_policy.c's):
**   1. request and context must be JSON objects of at most 64 KiB (XML's
**      bound, create_policy.h)                        -> INVALID_REQUEST
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
**      max_agent_* / min_agent_backoff_ms key (create_policy.c)
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
** Steps 4-9 are one call of trigger_write_insert (trigger/write.h), the path
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

#include "agent/create_policy.h"
#include "agent/time_claim.h"
#include "agent/xml_request.h"
#include "base/args.h"
#include "base/json_out.h"
#include "base/register.h"
#include "store/event_rows.h"
#include "store/schema.h"
#include "store/trigger_rows.h"
#include "text/utf8.h"

SQLITE_EXTENSION_INIT3

/* The status of the duplicate found (q->existing): "existingStatus", so
** the agent knows whether it will run (a paused one will not). */
static int existing_status(create_req *q) {
  trg_row old;
  trg_row_init(&old);
  int rc = store_trigger_load(q->call.st, q->existing, &old);
  if (rc == SQLITE_ROW) {
    q->existing_status = sqlite3_mprintf("%s", trg_val_text(&old.v[TC_STATUS]));
    rc = q->existing_status ? SQLITE_OK : SQLITE_NOMEM;
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK; /* cannot happen: found in this transaction */
  }
  trg_row_clear(&old);
  return rc;
}

/* Steps 4-9: one write through the path of INSERT INTO triggers. */
static int write_row(create_req *q) {
  trigger_insert_hooks hooks = agent_create_policy_hooks(q);
  trigger_status st = TRIGGER_STATUS_INIT;
  int rc = trigger_write_insert(q->call.ctx, q->call.st, &q->row, q->now,
                                SQLITE_ABORT, &hooks, &st);
  if (rc == SQLITE_OK) {
    q->created = 1;
    q->trigger_id =
        sqlite3_mprintf("%s", trg_val_text(&q->row.v[TC_TRIGGER_ID]));
    if (!q->trigger_id) rc = SQLITE_NOMEM;
  } else if (st.existing) { /* 6: success, not created */
    q->existing = st.existing;
    st.existing = NULL;
    rc = existing_status(q);
  } else if (st.msg && !q->code) { /* the row: a request or schedule error */
    rc = agent_create_fail(q, agent_create_code_for_column(rc, st.col), st.msg);
    st.msg = NULL;
  }
  /* a success says what it means: "scheduleText" (time_claim.h) */
  if (rc == SQLITE_OK &&
      !(q->schedule_text = agent_schedule_text(&q->spec, q->now)))
    rc = SQLITE_NOMEM;
  trigger_status_clear(&st);
  return rc;
}

/* Steps 2-9 in one transaction; q->code set on a refusal. */
static int create_in_txn(create_req *q, const char *request,
                         const char *context) {
  int rc = agent_create_read_context(q, context);
  if (q->pre_code) { /* the context only named the agent, scope, dry run */
    if (rc && !q->code) return rc;
    return agent_create_fail(q, q->pre_code,
                             sqlite3_mprintf("%s", q->pre_reason));
  }
  if (rc || (rc = agent_create_policy_allows(q))) return rc;
  if ((rc = agent_create_read_request(q, request))) return rc;
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

/* The call's one event (docs/create-action.md#the-event-of-each-call):
** created, duplicate, or rejected with its code and, in detail, the reason
** (and a "when" phrase with its confidence: a low-confidence candidate is
** logged, never dropped); each text of a rejected one bounded (event_text;
** a trigger_id longer than that is left out). */
static int write_event(create_req *q) {
  const trg_val *id = &q->row.v[TC_TRIGGER_ID];
  store_event e = {q->now,
                   trg_val_text(&q->row.v[TC_AGENT_ID]),
                   trg_val_text(&q->row.v[TC_SCOPE]),
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
    event_text(j,
               q->reason); /* a refusal has its reason (agent_create_fail()) */
    if (q->when) {
      sqlite3_str_appendall(j, ",\"phrase\":");
      event_text(j, q->when);
    }
    if (q->when_read)
      sqlite3_str_appendf(j, ",\"confidence\":%.2f", q->when_conf);
    if (!q->row.v[TC_DEDUPE_KEY].null) { /* what a confirmation repeats */
      sqlite3_str_appendall(j, ",\"dedupe_key\":");
      json_str(j, q->row.v[TC_DEDUPE_KEY].t);
    }
    if (q->claim_phrase) { /* a time-claim refusal keeps both times */
      sqlite3_str_appendall(j, ",\"message_phrase\":");
      event_text(j, q->claim_phrase);
      sqlite3_str_appendall(j, ",\"message_says\":");
      event_text(j, q->claim_said);
      sqlite3_str_appendall(j, ",\"request_says\":");
      event_text(j, q->claim_asked);
    }
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
  } else {
    /* created or duplicate: the dedupe key (a confirmation awaited with
    ** it is answered, summary.h) and the user (the per-user creation
    ** rate counts the created ones) */
    e.kind = q->existing ? "duplicate" : "created";
    e.trigger_id = q->existing ? q->existing : q->trigger_id;
    sqlite3_str *j = sqlite3_str_new(NULL);
    sqlite3_str_appendall(j, "{\"dedupe_key\":");
    json_str(j, trg_val_text(&q->row.v[TC_DEDUPE_KEY]));
    if (q->user) {
      sqlite3_str_appendall(j, ",\"user_id\":");
      json_str(j, q->user);
    }
    sqlite3_str_appendchar(j, 1, '}');
    if (!(detail = sqlite3_str_finish(j))) return SQLITE_NOMEM;
    e.detail = detail;
  }
  int rc = store_event_append(q->call.st, &e);
  sqlite3_free(detail);
  return rc;
}

/* The action result as JSON text, or NULL with *err: SQLITE_NOMEM, or
** SQLITE_TOOBIG past the connection's SQLITE_LIMIT_LENGTH. */
static char *result_text(create_req *q, int *err) {
  sqlite3_str *s = sqlite3_str_new(q->call.db);
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
  if (q->existing_status) {
    sqlite3_str_appendall(s, ",\"existingStatus\":");
    json_str(s, q->existing_status);
  }
  if (ok && !q->row.v[TC_DEDUPE_KEY].null) {
    sqlite3_str_appendall(s, ",\"dedupeKey\":");
    json_str(s, q->row.v[TC_DEDUPE_KEY].t);
  }
  if (ok && q->schedule_text) {
    sqlite3_str_appendall(s, ",\"scheduleText\":");
    json_str(s, q->schedule_text);
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
  if ((*err = sqlite3_str_errcode(s)) != SQLITE_OK) {
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
  if (pre_code && !trg_ctx_has_table(sqlite3_user_data(ctx))) {
    /* refused before anything is read: without the tables, no log */
    char *err = NULL;
    int found;
    int rc = store_installed(sqlite3_context_db_handle(ctx), &found, &err);
    sqlite3_free(err);
    if (rc == SQLITE_OK && !found) {
      early_refusal(ctx, pre_code, pre_reason);
      return;
    }
  }
  create_req q;
  memset(&q, 0, sizeof q);
  q.pre_code = pre_code;
  q.pre_reason = pre_reason;
  trg_row_init(&q.row);
  if (store_call_begin(&q.call, ctx, "trigger_create") != 0) {
    store_call_end(&q.call);
    return;
  }
  q.ignored = sqlite3_str_new(NULL);
  store_call_take(&q.call);
  store_txn txn;
  char *json = NULL;
  int rc = store_call_txn_begin(&q.call, &txn);
  if (rc == SQLITE_OK) {
    rc = create_in_txn(&q, request, context);
    if ((rc == SQLITE_OK || q.code) && !q.dry_run && !q.call.st->err) {
      int erc = write_event(&q); /* a refusal is kept: it is committed */
      if (erc != SQLITE_OK) {
        rc = erc;
        q.code = NULL;
      }
    }
    store_call_stmts_done(&q.call); /* none active before COMMIT */
    if (q.call.st
            ->err) { /* a setting could not be read: an error, not a refusal */
      rc = q.call.st->err;
      q.code = NULL;
    }
    if (rc == SQLITE_OK || q.code) {
      /* The answer is built before COMMIT: after it nothing may fail. */
      if (q.code) q.created = 0;
      if (!(json = result_text(&q, &rc))) q.code = NULL;
    }
    int answer = rc == SQLITE_OK || q.code; /* else an error */
    rc = store_txn_end(q.call.db, &txn,
                       !answer     ? rc
                       : q.dry_run ? SQLITE_ABORT /* rolled back: nothing */
                                   : SQLITE_OK);
    if (answer && q.dry_run) rc = SQLITE_OK;
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(json);
    if (rc == SQLITE_NOMEM) {
      sqlite3_result_error_nomem(ctx);
    } else if (rc == SQLITE_TOOBIG) {
      sqlite3_result_error_toobig(ctx);
    } else {
      trg_result_error(ctx, rc, "trigger_create", "%s",
                       store_txn_errmsg(&txn, q.call.db));
    }
  } else {
    sqlite3_result_text(ctx, json, -1, sqlite3_free);
  }
  store_call_end(&q.call);
  trg_row_clear(&q.row);
  sqlite3_free(q.role);
  sqlite3_free(q.user);
  sqlite3_free(q.when);
  sqlite3_free(q.reason);
  sqlite3_free(q.pending_reason);
  sqlite3_free(q.trigger_id);
  sqlite3_free(q.existing);
  sqlite3_free(q.existing_status);
  sqlite3_free(q.schedule_text);
  sqlite3_free(q.source);
  sqlite3_free(q.claim_phrase);
  sqlite3_free(q.claim_said);
  sqlite3_free(q.claim_asked);
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
  int rc =
      agent_xml_request_parse(xml ? xml : "", len, &r, &code, err, sizeof err);
  if (rc == -2) { /* no libxml2: this call fails, nothing is recorded */
    char *msg = sqlite3_mprintf("trigger_create_xml: %s", err);
    sqlite3_result_error(ctx, msg ? msg : err, -1);
    sqlite3_free(msg);
    return;
  }
  if (rc != 0) {
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
  agent_xml_request_free(&r);
  char *json = sqlite3_str_finish(s);
  if (!json) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  run_create(ctx, json, opt_text(argv, argc, 1), NULL, NULL);
  sqlite3_free(json);
}

int agent_fn_create_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_create", 1, 2, TRG_FN_SIDE, fn_create},
      {"trigger_create_xml", 1, 2, TRG_FN_SIDE, fn_create_xml},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
