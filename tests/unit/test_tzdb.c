/*
** test_tzdb.c -- the zone directory (ext/time/tzdb.c, tzdb_names.c)
** against a directory built for it: files that are not what a name
** promises (truncated, not TZif, a folder, a FIFO, unreadable, too large,
** a dangling link), names the listing leaves out, paths too long, the
** cache's and the listing's count limits, and the failures the machine
** produces (allocations, fstat, read), injected by the wrappers below.
**
** Failures on demand: the Makefile links this test with GNU ld's
** --wrap for malloc, calloc, realloc, open, fstat, lstat and read, so the
** pure modules' calls reach the __wrap_ functions here, which pass them
** on (__real_) unless a test armed a failure. open and lstat also refuse,
** as root, what permissions refuse every other user (denied()).
*/
#include "time/tz.h"
#include "time/tzdb.h"
#include "time/tzdb_names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tzif_fixed.h"

/* ---- failures on demand -------------------------------------------------- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
int __real_open(const char *path, int flags, ...);
int __real_fstat(int fd, struct stat *st);
int __real_lstat(const char *path, struct stat *st);
ssize_t __real_read(int fd, void *buf, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
int __wrap_open(const char *path, int flags, ...);
int __wrap_fstat(int fd, struct stat *st);
int __wrap_lstat(const char *path, struct stat *st);
ssize_t __wrap_read(int fd, void *buf, size_t n);

static long alloc_left = -1; /* allocations before one fails; -1: none */
static int alloc_failed;     /* the armed failure happened */
static int fstat_errno;      /* fstat fails once with it */
static int fstat_shrink;     /* fstat reports one byte less, once */
static int read_errno;       /* read fails once with it */

static int alloc_fails(void) {
  if (alloc_left < 0 || alloc_left-- > 0) return 0;
  alloc_failed = 1;
  return 1;
}

void *__wrap_malloc(size_t n) {
  return alloc_fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t k, size_t n) {
  return alloc_fails() ? NULL : __real_calloc(k, n);
}

void *__wrap_realloc(void *p, size_t n) {
  return alloc_fails() ? NULL : __real_realloc(p, n);
}

/* Root may read any file and search any folder; for the other users a
** file without read permission cannot be opened and nothing in a folder
** without search permission can be reached. This is the same answer for
** root, so the tests see what every user but root sees. */
static int denied(const char *path, int read) {
  struct stat st;
  char parent[4200];
  const char *slash = strrchr(path, '/');
  if (geteuid() != 0) return 0;
  if (read && stat(path, &st) == 0 && !S_ISDIR(st.st_mode) &&
      (st.st_mode & 0444) == 0)
    return 1;
  snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - path) : 1,
           slash ? path : ".");
  return stat(parent, &st) == 0 && (st.st_mode & 0111) == 0;
}

int __wrap_open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  if (denied(path, 1)) {
    errno = EACCES;
    return -1;
  }
  return __real_open(path, flags, mode);
}

int __wrap_lstat(const char *path, struct stat *st) {
  if (denied(path, 0)) {
    errno = EACCES;
    return -1;
  }
  return __real_lstat(path, st);
}

int __wrap_fstat(int fd, struct stat *st) {
  int rc;
  if (fstat_errno) {
    errno = fstat_errno;
    fstat_errno = 0;
    return -1;
  }
  rc = __real_fstat(fd, st);
  if (rc == 0 && fstat_shrink) {
    st->st_size--;
    fstat_shrink = 0;
  }
  return rc;
}

ssize_t __wrap_read(int fd, void *buf, size_t n) {
  if (read_errno) {
    errno = read_errno;
    read_errno = 0;
    return -1;
  }
  return __real_read(fd, buf, n);
}

/* ---- the directory --------------------------------------------------------- */

static char dir[512];

/* 61 bytes: "Fix/" and this is one more than a name may have. */
static const char long_name[] =
    "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

static void write_file(const char *path, const void *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(bytes, 1, n, f) == n, "writing %s", path);
  if (f) fclose(f);
}

static void put(const char *rel, const void *bytes, size_t n) {
  char path[1100];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  write_file(path, bytes, n);
}

static void sh(const char *script) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s", dir, script);
  CHECK(system(cmd) == 0, "%s", script);
}

