/*
** detail.c -- the pages of one trigger and of one run (see detail.h).
*/
#include "http/detail.h"

#include <limits.h>
#include <string.h>

#include "http/html.h"
#include "http/http.h"

static const char *col(sqlite3_stmt *st, int i) {
  return (const char *)sqlite3_column_text(st, i);
}

static void sql_error(sqlite3_str *s, readdb *r, const char *what) {
  html_error(s, what, readdb_errmsg(r));
}

/* The head of a page about one thing: "<kind> <id>", the database, when. */
static void head(sqlite3_str *s, const detail_req *q, const page_info *in,
                 const char *kind) {
  char *title = sqlite3_mprintf("%s %.*s", kind, HTML_TEXT_MAX, q->id);
  html_head(s, title ? title : kind, 0);
  sqlite3_free(title);
  char now[32];
  html_utc_text(in->now_ms, now, sizeof now);
  sqlite3_str_appendall(s, "<p class=\"muted\">");
  html_esc(s, q->r->path, 400);
  sqlite3_str_appendf(s,
                      " &middot; as of %s &middot; <a href=\"/\">all "
                      "triggers</a></p></header>\n",
                      now);
  if (q->notice) {
    sqlite3_str_appendall(s, "<p><b>");
    html_esc(s, q->notice, HTML_TEXT_MAX * 2);
    sqlite3_str_appendall(s, "</b></p>\n");
  }
}

/* "<kind> <id> is not in <db>" */
static void not_found(sqlite3_str *s, const detail_req *q, const char *kind) {
  sqlite3_str_appendf(s, "<p class=\"err\">No %s ", kind);
  html_esc(s, q->id, HTML_TEXT_MAX);
  sqlite3_str_appendall(s, " in this database.</p>\n");
}

static char *finish(sqlite3_str *s, size_t *len) {
  html_foot(s);
  *len = (size_t)sqlite3_str_length(s);
  return sqlite3_str_finish(s);
}

/* A value of the definition: ms instants with their UTC text. */
static void kv_value(sqlite3_str *s, sqlite3_stmt *st, int i) {
  const char *name = sqlite3_column_name(st, i);
  size_t n = name ? strlen(name) : 0;
  if (sqlite3_column_type(st, i) == SQLITE_NULL) {
    sqlite3_str_appendall(s, "<span class=\"muted\">null</span>");
    return;
  }
  html_esc(s, col(st, i), HTML_TEXT_MAX * 10);
  if (n > 3 && strcmp(name + n - 3, "_at") == 0 &&
      sqlite3_column_type(st, i) == SQLITE_INTEGER) {
    char when[32];
    html_utc_text(sqlite3_column_int64(st, i), when, sizeof when);
    sqlite3_str_appendf(s, " <small>%s</small>", when);
  }
}

/* Every column of the trigger's row; 1 when it exists, 0 not, -1 error.
** *status: the trigger's. */
static int definition(sqlite3_str *s, const detail_req *q, char *status,
                      size_t n) {
  sqlite3_stmt *st = readdb_stmt(q->r, RQ_TRIGGER_ROW);
  sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    sqlite3_str_appendall(s, "<h3>Definition</h3>\n<table class=\"kv\">");
    for (int i = 0; i < sqlite3_column_count(st); i++) {
      const char *name = sqlite3_column_name(st, i);
      if (name && strcmp(name, "status") == 0 && col(st, i))
        sqlite3_snprintf((int)n, status, "%s", col(st, i));
      sqlite3_str_appendall(s, "<tr><th>");
      html_esc(s, name, 64);
      sqlite3_str_appendall(s, "</th><td>");
      kv_value(s, st, i);
      sqlite3_str_appendall(s, "</td></tr>");
    }
    sqlite3_str_appendall(s, "</table>\n");
  }
  sqlite3_reset(st);
  return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static void schedule(sqlite3_str *s, const detail_req *q, const page_info *in) {
  sqlite3_str_appendall(s, "<h3>Schedule</h3>\n<p>");
  sqlite3_stmt *st = readdb_stmt(q->r, RQ_DESCRIBE);
  sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW) html_esc(s, col(st, 0), HTML_TEXT_MAX);
  else sqlite3_str_appendall(s, "<span class=\"muted\">&mdash;</span>");
  sqlite3_reset(st);
  sqlite3_str_appendall(s, "</p>\n");
  st = readdb_stmt(q->r, RQ_NEXT);
  sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, in->now_ms);
  sqlite3_bind_int(st, 3, DETAIL_NEXT);
  int n = 0, rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    sqlite3_str_appendall(s, n++ ? "<li>" : "<p>Next:</p><ul><li>");
    html_esc(s, col(st, 0), 64);
    sqlite3_str_appendall(s, "</li>");
  }
  sqlite3_str_appendall(s, n ? "</ul>\n" : "");
  if (rc != SQLITE_DONE) sql_error(s, q->r, "trigger_preview");
  else if (!n)
    sqlite3_str_appendall(s, "<p class=\"muted\">No next occurrence.</p>\n");
  sqlite3_reset(st);
}

