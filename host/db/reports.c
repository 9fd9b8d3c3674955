/*
** reports.c -- the batches of pending reports (see reports.h). One queue
** per database; a queue is written whole in one transaction. A report is
** refused alone when trigger_run_finish fails and the batch's transaction
** is still open (its SAVEPOINT undid it); the batch fails as a whole when
** BEGIN or COMMIT fails or a failure took the transaction with it.
*/
#include "db/reports.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/out.h"
#include "core/stats.h"
#include "core/trigger_stats.h"
#include "core/util.h"
#include "db/json.h"

#define BUSY_RETRY_MAX_MS 1000

struct report {
  char *run_id, *status, *detail;
  char *usage; /* a JSON object (usage_file.h), or NULL */
  double cost; /* its cost, when has_cost */
  int has_cost;
  char *trigger_id, *agent_id; /* for its log line and the stats */
  long long attempt;
  int64_t added;      /* monotonic µs */
  int64_t lease_end;  /* the run's lease as the host keeps it (lease.h) */
  long long lease_ms; /* its length: a busy retry waits a tenth of it */
};

static void report_clear(report *e) {
  free(e->run_id);
  free(e->status);
  free(e->detail);
  free(e->usage);
  free(e->trigger_id);
  free(e->agent_id);
}

void reports_init(reports *r, hostdb *dbs, int ndbs, int window_ms) {
  memset(r, 0, sizeof *r);
  r->q = xmalloc(sizeof *r->q * (size_t)(ndbs > 0 ? ndbs : 1));
  memset(r->q, 0, sizeof *r->q * (size_t)(ndbs > 0 ? ndbs : 1));
  for (int i = 0; i < ndbs; i++) r->q[i].db = &dbs[i];
  r->nq = ndbs;
  r->window_ms = window_ms;
}

void reports_count_claimed(reports *r, int n) {
  if (n <= 0) return;
  r->batches++;
  r->written += n;
}

void reports_free(reports *r) {
  for (int i = 0; i < r->nq; i++) {
    for (int j = 0; j < r->q[i].n; j++) report_clear(&r->q[i].v[j]);
    free(r->q[i].v);
  }
  free(r->q);
  memset(r, 0, sizeof *r);
}

static report_queue *queue_of(reports *r, const hostdb *h) {
  return r->nq ? &r->q[h - r->q[0].db] : NULL;
}

/* Drop the reports of q not kept, keeping the order of the others. */
static void queue_drop(report_queue *q, const char *keep) {
  int k = 0;
  for (int i = 0; i < q->n; i++) {
    if (keep[i]) q->v[k++] = q->v[i];
    else report_clear(&q->v[i]);
  }
  q->n = k;
}

/* The outcome e of a run of h is known: written (why NULL) or refused
** (why: the reason). Log it and count it. */
static void outcome(const reports *r, hostdb *h, const report *e,
                    const char *why) {
  host_run run = {0};
  run.db = h;
  run.run_id = e->run_id;
  run.trigger_id = e->trigger_id;
  run.agent_id = e->agent_id;
  run.attempt = e->attempt;
  if (why) log_refused(h->path, &run, e->status, why);
  else log_run(h->path, &run, e->status, e->detail);
  if (r->stats) stats_reported(h->path, e->agent_id, e->status, why != NULL);
  if (r->stats && !why)
    trigger_stats_reported(h->path, e->trigger_id, e->agent_id, e->status,
                           e->has_cost, e->cost);
}

/* The batch could not be written (code, err): keep what a busy database
** may take later while its lease holds, drop (warn, count) the rest. */
static void batch_failed(reports *r, report_queue *q, char *keep, int code,
                         const char *err) {
  int64_t now = mono_ms();
  /* what may pass (another connection's lock, a full or failing disk):
  ** kept and tried again while the leases hold, not dropped at once */
  int primary = code & 0xff;
  int busy = primary == SQLITE_BUSY || primary == SQLITE_LOCKED ||
             primary == SQLITE_FULL || primary == SQLITE_IOERR;
  int kept = 0, dropped = 0;
  int64_t retry = BUSY_RETRY_MAX_MS;
  for (int i = 0; i < q->n; i++) {
    if (!keep[i]) continue;
    const report *e = &q->v[i];
    if (busy && now < e->lease_end) {
      kept++;
      if (e->lease_ms / 10 < retry) retry = e->lease_ms / 10;
      continue;
    }
    keep[i] = 0;
    dropped++;
    char *why = xprintf("not written: %s%s", err,
                        busy ? " (its lease has passed)" : "");
    outcome(r, q->db, e, why);
    free(why);
  }
  r->refused += dropped;
  if (!kept) return;
  /* a failure that lasts is logged once a minute (backoff.h) */
  backoff_step s = backoff_failed(&q->failing, err, now, retry + 1, retry + 1);
  q->retry_at = (now + s.wait_ms) * 1000;
  if (s.log && s.unlogged)
    log_warn("%s; %d report(s) tried again in %lld ms (%ld more failure(s) "
             "since the last line)",
             err, kept, (long long)s.wait_ms, s.unlogged);
  else if (s.log)
    log_warn("%s; %d report(s) tried again in %lld ms", err, kept,
             (long long)s.wait_ms);
}

