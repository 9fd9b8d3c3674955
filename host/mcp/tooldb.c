/*
** tooldb.c -- the MCP server's statements (see tooldb.h). Each answer is
** built by json1 from what the extension's functions and tables return,
** so a tool's result is the extension's JSON, not a copy of its rules.
** "Of this agent" is one condition, OWNED, in every statement that names
** a trigger.
*/
#include "mcp/tooldb.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"

/* The trigger ?1 is this agent's (?2) and scope's (?3). */
#define OWNED                                                 \
  "EXISTS (SELECT 1 FROM main.triggers WHERE trigger_id = ?1" \
  " AND agent_id = ?2 AND scope = ?3)"

static const char context_sql[] =
    "SELECT json_object('agent_id', ?1, 'scope', ?2, 'user_id', ?3,"
    " 'role', ?4, 'autonomy_available', json(?5))";

static const char valid_sql[] = "SELECT json_valid(?1)";

static const char create_sql[] = "SELECT trigger_create(?1, ?2)";

static const char find_sql[] =
    "SELECT trigger_find_when(?1, json_extract(?2, '$'), ?3)";

/* ?1 status or NULL, ?2 agent, ?3 scope, ?4 limit. */
#define LISTED                                             \
  " FROM main.triggers WHERE agent_id = ?2 AND scope = ?3" \
  " AND (?1 IS NULL OR status = ?1)"
static const char list_sql[] =
    "SELECT json_object('triggers', (SELECT json_group_array(json(t)) FROM"
    " (SELECT json_object('trigger_id', trigger_id, 'display_name',"
    " display_name, 'instructions', instructions, 'trigger_type',"
    " trigger_type, 'schedule', trigger_describe(trigger_id), 'timezone',"
    " timezone, 'status', status, 'next_due_at', next_due_at,"
    " 'next_due_iso', trigger_iso(next_due_at, timezone), 'wake_mode',"
    " wake_mode, 'run_count', run_count, 'last_run_at', last_run_at,"
    " 'last_status', last_status, 'last_error', last_error) AS t" LISTED
    " ORDER BY next_due_at IS NULL, next_due_at, trigger_id LIMIT ?4)),"
    " 'total', (SELECT count(*)" LISTED "))";

/* ?4 limit. NULL: not the agent's trigger. */
static const char history_sql[] =
    "SELECT CASE WHEN " OWNED " THEN json_object('trigger_id', ?1, 'runs',"
    " (SELECT json_group_array(json(r)) FROM (SELECT json_object('run_id',"
    " run_id, 'scheduled_for', scheduled_for, 'scheduled_for_iso',"
    " trigger_iso(scheduled_for), 'attempt', attempt, 'status', status,"
    " 'claimed_at', claimed_at, 'finished_at', finished_at, 'latency_ms',"
    " latency_ms, 'result', result, 'error', error) AS r"
    " FROM main.trigger_runs WHERE trigger_id = ?1"
    " ORDER BY scheduled_for DESC, attempt DESC LIMIT ?4))) END";

/* ?4 the change. NULL: not the agent's trigger. */
static const char change_sql[] =
    "SELECT CASE WHEN " OWNED " THEN CASE ?4"
    " WHEN 'pause' THEN trigger_pause(?1)"
    " WHEN 'resume' THEN trigger_resume(?1)"
    " WHEN 'cancel' THEN trigger_cancel(?1) END END";

/* ?4 tz, ?5 now. NULL: a trigger_id of another agent or scope. */
static const char describe_sql[] =
    "SELECT CASE WHEN EXISTS (SELECT 1 FROM main.triggers WHERE"
    " trigger_id = ?1 AND (agent_id <> ?2 OR scope <> ?3)) THEN NULL ELSE"
    " json_object('spec', ?1, 'description', trigger_describe(?1, ?4),"
    " 'next', (SELECT json_group_array(due_iso) FROM (SELECT due_iso FROM"
    " trigger_preview(?1, ?5, ?4) LIMIT 3))) END";

