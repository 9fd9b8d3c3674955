/*
** mcp.c -- the MCP server's loop and its methods (see mcp.h). A line is
** checked by json1 first (a parse error is answered, the server goes
** on), then its envelope read (rpc.h) and its method answered. A
** notification is never answered. Requests are served one at a time, in
** order: each is one statement of a few milliseconds.
*/
#include "mcp/mcp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/out.h"
#include "core/sig.h"
#include "core/util.h"
#include "mcp/frame.h"
#include "mcp/rpc.h"
#include "mcp/tooldb.h"
#include "mcp/tools.h"

/* The protocol versions served, newest first: those of the official
** SDKs. A client asking another is answered with the newest (it may then
** disconnect), as the SDKs' servers do. */
static const char *const versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                       "2024-11-05", "2024-10-07", NULL};

static const char instructions[] =
    "Schedule your own future work: create_trigger with a `when` phrase "
    "(\"tomorrow at 9am\", \"every weekday at 7:30\") and instructions. "
    "When a trigger fires, its instructions come back to you as a task. "
    "Triggers are durable and deduplicated, and the operator's policy "
    "decides what you may create.";

/* The member name of the object span obj: p NULL when there is none. */
static json_span member_span(json_span obj, const char *name) {
  json_iter it;
  json_span key, val, none = {NULL, 0};
  int found = 1;
  json_iter_init(&it, obj);
  while (json_next_member(&it, &key, &val, &found) == 0 && found)
    if (json_key_is(key, name)) return val;
  return none;
}

/* The string member name of obj (malloc'ed), or NULL. */
static char *member_text(json_span obj, const char *name) {
  json_span v = member_span(obj, name);
  return v.p ? json_string(v) : NULL;
}

static char *initialize(const rpc_msg *m) {
  char *asked = m->params.p ? member_text(m->params, "protocolVersion") : NULL;
  const char *version = versions[0];
  for (int i = 0; asked && versions[i]; i++)
    if (strcmp(asked, versions[i]) == 0) version = versions[i];
  log_debug("mcp: initialize: protocol %s (asked %s)", version,
            asked ? asked : "none");
  free(asked);
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_open(b, NULL, '{');
  out_json_str(b, "protocolVersion", version);
  out_json_open(b, "capabilities", '{');
  out_json_open(b, "tools", '{');
  sqlite3_str_appendall(b, "\"listChanged\":false");
  out_json_close(b, '}');
  out_json_close(b, '}');
  out_json_open(b, "serverInfo", '{');
  out_json_str(b, "name", "trigger-host");
  out_json_str(b, "title", "sqlite-triggers");
  out_json_str(b, "version", TRIGGERS_VERSION);
  out_json_close(b, '}');
  out_json_str(b, "instructions", instructions);
  out_json_close(b, '}');
  char *result = out_finish(b);
  char *answer = rpc_result(m->id, result, strlen(result));
  sqlite3_free(result);
  return answer;
}

static char *list_tools(const rpc_msg *m) {
  sqlite3_str *b = sqlite3_str_new(NULL);
  tools_list(b);
  char *result = out_finish(b);
  char *answer = rpc_result(m->id, result, strlen(result));
  sqlite3_free(result);
  return answer;
}

static char *call_tool(tooldb *t, const rpc_msg *m) {
  char *name = m->params.p ? member_text(m->params, "name") : NULL;
  if (!name)
    return rpc_error(m->id, RPC_INVALID_PARAMS,
                     "tools/call: params.name (a string) is required");
  json_span args = member_span(m->params, "arguments");
  char *result = NULL, *answer;
  int rc = tools_call(t, name, args, &result);
  if (rc == 0) {
    answer = rpc_result(m->id, result, strlen(result));
  } else {
    char *why = rc == -1 ? xprintf("Unknown tool: %s (see tools/list)", name)
                         : xstrdup("tools/call: arguments must be an object");
    answer = rpc_error(m->id, RPC_INVALID_PARAMS, why);
    free(why);
  }
  sqlite3_free(result);
  free(name);
  return answer;
}

