/*
** http_addr.c -- parsing and printing the --http address (see
** http_addr.h). Numbers with strtol (whole string, in range), literals
** with inet_pton, names with getaddrinfo.
*/
#include "http/http_addr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define DEFAULT_HOST "127.0.0.1"

static int parse_port(const char *s, int *port) {
  char *end;
  if (!*s || *s == '-' || *s == '+' || *s == ' ') return -1;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < 0 || v > 65535) return -1;
  *port = (int)v;
  return 0;
}

static int is_loopback(const struct sockaddr *sa) {
  if (sa->sa_family == AF_INET) {
    const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
    return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
  }
  const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
  if (IN6_IS_ADDR_LOOPBACK(a)) return 1;
  return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
}

/* A literal of family af, or a name (af = AF_UNSPEC), with port. */
static int resolve(const char *host, int af, int port, http_addr *out,
                   char **err) {
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = af;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | (af == AF_INET6 ? AI_NUMERICHOST : 0);
  char serv[8];
  snprintf(serv, sizeof serv, "%d", port);
  int rc = getaddrinfo(host, serv, &hints, &res);
  if (rc != 0 || !res) {
    *err = xprintf("cannot resolve '%s': %s", host,
                   rc ? gai_strerror(rc) : "no address");
    return -1;
  }
  memcpy(&out->ss, res->ai_addr, res->ai_addrlen);
  out->len = res->ai_addrlen;
  out->loopback = is_loopback(res->ai_addr);
  freeaddrinfo(res);
  return 0;
}

/* A name or literal and its port: resolved into *out, or *why. */
static int host_port(const char *host, int hostlen, const char *port_text,
                     int af, http_addr *out, char **why) {
  int port;
  if (parse_port(port_text, &port) != 0) {
    *why = xprintf("port '%s' is not a number 0..65535", port_text);
    return -1;
  }
  char *name = xprintf("%.*s", hostlen, host);
  int rc = resolve(name, af, port, out, why);
  free(name);
  return rc;
}

int http_addr_parse(const char *s, http_addr *out, char **err) {
  memset(out, 0, sizeof *out);
  *err = NULL;
  int port;
  char *why = NULL;
  const char *colon = strchr(s, ':');
  if (s[0] == '[') {
    const char *close = strchr(s, ']');
    if (!close || close[1] != ':' || close == s + 1)
      why = xstrdup("an IPv6 address is written [ADDR]:PORT");
    else if (host_port(s + 1, (int)(close - s - 1), close + 2, AF_INET6, out,
                       &why) == 0)
      return 0;
  } else if (!colon) {
    if (parse_port(s, &port) == 0)
      return resolve(DEFAULT_HOST, AF_INET, port, out, err);
    why = s[0] && strspn(s, "0123456789") == strlen(s)
              ? xprintf("port '%s' is not a number 0..65535", s)
              : xstrdup("expected PORT, HOST:PORT or [IPV6]:PORT");
  } else if (strchr(colon + 1, ':')) {
    why = xstrdup("an IPv6 address is written [ADDR]:PORT");
  } else if (colon == s) {
    why = xstrdup("no host before ':' (write 127.0.0.1:PORT, or 0.0.0.0:PORT "
                  "to serve every interface)");
  } else if (host_port(s, (int)(colon - s), colon + 1, AF_UNSPEC, out, &why) ==
             0) {
    return 0;
  }
  *err = xprintf("--http %s: %s", s, why);
  free(why);
  return -1;
}

void http_addr_format(const struct sockaddr *sa, char *buf, unsigned size) {
  char ip[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (sa->sa_family == AF_INET) {
    const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
    inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
    port = ntohs(in->sin_port);
    snprintf(buf, size, "%s:%d", ip, port);
  } else {
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
    inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof ip);
    port = ntohs(in6->sin6_port);
    snprintf(buf, size, "[%s]:%d", ip, port);
  }
}
