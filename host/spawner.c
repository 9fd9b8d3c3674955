/*
** spawner.c -- the starting thread (see spawner.h). One mutex guards the
** two lists (queued, answered) and the stop flag; the thread answers the
** queued requests in order (woken by spawner_kick), appends each to the answered list and writes
** one byte to a non-blocking pipe (a full pipe means a wakeup is pending
** anyway). The loop drains the pipe and takes the whole answered list.
*/
#include "spawner.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spawn.h"
#include "util.h"

struct spawner {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  spawn_req *queue, *queue_tail; /* mutex */
  spawn_req *done, *done_tail;   /* mutex */
  int stop;                      /* mutex */
  int wake[2];                   /* the thread writes, the loop polls */
};

static void append(spawn_req **head, spawn_req **tail, spawn_req *r) {
  r->next = NULL;
  if (*tail) (*tail)->next = r;
  else *head = r;
  *tail = r;
}

static void *run(void *arg) {
  spawner *s = arg;
  pthread_mutex_lock(&s->mu);
  for (;;) {
    while (!s->queue && !s->stop) pthread_cond_wait(&s->cv, &s->mu);
    spawn_req *r = s->queue;
    if (!r) break; /* stop, and nothing queued */
    s->queue = r->next;
    if (!s->queue) s->queue_tail = NULL;
    pthread_mutex_unlock(&s->mu);
    r->err = NULL;
    r->pid = spawn_sh(r->argv, r->env, r->in_fd, r->out_fd, r->err_fd, &r->err);
    pthread_mutex_lock(&s->mu);
    append(&s->done, &s->done_tail, r);
    ssize_t w = write(s->wake[1], "", 1);
    (void)w; /* full: the loop has a wakeup pending */
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

spawner *spawner_new(void) {
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
  if (thread_start(&s->thread, run, s) == 0) return s;
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
  pthread_cond_signal(&s->cv);
  pthread_mutex_unlock(&s->mu);
  pthread_join(s->thread, NULL);
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
  close(s->wake[0]);
  close(s->wake[1]);
  free(s);
}

void spawner_submit(spawner *s, spawn_req *r) {
  pthread_mutex_lock(&s->mu);
  append(&s->queue, &s->queue_tail, r);
  pthread_mutex_unlock(&s->mu);
}

void spawner_kick(spawner *s) {
  pthread_mutex_lock(&s->mu);
  if (s->queue) pthread_cond_signal(&s->cv);
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
