/*
** spawner.h -- the threads that start the --exec commands, so that the
** loop never waits for one. posix_spawn() (shell.h) suspends its caller
** until the child has exec'd, and on a busy machine a new child waits for
** a CPU behind the running ones: about 1 ms per command, measured with 4
** jobs on 2 cores, 0.1 ms on an idle machine. Spent on the loop's thread
** that wait held up reaping, reports and the next claims while slots were
** free (bench/README.md). The loop hands a request over and goes on; when
** the child runs (or could not start), the request comes back with its
** pid (or error). A failed start wakes the loop's poll() with a byte on a
** pipe; a started child's answer waits for the loop's next pass (the
** child's SIGCHLD or pipes, a deadline), one wakeup less per command,
** unless the loop asks for every answer at once (spawner_wake_all: it
** reaped a child whose answer it has not taken, or killed one being
** started). One thread
** per start in flight, up to --jobs (at most SPAWNER_THREADS_MAX): with
** one thread, starts queued behind each other's exec (mean 1 ms from the
** request to its thread, against 0.3 ms with up to 4).
*/
#ifndef HOST_SPAWNER_H
#define HOST_SPAWNER_H

#include <sys/types.h>

/* One command to start: what shell_spawn() takes, and its answer. Owned by
** the caller; argv, env and the descriptors must stay valid until the
** request comes back from spawner_done(). */
typedef struct spawn_req {
  char *const *argv;
  char *const *env;
  int in_fd, out_fd, err_fd;
  void *owner; /* the caller's */
  pid_t pid;   /* answer: > 0, or -1 and err (free()) */
  char *err;
  struct spawn_req *next; /* the spawner's */
} spawn_req;

typedef struct spawner spawner;

#define SPAWNER_THREADS_MAX 8

/* Start the first thread (signals blocked on the threads: they are the
** loop's); more start as requests wait, up to max_threads (1 to
** SPAWNER_THREADS_MAX). NULL when none can start: then start children
** with shell_spawn() directly. */
spawner *spawner_new(int max_threads);
/* Join the threads after the requests in flight have come back (taken or
** not). NULL: nothing. */
void spawner_free(spawner *s);
/* Queue r; it comes back from spawner_done() once answered. The threads
** start on the queue at the next spawner_kick(). */
void spawner_submit(spawner *s, spawn_req *r);
/* Wake (or start) a thread for each request queued. The loop calls it
** just before it sleeps: woken at once, a thread took the CPU from the
** loop (measured: a loop pass that started two commands was held up
** 3.7 ms between them on a busy machine). */
void spawner_kick(spawner *s);
/* on: every answer wakes the loop (and answers already waiting do now);
** off: only failed starts do. */
void spawner_wake_all(spawner *s, int on);
/* The read end of the wakeup pipe (POLLIN: answers to take). */
int spawner_fd(const spawner *s);
/* The answered requests, oldest first (NULL: none), linked by next. */
spawn_req *spawner_done(spawner *s);

#endif
