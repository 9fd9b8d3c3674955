/*
** http.c -- the status server's glue to libmicrohttpd (see http.h): the
** daemon's options, the request checks (method, URI length, path) and the
** three routes. The daemon's thread starts with the loop's signals
** blocked, so SIGTERM, SIGINT and SIGCHLD always reach the loop's thread.
*/
#include "http/http.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/stats.h"
#include "core/trigger_stats.h"
#include "core/util.h"
#include "http/actions.h"
#include "http/calendar.h"
#include "http/detail.h"
#include "http/http_addr.h"
#include "http/http_guard.h"
#include "http/metrics.h"
#include "http/mhd.h"
#include "http/page.h"
#include "http/readdb.h"
#include "text/utf8.h"

struct http_server {
  struct MHD_Daemon *daemon;
  http_guard *guard; /* the deadline of slow requests (http_guard.h) */
  readdb *dbs;
  int ndbs;
  const host_opts *o;
  long long start_ms;
  actions *act; /* --http-token-file: the POST actions, else NULL */
};

static const mhd_api *mhd; /* loaded by http_start (mhd.h) */

static const char csp[] =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/* The methods answered (set once at start: POST with actions). */
static const char *allow = "GET, HEAD";

/* Queue a response of body (freed with `release`, or static when NULL). */
static enum MHD_Result respond(struct MHD_Connection *c, unsigned status,
                               const char *type, char *body, size_t len,
                               void (*release)(void *)) {
  struct MHD_Response *r =
      release ? mhd->response_with_free(len, body, release)
              : mhd->response_from_buffer(len, body, MHD_RESPMEM_PERSISTENT);
  if (!r) {
    if (release) release(body);
    return MHD_NO;
  }
  mhd->add_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
  mhd->add_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  mhd->add_header(r, "X-Content-Type-Options", "nosniff");
  if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
    mhd->add_header(r, MHD_HTTP_HEADER_ALLOW, allow);
  if (strncmp(type, "text/html", 9) == 0) {
    mhd->add_header(r, "Content-Security-Policy", csp);
    mhd->add_header(r, "X-Frame-Options", "DENY");
    mhd->add_header(r, "Referrer-Policy", "no-referrer");
  }
  enum MHD_Result ok = mhd->queue_response(c, status, r);
  mhd->destroy_response(r);
  return ok;
}

static enum MHD_Result plain(struct MHD_Connection *c, unsigned status,
                             const char *text) {
  return respond(c, status, "text/plain; charset=utf-8", (char *)text,
                 strlen(text), NULL);
}

/* ---- /health --------------------------------------------------------- */

/* json_quote(text) appended (SQLite's JSON, no escaping by hand). */
static void append_quoted(sqlite3_str *s, readdb *r, const char *text) {
  sqlite3_stmt *st = readdb_stmt(r, RQ_QUOTE);
  sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
  char *err = NULL;
  char *q = readdb_text(r, st, &err);
  sqlite3_str_appendall(s, q ? q : "\"?\"");
  free(q);
  free(err);
}

/* One database's trigger_health object, or {"error": ...}; 0 when read. */
static int append_health(sqlite3_str *s, readdb *r, long long now) {
  char *err = NULL, *json = NULL;
  if (readdb_begin(r) == 0) json = readdb_health(r, now, &err);
  else err = xprintf("%s", readdb_errmsg(r));
  readdb_end(r);
  if (json) sqlite3_str_appendall(s, json);
  else {
    sqlite3_str_appendall(s, "{\"error\":");
    append_quoted(s, r, err ? err : "cannot read the database");
    sqlite3_str_appendall(s, "}");
    log_warn("/health: %s: %s", r->path, err ? err : "?");
  }
  free(json);
  free(err);
  return json ? 0 : -1;
}

