/*
** actions.c -- the status server's POST actions and login (see
** actions.h).
*/
#include "http/actions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "db/clidb.h"
#include "db/verb.h"
#include "http/html.h"
#include "http/http.h"

struct actions {
  const host_opts *o;
  auth auth;
  struct writer {
    sqlite3 *db;
  } * w; /* a read-write connection per database, opened at need */
  char set_cookie[128];
};

actions *actions_start(const host_opts *o, char **err) {
  *err = NULL;
  if (!o->http_token_file) return NULL;
  actions *a = xmalloc(sizeof *a);
  memset(a, 0, sizeof *a);
  a->o = o;
  if (auth_load(&a->auth, o->http_token_file, err) != 0) {
    free(a);
    return NULL;
  }
  a->w = xmalloc(sizeof *a->w * (size_t)o->ndbs);
  memset(a->w, 0, sizeof *a->w * (size_t)o->ndbs);
  snprintf(a->set_cookie, sizeof a->set_cookie,
           AUTH_COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict",
           a->auth.session);
  return a;
}

void actions_stop(actions *a) {
  if (!a) return;
  for (int i = 0; i < a->o->ndbs; i++) sqlite3_close(a->w[i].db);
  free(a->w);
  auth_free(&a->auth);
  free(a);
}

int actions_logged_in(actions *a, const char *cookie) {
  return a && auth_session(&a->auth, cookie);
}

/* ---- answers --------------------------------------------------------- */

static void text(action_answer *out, unsigned status, const char *msg) {
  out->status = status;
  out->type = "text/plain; charset=utf-8";
  out->body = sqlite3_mprintf("%s", msg);
  out->len = out->body ? strlen(out->body) : 0;
}

/* A page saying why an action was refused, with a link back. */
static void refusal_page(action_answer *out, unsigned status, const char *title,
                         const char *why, const char *kind,
                         const char *back_id) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  html_head(s, title, 0);
  sqlite3_str_appendall(s, "</header>\n<p class=\"err\">");
  html_esc(s, why, HTML_TEXT_MAX * 2);
  sqlite3_str_appendall(s, "</p>\n");
  if (back_id) {
    sqlite3_str_appendf(s, "<p><a href=\"/%s/", kind);
    html_url(s, back_id, HTTP_ID_MAX);
    sqlite3_str_appendf(s, "\">Back to the %s</a></p>\n", kind);
  }
  html_foot(s);
  out->status = status;
  out->type = "text/html; charset=utf-8";
  out->len = (size_t)sqlite3_str_length(s);
  out->body = sqlite3_str_finish(s);
}

static void see_other(action_answer *out, char *location) {
  out->status = 303;
  out->location = location;
  text(out, 303, "see other\n");
}

/* ---- forms ----------------------------------------------------------- */

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* The value of name in an application/x-www-form-urlencoded body,
** decoded ('+' a space, %XX a byte); NULL when absent or when it decodes
** to a NUL. free(). */
static char *form_value(const char *body, const char *name) {
  size_t n = strlen(name);
  for (const char *p = body; p && *p; p = strchr(p, '&'), p = p ? p + 1 : p) {
    if (strncmp(p, name, n) != 0 || p[n] != '=') continue;
    const char *v = p + n + 1, *end = strchr(v, '&');
    size_t len = end ? (size_t)(end - v) : strlen(v);
    char *out = xmalloc(len + 1);
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
      int hi, lo;
      if (v[i] == '+') out[k++] = ' ';
      else if (v[i] == '%' && i + 2 < len + 1 &&
               (hi = hex_digit(v[i + 1])) >= 0 &&
               (lo = hex_digit(v[i + 2])) >= 0) {
        out[k++] = (char)(hi * 16 + lo);
        i += 2;
      } else out[k++] = v[i];
    }
    out[k] = 0;
    if (strlen(out) != k) { /* a NUL inside: not a text */
      free(out);
      return NULL;
    }
    return out;
  }
  return NULL;
}

/* A form's body: none, or application/x-www-form-urlencoded. */
static int is_form(const action_req *q) {
  if (q->body_len == 0) return 1;
  const char *t = q->content_type;
  static const char form_type[] = "application/x-www-form-urlencoded";
  return t && strncmp(t, form_type, sizeof form_type - 1) == 0 &&
         (t[sizeof form_type - 1] == 0 || t[sizeof form_type - 1] == ';');
}

/* ---- the routes ------------------------------------------------------ */