/* The link to the page of runs older than the last one shown. */
static void older_link(sqlite3_str *s, const detail_req *q, long long ms,
                       const char *run_id) {
  sqlite3_str_appendall(s, "<p><a href=\"/trigger/");
  html_url(s, q->id, HTTP_ID_MAX);
  sqlite3_str_appendf(s, "?before=%lld&amp;before_run=", ms);
  html_url(s, run_id, HTTP_ID_MAX);
  if (q->ndbs > 1) sqlite3_str_appendf(s, "&amp;db=%d", q->dbi);
  sqlite3_str_appendall(s, "\">Older runs &rarr;</a></p>\n");
}

static void runs(sqlite3_str *s, const detail_req *q) {
  sqlite3_str_appendf(s, "<h3>Runs%s</h3>\n",
                      q->before_ms != LLONG_MAX ? " (older)" : "");
  sqlite3_stmt *st = readdb_stmt(q->r, RQ_TRIGGER_RUNS);
  sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, q->before_ms);
  if (q->before_run) sqlite3_bind_text(st, 3, q->before_run, -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 4, DETAIL_RUNS + 1);
  int n = 0, rc;
  long long last_ms = 0;
  char *last_id = NULL;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (n == DETAIL_RUNS) break;
    if (n++ == 0) page_runs_head(s);
    page_run_row(s, st, q->dbi, q->ndbs);
    last_ms = sqlite3_column_int64(st, 10);
    sqlite3_free(last_id);
    last_id = sqlite3_mprintf("%s", col(st, 0));
  }
  if (n) sqlite3_str_appendall(s, "</table>\n");
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) sql_error(s, q->r, "runs");
  else if (!n) sqlite3_str_appendall(s, "<p class=\"muted\">No runs.</p>\n");
  if (rc == SQLITE_ROW && last_id) older_link(s, q, last_ms, last_id);
  sqlite3_free(last_id);
  sqlite3_reset(st);
}

/* The link to the page of events older than the last one shown. */
static void older_events_link(sqlite3_str *s, const detail_req *q, long long at,
                              long long rowid) {
  sqlite3_str_appendall(s, "<p><a href=\"/trigger/");
  html_url(s, q->id, HTTP_ID_MAX);
  sqlite3_str_appendf(s, "?events_before=%lld&amp;events_before_id=%lld", at,
                      rowid);
  if (q->ndbs > 1) sqlite3_str_appendf(s, "&amp;db=%d", q->dbi);
  sqlite3_str_appendall(s, "\">Older events &rarr;</a></p>\n");
}

static void events(sqlite3_str *s, const detail_req *q) {
  sqlite3_str_appendf(s, "<h3>Events%s</h3>\n",
                      q->events_before != LLONG_MAX ? " (older)" : "");
  sqlite3_stmt *st = readdb_stmt(q->r, RQ_TRIGGER_EVENTS);
  sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 2, DETAIL_EVENTS + 1);
  sqlite3_bind_int64(st, 3, q->events_before);
  sqlite3_bind_int64(st, 4, q->events_before_id);
  int n = 0, rc;
  long long last_at = 0, last_rowid = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (n == DETAIL_EVENTS) break;
    last_at = sqlite3_column_int64(st, 4);
    last_rowid = sqlite3_column_int64(st, 5);
    if (n++ == 0)
      sqlite3_str_appendall(s, "<table><tr><th>at</th><th>kind</th>"
                               "<th>code</th><th>detail</th></tr>\n");
    sqlite3_str_appendall(s, "<tr><td class=\"t\">");
    for (int i = 0; i < 4; i++) {
      html_esc(s, col(st, i), HTML_TEXT_MAX);
      sqlite3_str_appendall(s, i < 3 ? "</td><td>" : "</td></tr>\n");
    }
  }
  if (n) sqlite3_str_appendall(s, "</table>\n");
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) sql_error(s, q->r, "events");
  else if (!n) sqlite3_str_appendall(s, "<p class=\"muted\">No events.</p>\n");
  if (rc == SQLITE_ROW && n) older_events_link(s, q, last_at, last_rowid);
  sqlite3_reset(st);
}

char *detail_trigger(const detail_req *q, const page_info *in, size_t *len,
                     unsigned *status) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  head(s, q, in, "Trigger");
  *status = 200;
  if (readdb_begin(q->r) != 0) {
    sql_error(s, q->r, "read transaction");
  } else {
    sqlite3_str *def = sqlite3_str_new(NULL); /* read first: does it exist */
    char tstatus[32] = "";
    int found = definition(def, q, tstatus, sizeof tstatus);
    if (found < 0) sql_error(s, q->r, "trigger");
    if (found == 0) {
      *status = 404;
      not_found(s, q, "trigger");
    }
    if (found > 0) {
      if (q->forms) q->forms(s, q, "trigger", tstatus, q->forms_ctx);
      schedule(s, q, in);
    }
    if (found >= 0) runs(s, q); /* a deleted trigger's runs stay */
    if (found > 0) {
      events(s, q);
      char *d = sqlite3_str_finish(def);
      sqlite3_str_appendall(s, d ? d : "");
      sqlite3_free(d);
    } else {
      sqlite3_free(sqlite3_str_finish(def));
    }
  }
  readdb_end(q->r);
  return finish(s, len);
}