/* ?1 the result, ?2 the names to add. */
static const char ignored_sql[] =
    "SELECT json_set(?1, '$.ignored', json((SELECT json_group_array(value)"
    " FROM (SELECT value FROM json_each(?2) UNION ALL"
    " SELECT value FROM json_each(?1, '$.ignored')))))";

static int prepare(tooldb *t, const char *sql, sqlite3_stmt **st, char **err) {
  if (sqlite3_prepare_v3(t->h.db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
                         NULL) == SQLITE_OK)
    return 0;
  *err = xprintf("%s: prepare: %s", t->h.path, sqlite3_errmsg(t->h.db));
  return -1;
}

/* trigger_create's context: the identity of the command line. */
static int make_context(tooldb *t, const host_opts *o, char **err) {
  sqlite3_stmt *st;
  if (prepare(t, context_sql, &st, err)) return -1;
  sqlite3_bind_text(st, 1, o->agent_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, o->scope, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, o->user_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, o->role, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 5, o->no_autonomy ? "false" : "true", -1,
                    SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW)
    t->context = xstrdup((const char *)sqlite3_column_text(st, 0));
  else *err = xprintf("%s: %s", t->h.path, sqlite3_errmsg(t->h.db));
  sqlite3_finalize(st);
  return t->context ? 0 : -1;
}

int tooldb_open(tooldb *t, const host_opts *o, char **err) {
  memset(t, 0, sizeof *t);
  t->agent_id = o->agent_id;
  t->scope = o->scope;
  if (hostdb_open(&t->h, o->dbs[0], o, err) || make_context(t, o, err))
    return -1;
  return prepare(t, valid_sql, &t->st_valid, err) ||
                 prepare(t, create_sql, &t->st_create, err) ||
                 prepare(t, find_sql, &t->st_find, err) ||
                 prepare(t, list_sql, &t->st_list, err) ||
                 prepare(t, history_sql, &t->st_history, err) ||
                 prepare(t, change_sql, &t->st_change, err) ||
                 prepare(t, describe_sql, &t->st_describe, err) ||
                 prepare(t, ignored_sql, &t->st_ignored, err)
             ? -1
             : 0;
}

void tooldb_close(tooldb *t) {
  sqlite3_stmt *all[] = {t->st_valid,    t->st_create,  t->st_find,
                         t->st_list,     t->st_history, t->st_change,
                         t->st_describe, t->st_ignored};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    sqlite3_finalize(all[i]);
  free(t->context);
  hostdb_close(&t->h);
  memset(t, 0, sizeof *t);
}

/* A failed statement as a refusal: an argument the extension refused
** (SQLITE_ERROR and its kin) is the caller's INVALID_REQUEST, anything
** else (busy, I/O, a full disk) the database's DATABASE_ERROR. */
static void refuse_db(tooldb *t, int rc, tool_out *out) {
  const char *msg = sqlite3_errmsg(t->h.db);
  int primary = rc & 0xff;
  int caller = primary == SQLITE_ERROR || primary == SQLITE_CONSTRAINT ||
               primary == SQLITE_MISMATCH || primary == SQLITE_RANGE ||
               primary == SQLITE_TOOBIG;
  if (!caller) log_warn("%s: %s", t->h.path, msg);
  out->code = caller ? "INVALID_REQUEST" : "DATABASE_ERROR";
  out->reason = xstrdup(msg);
}

/* The statement's one value into out: the JSON it built; NULL means that
** the trigger named (id) is not the agent's. The statement is reset. */
static void answer(tooldb *t, sqlite3_stmt *st, const char *id, tool_out *out) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
    out->json = xstrdup((const char *)sqlite3_column_text(st, 0));
  } else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
    out->code = TOOL_NOT_FOUND;
    out->reason = xprintf("no trigger '%s' of agent '%s' in scope '%s'",
                          id ? id : "", t->agent_id, t->scope);
  } else {
    refuse_db(t, rc, out);
  }
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
}

