/*
** clean_text.c -- see clean_text.h. The cache is a small direct-mapped
** table per connection: a slot per hash of (text, max), the newest text
** of a slot replacing the one before, texts over CACHE_TEXT_MAX bytes not
** kept; so it holds at most CACHE_SLOTS short texts (under 200 KiB). The
** rules are fixed (text/redact.c), so a text cleaned once is cleaned the
** same way for as long as the connection lives.
*/
#include "agent/clean_text.h"

#include <string.h>

#include "base/args.h"
#include "text/utf8.h"

SQLITE_EXTENSION_INIT3

#define CACHE_SLOTS 64
#define CACHE_TEXT_MAX 512

typedef struct clean_slot {
  char *raw; /* NULL: empty */
  char *clean;
  int max, cut;
} clean_slot;

struct clean_cache {
  clean_slot slot[CACHE_SLOTS];
};

static void cache_destroy(void *p) {
  clean_cache *cc = p;
  for (int i = 0; i < CACHE_SLOTS; i++) {
    sqlite3_free(cc->slot[i].raw);
    sqlite3_free(cc->slot[i].clean);
  }
  sqlite3_free(cc);
}

void text_cleaner_init(text_cleaner *tc, trg_ctx *c) {
  redact_index_init(&tc->rx);
  if (!c->clean_texts.p) {
    clean_cache *cc = sqlite3_malloc(sizeof *cc);
    if (cc) {
      memset(cc, 0, sizeof *cc);
      c->clean_texts.p = cc;
      c->clean_texts.destroy = cache_destroy;
    }
  }
  tc->cache = c->clean_texts.p;
}

/* Cut z (in place) to at most max bytes, ending in "..." when cut. */
static int cut_text(char *z, int max) {
  int n = (int)strlen(z);
  if (n <= max) return 0;
  int dots = max >= 3 ? 3 : 0;
  int k = max - dots;
  while (k > 0 && ((unsigned char)z[k] & 0xC0) == 0x80) k--; /* UTF-8 */
  memcpy(z + k, "...", (size_t)dots);
  z[k + dots] = '\0';
  return 1;
}

/* clean_text without the cache. */
static char *clean_now(const redact_index *rx, const char *raw, int max,
                       int *cut) {
  size_t n = strlen(raw);
  char *fixed = NULL; /* a row written before bytes were checked */
  if (!utf8_check(raw, n, NULL)) {
    if (!(raw = fixed = trg_text_repair(raw, n, 0))) return NULL;
    n = strlen(raw);
  }
  /* one pass when the redacted text fits twice the original plus a label
  ** or two (it nearly always does), a second into a buffer of its
  ** measured length otherwise */
  size_t cap = 2 * n + 64;
  char *z = sqlite3_malloc64(cap);
  size_t len = z ? redact_with(rx, raw, n, z, cap) : 0;
  if (z && len >= cap) {
    sqlite3_free(z);
    if ((z = sqlite3_malloc64(len + 1))) redact_with(rx, raw, n, z, len + 1);
  }
  sqlite3_free(fixed);
  if (!z) return NULL;
  size_t w = 0;
  for (size_t r = 0; r < len; r++) {
    unsigned char c = (unsigned char)z[r];
    int blank = c <= ' ' || c == 0x7f;
    if (blank && (w == 0 || z[w - 1] == ' ')) continue;
    z[w++] = blank ? ' ' : (char)c;
  }
  while (w > 0 && z[w - 1] == ' ') w--;
  z[w] = '\0';
  *cut = cut_text(z, max);
  return z;
}

static unsigned slot_of(const char *raw, size_t n, int max) {
  uint32_t h = 2166136261u ^ (uint32_t)max; /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)raw[i]) * 16777619u;
  return h % CACHE_SLOTS;
}

char *clean_text(const text_cleaner *tc, const char *raw, int max, int *cut) {
  size_t n = strlen(raw);
  clean_slot *sl = NULL;
  if (tc->cache && n <= CACHE_TEXT_MAX) {
    sl = &tc->cache->slot[slot_of(raw, n, max)];
    if (sl->raw && sl->max == max && strcmp(sl->raw, raw) == 0) {
      if (sl->cut && cut) *cut = 1;
      return sqlite3_mprintf("%s", sl->clean);
    }
  }
  int was_cut = 0;
  char *z = clean_now(&tc->rx, raw, max, &was_cut);
  if (was_cut && cut) *cut = 1;
  if (z && sl) { /* kept when both copies could be made */
    char *r = sqlite3_mprintf("%s", raw), *c = sqlite3_mprintf("%s", z);
    if (r && c) {
      sqlite3_free(sl->raw);
      sqlite3_free(sl->clean);
      *sl = (clean_slot){r, c, max, was_cut};
    } else {
      sqlite3_free(r);
      sqlite3_free(c);
    }
  }
  return z;
}