static enum MHD_Result health(http_server *srv, struct MHD_Connection *c,
                              long long now) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  int failed = 0;
  if (srv->ndbs == 1) {
    failed |= append_health(s, &srv->dbs[0], now);
  } else {
    for (int i = 0; i < srv->ndbs; i++) {
      sqlite3_str_appendall(s, i ? "," : "{");
      append_quoted(s, &srv->dbs[i], srv->dbs[i].path);
      sqlite3_str_appendall(s, ":");
      failed |= append_health(s, &srv->dbs[i], now);
    }
    sqlite3_str_appendall(s, "}");
  }
  sqlite3_str_appendall(s, "\n");
  size_t len = (size_t)sqlite3_str_length(s);
  char *body = sqlite3_str_finish(s);
  if (!body) return plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
  return respond(c, failed ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_OK,
                 "application/json", body, len, sqlite3_free);
}

/* ---- the pages ------------------------------------------------------- */

/* A query argument, NULL when absent or empty. */
static const char *arg(struct MHD_Connection *c, const char *key) {
  const char *v = mhd->lookup_value(c, MHD_GET_ARGUMENT_KIND, key);
  return v && *v ? v : NULL;
}

/* A whole decimal number in [lo, hi]: 0 with *out, else -1. */
static int arg_number(const char *v, long long lo, long long hi,
                      long long *out) {
  if (!v) return -1;
  char *end;
  errno = 0;
  long long n = strtoll(v, &end, 10);
  if (errno || end == v || *end || n < lo || n > hi) return -1;
  *out = n;
  return 0;
}

/* Valid UTF-8 of at most HTTP_ID_MAX bytes (NULL is fine). */
static int text_ok(const char *v) {
  return !v || (strlen(v) <= HTTP_ID_MAX && utf8_check(v, strlen(v), NULL));
}

static int state_ok(const char *v) {
  static const char *const states[] = {"scheduled", "paused", "completed",
                                       "cancelled", "expired"};
  for (size_t i = 0; v && i < sizeof states / sizeof *states; i++)
    if (strcmp(v, states[i]) == 0) return 1;
  return !v;
}

static page_info info_of(http_server *srv, long long now) {
  page_info in = {.now_ms = now,
                  .start_ms = srv->start_ms,
                  .owner = srv->o->owner,
                  .mode = srv->o->mode == MODE_SERVE ? "serve" : "run",
                  .after_due = LLONG_MIN};
  return in;
}

static enum MHD_Result bad_request(struct MHD_Connection *c, const char *why) {
  return plain(c, MHD_HTTP_BAD_REQUEST, why);
}

/* The list's cursor (page.h) into in: 0, or -1 when malformed. */
static int list_cursor(http_server *srv, struct MHD_Connection *c,
                       page_info *in) {
  const char *after = arg(c, "after"), *idle = arg(c, "idle"),
             *db = arg(c, "db");
  long long dbi = 0;
  in->after_id = arg(c, "after_id");
  in->after_due = LLONG_MIN;
  in->idle = idle && strcmp(idle, "1") == 0;
  if (idle && !in->idle) return -1;
  if (db && arg_number(db, 0, srv->ndbs - 1, &dbi) != 0) return -1;
  in->cursor_db = (int)dbi;
  if (after && arg_number(after, LLONG_MIN + 1, LLONG_MAX, &in->after_due))
    return -1;
  if (!text_ok(in->after_id)) return -1;
  /* a cursor is an id and either a due time or idle=1, never half */
  if (!in->after_id) return after || in->idle ? -1 : 0;
  return (after != NULL) == in->idle ? -1 : 0;
}

/* GET / with its filters. */
static enum MHD_Result list_page(http_server *srv, struct MHD_Connection *c,
                                 long long now) {
  page_info in = info_of(srv, now);
  in.agent = arg(c, "agent");
  in.scope = arg(c, "scope");
  in.status = arg(c, "status");
  if (!text_ok(in.agent) || !text_ok(in.scope))
    return bad_request(c, "bad ?agent or ?scope: at most 1024 bytes of "
                          "UTF-8\n");
  if (!state_ok(in.status))
    return bad_request(c, "bad ?status: scheduled, paused, completed, "
                          "cancelled or expired\n");
  if (list_cursor(srv, c, &in) != 0)
    return bad_request(c, "bad list cursor: ?after=MS&after_id=ID or "
                          "?idle=1&after_id=ID (and ?db=N)\n");
  size_t len = 0;
  char *body = page_render(srv->dbs, srv->ndbs, &in, &len);
  if (!body) return plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
  return respond(c, MHD_HTTP_OK, "text/html; charset=utf-8", body, len,
                 sqlite3_free);
}

