/*
** tzdb_links.c -- the link table of a zic input file (tzdata.zi): link
** name -> zone. See tzdb_links.h.
**
** Owns: splitting the text into lines and fields, checking both names,
** the array of pairs sorted by link name (binary search), and following a
** chain of links to its zone. No files, no SQLite.
*/
#include "time/tzdb_links.h"

#include <stdlib.h>
#include <string.h>

#define LINKS_MAX_NAME 64
#define LINKS_MAX_COUNT 4096
#define LINKS_MAX_HOPS 8

typedef struct link_pair {
  char *link, *zone;
} link_pair;

struct tzdb_links {
  link_pair *v;
  size_t n, cap;
};

static int is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

static int name_ok(const char *s, size_t n) {
  if (n == 0 || n > LINKS_MAX_NAME || s[0] == '/' || s[n - 1] == '/') return 0;
  for (size_t k = 0; k < n; k++) {
    char ch = s[k];
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
          (ch >= '0' && ch <= '9') || ch == '_' || ch == '+' || ch == '-' ||
          ch == '/'))
      return 0;
    if (ch == '/' && k + 1 < n && s[k + 1] == '/') return 0;
  }
  return 1;
}

static char *copy(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (p) {
    memcpy(p, s, n);
    p[n] = 0;
  }
  return p;
}

/* The next field of line [*at, end): its start and length, 0 when none. */
static size_t field(const char *line, size_t end, size_t *at,
                    const char **start) {
  size_t k = *at;
  while (k < end && is_blank(line[k])) k++;
  *start = line + k;
  size_t from = k;
  while (k < end && !is_blank(line[k]) && line[k] != '#') k++;
  *at = k;
  return k - from;
}

/* Adds "L TARGET LINK" of line [0, end) when it is one. -1 only when out
** of memory. */
static int add_line(tzdb_links *l, const char *line, size_t end) {
  size_t at = 0;
  const char *f[4];
  size_t len[4];
  for (int i = 0; i < 4; i++) len[i] = field(line, end, &at, &f[i]);
  if (len[0] != 1 || f[0][0] != 'L' || len[3] != 0) return 0;
  if (!name_ok(f[1], len[1]) || !name_ok(f[2], len[2])) return 0;
  if (l->n == LINKS_MAX_COUNT) return 0;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 64;
    link_pair *v = realloc(l->v, cap * sizeof *v);
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
  }
  link_pair *p = &l->v[l->n];
  p->link = copy(f[2], len[2]);
  p->zone = copy(f[1], len[1]);
  if (!p->link || !p->zone) {
    free(p->link);
    free(p->zone);
    return -1;
  }
  l->n++;
  return 0;
}

static int pair_order(const void *a, const void *b) {
  const link_pair *x = a, *y = b;
  int c = strcmp(x->link, y->link);
  /* the same link twice: the first line wins (stable by address) */
  return c ? c : (x < y ? -1 : x > y);
}

/* Drops the second and later pairs of one link name (sorted array). */
static void drop_repeats(tzdb_links *l) {
  size_t kept = 0;
  for (size_t k = 0; k < l->n; k++) {
    if (kept && strcmp(l->v[kept - 1].link, l->v[k].link) == 0) {
      free(l->v[k].link);
      free(l->v[k].zone);
      continue;
    }
    l->v[kept++] = l->v[k];
  }
  l->n = kept;
}

tzdb_links *tzdb_links_parse(const char *text, size_t len) {
  tzdb_links *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  size_t start = 0;
  while (start < len) {
    const char *nl = memchr(text + start, '\n', len - start);
    size_t end = nl ? (size_t)(nl - text) : len;
    if (add_line(l, text + start, end - start) != 0) {
      tzdb_links_free(l);
      return NULL;
    }
    start = end + 1;
  }
  if (l->n) qsort(l->v, l->n, sizeof *l->v, pair_order);
  drop_repeats(l);
  return l;
}

void tzdb_links_free(tzdb_links *l) {
  if (!l) return;
  for (size_t k = 0; k < l->n; k++) {
    free(l->v[k].link);
    free(l->v[k].zone);
  }
  free(l->v);
  free(l);
}

size_t tzdb_links_count(const tzdb_links *l) { return l ? l->n : 0; }

int tzdb_links_is_utc(const char *zone) {
  return strcmp(zone, "Etc/UTC") == 0 || strcmp(zone, "Etc/GMT") == 0;
}

/* The zone link name stands for in one step, or NULL. */
static const char *target_of(const tzdb_links *l, const char *name) {
  size_t lo = 0, hi = l->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(l->v[mid].link, name);
    if (c == 0) return l->v[mid].zone;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

const char *tzdb_links_zone(const tzdb_links *l, const char *name) {
  if (!l || !name) return NULL;
  const char *zone = target_of(l, name);
  if (!zone) return NULL;
  for (int hop = 1; hop < LINKS_MAX_HOPS; hop++) {
    if (tzdb_links_is_utc(zone)) return "UTC";
    const char *next = target_of(l, zone);
    if (!next) return zone;
    zone = next;
  }
  return NULL; /* a loop, or a chain longer than any tzdata has */
}
