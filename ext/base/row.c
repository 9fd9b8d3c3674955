/*
** row.c -- the row model (row.h): values set, borrowed and freed, rows
** made empty, a trigger row's status and schedule as stored noted and
** compared. A value's text is its own (sqlite3_malloc), or borrowed
** from a row's arena or a literal and never freed. Only this file sets a
** value's text and whose it is (t, borrowed, a row's arena): the others
** go through these functions.
*/
#include "base/row.h"

#include <sqlite3ext.h>
#include <string.h>

SQLITE_EXTENSION_INIT3

/* Drop v's text: freed, unless it lives in its row's arena. */
static void val_free_text(trg_val *v) {
  /* a tick clears ~100 values a fire, most of them NULL */
  if (v->t && !v->borrowed) sqlite3_free(v->t);
  v->t = NULL;
  v->borrowed = 0;
}

void trg_val_set_null(trg_val *v) {
  val_free_text(v);
  v->null = 1;
  v->i = 0;
  v->oom = 0;
  v->bad = 0;
}

void trg_val_set_int(trg_val *v, i64 i) {
  val_free_text(v);
  v->null = 0;
  v->i = i;
  v->oom = 0;
  v->bad = 0;
}

/* A sqlite3_malloc'd copy of the n bytes at t plus a NUL; NULL on OOM. */
static char *trg_strndup(const char *t, int n) {
  char *copy = sqlite3_malloc(n + 1);
  if (copy) {
    memcpy(copy, t, (size_t)n);
    copy[n] = 0;
  }
  return copy;
}

int trg_val_set_text(trg_val *v, const char *t) {
  char *copy = t ? trg_strndup(t, (int)strlen(t)) : NULL;
  if (t && !copy) {
    v->oom = 1; /* see trg_val: the row can no longer be saved */
    return SQLITE_NOMEM;
  }
  val_free_text(v);
  v->t = copy;
  v->null = copy == NULL;
  v->i = 0;
  v->oom = 0;
  v->bad = 0;
  return SQLITE_OK;
}

int trg_val_set_owned(trg_val *v, char *t) {
  if (!t) {
    v->oom = 1;
    return SQLITE_NOMEM;
  }
  val_free_text(v);
  v->t = t;
  v->null = 0;
  v->i = 0;
  v->oom = 0;
  v->bad = 0;
  return SQLITE_OK;
}

void trg_val_borrow(trg_val *v, const char *t) {
  val_free_text(v);
  v->t = (char *)t;
  v->borrowed = 1;
  v->null = 0;
  v->i = 0;
  v->oom = 0;
  v->bad = 0;
}

/* A value of the row could not be set: nothing of it may be written. */
int trg_vals_poisoned(const trg_val *v, int n) {
  for (int i = 0; i < n; i++) {
    if (v[i].oom) return 1;
  }
  return 0;
}

const char *trg_val_text(const trg_val *v) { return v->t ? v->t : ""; }

void trg_row_init(trg_row *r) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < TC_NCOL; i++) r->v[i].null = 1;
}

/* v[0..n) freed and NULL, in one pass (a busy tick clears a row and two
** runs a fire). */
static void vals_reset(trg_val *v, int n) {
  for (int i = 0; i < n; i++) {
    if (v[i].t && !v[i].borrowed) sqlite3_free(v[i].t);
    v[i] = (trg_val){.null = 1};
  }
}

void trg_row_clear(trg_row *r) {
  vals_reset(r->v, TC_NCOL);
  sqlite3_free(r->arena);
  r->id = 0;
  r->arena = NULL;
  r->json = NULL;
  memset(&r->stored, 0, sizeof r->stored);
}

int trg_val_copy(trg_val *dst, const trg_val *src) {
  trg_val_set_null(dst);
  *dst = *src;
  dst->t = NULL;
  dst->borrowed = 0;
  if (src->t && trg_val_set_text(dst, src->t)) return SQLITE_NOMEM;
  dst->bad = src->bad;
  return SQLITE_OK;
}

int trg_val_set_read_text(trg_val *v, const char *t, int n) {
  val_free_text(v);
  v->t = trg_strndup(t, n);
  return v->t ? SQLITE_OK : SQLITE_NOMEM;
}

