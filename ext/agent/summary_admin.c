/*
** summary_admin.c -- the options of trigger_state_summary and
** trigger_state_payload (summary.h): the caps, stale_ms, and the
** admin items ({ts, text, resolved}) read in one pass over json_tree;
** then stale items dropped, directives on one topic resolved (the newest
** wins, last write wins) and the rest ordered by priority
** (docs/summary.md#conflicting-directives).
*/
#include <stdlib.h>
#include <string.h>

#include "agent/summary.h"
#include "base/args.h"
#include "store/json.h"

SQLITE_EXTENSION_INIT3

/* A top-level key of the options object; SQLITE_ERROR when unknown or bad.
** (admin is handled by the caller.) Caps above the hard limits clamp. */
static int opt_key(summary *s, const char *k, const char *type,
                   sqlite3_value *atom) {
  const struct {
    const char *key;
    int hard;
    int *slot;
  } caps[] = {
      {"max_total", SUM_MAX_TOTAL, &s->cap_total},
      {"max_admin", SUM_MAX_ADMIN, &s->cap_admin},
      {"max_loop", SUM_MAX_LOOP, &s->cap_loop},
      {"max_footer", SUM_MAX_FOOTER, &s->cap_footer},
  };
  /* numbers, and integer-valued strings ("max_total":"800") */
  i64 v = 0;
  int is_int = 0;
  if ((strcmp(type, "integer") == 0 || strcmp(type, "real") == 0 ||
       strcmp(type, "text") == 0) &&
      trg_int_of(atom, &v, &is_int) != SQLITE_OK)
    return SQLITE_NOMEM;
  if (strcmp(k, "stale_ms") == 0) {
    if (!is_int || v < 0) return SQLITE_ERROR;
    s->has_stale = 1;
    s->stale_ms = v;
    return SQLITE_OK;
  }
  for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
    if (strcmp(k, caps[i].key) != 0) continue;
    if (!is_int || v < 0) return SQLITE_ERROR;
    *caps[i].slot = v < caps[i].hard ? (int)v : caps[i].hard;
    return SQLITE_OK;
  }
  return SQLITE_ERROR; /* unknown key */
}

