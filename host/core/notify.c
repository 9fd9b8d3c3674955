/*
** notify.c -- sd_notify's datagram, sent by the host (see notify.h). One
** SOCK_DGRAM socket, close-on-exec, opened at notify_init and kept; each
** message is one sendto() of its text to the address NOTIFY_SOCKET names.
*/
#include "core/notify.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/util.h"

static int sock = -1;
static struct sockaddr_un addr;
static socklen_t addr_len;
static int64_t watchdog_us; /* the period: half of WATCHDOG_USEC */
static int64_t watchdog_next;

/* NOTIFY_SOCKET's address into addr: a path ("/run/...") or an abstract
** name ("@name": a leading NUL). 0, or -1 when it is neither or too long. */
static int parse_address(const char *v) {
  size_t n = strlen(v);
  if ((v[0] != '/' && v[0] != '@') || n < 2 || n >= sizeof addr.sun_path)
    return -1;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  memcpy(addr.sun_path, v, n);
  if (v[0] == '@') addr.sun_path[0] = 0;
  /* a path's address includes its NUL; an abstract name's is its bytes */
  addr_len =
      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (v[0] == '/'));
  return 0;
}

/* WATCHDOG_USEC for this process (WATCHDOG_PID, when set, names it). */
static void read_watchdog(void) {
  const char *usec = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
  char *end;
  watchdog_us = 0;
  if (!usec) return;
  if (pid && strtol(pid, &end, 10) != (long)getpid()) return;
  errno = 0;
  long long v = strtoll(usec, &end, 10);
  if (errno || end == usec || *end || v <= 0) return;
  watchdog_us = v / 2;
  watchdog_next = mono_us() + watchdog_us;
}

int notify_init(char **err) {
  const char *v = getenv("NOTIFY_SOCKET");
  int rc = 0;
  if (v) {
    read_watchdog();
    if (parse_address(v) != 0) {
      *err = xprintf("NOTIFY_SOCKET=%s: not a socket path or @name; the "
                     "service manager is not notified",
                     v);
      rc = -1;
    } else if ((sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0) {
      *err = xprintf("NOTIFY_SOCKET: socket: %s", strerror(errno));
      rc = -1;
    }
    if (rc) watchdog_us = 0;
  }
  unsetenv("NOTIFY_SOCKET");
  unsetenv("WATCHDOG_USEC");
  unsetenv("WATCHDOG_PID");
  return rc;
}

int notify_send(const char *msg) {
  if (sock < 0) return 0;
  ssize_t n;
  do {
    n = sendto(sock, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&addr,
               addr_len);
  } while (n < 0 && errno == EINTR);
  return n < 0 ? -1 : 0;
}

int64_t notify_watchdog_us(void) { return sock < 0 ? 0 : watchdog_us; }

int64_t notify_watchdog(int64_t now) {
  if (!notify_watchdog_us()) return INT64_MAX;
  if (now >= watchdog_next) {
    notify_send("WATCHDOG=1");
    watchdog_next = now + watchdog_us;
  }
  return watchdog_next;
}

void notify_close(void) {
  if (sock >= 0) close(sock);
  sock = -1;
}