int trg_row_set_read_texts(trg_row *r, const char *const *text, const int *n) {
  size_t total = 0;
  for (int i = 0; i < TC_NCOL; i++) total += text[i] ? (size_t)n[i] + 1 : 0;
  if (!total) return SQLITE_OK;
  char *p = r->arena = sqlite3_malloc64(total);
  if (!p) return SQLITE_NOMEM;
  for (int i = 0; i < TC_NCOL; i++) {
    if (!text[i]) continue;
    val_free_text(&r->v[i]);
    memcpy(p, text[i], (size_t)n[i]);
    p[n[i]] = 0;
    r->v[i].t = p;
    r->v[i].borrowed = 1;
    p += n[i] + 1;
  }
  return SQLITE_OK;
}

void trg_row_borrow(trg_row *dst, const trg_row *src) {
  trg_row_clear(dst);
  dst->id = src->id;
  for (int i = 0; i < TC_NCOL; i++) {
    dst->v[i] = src->v[i];
    if (src->v[i].t) dst->v[i].borrowed = 1;
  }
}

void trg_row_note_stored(trg_row *r) {
  trg_stored *w = &r->stored;
  const char *st = trg_val_text(&r->v[TC_STATUS]);
  const trg_val *due = &r->v[TC_NEXT_DUE_AT], *fire = &r->v[TC_FIRE_AT];
  size_t n = strlen(st);
  w->known = n < sizeof w->status;
  if (w->known) memcpy(w->status, st, n + 1);
  w->enabled = r->v[TC_ENABLED].i;
  w->enabled_null = r->v[TC_ENABLED].null;
  w->sched_ok = !due->bad && !fire->bad;
  w->due = due->i;
  w->due_null = due->null;
  w->fire = fire->i;
  w->fire_null = fire->null;
  w->outcome_known = 0;
}

/* The outcome columns, in trg_stored.outcome_nulls' bit order. */
static const int outcome_cols[] = {TC_RUN_COUNT, TC_LAST_RUN_AT, TC_FAIL_STREAK,
                                   TC_LAST_STATUS, TC_LAST_ERROR};

static unsigned char outcome_nulls(const trg_row *r) {
  unsigned char n = 0;
  for (int k = 0; k < 5; k++)
    n |= (unsigned char)(r->v[outcome_cols[k]].null << k);
  return n;
}

void trg_row_note_outcome(trg_row *r) {
  trg_stored *w = &r->stored;
  w->outcome_nulls = outcome_nulls(r);
  w->run_count = r->v[TC_RUN_COUNT].i;
  w->last_run_at = r->v[TC_LAST_RUN_AT].i;
  w->fail_streak = r->v[TC_FAIL_STREAK].i;
  w->last_status = r->v[TC_LAST_STATUS].t;
  w->last_error = r->v[TC_LAST_ERROR].t;
  w->outcome_known = 1;
}

void trg_row_forget_outcome(trg_row *r) { r->stored.outcome_known = 0; }

int trg_row_outcome_stored(const trg_row *r) {
  const trg_stored *w = &r->stored;
  const trg_val *v = r->v;
  /* a NULL's i and t are 0: compared as they are */
  return w->outcome_known && w->outcome_nulls == outcome_nulls(r) &&
         v[TC_RUN_COUNT].i == w->run_count &&
         v[TC_LAST_RUN_AT].i == w->last_run_at &&
         v[TC_FAIL_STREAK].i == w->fail_streak &&
         v[TC_LAST_STATUS].t == w->last_status &&
         v[TC_LAST_ERROR].t == w->last_error;
}

int trg_row_status_stored(const trg_row *r) {
  const trg_stored *w = &r->stored;
  return w->known && strcmp(trg_val_text(&r->v[TC_STATUS]), w->status) == 0 &&
         r->v[TC_ENABLED].null == w->enabled_null &&
         r->v[TC_ENABLED].i == w->enabled;
}

int trg_row_schedule_stored(const trg_row *r) {
  const trg_stored *w = &r->stored;
  const trg_val *due = &r->v[TC_NEXT_DUE_AT], *fire = &r->v[TC_FIRE_AT];
  /* (a value the call set is never bad: only a loaded one can be, and
  ** then sched_ok is 0) */
  return w->known && w->sched_ok && due->null == w->due_null &&
         fire->null == w->fire_null && (due->null || due->i == w->due) &&
         (fire->null || fire->i == w->fire);
}

void trg_run_clear(trg_run *r) {
  r->id = 0;
  vals_reset(r->v, RC_NCOL);
}
