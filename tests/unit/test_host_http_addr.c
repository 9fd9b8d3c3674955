/*
** test_host_http_addr.c -- unit tests of host/http/http_addr.c, the ADDR of
** `trigger-host --http ADDR` (linked alone, with plain xprintf/xstrdup):
** PORT alone is 127.0.0.1; HOST:PORT and [IPV6]:PORT as written; which
** addresses are loopback (127/8, ::1, ::ffff:127.x.y.z) and which are not;
** every malformed form with its message; the bound address printed back.
**   make build/unit/test_host_http_addr && build/unit/test_host_http_addr
*/
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "core/util.h"
#include "http/http_addr.h"

/* host/core/util.c's, without the logging it pulls in. */
char *xprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  if (!s) abort();
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

char *xstrdup(const char *s) { return s ? xprintf("%s", s) : NULL; }

/* addr parses, prints back as want, and is loopback or not. */
static void ok(const char *addr, const char *want, int loopback) {
  http_addr a;
  char *err = NULL, buf[80] = "";
  int rc = http_addr_parse(addr, &a, &err);
  if (rc == 0)
    http_addr_format((const struct sockaddr *)&a.ss, buf, sizeof buf);
  CHECK(rc == 0 && strcmp(buf, want) == 0 && a.loopback == loopback,
        "'%s': rc %d, '%s', loopback %d, %s", addr, rc, buf, a.loopback,
        err ? err : "");
  free(err);
}

/* addr is refused with "--http ADDR: " and a message holding want. */
static void bad(const char *addr, const char *want) {
  http_addr a;
  char *err = NULL, prefix[80];
  snprintf(prefix, sizeof prefix, "--http %s: ", addr);
  int rc = http_addr_parse(addr, &a, &err);
  CHECK(rc == -1 && err && strncmp(err, prefix, strlen(prefix)) == 0 &&
            strstr(err, want),
        "'%s': rc %d, '%s'", addr, rc, err ? err : "(none)");
  free(err);
}

int main(void) {
  ok("8080", "127.0.0.1:8080", 1);
  ok("0", "127.0.0.1:0", 1);
  ok("65535", "127.0.0.1:65535", 1);
  ok("127.0.0.2:80", "127.0.0.2:80", 1);
  ok("10.0.0.1:80", "10.0.0.1:80", 0);
  ok("0.0.0.0:0", "0.0.0.0:0", 0);
  ok("128.0.0.1:1", "128.0.0.1:1", 0);
  ok("[::1]:80", "[::1]:80", 1);
  ok("[::ffff:127.0.0.1]:80", "[::ffff:127.0.0.1]:80", 1);
  ok("[::ffff:10.0.0.1]:80", "[::ffff:10.0.0.1]:80", 0);
  ok("[2001:db8::1]:443", "[2001:db8::1]:443", 0);
  ok("[::]:0", "[::]:0", 0);
  bad("65536", "port '65536' is not a number 0..65535");
  bad("99999999999999999999", "is not a number 0..65535");
  bad("-1", "expected PORT, HOST:PORT or [IPV6]:PORT");
  bad("+1", "expected PORT, HOST:PORT or [IPV6]:PORT");
  bad(" 1", "expected PORT, HOST:PORT or [IPV6]:PORT");
  bad("", "expected PORT, HOST:PORT or [IPV6]:PORT");
  bad("12a", "expected PORT, HOST:PORT or [IPV6]:PORT");
  bad("web", "expected PORT, HOST:PORT or [IPV6]:PORT");
  bad("127.0.0.1:", "port '' is not a number 0..65535");
  bad("127.0.0.1:x", "port 'x' is not a number 0..65535");
  bad("127.0.0.1:70000", "port '70000' is not a number 0..65535");
  bad(":8080", "no host before ':'");
  bad("::1:8080", "an IPv6 address is written [ADDR]:PORT");
  bad("[::1]", "an IPv6 address is written [ADDR]:PORT");
  bad("[::1]8080", "an IPv6 address is written [ADDR]:PORT");
  bad("[]:80", "an IPv6 address is written [ADDR]:PORT");
  bad("[::1", "an IPv6 address is written [ADDR]:PORT");
  bad("[::1]:x", "port 'x' is not a number 0..65535");
  bad("[zz]:80", "cannot resolve 'zz'");
  bad("[127.0.0.1]:80", "cannot resolve '127.0.0.1'");
  return check_report("host_http_addr");
}
