/*
** status.c -- `trigger-host status` (see status.h). The triggers are read
** in the order of the due index (triggers WHERE next_due_at >= ? ORDER BY
** next_due_at, trigger_id, handed to the virtual table: a LIMIT reads that
** many rows of triggers_state_due, or of triggers_state_agent with
** --agent), then those with nothing due by state (the status index, or
** the agent's with --agent, in creation order), and printed as they come: a table a page of 50 rows at
** a time (its columns as wide as the widest cell so far), or JSON elements.
** The counts walk the status index (and failures the finished-runs index)
** and stop past COUNT_CAP ("10000+"). So a database of 1M triggers answers its first 50 in
** milliseconds, within a few MB (bench/README.md). Times are formatted by
** the extension (trigger_iso in the trigger's zone), spans here.
*/
#include "cli/status.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/table.h"
#include "core/log.h"
#include "core/out.h"
#include "core/util.h"
#include "db/clidb.h"
#include "db/hostdb.h"

#define DAY_MS 86400000LL
#define FAIL_TEXT_MAX 20   /* failures listed in the table */
#define ERROR_CHARS 100    /* of an error shown in the table */
#define FAIL_JSON_MAX 1000 /* and in the JSON */
#define SHOW_DEFAULT 50    /* triggers shown without --limit or --all */
#define PAGE_ROWS 50       /* table rows printed at a time */
#define COUNT_CAP 10000    /* a count past which "N+" is shown */

typedef struct trow {
  char *id, *agent, *tstatus, *tz, *next, *last, *last_status, *schedule;
  long long next_ms, last_ms;
  int has_next, has_last, running;
} trow;

typedef struct frow {
  char *run_id, *trigger_id, *when, *error;
  long long attempt, at;
} frow;

/* The states, in the order the triggers with nothing due are listed. */
static const char *const states[] = {"scheduled", "paused", "completed",
                                     "cancelled", "expired"};
#define NSTATES 5

typedef struct status {
  const host_opts *o;
  const char *path;
  sqlite3 *db;
  long long now;
  long long max;   /* triggers to show */
  long long shown; /* so far */
  int more;        /* a trigger past max matched */
  table tt;        /* the page of trigger rows (text) */
  long long count[NSTATES];
  frow *f;
  int nf;
  long long nfail; /* failed runs of the last 24 h, all of them */
} status;

/* The columns of a trigger row; instants in the trigger's zone, to the
** second (table_time() makes them "2026-03-09 07:15:00+01:00"). */
#define TRIGGER_COLUMNS                                                   \
  "SELECT t.trigger_id, t.agent_id, t.status, t.timezone, t.next_due_at," \
  " trigger_iso(t.next_due_at - t.next_due_at % 1000, t.timezone),"       \
  " t.last_run_at, trigger_iso(t.last_run_at - t.last_run_at % 1000,"     \
  " t.timezone), t.last_status,"                                          \
  " EXISTS (SELECT 1 FROM main.trigger_runs AS r"                         \
  "  WHERE r.trigger_id = t.trigger_id AND r.status = 'running'),"        \
  " trigger_describe(t.trigger_id)"                                       \
  " FROM main.triggers AS t"

int status_state_valid(const char *s) {
  for (int k = 0; k < NSTATES; k++)
    if (strcmp(s, states[k]) == 0) return 1;
  return 0;
}

/* What the rows are read by: the due index (next_due_at >= the least
** integer: a range, which reaches the partial index), one state, or one
** state's triggers with nothing due (status index, creation order). */
typedef enum { PART_DUE, PART_STATE, PART_IDLE } list_part;

/* The SELECT of part with the filters given: each an equality the
** virtual table takes (agent_id leads an index with next_due_at; scope is
** filtered as rows come). sqlite3_free it. */
static char *list_sql(list_part part, const host_opts *o) {
  sqlite3_str *q = sqlite3_str_new(NULL);
  sqlite3_str_appendall(q, TRIGGER_COLUMNS);
  if (part == PART_DUE)
    sqlite3_str_appendall(q,
                          " WHERE t.next_due_at >= -9223372036854775807 - 1");
  else sqlite3_str_appendall(q, " WHERE t.status = :state");
  if (part == PART_IDLE) sqlite3_str_appendall(q, " AND t.next_due_at IS NULL");
  if (part == PART_DUE && o->state)
    sqlite3_str_appendall(q, " AND t.status = :state");
  if (o->agent_id) sqlite3_str_appendall(q, " AND t.agent_id = :agent");
  if (o->scope) sqlite3_str_appendall(q, " AND t.scope = :scope");
  if (part != PART_IDLE)
    sqlite3_str_appendall(q, " ORDER BY t.next_due_at, t.trigger_id");
  return sqlite3_str_finish(q);
}

