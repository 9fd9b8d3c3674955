/*
** tooldb.h -- the MCP server's database: its connection, opened as the
** loop's is (db/hostdb.h: the extension loaded, the schema installed),
** and every SQL text of the server, each tool one call of the
** extension's functions (docs/mcp.md#tools). The identity the tools act
** for is the command line's (core/opts.h), fixed when it is opened: a
** statement reads or changes only triggers of that agent and scope, and
** a trigger of another is answered as one that does not exist.
*/
#ifndef HOST_TOOLDB_H
#define HOST_TOOLDB_H

#include <sqlite3.h>
#include <stddef.h>

#include "core/opts.h"
#include "db/hostdb.h"

typedef struct tooldb {
  hostdb h;
  const char *agent_id, *scope;
  char *context; /* trigger_create's context JSON */
  sqlite3_stmt *st_valid, *st_create, *st_find, *st_list, *st_history,
      *st_change, *st_describe, *st_ignored;
} tooldb;

/* What a tool answers: json, a JSON object (free()), or a refusal: code
** (static) and reason (free()). */
typedef struct tool_out {
  char *json;
  const char *code;
  char *reason;
} tool_out;

/* The trigger_id named is not one of this agent's and scope's triggers. */
#define TOOL_NOT_FOUND "TRIGGER_NOT_FOUND"

/* Open o's database for o's identity. 0, or -1 and *err (free()). */
int tooldb_open(tooldb *t, const host_opts *o, char **err);
void tooldb_close(tooldb *t);

/* Whether s[0..n) is one JSON text (json1's json_valid). 0, or -1 (the
** database failed: logged). */
int tooldb_is_json(tooldb *t, const char *s, size_t n, int *valid);

/* trigger_create(request, the identity's context). */
void tooldb_create(tooldb *t, const char *request, tool_out *out);
/* trigger_find_when(text, now, tz); now the JSON token of an instant
** (ms or ISO text) or NULL, tz NULL for UTC. */
void tooldb_find_time(tooldb *t, const char *text, const char *now,
                      const char *tz, tool_out *out);
/* The agent's triggers (status NULL: any), at most limit, soonest due
** first, and how many there are. */
void tooldb_list(tooldb *t, const char *status, long long limit, tool_out *out);
/* The latest runs (at most limit) of one of the agent's triggers. */
void tooldb_history(tooldb *t, const char *trigger_id, long long limit,
                    tool_out *out);
/* trigger_pause, trigger_resume or trigger_cancel (change "pause",
** "resume" or "cancel") of one of the agent's triggers, in one
** transaction with the check that it is the agent's. */
void tooldb_change(tooldb *t, const char *change, const char *trigger_id,
                   tool_out *out);
/* trigger_describe(spec, tz) and the next 3 occurrences after now; spec
** may name one of the agent's triggers. */
void tooldb_describe(tooldb *t, const char *spec, const char *tz,
                     tool_out *out);
/* out->json with the names in ignored (a JSON array) added to its
** "ignored" array, before those it had. */
void tooldb_add_ignored(tooldb *t, const char *ignored, tool_out *out);

#endif