static void login(actions *a, const action_req *q, action_answer *out) {
  if (!auth_same_origin(&q->auth)) {
    text(out, 403, auth_message(AUTH_CROSS_ORIGIN));
    return;
  }
  char *token = form_value(q->body, "token");
  int ok = auth_token(&a->auth, token);
  if (token) memset(token, 0, strlen(token));
  free(token);
  if (!ok) {
    log_warn("http: a login with a wrong token");
    refusal_page(out, 403, "Log in", "Wrong token.", NULL, NULL);
    return;
  }
  out->set_cookie = a->set_cookie;
  see_other(out, sqlite3_mprintf("/"));
}

/* What a POST names: /trigger/ID/VERB or /run/ID/VERB. */
typedef struct target {
  const char *kind; /* "trigger", "run" */
  char *id;         /* sqlite3_free */
  const char *verb; /* db/verb.h's word */
} target;

/* The page after an action: the trigger's, or the run's (retry: the new
** attempt's), ?done=<verb>[&run=..][&db=N]. */
static char *back_to(const action_req *q, const target *t, const char *run_id) {
  int to_new_run = strcmp(t->verb, "retry") == 0 && run_id;
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "/%s/", t->kind);
  html_url(s, to_new_run ? run_id : t->id, HTTP_ID_MAX);
  const char *verb = t->verb;
  sqlite3_str_appendf(s, "?done=%s", verb);
  if (run_id && !to_new_run) {
    sqlite3_str_appendall(s, "&run=");
    html_url(s, run_id, HTTP_ID_MAX);
  }
  if (q->dbi) sqlite3_str_appendf(s, "&db=%lld", q->dbi);
  return sqlite3_str_finish(s);
}

/* The database's read-write connection, opened at the first action. */
static sqlite3 *writer(actions *a, int dbi, char **err) {
  if (!a->w[dbi].db)
    clidb_connect(a->o->dbs[dbi], a->o->extension, a->o->busy_ms, 1,
                  &a->w[dbi].db, err);
  return a->w[dbi].db;
}

static void act(actions *a, const action_req *q, const target *t,
                action_answer *out) {
  const char *id = t->id, *verb = t->verb;
  char *err = NULL;
  sqlite3 *db = writer(a, (int)q->dbi, &err);
  if (!db) {
    log_warn("http: %s %s: %s", verb, id, err ? err : "?");
    refusal_page(out, 503, "Not done", err ? err : "cannot open", t->kind, id);
    free(err);
    return;
  }
  verb_out v;
  verb_result r = verb_apply(db, verb, id, NULL, &v);
  if (r == VERB_DONE) {
    log_info("http: %s %s: done%s%s", verb, id, v.run_id ? ", run " : "",
             v.run_id ? v.run_id : "");
    see_other(out, back_to(q, t, v.run_id));
  } else if (r == VERB_NOT_FOUND) {
    refusal_page(out, 404, "Not done",
                 strcmp(t->kind, "run") == 0 ? "No such run."
                                             : "No such trigger.",
                 NULL, NULL);
  } else {
    log_warn("http: %s %s: %s", verb, id, v.why ? v.why : "?");
    refusal_page(out, r == VERB_REFUSED ? 409 : 503, "Not done",
                 v.why ? v.why : "?", t->kind, id);
  }
  verb_out_free(&v);
}

/* The verbs of each page, and the word db/verb.h knows them by. */
static const struct {
  const char *kind, *form, *verb;
} routes[] = {
    {"trigger", "pause", "pause"},   {"trigger", "resume", "resume"},
    {"trigger", "cancel", "cancel"}, {"trigger", "fire", "fire"},
    {"run", "retry", "retry"},       {"run", "cancel", "cancel-run"},
};

/* /KIND/ID/FORM into *t (t->id: sqlite3_free); 0, or -1 for no route. */
static int route(const char *url, target *t) {
  const char *slash = strrchr(url, '/');
  for (size_t i = 0; slash && i < sizeof routes / sizeof *routes; i++) {
    size_t n = strlen(routes[i].kind);
    if (url[0] != '/' || strncmp(url + 1, routes[i].kind, n) != 0 ||
        url[n + 1] != '/' || slash < url + n + 2 ||
        strcmp(slash + 1, routes[i].form) != 0)
      continue;
    t->kind = routes[i].kind;
    t->verb = routes[i].verb;
    t->id = sqlite3_mprintf("%.*s", (int)(slash - url - n - 2), url + n + 2);
    return 0;
  }
  return -1;
}