/* Counts walk an index (status; status and finished_at) and stop at ?2. */
static const char count_sql[] =
    "SELECT count(*) FROM (SELECT 1 FROM main.triggers WHERE status = ?1"
    " LIMIT ?2)";
static const char nfail_sql[] =
    "SELECT count(*) FROM (SELECT 1 FROM main.trigger_runs"
    " WHERE status = 'failed' AND finished_at > ?1 LIMIT ?2)";

static const char failures_sql[] =
    "SELECT r.run_id, r.trigger_id, r.attempt, r.finished_at,"
    " trigger_iso(r.finished_at - r.finished_at % 1000,"
    " coalesce(t.timezone, 'UTC')), r.error"
    " FROM main.trigger_runs AS r"
    " LEFT JOIN main.triggers AS t ON t.trigger_id = r.trigger_id"
    " WHERE r.status = 'failed' AND r.finished_at > ?1"
    " ORDER BY r.finished_at DESC, r.run_id LIMIT ?2";

/* Column i as shown by table_time(). */
static char *col_time(sqlite3_stmt *st, int i) {
  return table_time((const char *)sqlite3_column_text(st, i));
}

static char *col(sqlite3_stmt *st, int i) {
  return xstrdup((const char *)sqlite3_column_text(st, i));
}

static int fail_db(status *s, const char *what) {
  return clidb_fail(s->db, s->path, what);
}

static void trow_read(trow *r, sqlite3_stmt *st) {
  r->id = col(st, 0);
  r->agent = col(st, 1);
  r->tstatus = col(st, 2);
  r->tz = col(st, 3);
  r->has_next = sqlite3_column_type(st, 4) != SQLITE_NULL;
  r->next_ms = sqlite3_column_int64(st, 4);
  r->next = col_time(st, 5);
  r->has_last = sqlite3_column_type(st, 6) != SQLITE_NULL;
  r->last_ms = sqlite3_column_int64(st, 6);
  r->last = col_time(st, 7);
  r->last_status = col(st, 8);
  r->running = sqlite3_column_int(st, 9);
  r->schedule = col(st, 10);
}

static void trow_free(trow *r) {
  free(r->id);
  free(r->agent);
  free(r->tstatus);
  free(r->tz);
  free(r->next);
  free(r->last);
  free(r->last_status);
  free(r->schedule);
}

static void bind_text(sqlite3_stmt *st, const char *name, const char *v) {
  int i = sqlite3_bind_parameter_index(st, name);
  if (i) sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

static void show_row(status *s, const trow *r); /* below: text or JSON */

/* The rows of part (state: the :state it binds) shown until s->max;
** s->more once one more matched. */
static int list_part_rows(status *s, list_part part, const char *state) {
  char *sql = list_sql(part, s->o);
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) return fail_db(s, "reading the triggers");
  bind_text(st, ":state", state);
  bind_text(st, ":agent", s->o->agent_id);
  bind_text(st, ":scope", s->o->scope);
  while (!s->more && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (s->shown == s->max) {
      s->more = 1;
      break;
    }
    trow r;
    trow_read(&r, st);
    show_row(s, &r);
    trow_free(&r);
    s->shown++;
  }
  sqlite3_finalize(st);
  return s->more || rc == SQLITE_DONE ? 0 : fail_db(s, "reading the triggers");
}

/* Every part in turn: the due triggers, then those with nothing due by
** state; with --status other than scheduled, that state's alone. */
static int list_triggers(status *s) {
  const char *want = s->o->state;
  if (want && strcmp(want, "scheduled") != 0)
    return list_part_rows(s, PART_STATE, want);
  int rc = list_part_rows(s, PART_DUE, want);
  for (int k = 1; k <= NSTATES && !rc && !s->more; k++) {
    const char *state = states[k % NSTATES]; /* scheduled ones last */
    if (!want || strcmp(want, state) == 0)
      rc = list_part_rows(s, PART_IDLE, state);
  }
  return rc;
}

/* One count of sql (?1 bound to text or, without it, to num), at most
** COUNT_CAP + 1. 0 ok, else 3 (logged, saying what was counted). */
static int count_of(status *s, const char *what, const char *sql,
                    const char *text, long long num, long long *out) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
    return fail_db(s, what);
  if (text) sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
  else sqlite3_bind_int64(st, 1, num);
  sqlite3_bind_int64(st, 2, COUNT_CAP + 1);
  int rc = sqlite3_step(st);
  *out = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return rc == SQLITE_ROW ? 0 : fail_db(s, what);
}

/* The triggers of each state and the failed runs of the last 24 h, each
** by its index and up to COUNT_CAP + 1 (bounded on any database). */
static int read_counts(status *s) {
  int rc = 0;
  for (int k = 0; k < NSTATES && !rc; k++)
    rc = count_of(s, "counting the triggers", count_sql, states[k], 0,
                  &s->count[k]);
  if (!rc)
    rc = count_of(s, "counting the failed runs", nfail_sql, NULL,
                  s->now - DAY_MS, &s->nfail);
  return rc;
}