/* What the trigger's page says after an action (?done=VERB, fire's
** &run=RUN_ID), from a fixed set of words; NULL for none. */
static char *done_notice(const char *done, const char *run) {
  static const char *const words[][2] = {
      {"pause", "Paused."},       {"resume", "Resumed."},
      {"cancel", "Cancelled."},   {"fire", "Fired: run queued"},
      {"retry", "Retry queued."}, {"cancel-run", "Cancel requested."}};
  for (size_t i = 0; done && i < sizeof words / sizeof *words; i++) {
    if (strcmp(done, words[i][0]) != 0) continue;
    if (run && text_ok(run) && strcmp(done, "fire") == 0)
      return sqlite3_mprintf("%s %s.", words[i][1], run);
    return sqlite3_mprintf("%s", words[i][1]);
  }
  return NULL;
}

/* GET /trigger/<id> and /run/<id> (kind "trigger" or "run"). */
static enum MHD_Result detail_page(http_server *srv, struct MHD_Connection *c,
                                   const char *kind, const char *id,
                                   long long now) {
  long long dbi = 0, before = LLONG_MAX;
  const char *v = arg(c, "db");
  if (v && arg_number(v, 0, srv->ndbs - 1, &dbi) != 0)
    return bad_request(c, "bad ?db: the number of a served database, from "
                          "0\n");
  v = arg(c, "before");
  if (v && arg_number(v, LLONG_MIN, LLONG_MAX, &before) != 0)
    return bad_request(c, "bad ?before: a time in ms\n");
  long long ev_before = LLONG_MAX, ev_id = LLONG_MAX;
  v = arg(c, "events_before");
  if (v && arg_number(v, LLONG_MIN, LLONG_MAX, &ev_before) != 0)
    return bad_request(c, "bad ?events_before: a time in ms\n");
  v = arg(c, "events_before_id");
  if (v && arg_number(v, LLONG_MIN, LLONG_MAX, &ev_id) != 0)
    return bad_request(c, "bad ?events_before_id: an event's rowid\n");
  const char *before_run = arg(c, "before_run");
  if (!*id || !text_ok(id) || !text_ok(before_run))
    return bad_request(c, "bad id: 1 to 1024 bytes of UTF-8\n");
  detail_req q = {.r = &srv->dbs[dbi],
                  .dbi = (int)dbi,
                  .ndbs = srv->ndbs,
                  .id = id,
                  .before_ms = before,
                  .before_run = before_run,
                  .events_before = ev_before,
                  .events_before_id = ev_id};
  action_view view = {srv->act, 0};
  char *notice = NULL;
  if (srv->act) {
    view.logged_in = actions_logged_in(
        srv->act, mhd->lookup_value(c, MHD_COOKIE_KIND, AUTH_COOKIE));
    q.forms = actions_forms;
    q.forms_ctx = &view;
    notice = done_notice(arg(c, "done"), arg(c, "run"));
    q.notice = notice;
  }
  page_info in = info_of(srv, now);
  size_t len = 0;
  unsigned status = 200;
  char *body = strcmp(kind, "trigger") == 0
                   ? detail_trigger(&q, &in, &len, &status)
                   : detail_run(&q, &in, &len, &status);
  sqlite3_free(notice);
  if (!body) return plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
  return respond(c, status, "text/html; charset=utf-8", body, len,
                 sqlite3_free);
}

/* GET /calendar.ics (calendar.h): the feed, or a line saying why not. */
static enum MHD_Result calendar_feed(http_server *srv,
                                     struct MHD_Connection *c) {
  size_t len = 0;
  unsigned status = MHD_HTTP_OK;
  char *why = NULL;
  char *body = calendar_render(srv->dbs, srv->ndbs, arg(c, "agent"),
                               arg(c, "scope"), &len, &status, &why);
  if (!body)
    return respond(c, status, "text/plain; charset=utf-8", why, strlen(why),
                   free);
  return respond(c, MHD_HTTP_OK, "text/calendar; charset=utf-8", body, len,
                 sqlite3_free);
}

