/*
** context.c -- the per-connection context (see context.h): its life
** (new, retain, release), the zone cache, the functions with side
** effects and their guard while a preload steps, and the clock.
*/
#include "base/context.h"

#include <string.h>
#include <time.h>

SQLITE_EXTENSION_INIT3

trg_ctx *trg_ctx_new(void) {
  trg_ctx *c = sqlite3_malloc(sizeof *c);
  if (!c) return NULL;
  memset(c, 0, sizeof *c);
  c->refs = 1;
  c->zones = tzdb_new(NULL);
  if (!c->zones) {
    sqlite3_free(c);
    return NULL;
  }
  return c;
}

void trg_ctx_retain(trg_ctx *c) { c->refs++; }

void trg_ctx_release(void *p) {
  trg_ctx *c = p;
  if (!c || --c->refs > 0) return;
  trg_ctx_stmts_drop(c);
  tzdb_free(c->zones);
  if (c->last_opts.destroy) c->last_opts.destroy(c->last_opts.parsed);
  sqlite3_free(c->last_opts.json);
  if (c->clean_texts.destroy) c->clean_texts.destroy(c->clean_texts.p);
  sqlite3_free(c);
}

void trg_ctx_table_connect(trg_ctx *c) { c->stmts.tables++; }

void trg_ctx_table_disconnect(trg_ctx *c) {
  if (c->stmts.tables > 0) c->stmts.tables--;
  if (c->stmts.tables == 0) trg_ctx_stmts_drop(c);
}

int trg_ctx_has_table(const trg_ctx *c) { return c->stmts.tables > 0; }

void trg_ctx_stmts_drop(trg_ctx *c) {
  if (c->stmts.busy || !c->stmts.kept) return;
  c->stmts.destroy(c->stmts.kept);
  c->stmts.kept = NULL;
}

int trg_ctx_stmts_begin(trg_ctx *c, void **kept) {
  *kept = NULL;
  if (c->stmts.busy || c->stmts.tables == 0) return 0;
  c->stmts.busy = 1;
  *kept = c->stmts.kept;
  c->stmts.kept = NULL;
  return 1;
}

void trg_ctx_stmts_end(trg_ctx *c, void *stmts, void (*destroy)(void *)) {
  c->stmts.busy = 0;
  if (!stmts) return;
  c->stmts.kept = stmts;
  c->stmts.destroy = destroy;
  if (c->stmts.tables == 0) trg_ctx_stmts_drop(c);
}

int trg_ctx_note_side(trg_ctx *c, const char *name) {
  if (c->nside_fns == TRG_SIDE_FNS_MAX) return SQLITE_INTERNAL;
  c->side_fns[c->nside_fns++] = name;
  return SQLITE_OK;
}

int trg_ctx_is_side(const trg_ctx *c, const char *name, size_t n) {
  for (int i = 0; i < c->nside_fns; i++) {
    const char *f = c->side_fns[i];
    if (strlen(f) == n && sqlite3_strnicmp(f, name, (int)n) == 0) return 1;
  }
  return 0;
}

int trg_zone(trg_ctx *c, const char *name, const tz_zone **z, char *err,
             size_t n) {
  return tzdb_get(c->zones, name, z, err, n);
}

int trg_zone_canon(trg_ctx *c, const char *name, const tz_zone **z,
                   const char **canon, char *err, size_t n) {
  return tzdb_lookup(c->zones, name, z, canon, err, n);
}

int64_t trg_wall_clock_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t trg_mono_clock_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