/* A fresh directory next to this program (tzdbfix/), its files below. */
static int build_dir(const char *argv0) {
  const char *slash = strrchr(argv0, '/');
  char cmd[2400];
  if (slash)
    snprintf(dir, sizeof dir, "%.*s/tzdbfix", (int)(slash - argv0), argv0);
  else snprintf(dir, sizeof dir, "tzdbfix");
  /* (a folder left without search permission is opened up to go) */
  snprintf(cmd, sizeof cmd,
           "d='%s' && { chmod -R u+rwx \"$d\" 2>/dev/null; rm -rf \"$d\"; } && "
           "mkdir -p \"$d/Fix/Folder\" \"$d/Fix/Shut\"",
           dir);
  if (system(cmd) != 0) return -1;
  put("Fix/Three", tzif_plus3, sizeof tzif_plus3);
  put("Fix/THREE", tzif_plus3,
      sizeof tzif_plus3); /* the same name in another case */
  put("Fix/Gone", tzif_plus3, sizeof tzif_plus3); /* removed once listed */
  put("Fix/Locked", tzif_plus3, sizeof tzif_plus3);
  put("Fix/Trunc", tzif_plus3, 30);
  static const char text[] = "A text file, not a zone file: no TZif magic.";
  put("Fix/Text", text, sizeof text - 1);
  put("Fix/A~B", tzif_plus3, sizeof tzif_plus3);
  put("Fix/A[B", tzif_plus3, sizeof tzif_plus3);
  put("Fix/A`B", tzif_plus3, sizeof tzif_plus3);
  put("Fix/A{B", tzif_plus3, sizeof tzif_plus3);
  put("Fix/A|B", tzif_plus3, sizeof tzif_plus3);
  put("Fix/A@B", tzif_plus3, sizeof tzif_plus3);
  char rel[80];
  snprintf(rel, sizeof rel, "Fix/%s", long_name);
  put(rel, tzif_plus3, sizeof tzif_plus3);
  put("Fix/Big", "TZif", 4);
  put("Fix/Shut/Zone", tzif_plus3, sizeof tzif_plus3);
  sh("chmod 000 Fix/Locked && chmod 644 Fix/Shut && mkfifo Fix/Fifo && ln -s Nowhere Fix/Dangling && "
     "truncate -s 1048577 Fix/Big");
  return 0;
}

static void expect_error(tzdb *db, const char *name, const char *message) {
  const tz_zone *z = (const tz_zone *)1;
  char err[256] = "";
  CHECK(tzdb_get(db, name, &z, err, sizeof err) == -1 && z == NULL,
        "'%s' should fail", name);
  CHECK_STR(err, message, name);
}

static void expect_three(tzdb *db, const char *name) {
  const tz_zone *z = NULL;
  char err[256] = "";
  CHECK(tzdb_get(db, name, &z, err, sizeof err) == 0 && z &&
            tz_offset_at(z, 0) == 3 * 3600,
        "%s: %s", name, err);
}

/* ---- files that are not zones ---------------------------------------------- */

static void test_files(void) {
  tzdb *db = tzdb_new(dir);
  CHECK(db != NULL, "tzdb_new");
  if (!db) return;
  expect_three(db, "Fix/Three");
  expect_error(db, "Fix/Trunc",
               "bad time zone file for 'Fix/Trunc': TZif: truncated header");
  expect_error(db, "Fix/Text",
               "bad time zone file for 'Fix/Text': TZif: bad magic");
  expect_error(db, "Fix/Folder", "unknown time zone 'Fix/Folder'");
  expect_error(db, "Fix/Three/Sub", "unknown time zone 'Fix/Three/Sub'");
  expect_error(db, "Fix/Fifo", "unknown time zone 'Fix/Fifo'"); /* no wait */
  expect_error(db, "Fix/Dangling", "unknown time zone 'Fix/Dangling'");
  expect_error(db, "Fix/Locked", "unknown time zone 'Fix/Locked'");
  expect_error(db, "Fix/Shut/Zone", "unknown time zone 'Fix/Shut/Zone'");
  expect_error(db, "Fix/Big",
               "cannot load time zone 'Fix/Big': file too large");
  /* names tzdb refuses before any path is built, shown with '?' */
  expect_error(db, "Fix/A~B", "invalid time zone name 'Fix/A~B'");
  expect_error(db, "Fix/A`B", "invalid time zone name 'Fix/A`B'");
  expect_error(db, "Fix/A{B", "invalid time zone name 'Fix/A{B'");
  expect_error(db, "Fix/A\xff", "invalid time zone name 'Fix/A?'");
  expect_error(db, "Fix/A\x7f", "invalid time zone name 'Fix/A?'");
  tzdb_free(db);
  tzdb_free(NULL);
}

