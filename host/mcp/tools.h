/*
** tools.h -- the eight tools of the MCP server (docs/mcp.md#tools): their
** names, descriptions and input schemas (tools/list), and a call
** (tools/call): its arguments read, the identity's keys a model may have
** put there (agent_id, scope, user_id, role, in any spelling) and the
** keys a tool does not know set aside and listed in the result's
** "ignored", then one statement of tooldb.h. A refusal is a result with
** isError and the code, never a protocol error.
*/
#ifndef HOST_TOOLS_H
#define HOST_TOOLS_H

#include <sqlite3.h>

#include "db/json.h"
#include "mcp/tooldb.h"

/* tools/list's result: {"tools":[...]} appended to b. */
void tools_list(sqlite3_str *b);

/* tools/call of the tool name with args (an object span, or p NULL:
** none): 0 with *result, the CallToolResult JSON (content, structuredContent,
** isError; sqlite3_free); -1 when no tool has that name, -2 when args
** is not an object (both JSON-RPC's invalid params). */
int tools_call(tooldb *t, const char *name, json_span args, char **result);

#endif
