/*
** shell.h -- starting a /bin/sh child without fork(): the --exec commands
** (exec.c) and the --via statements (via.c). posix_spawn() (glibc: a
** vfork-style clone, the host waits until the child has exec'd) copies
** neither the host's page tables nor its memory: a fork() of the host
** (SQLite's page cache, the extension, libmicrohttpd) cost it about 95
** page faults per command, fork and copy-on-write, and was half of its
** CPU time per command in exec mode (bench/README.md). No host code runs
** in the child, so nothing there needs to be async-signal-safe.
**
** The child is in its own process group (so a timeout can kill the
** group), has the default disposition of every signal the host handles
** or ignores and an empty signal mask, and fds 0, 1 and 2 as given.
*/
#ifndef HOST_SHELL_H
#define HOST_SHELL_H

#include <sys/types.h>

/* Start /bin/sh with argv (argv[0] "sh", NULL-terminated) and environment
** env; its stdin is in_fd (-1: /dev/null), its stdout out_fd, its stderr
** err_fd: descriptors the caller keeps and closes, FD_CLOEXEC like every
** other descriptor of the host, so that no child inherits another's pipes.
** Returns the pid, or -1 with *err (free()): what "cannot start" means
** here includes an exec that failed (no /bin/sh). */
pid_t shell_spawn(char *const argv[], char *const env[], int in_fd, int out_fd,
                  int err_fd, char **err);

/* A child's environment: base (NULL-terminated "NAME=value"; NULL: the
** host's environment), without the
** entries whose name one of add has, then add (n "NAME=value" strings).
** Only the pointer array is allocated (free() it); the strings stay the
** callers'. */
char **shell_env(char *const *base, char *const *add, int n);

#endif