/* ---- the listing --------------------------------------------------------------- */

static void test_listing(void) {
  tzdb_names *n = tzdb_names_load(dir);
  CHECK(n != NULL, "tzdb_names_load");
  if (!n) return;
  /* Fix/Big, Fix/Gone, Fix/THREE, Fix/Three, Fix/Trunc (the listing
  ** reads the magic only); not the rest */
  CHECK_EQ_I64(tzdb_names_count(n), 5, "listed");
  CHECK_STR(tzdb_names_canonical(n, "fix/trunc"), "Fix/Trunc", "truncated");
  CHECK_STR(tzdb_names_canonical(n, "fix/three"), "Fix/THREE",
            "of two spellings, the first in byte order");
  CHECK_STR(tzdb_names_canonical(n, "Fix/Three"), "Fix/THREE", "as given too");
  static const char *const left_out[] = {
      "Fix/Locked",   "Fix/Text", "Fix/A~B",    "Fix/A[B",
      "Fix/A`B",      "Fix/A{B",  "Fix/A|B",    "Fix/A@B",
      "Fix/Dangling", "Fix/Fifo", "Fix/Folder", "Fix/Shut/Zone"};
  for (size_t k = 0; k < sizeof left_out / sizeof left_out[0]; k++)
    CHECK(tzdb_names_canonical(n, left_out[k]) == NULL, "%s is not listed",
          left_out[k]);
  char rel[80];
  snprintf(rel, sizeof rel, "Fix/%s", long_name);
  CHECK(tzdb_names_canonical(n, rel) == NULL, "65 bytes: not listed");
  CHECK_STR(tzdb_names_suggest(n, "Fix/Thre"), "Fix/THREE", "suggested");
  /* a name longer than any listed one plus the edits allowed */
  CHECK(tzdb_names_suggest(
            n,
            "Fix/Threeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
            "eeee") == NULL,
        "68 bytes: no suggestion");
  tzdb_names_free(n);
  /* no list (tzdb's when it could not be read) */
  CHECK_EQ_I64(tzdb_names_count(NULL), 0, "count of none");
  CHECK(tzdb_names_canonical(NULL, "UTC") == NULL, "canonical of none");
  CHECK(tzdb_names_suggest(NULL, "Europe/Berlin") == NULL, "suggest of none");
}

/* A name listed, then removed: the list is read once per cache, so the
** lookup by the listed spelling is the one that fails, and the list still
** offers the name. */
static void test_removed(void) {
  tzdb *db = tzdb_new(dir);
  char path[1100];
  if (!db) return;
  expect_error(db, "Fix/Gonne",
               "unknown time zone 'Fix/Gonne'; did you mean 'Fix/Gone'?");
  snprintf(path, sizeof path, "%s/Fix/Gone", dir);
  CHECK(unlink(path) == 0, "unlink %s", path);
  expect_error(db, "Fix/Gone",
               "unknown time zone 'Fix/Gone'; did you mean 'Fix/Gone'?");
  expect_error(db, "fix/gone",
               "unknown time zone 'Fix/Gone'; did you mean 'Fix/Gone'?");
  tzdb_free(db);
}

/* Messages where the caller gave no room: nothing written, same result. */
static void test_no_message(void) {
  tzdb *db = tzdb_new(dir);
  const tz_zone *z;
  char err[8] = "x";
  if (!db) return;
  CHECK(tzdb_get(db, "Fix/Thre", &z, NULL, 0) == -1, "unknown, err NULL");
  CHECK(tzdb_get(db, "Fix/Thre", &z, NULL, 100) == -1, "err NULL, errlen 100");
  CHECK(tzdb_get(db, "Fix/Thre", &z, err, 0) == -1 && strcmp(err, "x") == 0,
        "unknown, errlen 0");
  CHECK(tzdb_get(db, "Fix/Tr nc", &z, NULL, 0) == -1, "invalid, err NULL");
  CHECK(tzdb_get(db, "Fix/Three", &z, NULL, 0) == 0, "found, err NULL");
  CHECK(tzdb_get(db, "Fix/Thre", &z, err, sizeof err) == -1 &&
            strcmp(err, "unknown") == 0,
        "cut to the room: %s", err);
  tzdb_free(db);
}

