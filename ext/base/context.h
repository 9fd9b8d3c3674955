/*
** context.h -- the per-connection context (as fts5Int.h's Fts5Global is
** for FTS5): one per sqlite3_triggers_init, handed to every function and
** module as client data, and reference-counted because each registration
** and each connected virtual table releases it once. It holds what lives
** as long as the connection: the zone cache, what the last tick cost, the
** last tick options parsed, and the tick's prepared statements (kept while
** the `triggers` table is connected: see stmts).
**
** No globals anywhere else: whatever one call leaves for the next is
** here.
*/
#ifndef TRIGGERS_CONTEXT_H
#define TRIGGERS_CONTEXT_H

#include <sqlite3ext.h>
#include <stdint.h>

#include "time/tzdb.h"

/* Room for the names of the functions with side effects (19 today). */
#define TRG_SIDE_FNS_MAX 32

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
  /* The texts the state summary cleaned (agent/clean_text.c), freed
  ** through destroy. */
  struct {
    void *p;
    void (*destroy)(void *);
  } clean_texts;
  /* The tick's prepared statements, kept between calls (a store that the
  ** tick makes, freed through destroy). sqlite3_close() refuses while a
  ** statement is unfinalized, and what it calls before that check is the
  ** xDisconnect of each connected virtual table: so statements are kept
  ** only while a `triggers` table is connected (tables counts them), and
  ** the last disconnect frees them, or, while a call uses them (busy),
  ** the end of that call does. */
  struct {
    void *kept;
    void (*destroy)(void *);
    int tables, busy;
  } stmts;
  /* Nonzero while the tick steps the configured preload query
  ** (tick/fire_preload.c): every function of the extension with side
  ** effects refuses then (trg_refuse_in_preload). */
  int in_preload;
  /* How deep signals are nested on the connection now (trigger/signal.c):
  ** a signal whose writes fire an SQL trigger that signals again runs
  ** inside the first; TRG_SIGNAL_DEPTH_MAX stops such a chain. */
  int signal_depth;
  /* The names of the functions registered with side effects
  ** (SQLITE_DIRECTONLY, base/register.h): a preload may not name one
  ** (store/preload_sql.c). Static strings. */
  const char *side_fns[TRG_SIDE_FNS_MAX];
  int nside_fns;
} trg_ctx;

/* A context with one reference, or NULL when out of memory. */
trg_ctx *trg_ctx_new(void);
/* One more reference: a registration or a connected virtual table. */
void trg_ctx_retain(trg_ctx *c);
/* Drop a reference (the destructor given to SQLite); the last one frees. */
void trg_ctx_release(void *p);

/* A `triggers` table was connected / disconnected on the connection. */
void trg_ctx_table_connect(trg_ctx *c);
void trg_ctx_table_disconnect(trg_ctx *c);
/* 1 while a `triggers` table is connected (the schema is installed). */
int trg_ctx_has_table(const trg_ctx *c);
/* Free the kept statements now, unless a call uses them (the table is
** about to drop the tables they read). */
void trg_ctx_stmts_drop(trg_ctx *c);
/* Begin a call that may use the kept statements: 0 when it may not (an
** outer call uses them, or no table is connected); else 1, with *kept the
** statements kept (NULL: none yet, the call makes them). */
int trg_ctx_stmts_begin(trg_ctx *c, void **kept);
/* End such a call: keep stmts (NULL: none) for the next call while a
** table is connected, else free them now with destroy. */
void trg_ctx_stmts_end(trg_ctx *c, void *stmts, void (*destroy)(void *));

/* Note that the function `name` (a static string) has side effects:
** SQLITE_OK, or SQLITE_INTERNAL when TRG_SIDE_FNS_MAX are noted. */
int trg_ctx_note_side(trg_ctx *c, const char *name);
/* 1 when name[0..n) is one of them (any case), else 0. */
int trg_ctx_is_side(const trg_ctx *c, const char *name, size_t n);

/* Read a zone by name through the connection's cache. */
int trg_zone(trg_ctx *c, const char *name, const tz_zone **z, char *err,
             size_t n);
/* The same, and the name's canonical spelling ("europe/berlin" ->
** "Europe/Berlin", tzdb_lookup). */
int trg_zone_canon(trg_ctx *c, const char *name, const tz_zone **z,
                   const char **canon, char *err, size_t n);

/* The wall clock in ms (only used when a caller omits `now`). */
int64_t trg_wall_clock_ms(void);
/* A monotonic clock in ms: how long something took (a SQL job's timeout),
** never a time stored. */
int64_t trg_mono_clock_ms(void);

#endif
