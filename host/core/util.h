/*
** util.h -- process-wide helpers of trigger-host: its version,
** allocation that exits on out-of-memory, the monotonic clock the loop
** sleeps by, the close-on-exec pipes of the children (exec.c, via.c), and
** starting the host's threads (ckpt.c, spawner.c).
*/
#ifndef HOST_UTIL_H
#define HOST_UTIL_H

#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define HOST_FORMAT(a, b) __attribute__((format(printf, a, b)))

/* trigger-host's version: the VERSION file, compiled in as into the
** extension (its trigger_version()). */
#ifndef TRIGGERS_VERSION
#define TRIGGERS_VERSION "unknown"
#endif

/* "out of memory" on stderr, exit status 3. */
void out_of_memory(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
/* A zeroed element inserted at index at of the array *base of *n elements
** of size bytes (capacity *cap, grown by doubling): its address. */
void *xarray_insert(void **base, int *n, int *cap, size_t size, int at);
char *xstrdup(const char *s); /* NULL -> NULL */
char *xprintf(const char *fmt, ...) HOST_FORMAT(1, 2);

int64_t mono_ms(void); /* CLOCK_MONOTONIC in milliseconds */
int64_t wall_ms(void); /* CLOCK_REALTIME: Unix time in milliseconds */
int64_t mono_us(void); /* the same two in microseconds */
int64_t wall_us(void);
/* poll() with a timeout in µs (>= 0): ppoll on Linux, elsewhere poll()
** with the timeout rounded up to the ms. */
int poll_us(struct pollfd *fds, nfds_t n, int64_t timeout_us);

/* pipe() with FD_CLOEXEC on both ends: 0, or -1 with errno. */
int pipe_cloexec(int fds[2]);
/* Two pipes, FD_CLOEXEC on every end (children get theirs by dup2 only):
** 0, or -1 with errno and neither pipe open. */
int pipes_cloexec(int a[2], int b[2]);

/* pthread_create(t, fn, arg) with every signal blocked on the new thread:
** signals are the loop's (sig.h, its self-pipe). 0, or an error number. */
int thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
