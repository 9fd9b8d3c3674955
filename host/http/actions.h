/*
** actions.h -- the status server's actions (--http-token-file): pause,
** resume, cancel and fire a trigger as POST forms of its page, each one
** call of db/verb.h on a read-write connection of the server's own
** (opened at the first action, never the loop's), and the login that
** lets a browser make them.
**
**   GET  /login                       a form for the token
**   POST /login                       token=...: sets the session cookie
**                                     (auth.h), 303 to /
**   POST /trigger/<id>/<verb>[?db=N]  verb pause, resume, cancel (with
**                                     confirm=1), fire; 303 back to the
**                                     trigger's page with ?done=<verb>
**                                     (fire: &run=<run_id>)
**
** Refusals: no credentials 401, a wrong token or session 403, another
** origin 403, the cookie without the form's csrf value 403, a body over
** HTTP_FORM_MAX bytes 413, a body that is not a form 415, an unknown
** verb 404, a cancel without confirm=1 400, no such trigger 404, the
** extension's refusal 409 (its message), a database failure 503. A GET
** changes nothing. Every action is logged (verb, trigger, outcome); the
** token never is.
*/
#ifndef HOST_ACTIONS_H
#define HOST_ACTIONS_H

#include <sqlite3.h>
#include <stddef.h>

#include "core/opts.h"
#include "http/auth.h"
#include "http/detail.h"

#define HTTP_FORM_MAX 4096 /* bytes of a POST body */

typedef struct actions actions;

/* With o->http_token_file: the token read and checked (auth.h). NULL
** with *err when it cannot be; NULL and no *err without the option. */
actions *actions_start(const host_opts *o, char **err);
void actions_stop(actions *a);

/* A POST as received. */
typedef struct action_req {
  auth_req auth;
  const char *url;          /* percent-decoded path */
  long long dbi;            /* ?db, checked by the caller */
  const char *content_type; /* NULL: none */
  const char *body;         /* NUL-terminated, body_len bytes */
  size_t body_len;
} action_req;

/* The answer: a status, a text or HTML body (sqlite3_free), and for a
** 303 its Location (sqlite3_free), a Set-Cookie (static or NULL). */
typedef struct action_answer {
  unsigned status;
  const char *type;
  char *body;
  size_t len;
  char *location;
  const char *set_cookie;
} action_answer;

void actions_post(actions *a, const action_req *q, action_answer *out);
/* GET /login's page (sqlite3_free). */
char *actions_login_page(size_t *len);

/* The detail pages' forms (detail_req.forms): ctx is an action_view. */
typedef struct action_view {
  actions *a;
  int logged_in; /* the request's cookie is the session */
} action_view;
void actions_forms(sqlite3_str *s, const detail_req *q, const char *kind,
                   const char *status, void *ctx);
/* The session of a logged-in browser's cookie. */
int actions_logged_in(actions *a, const char *cookie);

#endif
