/*
** slice.c -- the loop thread's time slice (see slice.h): one
** sched_setattr() call, which glibc 2.36 does not wrap. The attribute
** block is the kernel's struct sched_attr (linux/sched/types.h, whose
** struct sched_param clashes with glibc's, hence the copy here).
*/
#include "core/slice.h"

#ifdef __linux__
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"

#define SLICE_NS 100000    /* 0.1 ms, the shortest the kernel takes */
#define RESET_ON_FORK 0x01 /* SCHED_FLAG_RESET_ON_FORK */

typedef struct sched_attr_v1 { /* SCHED_ATTR_SIZE_VER1, 56 bytes */
  uint32_t size, policy;
  uint64_t flags;
  int32_t nice;
  /* cppcheck-suppress unusedStructMember ; the kernel's layout */
  uint32_t priority;
  /* cppcheck-suppress unusedStructMember ; the kernel's layout */
  uint64_t runtime, deadline, period;
  /* cppcheck-suppress unusedStructMember ; the kernel's layout */
  uint32_t util_min, util_max;
} sched_attr_v1;

void slice_request(void) {
  if (sched_getscheduler(0) != SCHED_OTHER) return; /* chosen: kept */
  errno = 0;
  int nice = getpriority(PRIO_PROCESS, 0); /* this thread's, on Linux */
  if (nice == -1 && errno) return;
  sched_attr_v1 a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.policy = SCHED_OTHER;
  a.flags = RESET_ON_FORK;
  a.nice = nice;
  a.runtime = SLICE_NS;
  if (syscall(SYS_sched_setattr, 0, &a, 0) != 0)
    log_debug("sched_setattr (a short slice for the loop): %s",
              strerror(errno));
}
#else
void slice_request(void) {}
#endif
