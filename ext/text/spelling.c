/*
** spelling.c -- see spelling.h. Both texts are walked side by side,
** skipping separators and comparing the other bytes with ASCII letters
** folded to lower case.
*/
#include "text/spelling.h"

#include <string.h>

static int is_separator(unsigned char c) {
  return c == '-' || c == '_' || c == ' ' || c == '\t' || c == '\n' ||
         c == '\r' || c == '\v' || c == '\f';
}

static unsigned char lower(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

int spelling_same_n(const char *a, size_t n, const char *b) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *end = p + n;
  const unsigned char *q = (const unsigned char *)b;
  for (;;) {
    while (p < end && *p && is_separator(*p)) p++;
    while (*q && is_separator(*q)) q++;
    int a_done = p == end || !*p;
    if (a_done || !*q) return a_done && !*q;
    if (lower(*p) != lower(*q)) return 0;
    p++;
    q++;
  }
}

int spelling_same(const char *a, const char *b) {
  return spelling_same_n(a, strlen(a), b);
}

int spelling_find(const char *s, const char *const *set) {
  for (int i = 0; s && set[i]; i++) {
    if (spelling_same(s, set[i])) return i;
  }
  return -1;
}
