/*
** tools.c -- the MCP server's tools (see tools.h). A tool is a row of
** the table below: what tools/list says of it, the arguments it reads,
** and its call, one function of tooldb.h. Everything a call answers,
** refusals included, is a JSON object: the structured content, and as
** text the same JSON (what a client without structured content shows).
*/
#include "mcp/tools.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/out.h"
#include "core/util.h"
#include "text/spelling.h"

#define ARGS_MAX 3
#define LIST_LIMIT_DEFAULT 50
#define LIST_LIMIT_MAX 500
#define HISTORY_LIMIT_DEFAULT 20
#define HISTORY_LIMIT_MAX 500

/* One call: its arguments by the tool's order, what a create passes on,
** what was set aside, and the answer. */
typedef struct call {
  tooldb *t;
  json_span arg[ARGS_MAX]; /* p NULL: not given */
  sqlite3_str *request;    /* create_trigger: the members passed on */
  sqlite3_str *ignored;    /* names set aside: a JSON array */
  tool_out out;
} call;

typedef struct tool {
  const char *name, *title, *description;
  const char *schema;             /* inputSchema, a JSON object */
  const char *annotations;        /* the hints, a JSON object */
  const char *args[ARGS_MAX + 1]; /* what it reads, NULL-ended */
  int passes_request; /* 1: the other members are the create's request */
  void (*run)(call *c);
} tool;

/* The keys that are the command line's to set, never a model's. */
static const char *const identity_keys[] = {"agent_id", "scope", "user_id",
                                            "role", NULL};

static void refuse(call *c, const char *code, char *reason) {
  c->out.code = code;
  c->out.reason = reason;
}

/* Argument i as text (*s malloc'ed, NULL when not given): 0, or -1 with
** the refusal. */
static int text_arg(call *c, const char *name, int i, int required, char **s) {
  *s = NULL;
  if (!c->arg[i].p) {
    if (!required) return 0;
    refuse(c, "INVALID_REQUEST", xprintf("%s is required (a string)", name));
    return -1;
  }
  if ((*s = json_string(c->arg[i]))) return 0;
  refuse(c, "INVALID_REQUEST", xprintf("%s must be a string", name));
  return -1;
}

/* Argument i as an integer lo..hi, def when not given: 0, or -1 with the
** refusal. */
static int int_arg(call *c, const char *name, int i, long long def,
                   long long lo, long long hi, long long *v) {
  *v = def;
  if (!c->arg[i].p) return 0;
  if (json_int64(c->arg[i], v) == 0 && *v >= lo && *v <= hi) return 0;
  refuse(c, "INVALID_REQUEST",
         xprintf("%s must be an integer from %lld to %lld", name, lo, hi));
  return -1;
}

static void run_create(call *c) {
  char *request = out_finish(c->request);
  c->request = NULL;
  tooldb_create(c->t, request ? request : "{}", &c->out);
  sqlite3_free(request);
}

static void run_find_time(call *c) {
  char *text, *tz = NULL, *now = NULL;
  if (text_arg(c, "text", 0, 1, &text) || text_arg(c, "tz", 2, 0, &tz)) {
    free(text);
    return;
  }
  json_span n = c->arg[1]; /* ms or ISO text: json1 reads the token */
  if (n.p && n.p[0] != '"' && n.p[0] != '-' && (n.p[0] < '0' || n.p[0] > '9'))
    refuse(c, "INVALID_REQUEST",
           xstrdup("now must be an ISO-8601 string or Unix milliseconds"));
  else if (n.p) now = xprintf("%.*s", (int)n.n, n.p);
  if (!c->out.code) tooldb_find_time(c->t, text, now, tz, &c->out);
  free(text);
  free(tz);
  free(now);
}

static void run_list(call *c) {
  char *status;
  long long limit;
  if (text_arg(c, "status", 0, 0, &status) == 0 &&
      int_arg(c, "limit", 1, LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX, &limit) ==
          0)
    tooldb_list(c->t, status, limit, &c->out);
  free(status);
}

static void run_history(call *c) {
  char *id;
  long long limit;
  if (text_arg(c, "trigger_id", 0, 1, &id) == 0 &&
      int_arg(c, "limit", 1, HISTORY_LIMIT_DEFAULT, 1, HISTORY_LIMIT_MAX,
              &limit) == 0)
    tooldb_history(c->t, id, limit, &c->out);
  free(id);
}

