/*
** util.c -- allocation, the clocks, close-on-exec pipes and threads
** (see util.h).
*/
#ifdef __linux__
/* NOLINTNEXTLINE(bugprone-reserved-identifier): glibc's name for pipe2, ppoll */
#define _GNU_SOURCE
#endif
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void out_of_memory(void) {
  fputs("trigger-host: out of memory\n", stderr);
  exit(3);
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) out_of_memory();
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) out_of_memory();
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
  if (n < 0) out_of_memory();
  char *s = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static int64_t clock_us(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t mono_us(void) { return clock_us(CLOCK_MONOTONIC); }
int64_t wall_us(void) { return clock_us(CLOCK_REALTIME); }
int64_t mono_ms(void) { return mono_us() / 1000; }
int64_t wall_ms(void) { return wall_us() / 1000; }

int poll_us(struct pollfd *fds, nfds_t n, int64_t timeout_us) {
#ifdef __linux__
  struct timespec ts = {(time_t)(timeout_us / 1000000),
                        (long)(timeout_us % 1000000) * 1000};
  return ppoll(fds, n, &ts, NULL);
#else
  return poll(fds, n, (int)((timeout_us + 999) / 1000)); /* never early */
#endif
}

int pipe_cloexec(int fds[2]) {
#ifdef __linux__
  return pipe2(fds, O_CLOEXEC); /* one call instead of three */
#else
  if (pipe(fds) != 0) return -1;
  for (int i = 0; i < 2; i++) fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  return 0;
#endif
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

int thread_start(pthread_t *t, void *(*fn)(void *), void *arg) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = pthread_create(t, NULL, fn, arg);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return rc;
}

void *xarray_insert(void **base, int *n, int *cap, size_t size, int at) {
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 16;
    *base = xrealloc(*base, size * (size_t)*cap);
  }
  char *p = (char *)*base + size * (size_t)at;
  memmove(p + size, p, size * (size_t)(*n - at));
  (*n)++;
  return memset(p, 0, size);
}
