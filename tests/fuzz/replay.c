/*
** replay.c -- runs a fuzz target without libFuzzer: linked with one
** tests/fuzz/fuzz_NAME.c (Makefile: $(B)/replay/fuzz_NAME), it calls the
** target's LLVMFuzzerInitialize once (when the target has one) and then
** LLVMFuzzerTestOneInput once on each file named, each in a forked child
** so that a crash, an abort (a violated check of the target, a sanitizer
** report) or a hang (REPLAY_TIMEOUT seconds) fails that input alone.
**
**   build/replay/fuzz_NAME FILE...        # tests/fuzz/seeds.sh runs them
**
** Prints one "FAIL NAME FILE: why" line per failed input, then
** "NAME: N inputs, M failed" (a form tests/run_all.sh does not count;
** seeds.sh adds the targets up into "fuzz_seeds: N passed, M failed").
** Exits 1 when any input failed or could not be read.
*/
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPLAY_TIMEOUT 30

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional in a target: weak, NULL when the target defines none. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* The whole file into a malloc'd buffer (libFuzzer passes a buffer of
** exactly the input's size: ASan sees any read past its end). */
static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  if (!f) return NULL;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 4096;
      uint8_t *p = realloc(buf, cap);
      if (!p) break;
      buf = p;
    }
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad || !buf) {
    free(buf);
    return NULL;
  }
  uint8_t *exact = malloc(len ? len : 1);
  if (exact) memcpy(exact, buf, len);
  free(buf);
  *size = len;
  return exact;
}

/* 0 when the input ran to its end; otherwise why not, in why. */
static int replay_one(const char *path, char *why, size_t whylen) {
  size_t size = 0;
  uint8_t *data = read_file(path, &size);
  if (!data) {
    snprintf(why, whylen, "cannot read: %s", strerror(errno));
    return 1;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(why, whylen, "fork: %s", strerror(errno));
    free(data);
    return 1;
  }
  if (pid == 0) {
    alarm(REPLAY_TIMEOUT);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    exit(0); /* exit, not _exit: a coverage build writes its counters */
  }
  free(data);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    snprintf(why, whylen, "timed out after %d s", REPLAY_TIMEOUT);
  else if (WIFSIGNALED(status))
    snprintf(why, whylen, "killed by signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  else snprintf(why, whylen, "exit status %d", WEXITSTATUS(status));
  return 1;
}

int main(int argc, char **argv) {
  const char *name =
      strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
  int failed = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE...\n", argv[0]);
    return 2;
  }
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; i++) {
    char why[160];
    if (replay_one(argv[i], why, sizeof why) != 0) {
      printf("FAIL %s %s: %s\n", name, argv[i], why);
      failed++;
    }
  }
  printf("%s: %d inputs, %d failed\n", name, argc - 1, failed);
  return failed ? 1 : 0;
}
