/*
** rpc.h -- JSON-RPC 2.0 as MCP frames it: a message's envelope (jsonrpc,
** id, method, params) read with the host's scanner (db/json.h) from a
** line that json1 has found to be JSON, and each answer (a result or an
** error) written as one line. The id of a message too long to read is
** looked for where it was kept (frame.h). No tree is built: params stay
** a span of the line for the method to read.
*/
#ifndef HOST_RPC_H
#define HOST_RPC_H

#include "db/json.h"
#include "mcp/frame.h"

/* JSON-RPC's error codes. */
enum {
  RPC_PARSE_ERROR = -32700,
  RPC_INVALID_REQUEST = -32600,
  RPC_METHOD_NOT_FOUND = -32601,
  RPC_INVALID_PARAMS = -32602,
  RPC_INTERNAL_ERROR = -32603
};

typedef struct rpc_msg {
  json_span id;     /* the id as written (a string or a number); p NULL:
                       none (a notification, or not known) */
  int has_id;       /* an id member was there, even one not allowed (so
                       not a notification) */
  char *method;     /* decoded; NULL: none (a client's response) */
  json_span params; /* p NULL: none */
} rpc_msg;

/* The envelope of line, a JSON text. 0 with *m (a request, a notification
** or a response of the client: m->method NULL); -1 when it is not a
** JSON-RPC 2.0 message, with *why (static) and m->id when it was read. */
int rpc_read(json_span line, rpc_msg *m, const char **why);
void rpc_msg_free(rpc_msg *m);

/* The id of an overlong line from what it kept: a member of its head
** before the cut, or a last member `"id": V` as clients write it (the
** official SDKs put id last). p NULL: not found. */
json_span rpc_overlong_id(const frame_line *l);

/* An answer's line (sqlite3_free): the result (a JSON text), or an error
** with its code and message. An id with p NULL is written null. */
char *rpc_result(json_span id, const char *result, size_t n);
char *rpc_error(json_span id, int code, const char *message);

#endif