static void run_change(call *c, const char *change) {
  char *id;
  if (text_arg(c, "trigger_id", 0, 1, &id) == 0)
    tooldb_change(c->t, change, id, &c->out);
  free(id);
}

static void run_pause(call *c) { run_change(c, "pause"); }
static void run_resume(call *c) { run_change(c, "resume"); }
static void run_cancel(call *c) { run_change(c, "cancel"); }

static void run_describe(call *c) {
  char *spec, *tz = NULL;
  if (text_arg(c, "spec", 0, 1, &spec) == 0 &&
      text_arg(c, "tz", 1, 0, &tz) == 0)
    tooldb_describe(c->t, spec, tz, &c->out);
  free(spec);
  free(tz);
}

/* The input schemas' pieces. */
#define ID_SCHEMA                                                           \
  "{\"type\":\"object\",\"properties\":{\"trigger_id\":{\"type\":"          \
  "\"string\",\"description\":\"One of your triggers (list_triggers).\"}}," \
  "\"required\":[\"trigger_id\"]}"
#define INSTANT "{\"type\":[\"string\",\"integer\"],\"description\":"
#define READ_ONLY "{\"readOnlyHint\":true}"
#define CHANGES "{\"destructiveHint\":false,\"idempotentHint\":true}"

static const tool tools[] = {
    {"create_trigger",
     "Schedule a task",
     "Schedule work for yourself: a reminder or a recurring task that wakes "
     "you with its instructions when it is due. Give the schedule as "
     "`when`, an English phrase (\"tomorrow at 9am\", \"every weekday at "
     "7:30\", \"in 2 hours\"), or as trigger_type with interval_ms, "
     "scheduled_at or cron_expression; or `when_text`, the person's whole "
     "message, whose time is the schedule and whose rest the instructions. "
     "Put the person's message in source_text so that the time it names is "
     "checked against the schedule. The same task asked again is the same "
     "trigger (created false, existingTriggerId). Echo scheduleText back to "
     "the person. A refusal is an error result with error (INVALID_REQUEST, "
     "INVALID_SCHEDULE, TRIGGER_QUOTA_EXCEEDED, PERMISSION_DENIED, "
     "AUTONOMY_UNAVAILABLE, CONFIRMATION_REQUIRED) and reason.",
     "{\"type\":\"object\",\"properties\":{"
     "\"instructions\":{\"type\":\"string\",\"description\":\"What to do when "
     "it fires, as a task for you.\"},"
     "\"when\":{\"type\":\"string\",\"description\":\"The schedule as an "
     "English phrase, in place of trigger_type and its fields.\"},"
     "\"when_text\":{\"type\":\"string\",\"description\":\"A whole message: "
     "its time phrase is the schedule, the rest the instructions.\"},"
     "\"source_text\":{\"type\":\"string\",\"description\":\"The person's "
     "message that asked for this.\"},"
     "\"trigger_type\":{\"type\":\"string\",\"enum\":[\"interval\",\"once\","
     "\"cron\"]},"
     "\"interval_ms\":{\"type\":\"integer\",\"description\":\"interval: "
     "milliseconds between runs.\"},"
     "\"scheduled_at\":" INSTANT "\"once: ISO-8601 or Unix ms.\"},"
     "\"cron_expression\":{\"type\":\"string\",\"description\":\"cron: 5 or "
     "6 fields.\"},"
     "\"timezone\":{\"type\":\"string\",\"description\":\"IANA zone of the "
     "schedule (default UTC).\"},"
     "\"display_name\":{\"type\":\"string\"},"
     "\"start_at\":" INSTANT "\"No run before it.\"},"
     "\"end_at\":" INSTANT "\"No run after it.\"},"
     "\"max_runs\":{\"type\":\"integer\",\"description\":\"Completed after "
     "that many runs.\"},"
     "\"wake_mode\":{\"type\":\"string\",\"enum\":[\"inject_now\","
     "\"next_autonomy_cycle\"]},"
     "\"metadata\":{\"type\":\"object\"}}}",
     "{\"destructiveHint\":false,\"idempotentHint\":true}",
     {NULL},
     1,
     run_create},
    {"find_time",
     "Find the time in a message",
     "The time a message names, without creating anything (\"remind me "
     "tomorrow at 9am to call Anna\": tomorrow 09:00, rest \"call Anna\"): "
     "the phrase, the instant or schedule, and a confidence (0 with a reason "
     "when it is vague, past or not understood: ask the person then). now "
     "and tz default to the current time and UTC.",
     "{\"type\":\"object\",\"properties\":{"
     "\"text\":{\"type\":\"string\",\"description\":\"The message.\"},"
     "\"now\":" INSTANT "\"The instant it is read at (ISO-8601 or Unix "
     "ms).\"},"
     "\"tz\":{\"type\":\"string\",\"description\":\"The person's IANA "
     "zone.\"}},\"required\":[\"text\"]}",
     READ_ONLY,
     {"text", "now", "tz", NULL},
     0,
     run_find_time},
    {"list_triggers",
     "List your triggers",
     "Your triggers, soonest due first: each with its schedule in words, "
     "status, next due time and last run; total is how many there are.",
     "{\"type\":\"object\",\"properties\":{"
     "\"status\":{\"type\":\"string\",\"enum\":[\"scheduled\",\"paused\","
     "\"completed\",\"cancelled\",\"expired\"]},"
     "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":500,"
     "\"description\":\"At most this many (default 50).\"}}}",
     READ_ONLY,
     {"status", "limit", NULL},
     0,
     run_list},
    {"trigger_history",
     "A trigger's runs",
     "The latest runs of one of your triggers, newest first: when each was "
     "due, its attempt, status, result or error.",
     "{\"type\":\"object\",\"properties\":{\"trigger_id\":{\"type\":"
     "\"string\"},\"limit\":{\"type\":\"integer\",\"minimum\":1,"
     "\"maximum\":500,\"description\":\"At most this many (default "
     "20).\"}},\"required\":[\"trigger_id\"]}",
     READ_ONLY,
     {"trigger_id", "limit", NULL},
     0,
     run_history},
    {"pause_trigger",
     "Pause a trigger",
     "Pause one of your triggers: it does not run until it is resumed.",
     ID_SCHEMA,
     CHANGES,
     {"trigger_id", NULL},
     0,
     run_pause},
    {"resume_trigger",
     "Resume a trigger",
     "Resume one of your paused triggers: it runs next at its first "
     "occurrence after now (the ones missed while paused are not run).",
     ID_SCHEMA,
     CHANGES,
     {"trigger_id", NULL},
     0,
     run_resume},
    {"cancel_trigger",
     "Cancel a trigger",
     "Cancel one of your triggers for good: it never runs again (its "
     "history is kept).",
     ID_SCHEMA,
     "{\"destructiveHint\":true,\"idempotentHint\":true}",
     {"trigger_id", NULL},
     0,
     run_cancel},
    {"describe_schedule",
     "Describe a schedule",
     "A schedule in plain English with its next 3 occurrences: a cron "
     "expression (\"0 9 * * MON-FRI\"), a JSON spec "
     "({\"interval_ms\":3600000}) or one of your trigger ids.",
     "{\"type\":\"object\",\"properties\":{"
     "\"spec\":{\"type\":\"string\"},"
     "\"tz\":{\"type\":\"string\",\"description\":\"IANA zone (default "
     "UTC).\"}},\"required\":[\"spec\"]}",
     READ_ONLY,
     {"spec", "tz", NULL},
     0,
     run_describe},
};

