/*
** http_guard.c -- the deadline thread of the status server (see
** http_guard.h). The tracked connections are a list under one mutex (at
** most --http-conns of them); the thread finds the earliest deadline in
** one pass and sleeps on a condition variable (monotonic clock) until
** then, or until a connection opens with an earlier one or the guard
** stops.
*/
#include "http/http_guard.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "core/log.h"
#include "core/util.h"

struct http_guard_conn {
  int fd;
  int64_t deadline; /* monotonic ms; INT64_MAX: cut already */
  http_guard_conn *prev, *next;
};

struct http_guard {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int64_t timeout_ms;
  http_guard_conn *head;
  int stopping;
};

/* Shut down the sockets past their deadline: the earliest deadline left. */
static int64_t cut_late(http_guard *g, int64_t now) {
  int64_t next = INT64_MAX;
  for (http_guard_conn *c = g->head; c; c = c->next) {
    if (c->deadline <= now) {
      shutdown(c->fd, SHUT_RDWR);
      c->deadline = INT64_MAX;
      log_debug("http: closed a connection: no whole request within %lld s",
                (long long)(g->timeout_ms / 1000));
    } else if (c->deadline < next) {
      next = c->deadline;
    }
  }
  return next;
}

static void *http_guard_main(void *arg) {
  http_guard *g = arg;
  pthread_mutex_lock(&g->mu);
  while (!g->stopping) {
    int64_t next = cut_late(g, mono_ms());
    if (next == INT64_MAX) {
      pthread_cond_wait(&g->cv, &g->mu);
      continue;
    }
    struct timespec ts = {(time_t)(next / 1000),
                          (long)(next % 1000) * 1000000L};
    pthread_cond_timedwait(&g->cv, &g->mu, &ts);
  }
  pthread_mutex_unlock(&g->mu);
  return NULL;
}

http_guard *http_guard_start(int timeout_s) {
  http_guard *g = xmalloc(sizeof *g);
  memset(g, 0, sizeof *g);
  g->timeout_ms = (int64_t)timeout_s * 1000;
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* as mono_ms() */
  pthread_cond_init(&g->cv, &attr);
  pthread_condattr_destroy(&attr);
  pthread_mutex_init(&g->mu, NULL);
  if (thread_start(&g->thread, http_guard_main, g) != 0) {
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g);
    return NULL;
  }
  return g;
}

void http_guard_stop(http_guard *g) {
  if (!g) return;
  pthread_mutex_lock(&g->mu);
  g->stopping = 1;
  pthread_cond_signal(&g->cv);
  pthread_mutex_unlock(&g->mu);
  pthread_join(g->thread, NULL);
  while (g->head) {
    http_guard_conn *c = g->head;
    g->head = c->next;
    free(c);
  }
  pthread_cond_destroy(&g->cv);
  pthread_mutex_destroy(&g->mu);
  free(g);
}

http_guard_conn *http_guard_opened(http_guard *g, int fd) {
  http_guard_conn *c = xmalloc(sizeof *c);
  c->fd = fd;
  c->prev = NULL;
  pthread_mutex_lock(&g->mu);
  c->deadline = mono_ms() + g->timeout_ms;
  c->next = g->head;
  if (g->head) g->head->prev = c;
  g->head = c;
  pthread_cond_signal(&g->cv); /* the thread may sleep without a deadline */
  pthread_mutex_unlock(&g->mu);
  return c;
}

void http_guard_request_done(http_guard *g, http_guard_conn *c) {
  if (!c) return;
  pthread_mutex_lock(&g->mu);
  if (c->deadline != INT64_MAX) c->deadline = mono_ms() + g->timeout_ms;
  pthread_mutex_unlock(&g->mu);
}

void http_guard_closed(http_guard *g, http_guard_conn *c) {
  if (!c) return;
  pthread_mutex_lock(&g->mu);
  if (c->prev) c->prev->next = c->next;
  else g->head = c->next;
  if (c->next) c->next->prev = c->prev;
  pthread_mutex_unlock(&g->mu);
  free(c);
}
