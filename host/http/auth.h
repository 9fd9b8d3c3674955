/*
** auth.h -- who may act through the status server (--http-token-file):
** the operator's token, read once at start from a file only its owner may
** read, and the two values derived from it with HMAC-SHA256 and a random
** key of this process (so they change with every start, and neither
** reveals the token):
**
**   session  the value of the th_session cookie that POST /login sets
**            when the token is given in its form (HttpOnly,
**            SameSite=Strict, Path=/)
**   csrf     the hidden field of every action form; a POST that proves
**            itself with the cookie must carry it (a browser sends the
**            cookie with a forged form, never this value)
**
** A POST proves itself with "Authorization: Bearer TOKEN" (scripts,
** curl) or with the cookie and the csrf field (the page's forms), and
** must come from this origin: an Origin header other than
** http://<Host>, or Sec-Fetch-Site other than same-origin or none, is
** refused. Comparisons take the same time whatever matches. The token is
** never logged, never written into a page or a cookie. The threat model
** is in docs/host.md (Actions).
*/
#ifndef HOST_AUTH_H
#define HOST_AUTH_H

#include <stddef.h>

#define AUTH_TOKEN_MIN 16
#define AUTH_TOKEN_MAX 1024
#define AUTH_COOKIE "th_session"

typedef struct auth {
  char *token;
  char session[65], csrf[65]; /* lower-case hex */
} auth;

/* What a request presented (NULL: absent). */
typedef struct auth_req {
  const char *authorization, *cookie, *origin, *fetch_site, *host;
  const char *csrf; /* the form's field */
} auth_req;

typedef enum {
  AUTH_OK,
  AUTH_MISSING,      /* no credentials: 401 */
  AUTH_WRONG,        /* a wrong token or cookie: 403 */
  AUTH_CROSS_ORIGIN, /* 403 */
  AUTH_NO_CSRF       /* the cookie without the form's value: 403 */
} auth_result;

/* Read the token of path (its owner only: no group or other permission
** bits; a regular file; AUTH_TOKEN_MIN..MAX bytes of printable text, a
** final newline dropped) and derive the values. 0, or -1 and *err. */
int auth_load(auth *a, const char *path, char **err);
void auth_free(auth *a);

/* The request's origin is this server's (auth.h). */
int auth_same_origin(const auth_req *q);
/* A POST's credentials and origin. */
auth_result auth_check(const auth *a, const auth_req *q);
/* The cookie is this process's session (a logged-in browser). */
int auth_session(const auth *a, const char *cookie);
/* The token given to the login form is the token. */
int auth_token(const auth *a, const char *given);
/* What a refusal says (no secret in it). */
const char *auth_message(auth_result r);

/* HMAC-SHA256(key, msg) (RFC 2104) into out. */
void auth_hmac(const void *key, size_t key_len, const void *msg, size_t msg_len,
               unsigned char out[32]);

#endif