/* "topic: ..." -> lower-cased topic in out, else "". */
static void topic_of(const char *t, char out[SUM_TOPIC_MAX + 1]) {
  out[0] = '\0';
  while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r') t++;
  int n = 0;
  if (!((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z'))) return;
  while (n < SUM_TOPIC_MAX && t[n] && t[n] != ':') {
    unsigned char c = (unsigned char)t[n];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             (c >= '0' && c <= '9') || c == ' ' || c == '_' || c == '.' ||
             c == '/' || c == '-';
    if (!ok) return;
    n++;
  }
  if (t[n] != ':') return;
  char after = t[n + 1];
  if (after && after != ' ' && after != '\t' && after != '\n' && after != '\r')
    return;
  while (n > 0 && t[n - 1] == ' ') n--;
  for (int i = 0; i < n; i++) {
    char c = t[i];
    out[i] = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
  }
  out[n] = '\0';
}

/* A new admin item (an element of options.admin). */
static int item_new(summary *s, int *cap) {
  if (s->nitems == *cap) {
    *cap = *cap ? *cap * 2 : 16;
    adm_item *grown =
        sqlite3_realloc64(s->items, (sqlite3_uint64)*cap * sizeof *grown);
    if (!grown) return SQLITE_NOMEM;
    s->items = grown;
  }
  adm_item *it = &s->items[s->nitems];
  memset(it, 0, sizeof *it);
  it->idx = s->nitems++;
  return SQLITE_OK;
}

/* A member of an admin item: ts, text, resolved (others are ignored).
** seen: bit 1 ts, bit 2 text. */
static int item_field(adm_item *it, const char *k, const char *type,
                      sqlite3_value *atom, int *seen) {
  if (strcmp(k, "ts") == 0) {
    if (strcmp(type, "integer") != 0 && strcmp(type, "real") != 0 &&
        strcmp(type, "text") != 0) {
      return SQLITE_ERROR;
    }
    char *err;
    int rc = trg_instant_of(atom, 0, "ts", &it->ts, &err);
    sqlite3_free(err);
    *seen |= 1;
    return rc;
  }
  if (strcmp(k, "text") == 0) {
    if (strcmp(type, "text") != 0) return SQLITE_ERROR;
    const char *t = (const char *)sqlite3_value_text(atom);
    sqlite3_free(it->text);
    it->text = t ? sqlite3_mprintf("%s", t) : NULL;
    if (!it->text) return SQLITE_NOMEM;
    topic_of(it->text, it->topic);
    *seen |= 2;
    return SQLITE_OK;
  }
  if (strcmp(k, "resolved") == 0) {
    if (strcmp(type, "true") == 0) it->resolved = 1;
    else if (strcmp(type, "false") == 0 || strcmp(type, "null") == 0)
      it->resolved = 0;
    else if (strcmp(type, "integer") == 0)
      it->resolved = sqlite3_value_int64(atom) != 0;
    else return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

/*
** Options in one pass over json_tree (one parse, whatever the size): the
** root must be an object; its members are options; the elements of
** `admin` (an array) must be objects with a ts and a text. Nodes deeper
** than an item's members are skipped. Anything else is SQLITE_ERROR.
*/
int agent_summary_opts_read(summary *s, const char *json) {
  s->cap_total = SUM_MAX_TOTAL;
  s->cap_admin = SUM_MAX_ADMIN;
  s->cap_loop = SUM_MAX_LOOP;
  s->cap_footer = SUM_MAX_FOOTER;
  if (!json) return SQLITE_OK;
  store_json_each it;
  int rc = store_json_tree_open(s->st, json, &it), step = SQLITE_DONE;
  int cap = 0, seen = 3;
  i64 root = -1, admin = -1, item = -1;
  while (rc == SQLITE_OK && (step = store_json_each_next(&it)) == SQLITE_ROW) {
    const store_json_member *m = &it.m;
    const char *k = m->key, *type = m->type;
    if (m->top) {
      root = m->id;
      if (strcmp(type, "object") != 0) rc = SQLITE_ERROR;
    } else if (m->parent == root) {
      if (strcmp(k, "admin") != 0) rc = opt_key(s, k, type, m->value);
      else if (admin >= 0 || strcmp(type, "array") != 0) rc = SQLITE_ERROR;
      else admin = m->id;
    } else if (m->parent == admin) {
      if (seen != 3 || strcmp(type, "object") != 0) rc = SQLITE_ERROR;
      else rc = item_new(s, &cap);
      item = m->id;
      seen = 0;
    } else if (m->parent == item) {
      rc = item_field(&s->items[s->nitems - 1], k, type, m->value, &seen);
    }
  }
  if (rc == SQLITE_OK && step != SQLITE_DONE) rc = step;
  if (rc == SQLITE_OK && seen != 3) rc = SQLITE_ERROR; /* the last item */
  store_json_each_close(&it);
  return rc;
}

/* Newer first: ts descending, then later position first. */
static int newer_first(const adm_item *a, const adm_item *b) {
  if (a->ts != b->ts) return a->ts > b->ts ? -1 : 1;
  return a->idx > b->idx ? -1 : a->idx < b->idx;
}

static int cmp_topic(const void *pa, const void *pb) {
  const adm_item *a = *(adm_item *const *)pa, *b = *(adm_item *const *)pb;
  int c = strcmp(a->topic, b->topic);
  return c ? c : newer_first(a, b);
}

static int cmp_priority(const void *pa, const void *pb) {
  const adm_item *a = *(adm_item *const *)pa, *b = *(adm_item *const *)pb;
  if (a->resolved != b->resolved) return a->resolved - b->resolved;
  return newer_first(a, b);
}

/* ts < now - stale_ms, without overflow. */
static int is_stale(i64 ts, i64 now, i64 stale_ms) {
  return ts < now && (uint64_t)now - (uint64_t)ts > (uint64_t)stale_ms;
}

/* An admin question: the text, trailing white space ignored, ends in '?'
** (or the full-width U+FF1F). */
static int is_question(const char *t) {
  size_t n = strlen(t);
  while (n > 0 && (t[n - 1] == ' ' || (t[n - 1] >= '\t' && t[n - 1] <= '\r')))
    n--;
  if (n > 0 && t[n - 1] == '?') return 1;
  return n >= 3 && memcmp(t + n - 3, "\xEF\xBC\x9F", 3) == 0;
}

/* Drop stale items, resolve conflicts, order the rest by priority. */
int agent_summary_admin_resolve(summary *s) {
  if (!s->nitems) return SQLITE_OK;
  /* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
  s->order = sqlite3_malloc64((sqlite3_uint64)s->nitems * sizeof *s->order);
  if (!s->order) return SQLITE_NOMEM;
  int n = 0;
  for (int i = 0; i < s->nitems; i++) {
    adm_item *it = &s->items[i];
    if (s->has_stale && is_stale(it->ts, s->now, s->stale_ms)) {
      it->dropped = 1;
      s->nstale++;
    } else if (it->topic[0]) {
      s->order[n++] = it;
    }
  }
  /* Same topic: the newest wins, the others are superseded. */
  /* NOLINTNEXTLINE(bugprone-sizeof-expression) */
  qsort(s->order, (size_t)n, sizeof *s->order, cmp_topic);
  for (int i = 0, w = 0; i < n; i++) {
    if (i > 0 && strcmp(s->order[i]->topic, s->order[w]->topic) == 0) {
      s->order[i]->dropped = 1;
      if (strcmp(s->order[i]->text, s->order[w]->text) != 0) {
        s->order[w]->overrides++;
        s->nconflicts++;
      }
    } else {
      w = i;
    }
  }
  s->norder = 0;
  for (int i = 0; i < s->nitems; i++) {
    if (!s->items[i].dropped) s->order[s->norder++] = &s->items[i];
  }
  /* NOLINTNEXTLINE(bugprone-sizeof-expression) */
  qsort(s->order, (size_t)s->norder, sizeof *s->order, cmp_priority);
  for (int i = 0; i < s->norder; i++) {
    if (!s->order[i]->resolved && is_question(s->order[i]->text))
      s->hints |= H_AWAIT; /* an unresolved admin question */
  }
  return SQLITE_OK;
}