/* ---- the directory's name ---------------------------------------------------- */

static void test_dir_names(void) {
  /* $TZDIR empty: the default directory */
  const char *old = getenv("TZDIR");
  char keep[600] = "";
  if (old) snprintf(keep, sizeof keep, "%s", old);
  setenv("TZDIR", "", 1);
  tzdb *db = tzdb_new(NULL);
  if (old) setenv("TZDIR", keep, 1);
  else unsetenv("TZDIR");
  CHECK(db != NULL, "tzdb_new(NULL)");
  if (db) {
    expect_error(db, "Fix/Three",
                 "unknown time zone 'Fix/Three'"); /* not in zoneinfo */
    const tz_zone *z;
    char err[256];
    CHECK(tzdb_get(db, "Etc/GMT-3", &z, err, sizeof err) == 0 &&
              tz_offset_at(z, 0) == 3 * 3600,
          "/usr/share/zoneinfo: %s", err);
    tzdb_free(db);
  }

  /* a directory's name so long that no file name fits after it */
  char big[4200];
  memset(big, 'd', sizeof big - 1);
  big[0] = '/';
  big[sizeof big - 1] = 0;
  db = tzdb_new(big);
  CHECK(db != NULL, "tzdb_new(long)");
  if (db) {
    expect_error(db, "Fix/Three", "unknown time zone 'Fix/Three'");
    tzdb_free(db);
  }

  /* a real directory whose name leaves room for short names only */
  char deep[4200], cmd[4400];
  size_t n = (size_t)snprintf(deep, sizeof deep, "%s/deep", dir);
  while (n + 201 < 4096 - 40) {
    deep[n++] = '/';
    memset(deep + n, 'd', 200);
    n += 200;
  }
  deep[n++] = '/';
  while (n < 4096 - 40) deep[n++] = 'e';
  deep[n] = 0;
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", deep);
  CHECK(system(cmd) == 0, "mkdir deep");
  char file[4300];
  snprintf(file, sizeof file, "%s/Abc", deep);
  write_file(file, tzif_plus3, sizeof tzif_plus3);
  /* the directory's name, '/', 46 bytes: more than a path can hold, so
  ** this file is written from inside the directory */
  char here[1100];
  CHECK(getcwd(here, sizeof here) != NULL, "getcwd");
  if (chdir(deep) == 0) {
    snprintf(file, sizeof file, "%.46s", long_name);
    write_file(file, tzif_plus3, sizeof tzif_plus3);
    CHECK(chdir(here) == 0, "back to %s", here);
  } else {
    CHECK(0, "chdir %s", deep);
  }
  tzdb_names *names = tzdb_names_load(deep);
  CHECK(names && tzdb_names_count(names) == 1, "deep: only the short name");
  CHECK_STR(tzdb_names_canonical(names, "abc"), "Abc", "deep: short name");
  tzdb_names_free(names);
  db = tzdb_new(deep);
  if (db) {
    expect_three(db, "Abc");
    char name[64], want[120];
    snprintf(name, sizeof name, "%.46s", long_name);
    snprintf(want, sizeof want, "unknown time zone '%s'", name);
    expect_error(db, name, want);
    tzdb_free(db);
  }
}

/* ---- count limits ------------------------------------------------------------- */