/* ?1 the trigger named, ?2 and ?3 the identity. */
static void bind_owned(tooldb *t, sqlite3_stmt *st, const char *trigger_id) {
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, t->agent_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, t->scope, -1, SQLITE_STATIC);
}

int tooldb_is_json(tooldb *t, const char *s, size_t n, int *valid) {
  sqlite3_bind_text(t->st_valid, 1, s, (int)n, SQLITE_STATIC);
  int rc = sqlite3_step(t->st_valid);
  *valid = rc == SQLITE_ROW && sqlite3_column_int(t->st_valid, 0) == 1;
  if (rc != SQLITE_ROW)
    log_warn("%s: json_valid: %s", t->h.path, sqlite3_errmsg(t->h.db));
  sqlite3_reset(t->st_valid);
  sqlite3_clear_bindings(t->st_valid);
  return rc == SQLITE_ROW ? 0 : -1;
}

void tooldb_create(tooldb *t, const char *request, tool_out *out) {
  sqlite3_bind_text(t->st_create, 1, request, -1, SQLITE_STATIC);
  sqlite3_bind_text(t->st_create, 2, t->context, -1, SQLITE_STATIC);
  answer(t, t->st_create, NULL, out);
}

void tooldb_find_time(tooldb *t, const char *text, const char *now,
                      const char *tz, tool_out *out) {
  sqlite3_bind_text(t->st_find, 1, text, -1, SQLITE_STATIC);
  sqlite3_bind_text(t->st_find, 2, now, -1, SQLITE_STATIC);
  sqlite3_bind_text(t->st_find, 3, tz, -1, SQLITE_STATIC);
  answer(t, t->st_find, NULL, out);
}

void tooldb_list(tooldb *t, const char *status, long long limit,
                 tool_out *out) {
  bind_owned(t, t->st_list, status);
  sqlite3_bind_int64(t->st_list, 4, limit);
  answer(t, t->st_list, NULL, out);
}

void tooldb_history(tooldb *t, const char *trigger_id, long long limit,
                    tool_out *out) {
  bind_owned(t, t->st_history, trigger_id);
  sqlite3_bind_int64(t->st_history, 4, limit);
  answer(t, t->st_history, trigger_id, out);
}

/* One step of a statement that answers nothing (BEGIN, COMMIT). */
static int step_done(sqlite3_stmt *st) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

void tooldb_change(tooldb *t, const char *change, const char *trigger_id,
                   tool_out *out) {
  int rc = step_done(t->h.st_begin); /* the check and the change as one */
  if (rc != SQLITE_OK) {
    refuse_db(t, rc, out);
    return;
  }
  bind_owned(t, t->st_change, trigger_id);
  sqlite3_bind_text(t->st_change, 4, change, -1, SQLITE_STATIC);
  answer(t, t->st_change, trigger_id, out);
  if (out->json && (rc = step_done(t->h.st_commit)) == SQLITE_OK) return;
  if (out->json) { /* the commit failed: nothing was changed */
    free(out->json);
    out->json = NULL;
    refuse_db(t, rc, out);
  }
  if (!sqlite3_get_autocommit(t->h.db)) step_done(t->h.st_rollback);
}

void tooldb_describe(tooldb *t, const char *spec, const char *tz,
                     tool_out *out) {
  bind_owned(t, t->st_describe, spec);
  sqlite3_bind_text(t->st_describe, 4, tz, -1, SQLITE_STATIC);
  sqlite3_bind_int64(t->st_describe, 5, (sqlite3_int64)wall_ms());
  answer(t, t->st_describe, spec, out);
}

void tooldb_add_ignored(tooldb *t, const char *ignored, tool_out *out) {
  sqlite3_bind_text(t->st_ignored, 1, out->json, -1, SQLITE_STATIC);
  sqlite3_bind_text(t->st_ignored, 2, ignored, -1, SQLITE_STATIC);
  tool_out merged = {0};
  answer(t, t->st_ignored, NULL, &merged);
  if (merged.json) {
    free(out->json);
    out->json = merged.json;
  } else {
    free(merged.reason); /* not reached: json_set of an object */
  }
}