void actions_post(actions *a, const action_req *q, action_answer *out) {
  memset(out, 0, sizeof *out);
  if (!is_form(q)) {
    text(out, 415,
         "a POST body is an application/x-www-form-urlencoded "
         "form\n");
    return;
  }
  if (strcmp(q->url, "/login") == 0) {
    login(a, q, out);
    return;
  }
  target t;
  if (route(q->url, &t) != 0) {
    text(out, 404,
         "not found: POST /login, /trigger/ID/pause, resume, cancel or "
         "fire, /run/ID/retry or cancel\n");
    return;
  }
  char *csrf = form_value(q->body, "csrf");
  auth_req ar = q->auth;
  ar.csrf = csrf;
  auth_result r = auth_check(&a->auth, &ar);
  free(csrf);
  if (r != AUTH_OK) {
    text(out, r == AUTH_MISSING ? 401 : 403, auth_message(r));
    return;
  }
  char *confirm = form_value(q->body, "confirm");
  if (!t.id || !*t.id) text(out, 400, "missing id\n");
  else if (strcmp(t.verb, "cancel") == 0 &&
           (!confirm || strcmp(confirm, "1") != 0))
    refusal_page(out, 400, "Not done",
                 "Cancel is final: tick the box to confirm it.", t.kind, t.id);
  else act(a, q, &t, out);
  free(confirm);
  sqlite3_free(t.id);
}

/* ---- the pages' forms ------------------------------------------------ */

char *actions_login_page(size_t *len) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  html_head(s, "Log in", 0);
  sqlite3_str_appendall(
      s, "</header>\n<form method=\"post\" action=\"/login\"><label>Token "
         "<input type=\"password\" name=\"token\" "
         "autocomplete=\"current-password\" required></label> "
         "<button>Log in</button></form>\n<p class=\"muted\">The token of "
         "--http-token-file. The session lasts until the host restarts.</p>\n");
  html_foot(s);
  *len = (size_t)sqlite3_str_length(s);
  return sqlite3_str_finish(s);
}

/* One action's form: a button, the csrf value, and for cancel a box to
** tick (required by the browser and checked by the server). */
static void form(sqlite3_str *s, const detail_req *q, const char *kind,
                 const char *csrf, const char *verb, const char *label) {
  sqlite3_str_appendf(s,
                      "<form class=\"act\" method=\"post\" "
                      "action=\"/%s/",
                      kind);
  html_url(s, q->id, HTTP_ID_MAX);
  sqlite3_str_appendf(s, "/%s", verb);
  if (q->ndbs > 1) sqlite3_str_appendf(s, "?db=%d", q->dbi);
  sqlite3_str_appendf(s,
                      "\"><input type=\"hidden\" name=\"csrf\" "
                      "value=\"%s\">",
                      csrf);
  if (strcmp(kind, "trigger") == 0 && strcmp(verb, "cancel") == 0)
    sqlite3_str_appendall(s, "<label><input type=\"checkbox\" name=\"confirm\" "
                             "value=\"1\" required> for good</label> ");
  sqlite3_str_appendf(s, "<button>%s</button></form>", label);
}

void actions_forms(sqlite3_str *s, const detail_req *q, const char *kind,
                   const char *status, void *ctx) {
  const action_view *v = ctx;
  int trigger = strcmp(kind, "trigger") == 0;
  if (!v->logged_in) {
    sqlite3_str_appendf(s,
                        "<p class=\"muted\"><a href=\"/login\">Log "
                        "in</a> to %s.</p>\n",
                        trigger ? "pause, resume, fire or cancel"
                                : "retry or cancel");
    return;
  }
  const char *csrf = v->a->auth.csrf;
  int live = strcmp(status, "running") == 0 || strcmp(status, "deferred") == 0;
  int active = strcmp(status, "scheduled") == 0;
  sqlite3_str_appendall(s, "<p>");
  if (!trigger) {
    if (live) form(s, q, kind, csrf, "cancel", "Cancel run");
    else form(s, q, kind, csrf, "retry", "Retry");
  }
  if (trigger && active) {
    form(s, q, kind, csrf, "fire", "Fire now");
    form(s, q, kind, csrf, "pause", "Pause");
  }
  if (trigger && strcmp(status, "paused") == 0)
    form(s, q, kind, csrf, "resume", "Resume");
  if (trigger && (active || strcmp(status, "paused") == 0))
    form(s, q, kind, csrf, "cancel", "Cancel");
  sqlite3_str_appendall(s, "</p>\n");
}
