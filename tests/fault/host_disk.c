/*
** tests/fault/host_disk.c -- a disk that fills up under a whole program
** (build/host_disk.so, loaded with LD_PRELOAD; tests/py/host/test_host_disk.py
** runs trigger-host over it). It wraps sqlite3_open_v2: the first open
** registers vfs.c's failing VFS as the default, and from then on the
** program's writes, syncs and truncations (every connection and thread:
** the host's loop and its checkpointer) are counted; reads never fail.
**
**   FAULT_DISK_AFTER=K   the K-th of them and every later one fails with
**                        SQLITE_FULL (unset or 0: none fails)
**   FAULT_DISK_FOR=M     only M of them fail (a disk freed again); unset
**                        or 0: all from the K-th on
**   FAULT_DISK_WHILE=P   every one fails while the file P exists (a test
**                        fills the disk and frees it when it chooses, by
**                        creating and removing P); beside the two above
**   FAULT_KILL_AT=K      the process SIGKILLs itself at the K-th of them,
**                        before it is done (a host killed at each write of
**                        its transactions: tests/py/host/test_host_sql_crash.py)
*/
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "fault.h"

static long after, lasting;    /* FAULT_DISK_AFTER, FAULT_DISK_FOR */
static const char *full_while; /* FAULT_DISK_WHILE */
static long count;             /* writes so far (atomic) */
static long kill_at;           /* FAULT_KILL_AT */

int fault_vfs_fails(fault_kind k) {
  if (k != FAULT_DISK) return 0;
  if (full_while && access(full_while, F_OK) == 0) return 1;
  if (after <= 0 && kill_at <= 0) return 0;
  long n = __atomic_add_fetch(&count, 1, __ATOMIC_SEQ_CST);
  if (n == kill_at) raise(SIGKILL);
  if (after <= 0) return 0;
  return n >= after && (lasting <= 0 || n < after + lasting);
}

static void install(void) {
  const char *a = getenv("FAULT_DISK_AFTER"), *f = getenv("FAULT_DISK_FOR");
  after = a ? atol(a) : 0;
  lasting = f ? atol(f) : 0;
  full_while = getenv("FAULT_DISK_WHILE");
  const char *k = getenv("FAULT_KILL_AT");
  kill_at = k ? atol(k) : 0;
  if (fault_vfs_install() != 0) abort();
}

int sqlite3_open_v2(const char *path, sqlite3 **db, int flags,
                    const char *vfs) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  static int (*real)(const char *, sqlite3 **, int, const char *);
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "sqlite3_open_v2");
  if (!real) abort();
  pthread_once(&once, install);
  return real(path, db, flags, vfs);
}
