/*
** reports.h -- the host's pending reports, written in batches. Each
** outcome (run_id, status, detail) waits in its database's queue and is
** written with the others of that queue in one transaction: one
** trigger_run_finish_many call with them all, its own BEGIN IMMEDIATE ..
** COMMIT (an extension without it: BEGIN IMMEDIATE, one
** trigger_run_finish per report, COMMIT) (with synchronous
** FULL one fsync per batch instead of one per run). A queue is written
**   - when its oldest report has waited the window (--report-ms, default
**     5 ms),
**   - as soon as it holds REPORTS_BATCH_MAX reports,
**   - with the next claim from that database, in the claim's own
**     transaction (so a claim never finds a run the host has finished
**     still running: an overlap policy or a once trigger's completion sees
**     what the host knows; and a claim with reports is one commit),
**   - and before the host exits.
** A refused report (unknown run, already finished because its lease
** passed and a tick reclaimed it) writes nothing (trigger_run_finish: its
** SAVEPOINT undoes it) and is logged and counted; the others commit.
**
** An outcome is logged (log_run, log_refused) and counted for --http's
** metrics (stats_reported, when stats is set) when its batch's result is
** known: committed, refused, or dropped.
**
** A batch that cannot be written at all (BEGIN, a finish or COMMIT fails
** for the database, not for the report) is rolled back whole. A busy
** database (busy_timeout exhausted), a full disk or an I/O error -- what
** may pass -- is tried again a tenth of a lease later (at most 1 s)
** while the runs' leases hold; a report whose lease
** passed, or any other failure, is dropped with a warning and counted:
** its run stays 'running' and the next tick after its lease reclaims it.
** A crash (SIGKILL) loses the reports not yet written: at most one window
** or one batch; their runs are reclaimed after their lease in the same way.
**
** With --via there is no transaction across statements: each report is
** its own statement (one process), written with the same timing.
*/
#ifndef HOST_REPORTS_H
#define HOST_REPORTS_H

#include <stdint.h>

#include "core/backoff.h"
#include "db/hostdb.h"

#define REPORTS_BATCH_MAX 256

typedef struct report report;

typedef struct report_queue {
  hostdb *db;
  report *v; /* oldest first */
  int n, cap;
  int64_t retry_at; /* busy: not written again before then (mono µs) */
  backoff failing;  /* batches failing in a row: their log (backoff.h) */
  char *keep;       /* the open batch: 0 for a report refused in it */
} report_queue;

typedef struct reports {
  report_queue *q; /* one per database, in the order of dbs */
  int nq;
  int window_ms;
  int refused;       /* reports refused or dropped (tick: exit 1) */
  long long batches; /* transactions written */
  long long written; /* reports committed */
  long long failed;  /* of them 'failed' (the stop line) */
  int stats;         /* count outcomes for --http (stats.h) */
} reports;

void reports_init(reports *r, hostdb *dbs, int ndbs, int window_ms);
/* n outcomes recorded by a claim itself (print mode in the claim's
** transaction, printtx.h), one transaction: counted as written. */
void reports_count_claimed(reports *r, int n);
void reports_free(reports *r);
/* Queue run's outcome (detail as for hostdb_finish, copied); the queue is
** written at once when it is full. */
void reports_add(reports *r, const host_run *run, const char *status,
                 const char *detail);
/* Begin a transaction on h holding its pending reports, for the claim to
** join: 1 when one is open (end it with reports_commit), 0 when nothing
** was pending, the batch waits for its retry time, or it could not be
** written (then none is open). */
int reports_begin(reports *r, hostdb *h);
/* COMMIT what reports_begin opened, with whatever ran in it since: 0, or
** -1 when the commit failed and all of it was undone (the reports wait
** by the busy rule above; what was claimed in it was never claimed). */
int reports_commit(reports *r, hostdb *h);
/* Write every queue whose oldest report waited the window, or with all
** every non-empty one (the host is about to exit); a busy database's
** queue waits for its retry time either way. */
void reports_service(reports *r, int all);
/* When reports_service has work next, in monotonic µs (the window is
** timed to the µs: a report added just after a tick waits for the claim
** one window later instead of being written alone just before it);
** INT64_MAX when nothing is pending.
** With all, a queue is due at once unless it waits for a busy retry. */
int64_t reports_deadline(const reports *r, int all);
int reports_pending(const reports *r);

#endif
