/*
** spawner.c -- the starting threads (see spawner.h). One mutex guards the
** two lists (queued, answered), the counts and the stop flag. A thread
** takes the oldest queued request, answers it and appends it to the
** answered list; for a failed start (or any, with spawner_wake_all) it
** writes one byte to a non-blocking pipe (a full pipe means a wakeup is
** pending anyway); the loop drains the pipe and takes the whole answered
** list. Threads are started on demand: spawner_kick starts one
** for each queued request no idle thread waits for, up to the most.
*/
#include "dispatch/spawner.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/shell.h"
#include "core/slice.h"
#include "core/util.h"

struct spawner {
  pthread_t threads[SPAWNER_THREADS_MAX];
  int nthreads, max;             /* started, allowed */
  pthread_mutex_t mu;            /* guards what follows */
  pthread_cond_t cv;             /* a request or stop for the idle threads */
  spawn_req *queue, *queue_tail; /* to answer, oldest first */
  spawn_req *done, *done_tail;   /* answered */
  int queued, idle;              /* requests in queue; threads waiting */
  int stop;
  int wake_all; /* every answer wakes the loop, not only a failed start */
  int wake[2];  /* the threads write, the loop polls */
};

static void append(spawn_req **head, spawn_req **tail, spawn_req *r) {
  r->next = NULL;
  if (*tail) (*tail)->next = r;
  else *head = r;
  *tail = r;
}

/* One byte on the wakeup pipe (full: the loop has a wakeup pending). */
static void wake_loop(spawner *s) {
  ssize_t w = write(s->wake[1], "", 1);
  (void)w;
}

static void *run(void *arg) {
  spawner *s = arg;
  slice_request(); /* a start waits for this thread as for the loop */
  pthread_mutex_lock(&s->mu);
  for (;;) {
    while (!s->queue && !s->stop) {
      s->idle++;
      pthread_cond_wait(&s->cv, &s->mu);
      s->idle--;
    }
    spawn_req *r = s->queue;
    if (!r) break; /* stop, and nothing queued */
    s->queue = r->next;
    if (!s->queue) s->queue_tail = NULL;
    s->queued--;
    pthread_mutex_unlock(&s->mu);
    r->err = NULL;
    r->pid =
        shell_spawn(r->argv, r->env, r->in_fd, r->out_fd, r->err_fd, &r->err);
    pthread_mutex_lock(&s->mu);
    append(&s->done, &s->done_tail, r);
    if (r->pid < 0 || s->wake_all) wake_loop(s);
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* One more thread (mutex held): 0, or -1 when it cannot start. */
static int add_thread(spawner *s) {
  if (s->nthreads == s->max) return -1;
  if (thread_start(&s->threads[s->nthreads], run, s) != 0) return -1;
  s->nthreads++;
  return 0;
}

spawner *spawner_new(int max_threads) {
  spawner *s = xmalloc(sizeof *s);
  memset(s, 0, sizeof *s);
  if (pipe_cloexec(s->wake) != 0) {
    free(s);
    return NULL;
  }
  fcntl(s->wake[0], F_SETFL, O_NONBLOCK);
  fcntl(s->wake[1], F_SETFL, O_NONBLOCK);
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  s->max = max_threads < 1                     ? 1
           : max_threads > SPAWNER_THREADS_MAX ? SPAWNER_THREADS_MAX
                                               : max_threads;
  if (add_thread(s) == 0) return s;
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
  close(s->wake[0]);
  close(s->wake[1]);
  free(s);
  return NULL;
}

void spawner_free(spawner *s) {
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  s->stop = 1;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  for (int i = 0; i < s->nthreads; i++) pthread_join(s->threads[i], NULL);
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
  close(s->wake[0]);
  close(s->wake[1]);
  free(s);
}

void spawner_submit(spawner *s, spawn_req *r) {
  pthread_mutex_lock(&s->mu);
  append(&s->queue, &s->queue_tail, r);
  s->queued++;
  pthread_mutex_unlock(&s->mu);
}

void spawner_kick(spawner *s) {
  pthread_mutex_lock(&s->mu);
  /* a thread per request: the idle ones, then new ones up to the most */
  while (s->queued > s->idle && add_thread(s) == 0) {
  }
  if (s->queued > 1) pthread_cond_broadcast(&s->cv);
  else if (s->queued) pthread_cond_signal(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

void spawner_wake_all(spawner *s, int on) {
  pthread_mutex_lock(&s->mu);
  s->wake_all = on;
  if (on && s->done) wake_loop(s); /* answered before it was asked */
  pthread_mutex_unlock(&s->mu);
}

int spawner_fd(const spawner *s) { return s->wake[0]; }

spawn_req *spawner_done(spawner *s) {
  char buf[64];
  while (read(s->wake[0], buf, sizeof buf) > 0) {
  }
  pthread_mutex_lock(&s->mu);
  spawn_req *r = s->done;
  s->done = s->done_tail = NULL;
  pthread_mutex_unlock(&s->mu);
  return r;
}