/* One row of the run's table: a label and its cell's text (escaped). */
static void kv(sqlite3_str *s, const char *label, const char *text) {
  sqlite3_str_appendf(s, "<tr><th>%s</th><td>", label);
  if (text) html_esc(s, text, HTML_TEXT_MAX);
  else sqlite3_str_appendall(s, "<span class=\"muted\">&mdash;</span>");
  sqlite3_str_appendall(s, "</td></tr>");
}

static void kv_span(sqlite3_str *s, const char *label, const char *title,
                    sqlite3_stmt *st, int i) {
  sqlite3_str_appendf(s, "<tr><th title=\"%s\">%s</th><td>", title, label);
  if (sqlite3_column_type(st, i) != SQLITE_NULL)
    html_span(s, sqlite3_column_int64(st, i));
  else sqlite3_str_appendall(s, "<span class=\"muted\">&mdash;</span>");
  sqlite3_str_appendall(s, "</td></tr>");
}

static void block(sqlite3_str *s, const char *title, const char *text) {
  if (!text) return;
  sqlite3_str_appendf(s, "<h3>%s</h3>\n<pre>", title);
  html_esc(s, text, 64 * 1024);
  sqlite3_str_appendall(s, "</pre>\n");
}

/* The run's row (RQ_RUN_ROW) shown. */
static void run_body(sqlite3_str *s, const detail_req *q, sqlite3_stmt *st) {
  if (q->forms) q->forms(s, q, "run", col(st, 3), q->forms_ctx);
  sqlite3_str_appendall(s, "<table class=\"kv\"><tr><th>trigger</th><td>");
  page_link(s, "trigger", col(st, 1), q->dbi, q->ndbs, col(st, 1));
  sqlite3_str_appendall(s, "</td></tr><tr><th>status</th><td>");
  html_status(s, col(st, 3));
  sqlite3_str_appendall(s, "</td></tr>");
  kv(s, "agent", col(st, 2));
  kv(s, "attempt", col(st, 4));
  kv(s, "scheduled for", col(st, 5));
  kv(s, "claimed at", col(st, 6));
  kv(s, "finished at", col(st, 7));
  kv(s, "lease until", col(st, 8));
  kv(s, "owner", col(st, 9));
  kv_span(s, "claim latency",
          "from the scheduled time to the claim, as "
          "trigger_host_claim_latency_seconds",
          st, 10);
  kv_span(s, "run time", "from the claim to the report (latency_ms)", st, 11);
  sqlite3_str_appendall(s, "</table>\n");
  block(s, "Error", col(st, 14));
  block(s, "Result", col(st, 13));
  block(s, "Payload", col(st, 12));
}

/* Every attempt of the run's occurrence. */
static void attempts(sqlite3_str *s, const detail_req *q, const char *trigger,
                     long long scheduled_for) {
  sqlite3_str_appendall(s, "<h3>Attempts</h3>\n");
  sqlite3_stmt *st = readdb_stmt(q->r, RQ_RUN_ATTEMPTS);
  sqlite3_bind_text(st, 1, trigger, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(st, 2, scheduled_for);
  int n = 0, rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < 100) {
    if (n++ == 0) page_runs_head(s);
    page_run_row(s, st, q->dbi, q->ndbs);
  }
  if (n) sqlite3_str_appendall(s, "</table>\n");
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) sql_error(s, q->r, "attempts");
  sqlite3_reset(st);
}

char *detail_run(const detail_req *q, const page_info *in, size_t *len,
                 unsigned *status) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  head(s, q, in, "Run");
  *status = 200;
  if (readdb_begin(q->r) != 0) {
    sql_error(s, q->r, "read transaction");
  } else {
    sqlite3_stmt *st = readdb_stmt(q->r, RQ_RUN_ROW);
    sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      char *trigger = sqlite3_mprintf("%s", col(st, 1));
      long long sched = sqlite3_column_int64(st, 15);
      run_body(s, q, st);
      sqlite3_reset(st);
      if (trigger) attempts(s, q, trigger, sched);
      sqlite3_free(trigger);
    } else if (rc == SQLITE_DONE) {
      *status = 404;
      not_found(s, q, "run");
    } else {
      sql_error(s, q->r, "run");
    }
    sqlite3_reset(st);
  }
  readdb_end(q->r);
  return finish(s, len);
}