/* The end of q's batch: bookkeeping after a COMMIT (ok) or a failure
** (code, err: everything in the transaction was undone). */
static void batch_end(reports *r, report_queue *q, int ok, int code,
                      char *err) {
  hostdb *h = q->db;
  int refused = 0;
  for (int i = 0; i < q->n; i++) refused += !q->keep[i];
  r->refused += refused;
  if (ok) {
    for (int i = 0; i < q->n; i++) {
      if (!q->keep[i]) continue;
      outcome(r, h, &q->v[i], NULL);
      r->failed += strcmp(q->v[i].status, "failed") == 0;
    }
    r->batches++;
    r->written += q->n - refused;
    log_debug("%s: %d report(s) in one transaction, %d refused", h->path,
              q->n - refused, refused);
    memset(q->keep, 0, (size_t)q->n);
    q->retry_at = 0;
    long failed = backoff_ok(&q->failing);
    if (failed)
      log_warn("%s: reports written again after %ld failed tr%s", h->path,
               failed, failed == 1 ? "y" : "ies");
  } else {
    batch_failed(r, q, q->keep, code, err ? err : "?");
  }
  queue_drop(q, q->keep);
  free(q->keep);
  q->keep = NULL;
  free(err);
}

/* q's reports as trigger_run_finish_many's array (sqlite3_free). */
static char *many_json(const report_queue *q) {
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_open(b, NULL, '[');
  for (int i = 0; i < q->n; i++) {
    const report *e = &q->v[i];
    out_json_open(b, NULL, '{');
    out_json_str(b, "run_id", e->run_id);
    out_json_str(b, "status", e->status);
    if (e->detail) out_json_str(b, "detail", e->detail);
    if (e->usage) out_json_raw(b, "usage", e->usage, strlen(e->usage));
    out_json_close(b, '}');
  }
  out_json_close(b, ']');
  return out_finish(b);
}

/* The refusals in trigger_run_finish_many's answer (one element per
** report, in order): logged, counted, and not kept. 0, or -1 when the
** answer does not have one element per report. */
static int many_refused(reports *r, report_queue *q, const char *answer) {
  json_iter it, el;
  json_span elem, key, val, text = {answer, strlen(answer)};
  json_iter_init(&it, text);
  int i = 0, rc, found, more;
  for (; (rc = json_next_element(&it, &elem, &found)) == 0 && found; i++) {
    if (i >= q->n) return -1;
    char *error = NULL;
    int ok = 0;
    json_iter_init(&el, elem);
    while (json_next_member(&el, &key, &val, &more) == 0 && more) {
      if (json_key_is(key, "ok")) ok = val.n == 4 && !memcmp(val.p, "true", 4);
      else if (json_key_is(key, "error")) {
        free(error);
        error = json_string(val);
      }
    }
    if (!ok) {
      char *why = xprintf("%s: trigger_run_finish: %s", q->db->path,
                          error ? error : "refused");
      outcome(r, q->db, &q->v[i], why);
      free(why);
      q->keep[i] = 0;
    }
    free(error);
  }
  return rc == 0 && i == q->n ? 0 : -1;
}

/* q's reports in one trigger_run_finish_many call: 0, or -1 when the
** batch failed whole (batch_end has run; nothing is open). */
static int batch_many(reports *r, report_queue *q) {
  hostdb *h = q->db;
  char *runs = many_json(q), *answer = NULL, *why = NULL;
  int c;
  int res = hostdb_finish_many(h, runs, &answer, &c, &why);
  sqlite3_free(runs);
  if (res == 0 && many_refused(r, q, answer) != 0) {
    res = -1;
    c = SQLITE_ERROR;
    why = xprintf("%s: trigger_run_finish_many: unexpected answer", h->path);
  }
  free(answer);
  if (res == 0) return 0;
  hostdb_rollback(h);
  batch_end(r, q, 0, c, why);
  return -1;
}