static int read_failures(status *s, int max) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(s->db, failures_sql, -1, &st, NULL) != SQLITE_OK)
    return fail_db(s, "reading the failed runs");
  sqlite3_bind_int64(st, 1, s->now - DAY_MS);
  sqlite3_bind_int(st, 2, max);
  s->f = xmalloc(sizeof *s->f * (size_t)max);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    frow *r = &s->f[s->nf++];
    r->run_id = col(st, 0);
    r->trigger_id = col(st, 1);
    r->attempt = sqlite3_column_int64(st, 2);
    r->at = sqlite3_column_int64(st, 3);
    r->when = col_time(st, 4);
    r->error = col(st, 5);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : fail_db(s, "reading the failed runs");
}

/* The STATUS column (status.h). */
static const char *shown_status(const trow *r) {
  if (strcmp(r->tstatus, "scheduled") != 0) return r->tstatus;
  if (r->running) return "running";
  return r->last_status ? r->last_status : "scheduled";
}

/* A span in its two largest units: "850ms", "59s", "4min 10s", "1h 4min",
** "2d 3h". */
static void span(char *buf, size_t n, long long ms) {
  long long s = ms / 1000, m = s / 60, h = m / 60, d = h / 24;
  if (ms < 1000) snprintf(buf, n, "%lldms", ms);
  else if (s < 60) snprintf(buf, n, "%llds", s);
  else if (m < 60) snprintf(buf, n, "%lldmin %llds", m, s % 60);
  else if (h < 24) snprintf(buf, n, "%lldh %lldmin", h, m % 60);
  else snprintf(buf, n, "%lldd %lldh", d, h % 24);
}

/* The LEFT column: time until next, "overdue ..." when it has passed. */
static void left(char *buf, size_t n, const trow *r, long long now) {
  if (!r->has_next) {
    snprintf(buf, n, "-");
    return;
  }
  char sp[40];
  long long d = r->next_ms - now;
  span(sp, sizeof sp, d < 0 ? -d : d);
  snprintf(buf, n, "%s%s", d < 0 ? "overdue " : "", sp);
}

/* "5 triggers: 3 scheduled, 1 paused, 1 completed." (a count at its cap
** shows as "100000+"), then how many were shown when not all. */
static void print_counts(const status *s) {
  long long total = 0;
  int capped = 0;
  for (int k = 0; k < NSTATES; k++) {
    total += s->count[k];
    capped |= s->count[k] > COUNT_CAP;
  }
  if (capped) total = 0; /* shown as the sum of the states' capped counts */
  for (int k = 0; capped && k < NSTATES; k++)
    total += s->count[k] > COUNT_CAP ? COUNT_CAP : s->count[k];
  printf("\n%lld%s trigger%s", total, capped ? "+" : "", total == 1 ? "" : "s");
  const char *sep = ": ";
  for (int k = 0; k < NSTATES; k++) {
    if (!s->count[k]) continue;
    int cap = s->count[k] > COUNT_CAP;
    printf("%s%lld%s %s", sep, cap ? COUNT_CAP : s->count[k], cap ? "+" : "",
           states[k]);
    sep = ", ";
  }
  printf(".\n");
  if (s->more)
    printf("%lld shown%s; --limit N or --all for more.\n", s->shown,
           s->o->agent_id || s->o->scope || s->o->state ? " (filtered)" : "");
}

static void text_row(status *s, const trow *r) {
  char l[64];
  left(l, sizeof l, r, s->now);
  const char *cells[] = {r->next,         l,     r->last,
                         shown_status(r), r->id, r->schedule};
  table_add(&s->tt, cells);
  if (s->tt.nrow == PAGE_ROWS) table_print(&s->tt);
}

static void json_row(status *s, const trow *r) {
  if (s->shown) putchar(',');
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_open(b, NULL, '{');
  out_json_str(b, "trigger_id", r->id);
  out_json_str(b, "agent_id", r->agent);
  out_json_str(b, "status", shown_status(r));
  out_json_str(b, "trigger_status", r->tstatus);
  if (r->has_next) out_json_int(b, "next_due_at", r->next_ms);
  else out_json_null(b, "next_due_at");
  out_json_str(b, "next", r->next);
  if (r->has_next) out_json_int(b, "left_ms", r->next_ms - s->now);
  else out_json_null(b, "left_ms");
  if (r->has_last) out_json_int(b, "last_run_at", r->last_ms);
  else out_json_null(b, "last_run_at");
  out_json_str(b, "last", r->last);
  out_json_str(b, "last_status", r->last_status);
  out_json_str(b, "schedule", r->schedule);
  out_json_str(b, "timezone", r->tz);
  out_json_close(b, '}');
  char *json = out_finish(b);
  fputs(json, stdout);
  sqlite3_free(json);
}

