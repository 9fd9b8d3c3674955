/*
** rpc.c -- the JSON-RPC envelope and answers (see rpc.h).
*/
#include "mcp/rpc.h"

#include <stdlib.h>
#include <string.h>

#include "core/out.h"

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* An id JSON-RPC allows a request: a string or a number. */
static int id_allowed(json_span v) {
  if (!v.n) return 0;
  char c = v.p[0];
  return c == '"' || c == '-' || (c >= '0' && c <= '9');
}

/* What the members say; *why when one is not what JSON-RPC allows. */
static int read_members(json_iter *it, rpc_msg *m, const char **why) {
  int found = 1, version = 0, answer = 0;
  json_span key, val;
  while (json_next_member(it, &key, &val, &found) == 0 && found) {
    if (json_key_is(key, "jsonrpc")) {
      char *v = json_string(val);
      version = v && strcmp(v, "2.0") == 0;
      free(v);
    } else if (json_key_is(key, "id")) {
      m->has_id = 1;
      if (!id_allowed(val)) *why = "id must be a string or a number";
      else m->id = val;
    } else if (json_key_is(key, "method")) {
      free(m->method);
      if (!(m->method = json_string(val))) *why = "method must be a string";
    } else if (json_key_is(key, "params")) {
      if (val.p[0] != '{') *why = "params must be an object";
      m->params = val;
    } else if (json_key_is(key, "result") || json_key_is(key, "error")) {
      answer = 1;
    }
  }
  if (found) *why = "malformed message"; /* json1 said JSON: not reached */
  if (!*why && !version) *why = "jsonrpc must be \"2.0\"";
  if (!*why && !m->method && !answer) *why = "no method";
  return *why ? -1 : 0;
}

int rpc_read(json_span line, rpc_msg *m, const char **why) {
  memset(m, 0, sizeof *m);
  *why = NULL;
  size_t i = 0;
  while (i < line.n && is_space(line.p[i])) i++;
  if (i == line.n || line.p[i] != '{') {
    *why = i < line.n && line.p[i] == '['
               ? "a batch (JSON array) is not supported: send one message "
                 "per line"
               : "a message must be a JSON object";
    return -1;
  }
  json_iter it;
  json_iter_init(&it, line);
  return read_members(&it, m, why);
}

void rpc_msg_free(rpc_msg *m) {
  free(m->method);
  m->method = NULL;
}

/* The id among the members of the head, whole before the cut. */
static json_span head_id(const frame_line *l) {
  json_iter it;
  json_span key, val, none = {NULL, 0};
  int found = 1;
  json_iter_init(&it, (json_span){l->p, l->n});
  while (json_next_member(&it, &key, &val, &found) == 0 && found) {
    if (val.p + val.n >= l->p + l->n) break; /* may go on past the cut */
    if (json_key_is(key, "id")) return id_allowed(val) ? val : none;
  }
  return none;
}

/* t[0..k) with its trailing white space left out: the new k. */
static size_t trim_end(const char *t, size_t k) {
  while (k && is_space(t[k - 1])) k--;
  return k;
}

/* t[q] is a quote that starts or ends a string: not escaped (an even
** number of backslashes before it). */
static int quote_at(const char *t, size_t q) {
  size_t bs = 0;
  while (bs < q && t[q - 1 - bs] == '\\') bs++;
  return t[q] == '"' && bs % 2 == 0;
}

static int number_byte(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
         c == 'e' || c == 'E';
}

/* A last member `"id": V}` at the end of the tail: V, a number or a
** string. The `}` that ends the text closes the message itself, so the
** member before it is one of the message's own. */
static json_span tail_id(const frame_line *l) {
  const char *t = l->tail;
  json_span none = {NULL, 0};
  size_t k = trim_end(t, l->ntail);
  if (!k || t[k - 1] != '}') return none;
  size_t end = k = trim_end(t, k - 1);
  if (k >= 2 && quote_at(t, k - 1)) { /* a string: back to its opening */
    for (k -= 2; k > 0 && !quote_at(t, k); k--) {
    }
    if (!quote_at(t, k)) return none;
  } else {
    while (k && number_byte(t[k - 1])) k--;
  }
  json_span v = {t + k, end - k};
  size_t c = trim_end(t, k);
  if (!v.n || !c || t[c - 1] != ':') return none;
  c = trim_end(t, c - 1);
  if (c < 5 || memcmp(t + c - 4, "\"id\"", 4) != 0 || !quote_at(t, c - 4))
    return none;
  c = trim_end(t, c - 4);
  if (!c || (t[c - 1] != ',' && t[c - 1] != '{')) return none;
  return id_allowed(v) ? v : none;
}

json_span rpc_overlong_id(const frame_line *l) {
  json_span id = head_id(l);
  return id.p ? id : tail_id(l);
}

/* {"jsonrpc":"2.0","id":ID, then the answer's member. An id not known
** is left out, as MCP's schema writes JSON-RPC's null id (the SDKs
** refuse null). */
static sqlite3_str *answer_begin(json_span id) {
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_open(b, NULL, '{');
  out_json_str(b, "jsonrpc", "2.0");
  if (id.p) out_json_raw(b, "id", id.p, id.n);
  return b;
}

char *rpc_result(json_span id, const char *result, size_t n) {
  sqlite3_str *b = answer_begin(id);
  out_json_raw(b, "result", result, n);
  out_json_close(b, '}');
  return out_finish(b);
}

char *rpc_error(json_span id, int code, const char *message) {
  sqlite3_str *b = answer_begin(id);
  out_json_open(b, "error", '{');
  out_json_int(b, "code", code);
  out_json_str(b, "message", message);
  out_json_close(b, '}');
  out_json_close(b, '}');
  return out_finish(b);
}