/* A request's answer by its method. */
static char *dispatch(tooldb *t, const rpc_msg *m) {
  const char *method = m->method;
  if (strcmp(method, "initialize") == 0) return initialize(m);
  if (strcmp(method, "ping") == 0) return rpc_result(m->id, "{}", 2);
  if (strcmp(method, "tools/list") == 0) return list_tools(m);
  if (strcmp(method, "tools/call") == 0) return call_tool(t, m);
  char *why = xprintf("Method not found: %s", method);
  char *answer = rpc_error(m->id, RPC_METHOD_NOT_FOUND, why);
  free(why);
  return answer;
}

static char *overlong(const frame_line *l) {
  char *why = xprintf("message of %zu bytes refused: a message (one line) "
                      "is at most %d bytes",
                      l->total, FRAME_LINE_MAX);
  log_warn("mcp: %s", why);
  char *answer = rpc_error(rpc_overlong_id(l), RPC_INVALID_REQUEST, why);
  free(why);
  return answer;
}

/* The answer to one line (sqlite3_free), or NULL when it gets none. */
static char *answer_line(tooldb *t, const frame_line *l) {
  json_span none = {NULL, 0}, line = {l->p, l->n};
  if (l->too_long) return overlong(l);
  size_t i = 0;
  while (i < l->n && strchr(" \t\r", l->p[i])) i++;
  if (i == l->n) return NULL; /* a blank line: nothing */
  int valid = 0;
  if (!memchr(l->p, 0, l->n) && tooldb_is_json(t, l->p, l->n, &valid) != 0)
    return rpc_error(none, RPC_INTERNAL_ERROR,
                     "Internal error: the database failed");
  if (!valid) {
    log_warn("mcp: a line that is not JSON: parse error answered");
    return rpc_error(none, RPC_PARSE_ERROR, "Parse error: not a JSON text");
  }
  rpc_msg m;
  const char *why = NULL;
  char *answer = NULL;
  if (rpc_read(line, &m, &why) != 0) {
    if (m.has_id || !m.method) { /* a notification is never answered */
      char *msg = xprintf("Invalid Request: %s", why);
      answer = rpc_error(m.id, RPC_INVALID_REQUEST, msg);
      free(msg);
    }
  } else if (m.method && m.id.p) {
    answer = dispatch(t, &m);
  } else {
    log_debug("mcp: %s %s", m.method ? "notification" : "response",
              m.method ? m.method : "ignored");
  }
  rpc_msg_free(&m);
  return answer;
}

int mcp_main(const host_opts *o) {
  if (sig_init() != 0) {
    log_fatal("cannot set up signal handling");
    return 3;
  }
  tooldb t;
  char *err = NULL;
  if (tooldb_open(&t, o, &err) != 0) {
    log_fatal("%s", err ? err : "cannot open the database");
    free(err);
    tooldb_close(&t);
    return 3;
  }
  log_debug("mcp: serving %s for agent '%s', scope '%s', role %s", o->dbs[0],
            o->agent_id, o->scope, o->role);
  frame_in *in = frame_in_new(STDIN_FILENO);
  int rc = 0;
  for (;;) {
    frame_line l;
    int r = frame_read(in, &l);
    if (r == 1) break;
    if (r < 0) {
      log_fatal("mcp: reading stdin: %s", strerror(errno));
      rc = 3;
      break;
    }
    char *answer = answer_line(&t, &l);
    int gone = answer && frame_write(answer, strlen(answer)) != 0;
    sqlite3_free(answer);
    if (gone) {
      log_warn("mcp: stdout is closed: the client is gone");
      break;
    }
  }
  log_debug("mcp: end (%s)", sig_stop_count() ? "signal" : "end of input");
  frame_in_free(in);
  tooldb_close(&t);
  return rc;
}
