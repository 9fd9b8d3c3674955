/*
** printtx.c -- print mode in the claim's own transaction (see printtx.h).
*/
/* NOLINTNEXTLINE(bugprone-reserved-identifier): for F_GETPIPE_SZ */
#define _GNU_SOURCE
#include "dispatch/printtx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"

#define BATCH_MAX 4096      /* runs per transaction at most */
#define PIPE_WANT (1 << 20) /* a pipe's buffer grown to this if allowed */
#define LINE_GUESS 512      /* a line's size before any was printed */
#define PAGE 4096           /* a pipe's slot (one page) */

void printtx_init(printtx *p, int forced_lease) {
  memset(p, 0, sizeof *p);
  p->line_bytes = LINE_GUESS;
  struct stat sb;
  int fl = fcntl(STDOUT_FILENO, F_GETFL);
  /* closed (SQLite may have put /dev/null there, read-only): the lease
  ** path meets the failure and releases what it claimed */
  if (forced_lease || fl < 0 || (fl & O_ACCMODE) == O_RDONLY ||
      fstat(STDOUT_FILENO, &sb) != 0)
    return;
  if (S_ISREG(sb.st_mode)) p->usable = 1;
  else if (S_ISCHR(sb.st_mode)) p->usable = !isatty(STDOUT_FILENO);
  else if (S_ISFIFO(sb.st_mode)) {
    p->usable = p->pipe = 1;
    int unread = 0; /* what it holds now: trusted once it is empty */
    p->unknown = ioctl(STDOUT_FILENO, FIONREAD, &unread) != 0 || unread != 0;
    p->log_base = log_lines();
    struct stat eb; /* the log on the same pipe: its lines count */
    p->shared_err = fstat(STDERR_FILENO, &eb) == 0 && eb.st_dev == sb.st_dev &&
                    eb.st_ino == sb.st_ino;
    if (fcntl(STDOUT_FILENO, F_GETPIPE_SZ) < PIPE_WANT)
      (void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, PIPE_WANT); /* else as it is */
  }
}

/* What the pipe on stdout takes now in one write() without blocking, in
** *room; *empty: it holds nothing unread. -1: not known.
**
** Linux keeps a pipe's bytes in page-sized slots and merges a write into
** the last slot only when the write's remainder fits there, so a slot may
** be partly filled. Each write() leaves at most one partly filled slot
** (its last), and the reader at most one (the slot it is reading). So the
** slots taken are at most ceil(unread / PAGE) + 1 + the writes since the
** pipe was last seen empty: ours (p->writes) and, when stderr is the same
** pipe, the log's lines (up to two writes each). Past a print by the lease
** path (p->unknown) only an empty pipe is trusted. */
static int pipe_room(printtx *p, size_t *room, int *empty) {
  int cap = fcntl(STDOUT_FILENO, F_GETPIPE_SZ), unread = 0;
  if (cap <= 0 || ioctl(STDOUT_FILENO, FIONREAD, &unread) != 0 || unread < 0)
    return -1;
  *empty = unread == 0;
  if (*empty) {
    p->writes = 0;
    p->unknown = 0;
    p->log_base = log_lines();
    *room = (size_t)cap;
    return 0;
  }
  long slots = cap / PAGE;
  long taken = (unread + PAGE - 1) / PAGE + 1 + p->writes;
  if (p->shared_err) taken += 2 * (log_lines() - p->log_base);
  *room = !p->unknown && slots > taken ? (size_t)(slots - taken) * PAGE : 0;
  return 0;
}

char *printtx_stdout_lost(int errnum) {
  return xprintf("stdout: %s; releasing runs and stopping",
                 errnum ? strerror(errnum) : "write error");
}

/* Write all of b to stdout (each write() counted): 0, or -1 with errno. */
static int write_all(printtx *p, const char *b, size_t n) {
  if (fflush(stdout) != 0) return -1; /* nothing of the lease path's left */
  while (n) {
    p->writes++;
    ssize_t w = write(STDOUT_FILENO, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return -1;
    }
    b += w;
    n -= (size_t)w;
  }
  return 0;
}

/* The runs to ask for: a batch, what room takes at the expected line
** size, and the caller's limit. */
static long long batch_size(const printtx *p, size_t room, long long limit) {
  long long ask = BATCH_MAX;
  if (room != SIZE_MAX && (size_t)ask > room / p->line_bytes)
    ask = (long long)(room / p->line_bytes);
  return limit > 0 && limit < ask ? limit : ask;
}

/* The runs' lines, each element and a newline (free()): *len bytes. */
static char *batch_lines(host_run *const *runs, int n, size_t *len) {
  size_t total = 0;
  for (int i = 0; i < n; i++) total += strlen(runs[i]->element) + 1;
  char *text = xmalloc(total), *at = text;
  for (int i = 0; i < n; i++) {
    size_t k = strlen(runs[i]->element);
    memcpy(at, runs[i]->element, k);
    at += k;
    *at++ = '\n';
  }
  *len = total;
  return text;
}

/* One attempt: BEGIN, claim ask runs, write them if they take no more
** than room, COMMIT. PRINTTX_DONE, PRINTTX_FAILED, PRINTTX_STDOUT_LOST, or
** TOO_BIG (rolled back: the lines were longer than expected; *n still
** says how many). */
#define TOO_BIG (-1)
static int attempt(printtx *p, hostdb *h, long long ask, size_t room,
                   host_run ***runs, int *n, char **err) {
  int code;
  if (hostdb_begin(h, &code, err) != 0) return PRINTTX_FAILED;
  if (hostdb_claim(h, ask, 1, runs, n, err) != 0) {
    hostdb_rollback(h);
    return PRINTTX_FAILED;
  }
  size_t len;
  char *lines = batch_lines(*runs, *n, &len);
  if (*n) p->line_bytes = len / (size_t)*n + 1;
  int res = PRINTTX_DONE;
  if (len > room) {
    res = TOO_BIG;
  } else if (len && write_all(p, lines, len) != 0) {
    *err = printtx_stdout_lost(errno);
    res = PRINTTX_STDOUT_LOST;
  }
  free(lines);
  if (res != PRINTTX_DONE) {
    hostdb_rollback(h);
  } else if (hostdb_commit(h, &code, err) != 0) {
    char *why = xprintf("%s (their %d line(s) were printed: the runs are "
                        "offered again)",
                        *err, *n);
    free(*err);
    *err = why;
    res = PRINTTX_FAILED;
  }
  return res;
}

/* The lease path prints next: its writes are not counted. */
static int lease(printtx *p) {
  p->unknown = 1;
  return PRINTTX_LEASE;
}

int printtx_tick(printtx *p, hostdb *h, long long *limit, host_run ***runs,
                 int *n, char **err) {
  *runs = NULL;
  *n = 0;
  for (int tries = 0;; tries++) {
    size_t room = SIZE_MAX;
    int empty = 1;
    if (p->pipe && pipe_room(p, &room, &empty) != 0) return lease(p);
    long long ask = batch_size(p, room, *limit);
    /* no room: wait for the reader, nothing claimed meanwhile; a line
    ** longer than the whole pipe goes by the lease path */
    if (ask < 1) return empty ? lease(p) : PRINTTX_WAIT;
    int res = attempt(p, h, ask, room, runs, n, err);
    int got = *n;
    if (res != PRINTTX_DONE) {
      runs_free(*runs, *n);
      *runs = NULL;
      *n = 0;
    }
    if (res != TOO_BIG) {
      *limit = ask;
      return res;
    }
    if (got <= 1 || tries == 2) return empty ? lease(p) : PRINTTX_WAIT;
  }
}
