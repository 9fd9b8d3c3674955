/*
** history.c -- `trigger-host runs` and `trigger-host events` (see
** history.h). One SELECT per listing; each row brings its cells for the
** table and its JSON object (json1), so --json is every column as the
** table holds it.
*/
#include "cli/history.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/table.h"
#include "cli/verbs.h"
#include "core/log.h"
#include "core/out.h"
#include "core/util.h"
#include "db/clidb.h"

#define SHOW_DEFAULT 50
#define PAGE_ROWS 50   /* table rows printed at a time */
#define TEXT_CHARS 100 /* of an error, result or detail in the table */

/* ?1 since (ms), ?2 the trigger (the _one forms), ?3 the limit. The
** columns: the table's cells (time, then 5), then the row's JSON. */
#define RUNS_SELECT                                                        \
  "SELECT trigger_iso(scheduled_for - scheduled_for % 1000), status,"      \
  " attempt, CASE WHEN latency_ms IS NOT NULL THEN latency_ms || ' ms'"    \
  " END, run_id, coalesce(error, result),"                                 \
  " json_object('run_id', run_id, 'trigger_id', trigger_id, 'agent_id',"   \
  " agent_id, 'scheduled_for', scheduled_for, 'scheduled_for_iso',"        \
  " trigger_iso(scheduled_for), 'attempt', attempt, 'status', status,"     \
  " 'owner', owner, 'claimed_at', claimed_at, 'lease_until', lease_until," \
  " 'finished_at', finished_at, 'latency_ms', latency_ms, 'error', error," \
  " 'result', result, 'payload', json(payload), 'usage', json(usage),"     \
  " 'cancel_requested_at', cancel_requested_at)"                           \
  " FROM main.trigger_runs WHERE scheduled_for >= ?1"
#define RUNS_ORDER " ORDER BY scheduled_for DESC, run_id DESC LIMIT ?3"
#define EVENTS_SELECT                                                     \
  "SELECT trigger_iso(at - at % 1000), kind, trigger_id, agent_id, code," \
  " detail, json_object('at', at, 'at_iso', trigger_iso(at), 'agent_id'," \
  " agent_id, 'scope', scope, 'trigger_id', trigger_id, 'kind', kind,"    \
  " 'code', code, 'detail', CASE WHEN json_valid(detail) THEN"            \
  " json(detail) ELSE detail END)"                                        \
  " FROM main.trigger_events WHERE at >= ?1"
#define EVENTS_ORDER " ORDER BY at DESC LIMIT ?3"
#define ONE_TRIGGER " AND trigger_id = ?2"

static const char runs_sql[] = RUNS_SELECT RUNS_ORDER;
static const char runs_one_sql[] = RUNS_SELECT ONE_TRIGGER RUNS_ORDER;
static const char events_sql[] = EVENTS_SELECT EVENTS_ORDER;
static const char events_one_sql[] = EVENTS_SELECT ONE_TRIGGER EVENTS_ORDER;

/* The trigger ?1 exists, or has runs or events (a deleted one's stay). */
static const char known_sql[] =
    "SELECT EXISTS (SELECT 1 FROM main.triggers WHERE trigger_id = ?1)"
    " OR EXISTS (SELECT 1 FROM main.trigger_runs WHERE trigger_id = ?1)"
    " OR EXISTS (SELECT 1 FROM main.trigger_events WHERE trigger_id = ?1)";

/* An ISO date or time, as ms since the epoch (NULL: not one). */
static const char instant_sql[] =
    "SELECT CAST(round((julianday(?1) - 2440587.5) * 86400000) AS INTEGER)";

static const char *const runs_head[] = {
    "SCHEDULED", "STATUS", "ATTEMPT", "LATENCY", "RUN", "ERROR / RESULT"};
static const char *const events_head[] = {"AT",    "KIND", "TRIGGER",
                                          "AGENT", "CODE", "DETAIL"};

typedef struct history {
  const host_opts *o;
  const char *path, *what; /* "runs" or "events" */
  sqlite3 *db;
  long long since;
  table t;
} history;

/* "90s", "30min", "2h", "7d" (a span ago): 0 with *ms, else -1. */
static int span_ago(const char *s, long long now, long long *ms) {
  static const struct {
    const char *unit;
    long long ms;
  } units[] = {{"ms", 1},    {"s", 1000},    {"min", 60000},
               {"m", 60000}, {"h", 3600000}, {"d", 86400000}};
  char *end;
  errno = 0;
  long long n = strtoll(s, &end, 10);
  if (errno || end == s || n < 0 || *s == '+' || *s == ' ') return -1;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcmp(end, units[i].unit) != 0) continue;
    if (n > LLONG_MAX / units[i].ms) return -1;
    *ms = now - n * units[i].ms;
    return 0;
  }
  return -1;
}

