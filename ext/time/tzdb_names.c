/*
** tzdb_names.c -- the list of zone names in a zoneinfo directory, for
** case-insensitive lookup and "did you mean" suggestions. See
** tzdb_names.h.
**
** Owns: walking the directory (opendir/readdir, lstat, a 4-byte read of
** each candidate file for the TZif magic), the sorted name array, and the
** bounded edit distance. Read once per tzdb cache, only when a name is not
** found as given (the common, exact spelling never lists anything).
*/
#include "time/tzdb_names.h"

#include "text/coverage.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAMES_MAX_LEN 64
#define NAMES_MAX_DEPTH 2 /* "America/Argentina/Buenos_Aires" is depth 2 */
#define NAMES_MAX_COUNT 4096

struct tzdb_names {
  char **v;
  size_t n, cap;
};

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

static int casecmp(const char *a, const char *b) {
  for (; *a && lower((unsigned char)*a) == lower((unsigned char)*b); a++, b++) {
  }
  return lower((unsigned char)*a) - lower((unsigned char)*b);
}

/* Case-insensitive order, then byte order (a total order). */
static int name_order(const void *pa, const void *pb) {
  const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
  int c = casecmp(a, b);
  return c ? c : strcmp(a, b);
}

static int name_chars_ok(const char *s) {
  for (; *s; s++) {
    char ch = *s;
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
          (ch >= '0' && ch <= '9') || ch == '_' || ch == '+' || ch == '-'))
      return 0;
  }
  return 1;
}

static int is_tzif(const char *path) {
  char magic[4];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t got = read(fd, magic, sizeof magic);
  close(fd);
  return got == 4 && memcmp(magic, "TZif", 4) == 0;
}

static int add(tzdb_names *n, const char *name) {
  if (n->n == n->cap) {
    size_t cap = n->cap ? n->cap * 2 : 256;
    char **v = realloc(n->v, cap * sizeof *v);
    if (!v) return -1;
    n->v = v;
    n->cap = cap;
  }
  size_t len = strlen(name) + 1;
  if (!(n->v[n->n] = malloc(len))) return -1;
  memcpy(n->v[n->n++], name, len);
  return 0;
}

/* Lists dir/rel (rel "" at the top). -1 only when out of memory. */
static int walk(tzdb_names *n, const char *dir, const char *rel, int depth) {
  char path[4096], name[NAMES_MAX_LEN + 1];
  struct dirent *e;
  struct stat st;
  int rc = 0;
  if ((size_t)snprintf(path, sizeof path, "%s%s%s", dir, *rel ? "/" : "",
                       rel) >= sizeof path)
    return 0;
  DIR *d = opendir(path);
  if (!d) return 0;
  while (rc == 0 && n->n < NAMES_MAX_COUNT && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || !name_chars_ok(e->d_name)) continue;
    if ((size_t)snprintf(name, sizeof name, "%s%s%s", rel, *rel ? "/" : "",
                         e->d_name) >= sizeof name)
      continue;
    if (depth == 0 &&
        (strcmp(name, "posix") == 0 || strcmp(name, "right") == 0 ||
         strcmp(name, "localtime") == 0 || strcmp(name, "posixrules") == 0))
      continue;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >=
            sizeof path ||
        lstat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      if (depth < NAMES_MAX_DEPTH) rc = walk(n, dir, name, depth + 1);
      continue;
    }
    /* a link counts when it leads to a regular file, never to a folder */
    if (S_ISLNK(st.st_mode) && stat(path, &st) != 0) continue;
    if (S_ISREG(st.st_mode) && is_tzif(path)) rc = add(n, name);
  }
  closedir(d);
  return rc;
}

tzdb_names *tzdb_names_load(const char *dir) {
  tzdb_names *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  if (walk(n, dir, "", 0) != 0) {
    tzdb_names_free(n);
    return NULL;
  }
  if (n->n) qsort(n->v, n->n, sizeof *n->v, name_order);
  return n;
}

void tzdb_names_free(tzdb_names *n) {
  if (!n) return;
  for (size_t k = 0; k < n->n; k++) free(n->v[k]);
  free(n->v);
  free(n);
}

size_t tzdb_names_count(const tzdb_names *n) { return n ? n->n : 0; }

const char *tzdb_names_canonical(const tzdb_names *n, const char *name) {
  size_t lo = 0, hi = n ? n->n : 0;
  while (lo < hi) { /* first name not below `name`, ignoring case */
    size_t mid = lo + (hi - lo) / 2;
    if (casecmp(n->v[mid], name) < 0) lo = mid + 1;
    else hi = mid;
  }
  return n && lo < n->n && casecmp(n->v[lo], name) == 0 ? n->v[lo] : NULL;
}

/* Levenshtein distance of a and b ignoring ASCII case, or limit + 1 as
** soon as it must exceed limit. b is a listed name or a part of one (at
** most NAMES_MAX_LEN bytes: walk() lists no longer one); row holds its
** bytes. */
static int distance(const char *a, const char *b, int limit) {
  int row[NAMES_MAX_LEN + 1];
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (NEVER(lb > NAMES_MAX_LEN) || abs(la - lb) > limit) return limit + 1;
  for (int j = 0; j <= lb; j++) row[j] = j;
  for (int i = 1; i <= la; i++) {
    int diag = row[0], best = i;
    row[0] = i;
    for (int j = 1; j <= lb; j++) {
      int up = row[j];
      int cost =
          lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]);
      int v = diag + cost;
      if (up + 1 < v) v = up + 1;
      if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
      row[j] = v;
      diag = up;
      if (v < best) best = v;
    }
    if (best > limit) return limit + 1;
  }
  return row[lb];
}

/* distance(), except that with same_start the first letters must match:
** "CEST" is not one edit from "West", nor "America" two from "Merida". */
static int close_to(const char *name, const char *s, int same_start,
                    int limit) {
  if (same_start && lower((unsigned char)name[0]) != lower((unsigned char)s[0]))
    return limit + 1;
  return distance(name, s, limit);
}

const char *tzdb_names_suggest(const tzdb_names *n, const char *name) {
  size_t len = strlen(name);
  int limit = len < 4 ? -1 : len <= 6 ? 1 : len <= 12 ? 2 : 3;
  const char *best = NULL;
  if (!n || limit < 0 || len > NAMES_MAX_LEN + 3) return NULL;
  int bestd = limit + 1, whole = strchr(name, '/') != NULL;
  for (size_t k = 0; k < n->n && bestd > 0; k++) {
    const char *s = n->v[k], *last = strrchr(s, '/');
    int d = close_to(name, s, len <= 6, bestd - 1);
    if (!whole && last) { /* d > 0: s has a '/', name has not */
      int dl = close_to(name, last + 1, 1, bestd - 1);
      if (dl < d) d = dl;
    }
    if (d < bestd) {
      bestd = d;
      best = s;
    }
  }
  return best;
}