/* BEGIN IMMEDIATE and q's reports, left open: 1, or 0 when the batch
** could not be written (nothing open; batch_end has run). */
static int batch_begin(reports *r, report_queue *q) {
  hostdb *h = q->db;
  q->keep = xmalloc((size_t)q->n); /* 0: refused, done with */
  memset(q->keep, 1, (size_t)q->n);
  int code = SQLITE_OK;
  char *err = NULL;
  if (hostdb_begin(h, &code, &err) != 0) {
    batch_end(r, q, 0, code, err);
    return 0;
  }
  if (h->st_finish_many) return batch_many(r, q) == 0;
  for (int i = 0; i < q->n; i++) {
    report *e = &q->v[i];
    char *why = NULL;
    int c;
    if (hostdb_finish(h, e->run_id, e->status, e->detail, &c, &why) == 0)
      continue;
    if (!hostdb_in_txn(h)) { /* the failure took the transaction with it */
      batch_end(r, q, 0, c, why);
      return 0;
    }
    outcome(r, h, e, why);
    free(why); /* undone alone (its SAVEPOINT): the others go on */
    q->keep[i] = 0;
  }
  return 1;
}

/* COMMIT what batch_begin opened: 0, or -1 when it was undone. */
static int batch_commit(reports *r, report_queue *q) {
  int code = SQLITE_OK;
  char *err = NULL;
  int ok = hostdb_commit(q->db, &code, &err) == 0;
  batch_end(r, q, ok, code, err);
  return ok ? 0 : -1;
}

/* Write q's reports in one transaction. With trigger_run_finish_many the
** call is the transaction (its own BEGIN IMMEDIATE .. COMMIT): inside
** ours it would be a SAVEPOINT, whose journal of every page the batch
** changes SQLite writes to a temporary file past 64 KiB. */
static void write_queue(reports *r, report_queue *q) {
  if (!q->n) return;
  if (q->db->st_finish_many && !hostdb_in_txn(q->db)) {
    q->keep = xmalloc((size_t)q->n);
    memset(q->keep, 1, (size_t)q->n);
    if (batch_many(r, q) == 0) batch_end(r, q, 1, SQLITE_OK, NULL);
    return;
  }
  if (batch_begin(r, q)) batch_commit(r, q);
}

int reports_begin(reports *r, hostdb *h) {
  report_queue *q = queue_of(r, h);
  /* a batch waiting for its retry does not join the claim: trying it with
  ** every claim was a busy loop on a full disk */
  return q && q->n && mono_us() >= q->retry_at && batch_begin(r, q);
}

int reports_commit(reports *r, hostdb *h) {
  return batch_commit(r, queue_of(r, h));
}

void reports_add(reports *r, const host_run *run, const char *status,
                 const char *detail) {
  report_queue *q = queue_of(r, run->db);
  if (q->n == q->cap) {
    q->cap = q->cap ? q->cap * 2 : 16;
    q->v = xrealloc(q->v, sizeof *q->v * (size_t)q->cap);
  }
  int64_t now = mono_us();
  q->v[q->n++] = (report){xstrdup(run->run_id),
                          xstrdup(status),
                          xstrdup(detail),
                          xstrdup(run->usage),
                          run->usage_cost,
                          run->has_cost,
                          xstrdup(run->trigger_id),
                          xstrdup(run->agent_id),
                          run->attempt,
                          now,
                          run->lease_end,
                          run->db->lease_ms};
  if (q->n >= REPORTS_BATCH_MAX && now >= q->retry_at) write_queue(r, q);
}

/* When q is due (INT64_MAX: empty). */
static int64_t queue_due(const reports *r, const report_queue *q, int all) {
  if (!q->n) return INT64_MAX;
  int64_t t = all ? 0 : q->v[0].added + (int64_t)r->window_ms * 1000;
  return t > q->retry_at ? t : q->retry_at;
}

void reports_service(reports *r, int all) {
  int64_t now = mono_us();
  for (int i = 0; i < r->nq; i++) {
    if (queue_due(r, &r->q[i], all) <= now) write_queue(r, &r->q[i]);
  }
}

int64_t reports_deadline(const reports *r, int all) {
  int64_t t = INT64_MAX;
  for (int i = 0; i < r->nq; i++) {
    int64_t due = queue_due(r, &r->q[i], all);
    if (due < t) t = due;
  }
  return t;
}

int reports_pending(const reports *r) {
  int n = 0;
  for (int i = 0; i < r->nq; i++) n += r->q[i].n;
  return n;
}