/* 4097 names of one zone (hard links): the listing stops at 4096, the
** cache at 1024 zones. */
static void test_limits(void) {
  char many[600], path[700], first[700];
  snprintf(many, sizeof many, "%s/many", dir);
  CHECK(mkdir(many, 0755) == 0, "mkdir %s", many);
  snprintf(first, sizeof first, "%s/Z0000", many);
  FILE *f = fopen(first, "wb");
  if (!f) return;
  fwrite(tzif_plus3, 1, sizeof tzif_plus3, f);
  fclose(f);
  for (int k = 1; k <= 4096; k++) {
    snprintf(path, sizeof path, "%s/Z%04d", many, k);
    if (link(first, path) != 0) {
      CHECK(0, "link %s", path);
      return;
    }
  }
  tzdb_names *n = tzdb_names_load(many);
  CHECK(n && tzdb_names_count(n) == 4096, "listing stops at 4096");
  tzdb_names_free(n);
  tzdb *db = tzdb_new(many);
  if (!db) return;
  int ok = 0;
  const tz_zone *z;
  char err[256], name[16];
  for (int k = 0; k < 1024; k++) {
    snprintf(name, sizeof name, "Z%04d", k);
    ok += tzdb_get(db, name, &z, err, sizeof err) == 0;
  }
  CHECK_EQ_I64(ok, 1024, "1024 zones cached");
  expect_error(db, "Z1024",
               "cannot load time zone 'Z1024': too many time zones in use");
  expect_three(db, "Z0000"); /* the cached ones still answer */
  CHECK(tzdb_get(db, "UTC", &z, err, sizeof err) == 0 && z == tz_utc(),
        "so does UTC");
  tzdb_free(db);
}

/* ---- failures of the machine --------------------------------------------------- */

static void test_io_failures(void) {
  tzdb *db = tzdb_new(dir);
  if (!db) return;
  /* a read interrupted by a signal is tried again */
  read_errno = EINTR;
  expect_three(db, "Fix/Three");
  CHECK(read_errno == 0, "the EINTR was seen");
  read_errno = EIO;
  expect_error(db, "Fix/THREE",
               "cannot load time zone 'Fix/THREE': cannot read the file");
  fstat_errno = EOVERFLOW;
  expect_error(db, "Fix/THREE",
               "cannot load time zone 'Fix/THREE': cannot read the file");
  /* the file grew (by a byte) between fstat and read */
  fstat_shrink = 1;
  expect_error(db, "Fix/THREE",
               "cannot load time zone 'Fix/THREE': file too large");
  expect_three(db, "Fix/THREE"); /* nothing was cached by the failures */
  tzdb_free(db);
}

/* What a session of lookups ends with: "ok", or the first error. */
static void session(char *out, size_t cap) {
  tzdb *db = tzdb_new(dir);
  const tz_zone *z;
  const char *canon = NULL;
  char err[256] = "";
  if (!db) {
    snprintf(out, cap, "no tzdb");
    return;
  }
  if (tzdb_get(db, "Fix/Three", &z, err, sizeof err) != 0 ||
      tzdb_lookup(db, "fix/THREE", &z, &canon, err, sizeof err) != 0 ||
      tzdb_get(db, "Fix/Thre", &z, err, sizeof err) == 0)
    snprintf(out, cap, "%s", err);
  else snprintf(out, cap, "ok %s, %s", canon, err);
  tzdb_free(db);
}

/* Every allocation of a session failed in turn: each run ends with a
** message that says so, or (when only the list of names was lost) with
** no canonical spelling; never a crash or a leak (ASan). */
static void test_alloc_failures(void) {
  char want[300], got[300];
  session(want, sizeof want);
  CHECK_STR(want,
            "ok Fix/THREE, unknown time zone 'Fix/Thre'; did you mean "
            "'Fix/THREE'?",
            "the session");
  int runs = 0;
  for (long k = 0; k < 1000; k++) {
    alloc_failed = 0;
    alloc_left = k;
    session(got, sizeof got);
    alloc_left = -1;
    if (!alloc_failed) {
      CHECK_STR(got, want, "no failure left");
      break;
    }
    runs++;
    CHECK(strcmp(got, "no tzdb") == 0 || strstr(got, "out of memory") ||
              strcmp(got, "unknown time zone 'fix/THREE'") == 0 ||
              /* the list lost, then read again for the suggestion */
              strcmp(got, "unknown time zone 'fix/THREE'; did you mean "
                          "'Fix/THREE'?") == 0 ||
              strcmp(got, "unknown time zone 'Fix/Thre'") == 0,
          "allocation %ld failed: %s", k, got);
  }
  CHECK(runs >= 8, "allocations failed in turn: %d", runs);
}

int main(int argc, char **argv) {
  (void)argc;
  if (build_dir(argv[0]) != 0) {
    CHECK(0, "building %s failed", dir);
    return check_report("tzdb");
  }
  test_files();
  test_listing();
  test_no_message();
  test_io_failures();
  test_alloc_failures();
  test_removed();
  test_dir_names();
  test_limits();
  return check_report("tzdb");
}
