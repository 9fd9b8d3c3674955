/*
** context.c -- the per-connection context (see context.h): its life
** (new, retain, release), the zone cache, and the clock.
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
  tzdb_free(c->zones);
  if (c->last_opts.destroy) c->last_opts.destroy(c->last_opts.parsed);
  sqlite3_free(c->last_opts.json);
  sqlite3_free(c);
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