/* ---- requests -------------------------------------------------------- */

/* The request's context, kept in the pointer itself (nothing to free):
** the length of the URI as received (path and query, before MHD splits
** it) + 1, shifted left twice; bit 0 is set once the handler has seen
** the request's headers. A POST with actions replaces it with its
** post_body (bit 1 set; freed by on_completed). */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *c) {
  (void)cls;
  (void)c;
  return (void *)(uintptr_t)((strlen(uri) + 1) << 2);
}

#define CTX_SEEN 1u
#define CTX_POST 2u

/* A POST's body as it arrives, at most HTTP_FORM_MAX bytes kept. */
typedef struct post_body {
  size_t n;
  int too_big;
  char data[HTTP_FORM_MAX + 1];
} post_body;

static const char *header(struct MHD_Connection *c, const char *name) {
  return mhd->lookup_value(c, MHD_HEADER_KIND, name);
}

/* Queue an action's answer (actions.h). */
static enum MHD_Result answer_action(struct MHD_Connection *c,
                                     action_answer *a) {
  if (!a->body) {
    sqlite3_free(a->location);
    return plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
  }
  struct MHD_Response *r =
      mhd->response_with_free(a->len, a->body, sqlite3_free);
  if (!r) {
    sqlite3_free(a->body);
    sqlite3_free(a->location);
    return MHD_NO;
  }
  mhd->add_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a->type);
  mhd->add_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  mhd->add_header(r, "X-Content-Type-Options", "nosniff");
  mhd->add_header(r, "Content-Security-Policy", csp);
  if (a->location) mhd->add_header(r, MHD_HTTP_HEADER_LOCATION, a->location);
  if (a->set_cookie)
    mhd->add_header(r, MHD_HTTP_HEADER_SET_COOKIE, a->set_cookie);
  if (a->status == MHD_HTTP_UNAUTHORIZED)
    mhd->add_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
  sqlite3_free(a->location);
  enum MHD_Result ok = mhd->queue_response(c, a->status, r);
  mhd->destroy_response(r);
  return ok;
}

