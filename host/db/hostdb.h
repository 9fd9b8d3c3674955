/*
** hostdb.h -- one database as trigger-host sees it: a connection with the
** extension loaded and the schema installed, and the six statements the
** loop needs (claim, finish, heartbeat, next wakeup, data_version), and
** the transaction that holds a batch of reports (reports.h). Everything
** goes through the extension's SQL functions; the claimed JSON array is
** taken apart by json.h.
**
** Durability: journal_mode=WAL, then synchronous NORMAL (--synchronous
** normal, the default when WAL took effect): a committed claim or report
** survives a crash of the host (its process), not a power loss or an OS
** crash, which may lose the last transactions. FULL (--synchronous full,
** and the default when the journal mode is not WAL) fsyncs every commit.
**
** With --via CMD the database is elsewhere (a dqlite cluster): the
** connection is a local :memory: one without the extension, whose claim,
** finish and wakeup statements write the text of the statement CMD runs
** (format('%Q') quotes every value); json.h reads the answer here too. data_version cannot be read there, so every poll asks the wakeup.
*/
#ifndef HOST_HOSTDB_H
#define HOST_HOSTDB_H

#include <sqlite3.h>
#include <stdint.h>

#include "core/backoff.h"
#include "core/opts.h"
#include "core/run.h"

typedef struct hostdb hostdb;

struct hostdb {
  char *path;
  sqlite3 *db;
  const char *via; /* --via CMD, or NULL: a local file */
  char *options;   /* trigger_run_due options, JSON text */
  sqlite3_stmt *st_claim, *st_finish, *st_heartbeat, *st_wakeup, *st_version,
      *st_begin, *st_commit, *st_rollback;
  sqlite3_stmt *st_finish_many; /* NULL: --via, or an extension without it */
  sqlite3_stmt *st_claim_acked; /* NULL: --via (printtx.h) */
  sqlite3_stmt *st_sql_job;     /* trigger_run_sql_job; NULL: an extension
                                   without it */
  sqlite3_stmt *st_cancel;      /* whether a run's cancel was asked for; NULL:
                              --via, or an extension without it */
  long long data_version;
  /* scheduling state, owned by loop.c */
  int64_t tick_at;     /* monotonic µs of the next tick */
  int64_t idle_ms;     /* backoff while overdue work is not ours */
  int64_t idle_until;  /* µs */
  int empty_due;       /* empty ticks in a row while "due now" */
  int refresh;         /* recompute the wakeup (we changed the db) */
  backoff failing;     /* claims or wakeups failing in a row (backoff.h) */
  int64_t retry_until; /* µs: no tick before then after a failure */

  long long lease_ms;     /* the lease claimed and renewed (lease.h) */
  long long pass_claimed; /* tick mode: runs claimed by this pass */
};

/* Open path, load the extension, install, prepare. 0 ok; else -1 and *err
** (free()). */
int hostdb_open(hostdb *h, const char *path, const host_opts *o, char **err);
void hostdb_close(hostdb *h);
/* Load the extension ext into db, loading enabled for that call only. 0
** ok; else -1 and *err (free()). */
int hostdb_load_extension(sqlite3 *db, const char *ext, char **err);

/* Claim up to limit runs (0 = options' own limit). acked: with
** {"ack": false}, the runs recorded 'success' in the claim itself
** (st_claim_acked; print mode's transaction, printtx.h). *runs is a
** malloc'ed array of *n runs (runs_free). */
int hostdb_claim(hostdb *h, long long limit, int acked, host_run ***runs,
                 int *n, char **err);
/* trigger_run_finish(run_id, status, detail): detail is a failure's error
** or another run's result (NULL: none). 0 ok; else -1, *err (free()) and
** *code (SQLITE_ERROR: refused, e.g. the run is already finished; with
** --via every failure is SQLITE_ERROR). */
int hostdb_finish(hostdb *h, const char *run_id, const char *status,
                  const char *detail, int *code, char **err);
/* trigger_run_sql_job(run_id, timeout_ms): the SQL job run_id claimed
** and its end recorded in one statement (docs/sql-jobs.md), inside the
** batch's transaction or, with --via, as one of its own. 0 with *status
** ("success", "failed", ...) and *detail (the rows changed, or the error),
** both malloc'ed; else -1, *err (free()) and *code as hostdb_finish's: the
** job was not run, nothing of it recorded (refused: the run is no longer
** ours; with --via the statement's outcome may be unknown: the run is
** then either finished or still running, reclaimed after its lease). */
int hostdb_sql_job(hostdb *h, const char *run_id, long long timeout_ms,
                   char **status, char **detail, int *code, char **err);
/* trigger_run_finish_many(runs): runs a JSON array of {run_id, status,
** detail}; *answer (malloc'ed) its array of {run_id, ok[, error]}, one per
** report in order. 0 ok; else -1, *err (free()) and *code. Only when
** h->st_finish_many is set. */
int hostdb_finish_many(hostdb *h, const char *runs, char **answer, int *code,
                       char **err);
/* The transaction of a batch of reports: BEGIN IMMEDIATE (busy_timeout
** applies), COMMIT (rolled back when it fails), ROLLBACK if one is open.
** 0 ok; else -1, *code and *err. With --via each is a no-op: every
** statement there is its own transaction. */
int hostdb_begin(hostdb *h, int *code, char **err);
int hostdb_commit(hostdb *h, int *code, char **err);
void hostdb_rollback(hostdb *h);
/* 1 while the transaction begun by hostdb_begin is open (a failure such as
** SQLITE_FULL may have rolled it back); always 1 with --via. */
int hostdb_in_txn(hostdb *h);
/* Renew run_id's lease by lease_ms (trigger_run_heartbeat). 0 ok; else
** -1, *err (free()) and *code the SQLite error code (SQLITE_BUSY: the
** database was busy; SQLITE_ERROR: refused, the run is no longer ours). */
int hostdb_heartbeat(hostdb *h, const char *run_id, int *code, char **err);
/* The same, *cancel set when its answer says the run's cancel was asked
** for (trigger_run_cancel, docs/reactive.md#cancel-in-trigger-host). */
int hostdb_heartbeat_cancel(hostdb *h, const char *run_id, int *cancel,
                            int *code, char **err);
/* *asked: whether trigger_run_cancel was called for run_id (one index
** probe, read only); 0 when it cannot be told (--via, an older
** extension, an error). */
void hostdb_cancel_asked(hostdb *h, const char *run_id, int *asked);
/* ms from at_ms (Unix ms of the host's clock) until the earliest due
** work (0 if overdue), -1 when nothing is due. With --via the far side's
** clock when it answers is used instead of at_ms. */
int hostdb_wakeup(hostdb *h, long long at_ms, long long *ms, char **err);
/* *changed: 1 if another connection committed since the last call (with
** --via: always), else 0. 0 ok, -1 when data_version cannot be read. */
int hostdb_changed(hostdb *h, int *changed);

#endif
