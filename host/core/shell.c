/*
** shell.c -- posix_spawn() of /bin/sh for exec.c and via.c (see shell.h).
** The attributes do in the child what the forked child used to do by
** hand: setpgid(0, 0), the default disposition of the signals sig.c
** handles or ignores, an empty signal mask, and dup2() of the three
** descriptors. A source descriptor below 3 (the host was started with
** stdin, stdout or stderr closed) could be overwritten by an earlier
** dup2(), so then all three go through descriptors above every source
** first.
*/
#include "core/shell.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

extern char **environ; /* POSIX; glibc declares it only for _GNU_SOURCE */

/* The length of the name of "NAME=value" (the whole text without '='). */
static size_t name_len(const char *entry) { return strcspn(entry, "="); }

char **shell_env(char *const *base, char *const *add, int n) {
  if (!base) base = environ;
  int nbase = 0;
  while (base[nbase]) nbase++;
  char **env = xmalloc(sizeof(char *) * (size_t)(nbase + n + 1));
  int k = 0;
  for (int i = 0; i < nbase; i++) {
    size_t len = name_len(base[i]);
    int replaced = 0;
    for (int j = 0; j < n && !replaced; j++)
      replaced = name_len(add[j]) == len && strncmp(add[j], base[i], len) == 0;
    if (!replaced) env[k++] = base[i];
  }
  for (int j = 0; j < n; j++) env[k++] = add[j];
  env[k] = NULL;
  return env;
}

/* The file actions: fds 0, 1, 2 from src (-1: /dev/null for stdin). */
static int stdio_actions(posix_spawn_file_actions_t *fa, int src[3]) {
  int low = 0, top = 2, rc = 0;
  for (int i = 0; i < 3; i++) {
    if (src[i] >= 0 && src[i] < 3 && src[i] != i) low = 1;
    if (src[i] > top) top = src[i];
  }
  for (int i = 0; low && i < 3 && !rc; i++) {
    if (src[i] < 0) continue;
    rc = posix_spawn_file_actions_adddup2(fa, src[i], top + 1 + i);
    src[i] = top + 1 + i;
  }
  for (int i = 0; i < 3 && !rc; i++) {
    rc = src[i] < 0
             ? posix_spawn_file_actions_addopen(fa, i, "/dev/null", O_RDONLY, 0)
             /* src == i: POSIX.1-2017 clears its FD_CLOEXEC */
             : posix_spawn_file_actions_adddup2(fa, src[i], i);
  }
  for (int i = 0; low && i < 3 && !rc; i++) {
    if (src[i] > 2) rc = posix_spawn_file_actions_addclose(fa, src[i]);
  }
  return rc;
}

static int set_attrs(posix_spawnattr_t *at) {
  sigset_t def, none;
  sigemptyset(&def);
  sigaddset(&def, SIGTERM);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGCHLD);
  sigaddset(&def, SIGPIPE);
  sigemptyset(&none);
  int rc = posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP |
                                            POSIX_SPAWN_SETSIGDEF |
                                            POSIX_SPAWN_SETSIGMASK);
  if (!rc) rc = posix_spawnattr_setpgroup(at, 0);
  if (!rc) rc = posix_spawnattr_setsigdefault(at, &def);
  if (!rc) rc = posix_spawnattr_setsigmask(at, &none);
  return rc;
}

pid_t shell_spawn(char *const argv[], char *const env[], int in_fd, int out_fd,
                  int err_fd, char **err) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  int src[3] = {in_fd, out_fd, err_fd};
  pid_t pid = -1;
  int rc = posix_spawn_file_actions_init(&fa);
  if (rc) {
    *err = xprintf("posix_spawn: %s", strerror(rc));
    return -1;
  }
  rc = posix_spawnattr_init(&at);
  if (!rc) {
    rc = stdio_actions(&fa, src);
    if (!rc) rc = set_attrs(&at);
    if (!rc) rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, env);
    posix_spawnattr_destroy(&at);
  }
  posix_spawn_file_actions_destroy(&fa);
  if (!rc) return pid;
  *err = xprintf("posix_spawn /bin/sh: %s", strerror(rc));
  errno = rc;
  return -1;
}
