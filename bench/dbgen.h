/*
** dbgen.h -- the synthetic data set every benchmark uses, and the code
** that writes it into the extension's `triggers` table or into the plain
** tables of the baselines.
**
** Trigger i of n (0-based): trigger_id "t%07d", instructions of 64 bytes
** that differ per row, trigger_type 'interval', created_at DBG_C0,
** interval_ms DBG_IV + perm(i), where perm is a fixed pseudo-random
** permutation of 0..n-1. So the first due instant of trigger i is
** DBG_C0 + DBG_IV + perm(i) and the next one an hour later:
**   dbg_now_due(k) -- the instant at which exactly k triggers are due
**   (k = 0: nothing due), each with exactly one occurrence (no misfire
**   catch-up rows), scattered over the table like real schedules.
**
** Schemas:
**   ours   -- SELECT trigger_install(), rows through INSERT INTO triggers.
**   plain  -- the plain-SQL tick: triggers(id, trigger_id UNIQUE,
**             instructions, interval_ms, next_due) + INDEX(next_due), and
**             runs(id, run_id UNIQUE, trigger_id, agent_id, scheduled_for,
**             attempt, status, owner, claimed_at, finished_at, latency_ms,
**             payload, UNIQUE(trigger_id, scheduled_for, attempt)) -- the
**             same unique keys as the extension's run table.
**   wide   -- the create baseline: the extension's own triggers_data
**             table and indexes (DDL copied at run time from a freshly
**             installed database, so it follows schema changes), filled by
**             a plain INSERT with the values the extension would store
**             (next_due_at, fire_at and a dedupe key of the same size
**             computed in C; no validation, no hashing, no virtual table).
*/
#ifndef BENCH_DBGEN_H
#define BENCH_DBGEN_H

#include "bench.h"

#define DBG_C0 1700000000000LL /* created_at of every trigger */
#define DBG_IV 3600000LL       /* base interval: one hour */

i64 dbg_now_due(i64 k);
/* perm(i) for a data set of n rows (computed once per n, cached). */
i64 dbg_perm(i64 n, i64 i);
/* The row's texts into caller buffers (>= 64 bytes). */
void dbg_trigger_id(i64 i, char *buf, size_t n);
void dbg_instructions(i64 i, char *buf, size_t n);

/* Build a fresh database at path with n rows, bulk INSERT in one
** transaction; cache_kib > 0 sets cache_size for the load. Returns the
** seconds from BEGIN to the end of COMMIT. The WAL is checkpointed and
** truncated afterwards so the file can be copied. */
double dbg_build_ours(const char *path, i64 n, int cache_kib);
double dbg_build_plain(const char *path, i64 n, int cache_kib);
double dbg_build_wide(const char *path, i64 n, int cache_kib);

#endif
