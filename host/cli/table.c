/*
** table.c -- the text tables of trigger-host's listings (see table.h).
*/
#include "cli/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/out.h"
#include "core/util.h"

/* Characters (not bytes) of valid UTF-8 text. */
static size_t width(const char *s) {
  size_t w = 0;
  for (; *s; s++) w += ((unsigned char)*s & 0xc0) != 0x80;
  return w;
}

void table_add(table *t, const char *const *cells) {
  t->cells =
      xrealloc(t->cells, sizeof(char *) * (size_t)((t->nrow + 1) * t->ncol));
  for (int c = 0; c < t->ncol; c++) {
    /* one line, valid UTF-8 */
    t->cells[t->nrow * t->ncol + c] = out_line_dup(cells[c] ? cells[c] : "-");
  }
  t->nrow++;
}

void table_print(table *t) {
  size_t *w = t->w;
  for (int i = 0; i < t->nrow * t->ncol; i++) {
    size_t cw = width(t->cells[i]);
    if (cw > w[i % t->ncol]) w[i % t->ncol] = cw;
  }
  for (int r = 0; r < t->nrow; r++) {
    for (int c = 0; c < t->ncol; c++) {
      const char *cell = t->cells[r * t->ncol + c];
      fputs(cell, stdout);
      if (c == t->ncol - 1) break;
      for (size_t k = width(cell); k < w[c] + 2; k++) putchar(' ');
    }
    putchar('\n');
  }
  table_free(t);
}

void table_free(table *t) {
  for (int i = 0; i < t->nrow * t->ncol; i++) free(t->cells[i]);
  free(t->cells);
  t->cells = NULL;
  t->nrow = 0;
}

/* The bytes of the first max characters of valid UTF-8 text s. */
static size_t chars_prefix(const char *s, size_t max) {
  size_t i = 0;
  for (size_t chars = 0; s[i]; i++) {
    if (((unsigned char)s[i] & 0xc0) != 0x80 && chars++ == max) break;
  }
  return i;
}

char *table_short(const char *e, size_t max) {
  char *s = out_line_dup(e ? e : "-");
  size_t keep = chars_prefix(s, max);
  if (!s[keep]) return s;
  char *out = xprintf("%.*s...", (int)keep, s);
  free(s);
  return out;
}

char *table_time(const char *iso) {
  if (!iso) return NULL;
  size_t n = strlen(iso);
  int zulu = n > 0 && iso[n - 1] == 'Z';
  char *out =
      xprintf("%.*s%s", (int)(n - (size_t)zulu), iso, zulu ? "+00:00" : "");
  char *t = strchr(out, 'T');
  if (t) *t = ' ';
  return out;
}