/* --since into h->since: 0, 2 (a usage error, reported) or 3. */
static int read_since(history *h) {
  const char *s = h->o->since;
  h->since = LLONG_MIN;
  if (!s) return 0;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (!errno && end != s && !*end && strlen(s) > 8) { /* ms, not a year */
    h->since = v;
    return 0;
  }
  if (span_ago(s, wall_ms(), &h->since) == 0) return 0;
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(h->db, instant_sql, -1, &st, NULL) != SQLITE_OK)
    return clidb_fail(h->db, h->path, "--since");
  sqlite3_bind_text(st, 1, s, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  int found = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
  if (found) h->since = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  if (found) return 0;
  if (rc != SQLITE_ROW) return clidb_fail(h->db, h->path, "--since");
  fprintf(stderr,
          "trigger-host: --since %s: expected a time (2026-03-09, "
          "2026-03-09T07:00:00Z, ms since the epoch) or a span ago (90s, "
          "30min, 2h, 7d)\n",
          s);
  return 2;
}

/* 0 when the TRIGGER_ID names a trigger or history, else 4 (reported) or
** 3. */
static int check_known(history *h) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(h->db, known_sql, -1, &st, NULL) != SQLITE_OK)
    return clidb_fail(h->db, h->path, h->what);
  sqlite3_bind_text(st, 1, h->o->target, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  int known = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW) return clidb_fail(h->db, h->path, h->what);
  if (known) return 0;
  log_fatal("%s %s: no such trigger in %s", h->what, h->o->target, h->path);
  return EXIT_NOT_FOUND;
}

static void text_row(history *h, sqlite3_stmt *st) {
  char *when = table_time((const char *)sqlite3_column_text(st, 0));
  char *last =
      table_short((const char *)sqlite3_column_text(st, 5), TEXT_CHARS);
  const char *cells[6] = {when};
  for (int c = 1; c < 5; c++)
    cells[c] = (const char *)sqlite3_column_text(st, c);
  cells[5] = last;
  table_add(&h->t, cells);
  free(when);
  free(last);
  if (h->t.nrow == PAGE_ROWS) table_print(&h->t);
}

/* The JSON object's head, up to its array. */
static void json_head(history *h) {
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_open(b, NULL, '{');
  out_json_str(b, "database", h->path);
  if (h->o->target) out_json_str(b, "trigger_id", h->o->target);
  else out_json_null(b, "trigger_id");
  out_json_open(b, h->what, '[');
  char *json = out_finish(b);
  fputs(json, stdout);
  sqlite3_free(json);
}

static void print_tail(history *h, long long shown, int more) {
  if (h->o->json) {
    printf("],\"shown\":%lld,\"more\":%s}\n", shown, more ? "true" : "false");
    return;
  }
  if (shown) table_print(&h->t);
  else printf("-- No %s%s --\n", h->what, h->o->since ? " since then" : "");
  if (more)
    printf("%lld shown, newest first; --limit N, --all or --since for more.\n",
           shown);
}

/* The rows, newest first, printed as they come. */
static int list(history *h) {
  int runs = h->o->mode == MODE_RUNS, one = h->o->target != NULL;
  const char *sql = runs ? (one ? runs_one_sql : runs_sql)
                         : (one ? events_one_sql : events_sql);
  long long max = h->o->all     ? LLONG_MAX - 1
                  : h->o->limit ? h->o->limit
                                : SHOW_DEFAULT;
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
    return clidb_fail(h->db, h->path, h->what);
  sqlite3_bind_int64(st, 1, h->since);
  if (one) sqlite3_bind_text(st, 2, h->o->target, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, max + 1);
  h->t.ncol = 6;
  if (h->o->json) json_head(h);
  else table_add(&h->t, runs ? runs_head : events_head);
  long long shown = 0;
  int rc, more = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (shown == max) {
      more = 1;
      break;
    }
    if (h->o->json)
      printf("%s%s", shown ? "," : "",
             (const char *)sqlite3_column_text(st, 6));
    else text_row(h, st);
    shown++;
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    table_free(&h->t);
    return clidb_fail(h->db, h->path, h->what);
  }
  print_tail(h, shown, more);
  return 0;
}

int history_main(const host_opts *o) {
  history h;
  memset(&h, 0, sizeof h);
  h.o = o;
  h.path = o->dbs[0];
  h.what = o->mode == MODE_RUNS ? "runs" : "events";
  int rc = clidb_open(h.path, o, 0, &h.db);
  if (!rc && sqlite3_exec(h.db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
    rc = clidb_fail(h.db, h.path, "BEGIN");
  if (!rc) rc = read_since(&h);
  if (!rc && o->target) rc = check_known(&h);
  if (!rc) {
    errno = 0;
    rc = list(&h);
    if (!rc && (fflush(stdout) != 0 || ferror(stdout))) {
      log_fatal("stdout: %s", strerror(errno));
      rc = 3;
    }
  }
  table_free(&h.t);
  sqlite3_close(h.db);
  return rc;
}
