/*
** context.h -- the per-connection context (as fts5Int.h's Fts5Global is
** for FTS5): one per sqlite3_triggers_init, handed to every function and
** module as client data, and reference-counted because each registration
** and each connected virtual table releases it once. It holds what lives
** as long as the connection: the zone cache, what the last tick cost, the
** last tick options parsed, and the tick's prepared statements.
**
** No globals anywhere else: whatever one call leaves for the next is
** here.
*/
#ifndef TRIGGERS_CONTEXT_H
#define TRIGGERS_CONTEXT_H

#include <sqlite3ext.h>
#include <stdint.h>

#include "time/tzdb.h"

typedef struct trg_ctx {
  int refs;
  tzdb *zones;
  /* Cost of the last trigger_run_due on this connection (diagnostics,
  ** trigger_last_tick()): VM steps and full-scan steps of its statements,
  ** rows it read, runs it returned. */
  struct {
    int64_t vm_steps, fullscan_steps, rows, claimed;
  } last_tick;
  /* The last options text trigger_run_due parsed, and the result (the
  ** tick's type, tick_opts.h; freed through destroy). */
  struct {
    char *json;
    void *parsed;
    void (*destroy)(void *);
  } last_opts;
  /* trigger_run_due's prepared statements live between calls in the
  ** store of the connected main.triggers table (vtab_triggers.c sets and
  ** clears tick_store), so they are finalized when the table disconnects,
  ** before sqlite3_close() looks for unfinalized statements. While a tick
  ** uses them (tick_busy) a disconnect leaves the table to the tick to
  ** free when it ends (tick_orphan) instead of finalizing them. */
  struct store *tick_store;
  int tick_busy;
  struct vt_tab *tick_orphan;
} trg_ctx;

/* A context with one reference, or NULL when out of memory. */
trg_ctx *trg_ctx_new(void);
/* One more reference: a registration or a connected virtual table. */
void trg_ctx_retain(trg_ctx *c);
/* Drop a reference (the destructor given to SQLite); the last one frees. */
void trg_ctx_release(void *p);

/* Read a zone by name through the connection's cache. */
int trg_zone(trg_ctx *c, const char *name, const tz_zone **z, char *err,
             size_t n);
/* The same, and the name's canonical spelling ("europe/berlin" ->
** "Europe/Berlin", tzdb_lookup). */
int trg_zone_canon(trg_ctx *c, const char *name, const tz_zone **z,
                   const char **canon, char *err, size_t n);

/* The wall clock in ms (only used when a caller omits `now`). */
int64_t trg_wall_clock_ms(void);

#endif
