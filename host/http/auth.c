/*
** auth.c -- the status server's token, session and csrf values (see
** auth.h).
*/
#include "http/auth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "text/sha256.h"

void auth_hmac(const void *key, size_t key_len, const void *msg, size_t msg_len,
               unsigned char out[32]) {
  unsigned char k[64] = {0}, pad[64], inner[32];
  if (key_len > sizeof k) sha256(key, key_len, k);
  else memcpy(k, key, key_len);
  sha256_ctx c;
  for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x36;
  sha256_init(&c);
  sha256_update(&c, pad, sizeof pad);
  sha256_update(&c, msg, msg_len);
  sha256_final(&c, inner);
  for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x5c;
  sha256_init(&c);
  sha256_update(&c, pad, sizeof pad);
  sha256_update(&c, inner, sizeof inner);
  sha256_final(&c, out);
}

/* a and b equal, in a time that depends on their lengths only. */
static int same(const char *a, const char *b) {
  if (!a || !b) return 0;
  size_t n = strlen(a), m = strlen(b);
  unsigned char diff = (unsigned char)(n != m);
  for (size_t i = 0; i < n; i++)
    diff |= (unsigned char)(a[i] ^ b[i % (m ? m : 1)]);
  return diff == 0;
}

/* The file's text, checked (auth.h). */
static char *read_token(const char *path, char **err) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    *err = xprintf("--http-token-file %s: %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  char buf[AUTH_TOKEN_MAX + 2];
  ssize_t n = 0;
  if (!S_ISREG(st.st_mode))
    *err = xprintf("--http-token-file %s: not a regular file", path);
  else if (st.st_mode & (S_IRWXG | S_IRWXO))
    *err = xprintf("--http-token-file %s: readable or writable by others "
                   "(mode %04o): the token would not be secret; chmod 600 %s",
                   path, (unsigned)(st.st_mode & 07777), path);
  else if ((n = read(fd, buf, sizeof buf - 1)) < 0)
    *err = xprintf("--http-token-file %s: %s", path, strerror(errno));
  close(fd);
  if (*err || n < 0) return NULL;
  size_t len = (size_t)n;
  if (len > 0 && buf[len - 1] == '\n') len--;
  if (len > 0 && buf[len - 1] == '\r') len--;
  buf[len] = 0;
  int printable = 1;
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)buf[i] < 0x21 || buf[i] == 0x7f) printable = 0;
  if (len < AUTH_TOKEN_MIN || len > AUTH_TOKEN_MAX || !printable) {
    *err = xprintf("--http-token-file %s: the token must be %d to %d "
                   "printable characters without spaces, on one line",
                   path, AUTH_TOKEN_MIN, AUTH_TOKEN_MAX);
    return NULL;
  }
  return xstrdup(buf);
}

/* hex(HMAC(token, label || key)) into out. */
static void derive(const auth *a, const char *label, const unsigned char *key,
                   char out[65]) {
  unsigned char msg[16 + 32], mac[32];
  size_t n = strlen(label);
  /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): bytes, no text */
  memcpy(msg, label, n);
  memcpy(msg + n, key, 32);
  auth_hmac(a->token, strlen(a->token), msg, n + 32, mac);
  sha256_hex(mac, 32, out);
}

int auth_load(auth *a, const char *path, char **err) {
  memset(a, 0, sizeof *a);
  *err = NULL;
  a->token = read_token(path, err);
  if (!a->token) return -1;
  unsigned char key[32];
  if (getrandom(key, sizeof key, 0) != (ssize_t)sizeof key) {
    *err = xprintf("--http-token-file: no random bytes: %s", strerror(errno));
    auth_free(a);
    return -1;
  }
  derive(a, "session", key, a->session);
  derive(a, "csrf", key, a->csrf);
  return 0;
}

void auth_free(auth *a) {
  if (a->token) memset(a->token, 0, strlen(a->token));
  free(a->token);
  memset(a, 0, sizeof *a);
}

int auth_same_origin(const auth_req *q) {
  if (q->fetch_site && strcmp(q->fetch_site, "same-origin") != 0 &&
      strcmp(q->fetch_site, "none") != 0)
    return 0;
  if (!q->origin) return 1;
  if (!q->host || strncmp(q->origin, "http://", 7) != 0) return 0;
  return strcmp(q->origin + 7, q->host) == 0;
}

int auth_session(const auth *a, const char *cookie) {
  return a->token && same(cookie, a->session);
}

int auth_token(const auth *a, const char *given) {
  return a->token && same(given, a->token);
}

auth_result auth_check(const auth *a, const auth_req *q) {
  if (!auth_same_origin(q)) return AUTH_CROSS_ORIGIN;
  if (q->authorization) {
    const char *p = q->authorization;
    if (strncmp(p, "Bearer ", 7) != 0) return AUTH_WRONG;
    return auth_token(a, p + 7) ? AUTH_OK : AUTH_WRONG;
  }
  if (!q->cookie) return AUTH_MISSING;
  if (!auth_session(a, q->cookie)) return AUTH_WRONG;
  return same(q->csrf, a->csrf) ? AUTH_OK : AUTH_NO_CSRF;
}

const char *auth_message(auth_result r) {
  switch (r) {
    case AUTH_OK: return "ok";
    case AUTH_MISSING:
      return "an action needs the token: log in at /login, or send "
             "Authorization: Bearer TOKEN\n";
    case AUTH_WRONG: return "wrong token or session (log in again at /login)\n";
    case AUTH_CROSS_ORIGIN:
      return "cross-origin request refused: actions come from this "
             "server's own pages\n";
    case AUTH_NO_CSRF:
      return "missing or wrong form value: reload the page and try again\n";
  }
  return "refused\n";
}