#define NTOOLS (sizeof tools / sizeof tools[0])

void tools_list(sqlite3_str *b) {
  out_json_open(b, NULL, '{');
  out_json_open(b, "tools", '[');
  for (size_t i = 0; i < NTOOLS; i++) {
    const tool *tl = &tools[i];
    out_json_open(b, NULL, '{');
    out_json_str(b, "name", tl->name);
    out_json_str(b, "title", tl->title);
    out_json_str(b, "description", tl->description);
    out_json_raw(b, "inputSchema", tl->schema, strlen(tl->schema));
    out_json_raw(b, "annotations", tl->annotations, strlen(tl->annotations));
    out_json_close(b, '}');
  }
  out_json_close(b, ']');
  out_json_close(b, '}');
}

/* The index of the tool's argument named key (in any spelling), or -1. */
static int arg_index(const tool *tl, const char *key) {
  for (int i = 0; tl->args[i]; i++)
    if (spelling_same(key, tl->args[i])) return i;
  return -1;
}

/* Each member of args to its place: an argument of the tool, the
** create's request, or set aside (its key listed in c->ignored). */
static void sort_members(const tool *tl, json_span args, call *c) {
  json_iter it;
  json_span key, val;
  int found = 1;
  json_iter_init(&it, args);
  while (json_next_member(&it, &key, &val, &found) == 0 && found) {
    char *name = json_string(key);
    int identity = name && spelling_find(name, identity_keys) >= 0;
    int i = name && !identity ? arg_index(tl, name) : -1;
    if (i >= 0) {
      c->arg[i] = val;
    } else if (name && !identity && tl->passes_request) {
      out_json_raw(c->request, NULL, key.p, key.n);
      sqlite3_str_appendchar(c->request, 1, ':');
      sqlite3_str_append(c->request, val.p, (int)val.n);
    } else {
      out_json_str(c->ignored, NULL, name ? name : "");
    }
    free(name);
  }
}

