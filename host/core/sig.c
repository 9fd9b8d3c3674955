/*
** sig.c -- the self-pipe and the handlers (see sig.h). Handlers only set
** a counter and write to a non-blocking pipe: both async-signal-safe.
*/
#include "core/sig.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int pipe_fd[2] = {-1, -1};
static volatile sig_atomic_t stop_count = 0;

static void on_signal(int signo) {
  int saved = errno;
  if (signo == SIGTERM || signo == SIGINT) stop_count++;
  if (pipe_fd[1] >= 0) {
    char c = (char)signo;
    ssize_t r =
        write(pipe_fd[1], &c, 1); /* full pipe: a wakeup is pending anyway */
    (void)r;
  }
  errno = saved;
}

static int set_flags(int fd) {
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return -1;
  return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static int handle(int signo, void (*fn)(int), int flags) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = fn;
  sa.sa_flags = flags;
  sigemptyset(&sa.sa_mask);
  return sigaction(signo, &sa, NULL);
}

int sig_init(void) {
  if (pipe(pipe_fd) != 0) return -1;
  if (set_flags(pipe_fd[0]) != 0 || set_flags(pipe_fd[1]) != 0) return -1;
  if (handle(SIGTERM, on_signal, SA_RESTART) != 0) return -1;
  if (handle(SIGINT, on_signal, SA_RESTART) != 0) return -1;
  if (handle(SIGCHLD, on_signal, SA_RESTART | SA_NOCLDSTOP) != 0) return -1;
  return handle(SIGPIPE, SIG_IGN, 0);
}

int sig_fd(void) { return pipe_fd[0]; }

void sig_drain(void) {
  char buf[64];
  while (read(pipe_fd[0], buf, sizeof buf) > 0) {
  }
}

int sig_stop_count(void) { return (int)stop_count; }
