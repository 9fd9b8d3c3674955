/*
** http_addr.h -- the ADDR of `--http ADDR`: PORT, HOST:PORT or
** [IPV6]:PORT. PORT alone means 127.0.0.1: only this machine can connect.
** Any other address, 0.0.0.0 and :: included, is served as written, so
** exposing the read-only page beyond this machine always takes an address
** written out (the host then logs a warning: no authentication). HOST is
** an IPv4 literal, a bracketed IPv6 literal or a name, resolved once (its
** first address). PORT is 0..65535; 0 asks for any free port (the host
** logs the one it got).
*/
#ifndef HOST_HTTP_ADDR_H
#define HOST_HTTP_ADDR_H

#include <sys/socket.h>

typedef struct http_addr {
  struct sockaddr_storage ss;
  socklen_t len;
  int loopback; /* 127.0.0.0/8, ::1 or ::ffff:127.x.y.z */
} http_addr;

/* Parse s into *out. 0 ok; else -1 and *err (free()) saying what is wrong
** with s. */
int http_addr_parse(const char *s, http_addr *out, char **err);

/* "127.0.0.1:8080" or "[::1]:8080" for a bound address, into buf. */
void http_addr_format(const struct sockaddr *sa, char *buf, unsigned size);

#endif