/* A POST with actions: its body gathered, then actions_post. */
static enum MHD_Result post(http_server *srv, struct MHD_Connection *c,
                            const char *url, const char *upload,
                            size_t *upload_size, void **req) {
  uintptr_t ctx = (uintptr_t)*req;
  if (!(ctx & CTX_POST)) { /* the headers */
    const char *cl = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl && strtoull(cl, NULL, 10) > HTTP_FORM_MAX)
      return plain(c, MHD_HTTP_CONTENT_TOO_LARGE, "form too large\n");
    post_body *b = xmalloc(sizeof *b);
    b->n = 0;
    b->too_big = 0;
    *req = (void *)((uintptr_t)b | CTX_POST);
    return MHD_YES;
  }
  post_body *b = (post_body *)(ctx & ~(uintptr_t)3);
  if (*upload_size) {
    if (b->n + *upload_size > HTTP_FORM_MAX) b->too_big = 1;
    else memcpy(b->data + b->n, upload, *upload_size);
    if (!b->too_big) b->n += *upload_size;
    *upload_size = 0;
    return MHD_YES;
  }
  if (b->too_big)
    return plain(c, MHD_HTTP_CONTENT_TOO_LARGE, "form too large\n");
  b->data[b->n] = 0;
  long long dbi = 0;
  const char *v = arg(c, "db");
  if (v && arg_number(v, 0, srv->ndbs - 1, &dbi) != 0)
    return bad_request(c, "bad ?db: the number of a served database, from "
                          "0\n");
  if (!text_ok(url) || strlen(b->data) != b->n)
    return bad_request(c, "bad id or form: not text\n");
  action_req q = {{header(c, MHD_HTTP_HEADER_AUTHORIZATION),
                   mhd->lookup_value(c, MHD_COOKIE_KIND, AUTH_COOKIE),
                   header(c, "Origin"), header(c, "Sec-Fetch-Site"),
                   header(c, MHD_HTTP_HEADER_HOST), NULL},
                  url,
                  dbi,
                  header(c, MHD_HTTP_HEADER_CONTENT_TYPE),
                  b->data,
                  b->n};
  action_answer a;
  actions_post(srv->act, &q, &a);
  return answer_action(c, &a);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **req) {
  (void)version;
  http_server *srv = cls;
  uintptr_t ctx = (uintptr_t)*req;
  int is_post = strcmp(method, "POST") == 0;
  if (!(ctx & CTX_POST) && (ctx >> 2) > HTTP_URI_MAX + 1)
    return plain(c, MHD_HTTP_URI_TOO_LONG, "URI too long\n");
  if (is_post && srv->act) return post(srv, c, url, upload, upload_size, req);
  if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
    return plain(c, MHD_HTTP_METHOD_NOT_ALLOWED,
                 srv->act ? "method not allowed (GET, HEAD; POST for the "
                            "actions)\n"
                          : "method not allowed: this server is read-only "
                            "(GET, HEAD; --http-token-file enables "
                            "actions)\n");
  if (!(ctx & CTX_SEEN)) { /* the headers: answer once the request is
                              complete */
    *req = (void *)(ctx | CTX_SEEN);
    return MHD_YES;
  }
  if (*upload_size) { /* a GET with a body: ignored */
    *upload_size = 0;
    return MHD_YES;
  }
  long long now = stats_wall_ms();
  size_t len = 0;
  char *body = NULL;
  const char *type = NULL;
  if (strcmp(url, "/") == 0) {
    return list_page(srv, c, now);
  } else if (strncmp(url, "/trigger/", 9) == 0) {
    return detail_page(srv, c, "trigger", url + 9, now);
  } else if (strncmp(url, "/run/", 5) == 0) {
    return detail_page(srv, c, "run", url + 5, now);
  } else if (srv->act && strcmp(url, "/login") == 0) {
    body = actions_login_page(&len);
    type = "text/html; charset=utf-8";
  } else if (strcmp(url, "/calendar.ics") == 0) {
    return calendar_feed(srv, c);
  } else if (strcmp(url, "/metrics") == 0) {
    body = metrics_render(srv->dbs, srv->ndbs, now, srv->start_ms, &len);
    type = "text/plain; version=0.0.4; charset=utf-8";
  } else if (strcmp(url, "/health") == 0) {
    return health(srv, c, now);
  } else {
    return plain(c, MHD_HTTP_NOT_FOUND,
                 "not found (this server has /, /trigger/ID, /run/ID, "
                 "/calendar.ics, /metrics and /health)\n");
  }
  if (!body) return plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
  return respond(c, MHD_HTTP_OK, type, body, len, sqlite3_free);
}

static void mhd_log(void *cls, const char *fmt, va_list ap) {
  (void)cls;
  if (!log_enabled(LOG_DEBUG)) return;
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  size_t n = strlen(buf);
  while (n && buf[n - 1] == '\n') buf[--n] = 0;
  log_debug("http: %s", buf);
}

/* Each connection opened and closed, tracked by the guard (its socket
** context is the guard's handle). */
static void on_connection(void *cls, struct MHD_Connection *c,
                          void **socket_context,
                          enum MHD_ConnectionNotificationCode toe) {
  http_server *srv = cls;
  if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
    http_guard_closed(srv->guard, *socket_context);
    *socket_context = NULL;
    return;
  }
  const union MHD_ConnectionInfo *fd =
      mhd->get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
  *socket_context = fd ? http_guard_opened(srv->guard, fd->connect_fd) : NULL;
}

/* A request was answered: the connection's next one has its own time. */
static void on_completed(void *cls, struct MHD_Connection *c, void **req,
                         enum MHD_RequestTerminationCode toe) {
  (void)toe;
  uintptr_t rctx = (uintptr_t)*req;
  if (rctx & CTX_POST) free((void *)(rctx & ~(uintptr_t)3));
  *req = NULL;
  http_server *srv = cls;
  const union MHD_ConnectionInfo *ctx =
      mhd->get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  if (ctx) http_guard_request_done(srv->guard, ctx->socket_context);
}

/* ---- start and stop -------------------------------------------------- */