/* 1 when the answer says "success": false (a refused create). */
static int says_failed(const char *json) {
  json_iter it;
  json_span key, val;
  int found = 1;
  json_iter_init(&it, (json_span){json, strlen(json)});
  while (json_next_member(&it, &key, &val, &found) == 0 && found)
    if (json_key_is(key, "success"))
      return val.n == 5 && !memcmp(val.p, "false", 5);
  return 0;
}

/* A refusal as the answer's object: {"success":false,"error","reason"}. */
static char *refusal_json(const tool_out *o) {
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_open(b, NULL, '{');
  sqlite3_str_appendall(b, "\"success\":false");
  out_json_str(b, "error", o->code);
  out_json_str(b, "reason", o->reason);
  out_json_close(b, '}');
  char *s = out_finish(b);
  char *copy = xstrdup(s);
  sqlite3_free(s);
  return copy;
}

/* CallToolResult: the answer as text and as structured content. */
static char *call_result(const char *json, int is_error) {
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_open(b, NULL, '{');
  out_json_open(b, "content", '[');
  out_json_open(b, NULL, '{');
  out_json_str(b, "type", "text");
  out_json_str(b, "text", json);
  out_json_close(b, '}');
  out_json_close(b, ']');
  out_json_raw(b, "structuredContent", json, strlen(json));
  sqlite3_str_appendall(b,
                        is_error ? ",\"isError\":true" : ",\"isError\":false");
  out_json_close(b, '}');
  return out_finish(b);
}

int tools_call(tooldb *t, const char *name, json_span args, char **result) {
  const tool *tl = NULL;
  for (size_t i = 0; i < NTOOLS && !tl; i++)
    if (strcmp(tools[i].name, name) == 0) tl = &tools[i];
  if (!tl) return -1;
  if (args.p && args.p[0] != '{') return -2;
  call c = {.t = t};
  c.ignored = sqlite3_str_new(NULL);
  out_json_open(c.ignored, NULL, '[');
  if (tl->passes_request) {
    c.request = sqlite3_str_new(NULL);
    out_json_open(c.request, NULL, '{');
  }
  if (args.p) sort_members(tl, args, &c);
  if (c.request) out_json_close(c.request, '}');
  tl->run(&c);
  if (c.request) sqlite3_free(out_finish(c.request)); /* a refusal's */
  if (c.out.code) c.out.json = refusal_json(&c.out);
  int is_error = c.out.code || says_failed(c.out.json);
  out_json_close(c.ignored, ']');
  char *ignored = out_finish(c.ignored);
  if (strcmp(ignored, "[]") != 0) tooldb_add_ignored(t, ignored, &c.out);
  sqlite3_free(ignored);
  log_debug("mcp: tools/call %s: %s", name,
            c.out.code ? c.out.code
            : is_error ? "refused"
                       : "ok");
  *result = call_result(c.out.json, is_error);
  free(c.out.json);
  free(c.out.reason);
  return 0;
}
