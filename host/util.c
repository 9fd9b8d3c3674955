/*
** util.c -- logging, allocation, the monotonic clock and close-on-exec
** pipes (see util.h).
** Log lines go to stderr as "trigger-host: 12:00:00.250Z message" so that
** stdout stays reserved for the JSON lines of print mode.
*/
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int host_verbose = 0;

static void vlog(const char *fmt, va_list ap) {
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  flockfile(stderr); /* one line at a time: the checkpointer logs too */
  fprintf(stderr, "trigger-host: %02d:%02d:%02d.%03ldZ ", tm.tm_hour, tm.tm_min,
          tm.tm_sec, ts.tv_nsec / 1000000L);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  fflush(stderr);
  funlockfile(stderr);
}

void log_info(const char *fmt, ...) {
  if (!host_verbose) return;
  va_list ap;
  va_start(ap, fmt);
  vlog(fmt, ap);
  va_end(ap);
}

void log_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(fmt, ap);
  va_end(ap);
}

static void oom(void) {
  fputs("trigger-host: out of memory\n", stderr);
  exit(3);
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) oom();
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) oom();
  return q;
}

char *xstrdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

char *xprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) oom();
  char *s = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

int64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int pipe_cloexec(int fds[2]) {
  if (pipe(fds) != 0) return -1;
  for (int i = 0; i < 2; i++) fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  return 0;
}

int pipes_cloexec(int a[2], int b[2]) {
  if (pipe_cloexec(a) != 0) return -1;
  if (pipe_cloexec(b) == 0) return 0;
  int saved = errno;
  close(a[0]);
  close(a[1]);
  errno = saved;
  return -1;
}