static struct MHD_Daemon *start_daemon(http_server *srv, http_addr *a) {
  unsigned flags =
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG;
  if (a->ss.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
  /* the daemon's thread inherits this mask: the loop's signals stay with
  ** the loop's thread */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGCHLD);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  struct MHD_Daemon *d = mhd->start_daemon(
      flags, 0, NULL, NULL, on_request, srv, MHD_OPTION_EXTERNAL_LOGGER,
      mhd_log, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a->ss,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned)srv->o->http_conns,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)srv->o->http_per_ip,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)srv->o->http_timeout_s,
      MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
      MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_CONN_MEMORY,
      MHD_OPTION_URI_LOG_CALLBACK, uri_seen, NULL, MHD_OPTION_END);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return d;
}

/* The address actually bound (the port chosen for port 0). */
static void bound_address(struct MHD_Daemon *d, const http_addr *a, char *buf,
                          unsigned size) {
  struct sockaddr_storage ss = a->ss;
  socklen_t len = sizeof ss;
  const union MHD_DaemonInfo *info =
      mhd->get_daemon_info(d, MHD_DAEMON_INFO_LISTEN_FD);
  if (info) getsockname(info->listen_fd, (struct sockaddr *)&ss, &len);
  http_addr_format((struct sockaddr *)&ss, buf, size);
}

http_server *http_start(const host_opts *o) {
  http_addr a;
  char *err = NULL;
  if (http_addr_parse(o->http, &a, &err) != 0 || !(mhd = mhd_load(&err))) {
    log_warn("%s", err);
    free(err);
    return NULL;
  }
  http_server *srv = xmalloc(sizeof *srv);
  memset(srv, 0, sizeof *srv);
  srv->o = o;
  srv->start_ms = stats_wall_ms();
  srv->dbs = xmalloc(sizeof *srv->dbs * (size_t)o->ndbs);
  memset(srv->dbs, 0, sizeof *srv->dbs * (size_t)o->ndbs);
  for (; srv->ndbs < o->ndbs; srv->ndbs++) {
    readdb *r = &srv->dbs[srv->ndbs];
    if (readdb_open(r, o->dbs[srv->ndbs], o->extension, o->busy_ms, &err)) {
      log_warn("--http: %s", err);
      free(err);
      srv->ndbs++; /* closed by http_stop */
      http_stop(srv);
      return NULL;
    }
  }
  srv->act = actions_start(o, &err);
  if (err) {
    log_warn("%s", err);
    free(err);
    http_stop(srv);
    return NULL;
  }
  if (srv->act) allow = "GET, HEAD, POST";
  srv->guard = http_guard_start(o->http_timeout_s);
  if (!srv->guard) {
    log_warn("--http: cannot start the thread of its request deadline");
    http_stop(srv);
    return NULL;
  }
  srv->daemon = start_daemon(srv, &a);
  if (!srv->daemon) {
    log_warn("--http %s: cannot listen there (address in use, or not an "
             "address of this machine?)",
             o->http);
    http_stop(srv);
    return NULL;
  }
  char where[80];
  bound_address(srv->daemon, &a, where, sizeof where);
  log_info("http: serving http://%s/ (%s)", where,
           srv->act ? "actions for the token's holder: POST /login, "
                      "/trigger/ID/VERB"
                    : "read-only: /, /trigger/ID, /run/ID, /calendar.ics, "
                      "/metrics, /health");
  if (!a.loopback)
    log_warn("http: %s is not a loopback address: anyone who can reach it "
             "can read the triggers and runs (no authentication for reading;"
             " no TLS%s)",
             where, srv->act ? ": the token and session travel in clear" : "");
  return srv;
}

void http_stop(http_server *srv) {
  if (!srv) return;
  if (srv->daemon)
    mhd->stop_daemon(srv->daemon); /* closes: http_guard_closed */
  http_guard_stop(srv->guard);
  actions_stop(srv->act);
  for (int i = 0; i < srv->ndbs; i++) readdb_close(&srv->dbs[i]);
  free(srv->dbs);
  free(srv);
  stats_clear();
  trigger_stats_clear();
}