static void show_row(status *s, const trow *r) {
  if (s->o->json) json_row(s, r);
  else text_row(s, r);
}

/* Before the rows: the table's head, or the JSON object up to its
** "triggers" array. */
static void print_head(status *s) {
  if (!s->o->json) {
    s->tt.ncol = 6;
    const char *head[] = {"NEXT",   "LEFT",    "LAST",
                          "STATUS", "TRIGGER", "SCHEDULE"};
    table_add(&s->tt, head);
    return;
  }
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_open(b, NULL, '{');
  out_json_str(b, "database", s->path);
  out_json_int(b, "now", s->now);
  out_json_open(b, "triggers", '[');
  char *json = out_finish(b);
  fputs(json, stdout);
  sqlite3_free(json);
}

static void print_failures_text(status *s) {
  if (s->nfail == 0) {
    printf("No failed runs in the last 24 h.\n");
    return;
  }
  int capped = s->nfail > COUNT_CAP;
  printf("\nFailed runs in the last 24 h: %lld%s%s\n",
         capped ? COUNT_CAP : s->nfail, capped ? "+" : "",
         s->nfail > s->nf ? " (the latest listed)" : "");
  table f = {.ncol = 4};
  const char *fhead[] = {"WHEN", "TRIGGER", "ATTEMPT", "ERROR"};
  table_add(&f, fhead);
  for (int i = 0; i < s->nf; i++) {
    const frow *r = &s->f[i];
    char att[24];
    snprintf(att, sizeof att, "%lld", r->attempt);
    char *err = table_short(r->error, ERROR_CHARS);
    const char *cells[] = {r->when, r->trigger_id, att, err};
    table_add(&f, cells);
    free(err);
  }
  table_print(&f);
}

/* After the rows: the counts and failures, as text or the rest of the
** JSON object. */
static void print_tail(status *s) {
  if (!s->o->json) {
    table_print(&s->tt);
    print_counts(s);
    print_failures_text(s);
    return;
  }
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_json_close(b, ']');
  out_json_int(b, "shown", s->shown);
  sqlite3_str_appendall(b, s->more ? ",\"more\":true" : ",\"more\":false");
  out_json_open(b, "counts", '{');
  for (int k = 0; k < NSTATES; k++)
    out_json_int(b, states[k],
                 s->count[k] > COUNT_CAP ? COUNT_CAP + 1 : s->count[k]);
  out_json_close(b, '}');
  out_json_int(b, "counts_capped_at", COUNT_CAP); /* more: COUNT_CAP + 1 */
  out_json_int(b, "failures_24h", s->nfail);
  out_json_open(b, "failures", '[');
  for (int i = 0; i < s->nf; i++) {
    const frow *r = &s->f[i];
    out_json_open(b, NULL, '{');
    out_json_str(b, "run_id", r->run_id);
    out_json_str(b, "trigger_id", r->trigger_id);
    out_json_int(b, "attempt", r->attempt);
    out_json_int(b, "finished_at", r->at);
    out_json_str(b, "when", r->when);
    out_json_str(b, "error", r->error);
    out_json_close(b, '}');
  }
  out_json_close(b, ']');
  out_json_close(b, '}');
  char *json = out_finish(b);
  puts(json);
  sqlite3_free(json);
}

static void status_free(status *s) {
  table_free(&s->tt);
  for (int i = 0; i < s->nf; i++) {
    free(s->f[i].run_id);
    free(s->f[i].trigger_id);
    free(s->f[i].when);
    free(s->f[i].error);
  }
  free(s->f);
  sqlite3_close(s->db);
}

int status_main(const host_opts *o) {
  status s;
  memset(&s, 0, sizeof s);
  s.o = o;
  s.path = o->dbs[0];
  s.now = wall_ms();
  s.max = o->all ? LLONG_MAX : o->limit ? o->limit : SHOW_DEFAULT;
  /* one read transaction: the list, counts and failures of one moment */
  int rc = clidb_open(s.path, o, 0, &s.db);
  if (!rc && sqlite3_exec(s.db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
    rc = fail_db(&s, "BEGIN");
  if (!rc) rc = read_counts(&s);
  if (!rc) rc = read_failures(&s, o->json ? FAIL_JSON_MAX : FAIL_TEXT_MAX);
  if (!rc) {
    errno = 0;
    print_head(&s);
    rc = list_triggers(&s);
    if (!rc) print_tail(&s);
    if (!rc && (fflush(stdout) != 0 || ferror(stdout))) {
      log_fatal("stdout: %s", strerror(errno)); /* the failed write's */
      rc = 3;
    }
  }
  status_free(&s);
  return rc;
}
