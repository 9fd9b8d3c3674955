/*
** page.c -- the HTML status page (see page.h).
**
** The timeline: one row per trigger due in the next 24 hours (overdue ones
** first, marked red at "now"), one mark per fire from trigger_preview. A
** trigger that fires more often than a mark can show is read in batches:
** when a batch of PREVIEW_BATCH fires ends inside the window, the rest of
** that fire's hour (counted from now) is drawn as a bar of fires titled
** "more fires up to here, not each drawn" (at most an hour too long when
** the fires stop inside it) and the next batch starts after it, so a row
** costs at most one preview call per hour. A trigger with max_runs is read fire by fire
** (its remaining runs bound it). Calls are counted against the page's
** PAGE_PREVIEW_CALLS; what the budget leaves undrawn is hatched grey and
** says so.
*/
#include "http/page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "text/coverage.h"
#include "time/civil.h"

#define DAY_MS 86400000LL
#define BUCKET_MS 3600000LL /* a dense stretch of the timeline */
#define PREVIEW_BATCH 100
#define ROW_CALLS 24 /* one per stretch */
#define TEXT_MAX 200 /* bytes of a name, error or result shown */

/* Timeline geometry (SVG user units). */
#define TL_WIDTH 960
#define TL_X0 200
#define TL_PLOT (TL_WIDTH - TL_X0 - 10)
#define TL_TOP 24
#define TL_ROW 20

static const char page_style[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:1.2em 1.6em;color:#222;"
    "background:#fafafa}"
    "h1{font-size:1.4em;margin:0 0 .2em}"
    "h2{font-size:1.15em;margin:1.6em 0 .5em;border-bottom:2px solid #ccc;"
    "padding-bottom:.2em}"
    "h3{font-size:1em;margin:1.2em 0 .4em}"
    ".muted,small{color:#666}"
    ".cards{display:flex;flex-wrap:wrap;gap:.5em;list-style:none;padding:0;"
    "margin:.4em 0}"
    ".cards li{background:#fff;border:1px solid #ddd;border-radius:4px;"
    "padding:.3em .8em;min-width:6.5em}"
    ".cards b{display:block;font-size:1.35em}"
    ".cards li.warn{background:#fff1dc;border-color:#e8a33d}"
    "table{border-collapse:collapse;width:100%;background:#fff}"
    "th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;"
    "vertical-align:top}"
    "th{background:#f0f0f0}td.t{white-space:nowrap}"
    "tr.fail td{background:#fde2e1}tr.warn td{background:#fff6e5}"
    ".failed{color:#b00020;font-weight:bold}.success{color:#1b7f3b}"
    ".running{color:#1a5fb4}.paused{color:#777}"
    ".err{color:#b00020;font-weight:bold}"
    "svg{max-width:100%;height:auto;background:#fff;border:1px solid #ddd}"
    "svg text{font:11px system-ui,sans-serif;fill:#333}"
    ".grid{stroke:#e3e3e3}.f{fill:#1a5fb4}.od{fill:#b00020}"
    ".nc{fill:#ccc}"
    "footer{margin-top:2em}";

/* ---- text ------------------------------------------------------------ */

/* t HTML-escaped, at most max bytes of it (never cutting a character;
** "..." when cut), control characters as U+FFFD. NULL appends nothing. */
static void esc(sqlite3_str *s, const char *t, size_t max) {
  if (!t) return;
  size_t n = strlen(t), cut = n > max ? max : n;
  while (cut < n && cut > 0 && ((unsigned char)t[cut] & 0xC0) == 0x80) cut--;
  for (size_t i = 0; i < cut; i++) {
    unsigned char c = (unsigned char)t[i];
    switch (c) {
      case '&': sqlite3_str_appendall(s, "&amp;"); break;
      case '<': sqlite3_str_appendall(s, "&lt;"); break;
      case '>': sqlite3_str_appendall(s, "&gt;"); break;
      case '"': sqlite3_str_appendall(s, "&quot;"); break;
      case '\'': sqlite3_str_appendall(s, "&#39;"); break;
      default:
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
          sqlite3_str_appendall(s, "\xef\xbf\xbd");
        else sqlite3_str_appendchar(s, 1, (char)c);
    }
  }
  if (cut < n) sqlite3_str_appendall(s, "\xe2\x80\xa6");
}

static const char *col(sqlite3_stmt *st, int i) {
  return (const char *)sqlite3_column_text(st, i);
}

/* "2026-03-09 07:00:00Z" */
static void utc_text(long long ms, char *buf, size_t n) {
  time_t t = (time_t)civil_floor_div(ms, 1000);
  struct tm tm;
  if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%SZ", &tm))
    snprintf(buf, n, "%lld ms", ms);
}

/* "in 5 s", "3 min ago", "in 2 h 5 min", "in 3 d 4 h". */
static void rel_text(long long delta_ms, char *buf, size_t n) {
  long long a = (delta_ms < 0 ? -delta_ms : delta_ms) / 1000;
  char v[32];
  if (a < 120) snprintf(v, sizeof v, "%lld s", a);
  else if (a < 7200) snprintf(v, sizeof v, "%lld min", a / 60);
  else if (a < 172800)
    snprintf(v, sizeof v, "%lld h %lld min", a / 3600, a / 60 % 60);
  else snprintf(v, sizeof v, "%lld d %lld h", a / 86400, a / 3600 % 24);
  snprintf(buf, n, delta_ms < 0 ? "%s ago" : "in %s", v);
}

/* A status word with its class (failed, success, running, paused). */
static void status_span(sqlite3_str *s, const char *status) {
  if (!status) {
    sqlite3_str_appendall(s, "<span class=\"muted\">&mdash;</span>");
    return;
  }
  sqlite3_str_appendall(s, "<span class=\"");
  esc(s, status, 16);
  sqlite3_str_appendall(s, "\">");
  esc(s, status, 16);
  sqlite3_str_appendall(s, "</span>");
}

static void sql_error(sqlite3_str *s, readdb *r, const char *what) {
  sqlite3_str_appendall(s, "<p class=\"err\">");
  esc(s, what, 100);
  sqlite3_str_appendall(s, ": ");
  esc(s, readdb_errmsg(r), 400);
  sqlite3_str_appendall(s, "</p>\n");
}

/* ---- health cards ---------------------------------------------------- */

static int warn_key(const char *key) {
  static const char *const keys[] = {"overdue", "stalled", "expired_leases",
                                     "failures_24h"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (strcmp(key, keys[i]) == 0) return 1;
  return 0;
}

static void cards(sqlite3_str *s, readdb *r, const page_info *in) {
  char *err = NULL;
  char *json = readdb_health(r, in->now_ms, &err);
  health_field f[HEALTH_MAX_FIELDS];
  int n = 0;
  int failed =
      !json || readdb_health_fields(r, json, f, HEALTH_MAX_FIELDS, &n) != 0;
  free(json);
  free(err);
  if (failed) {
    sql_error(s, r, "trigger_health");
    return;
  }
  sqlite3_str_appendall(s, "<ul class=\"cards\">");
  for (int i = 0; i < n; i++) {
    char label[sizeof f[i].key], when[64] = "none", rel[48] = "";
    memcpy(label, f[i].key, sizeof label);
    for (char *p = label; *p; p++)
      if (*p == '_') *p = ' ';
    if (strcmp(f[i].key, "next_due_at") == 0) {
      if (!f[i].isnull) {
        utc_text(f[i].value, when, sizeof when);
        rel_text(f[i].value - in->now_ms, rel, sizeof rel);
      }
      sqlite3_str_appendf(s, "<li><b>%s</b>next due <small>%s</small></li>",
                          rel[0] ? rel : "none", when);
    } else if (!f[i].isnull) {
      int warn = warn_key(f[i].key) && f[i].value > 0;
      sqlite3_str_appendf(s, "<li%s><b>%lld</b>%s</li>",
                          warn ? " class=\"warn\"" : "", f[i].value, label);
    }
  }
  sqlite3_str_appendall(s, "</ul>\n");
}

/* ---- timeline -------------------------------------------------------- */

typedef struct timeline {
  sqlite3_str *s;
  readdb *r;
  long long now, end;
  int budget;     /* preview calls left for the page */
  int row;        /* the row being drawn */
  int run0, run1; /* marks closer than 3 px merge into one bar; -1: none */
} timeline;

/* Every time drawn is in [now, end]: the checks keep a wrong one on the
** plot (docs/testing.md, "Defensive checks"). */
static double tl_x(const timeline *t, long long ms) {
  if (NEVER(ms < t->now)) ms = t->now;
  if (NEVER(ms > t->end)) ms = t->end;
  return TL_X0 + (double)(ms - t->now) * TL_PLOT / (double)DAY_MS;
}

static void tl_rect(timeline *t, int row, long long from, long long to,
                    const char *cls, const char *title) {
  double x = tl_x(t, from), w = tl_x(t, to) - x;
  if (w < 2) w = 2;
  sqlite3_str_appendf(t->s,
                      "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"12\""
                      " class=\"%s\"><title>%s</title></rect>",
                      x, TL_TOP + row * TL_ROW + 4, w, cls, title);
}

/* Draw the pending bar of marks. */
static void tl_flush(timeline *t) {
  if (t->run0 < 0) return;
  sqlite3_str_appendf(t->s,
                      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"12\""
                      " class=\"f\"/>",
                      t->run0, TL_TOP + t->row * TL_ROW + 4,
                      t->run1 - t->run0 + 2);
  t->run0 = t->run1 = -1;
}

static void tl_mark(timeline *t, long long due) {
  int px = (int)tl_x(t, due);
  if (t->run0 >= 0 && px <= t->run1 + 2) {
    t->run1 = px;
    return;
  }
  tl_flush(t);
  t->run0 = t->run1 = px;
}

static void tl_axis(timeline *t, int rows) {
  int h = TL_TOP + rows * TL_ROW + 6;
  sqlite3_str_appendf(t->s,
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
                      " height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\""
                      " aria-label=\"fires in the next 24 hours\">",
                      TL_WIDTH, h, TL_WIDTH, h);
  /* a line every 3 hours of UTC, labelled; "now" at the left */
  long long step = 3 * 3600000LL;
  for (long long m = (t->now / step + 1) * step; m < t->end; m += step) {
    char buf[32];
    time_t sec = (time_t)(m / 1000);
    struct tm tm;
    gmtime_r(&sec, &tm);
    strftime(buf, sizeof buf, "%H:%MZ", &tm);
    double x = tl_x(t, m);
    sqlite3_str_appendf(t->s,
                        "<line x1=\"%.1f\" y1=\"16\" x2=\"%.1f\" y2=\"%d\""
                        " class=\"grid\"/><text x=\"%.1f\" y=\"12\""
                        " text-anchor=\"middle\">%s</text>",
                        x, x, h, x, buf);
  }
  sqlite3_str_appendf(t->s,
                      "<line x1=\"%d\" y1=\"16\" x2=\"%d\" y2=\"%d\""
                      " stroke=\"#b00020\"/><text x=\"%d\" y=\"12\">now</text>",
                      TL_X0, TL_X0, h, TL_X0);
}

/* The fires of one trigger from `after` (exclusive) to the window's end;
** remaining: runs left under max_runs, -1 without a bound. */
static void tl_fires(timeline *t, int row, const char *id, long long after,
                     long long remaining) {
  int calls = 0;
  for (;;) {
    if (remaining == 0 || after >= t->end - 1) return;
    if (t->budget <= 0 || calls >= ROW_CALLS) {
      tl_rect(t, row, after + 1, t->end, "nc",
              "not computed: the page's trigger_preview budget is spent");
      return;
    }
    long long lim = PREVIEW_BATCH;
    if (remaining > 0 && remaining < lim) lim = remaining;
    sqlite3_stmt *st = readdb_stmt(t->r, RQ_PREVIEW);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, after);
    sqlite3_bind_int64(st, 3, lim);
    t->budget--;
    calls++;
    long long got = 0, last = after;
    int rc, past_end = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      long long due = sqlite3_column_int64(st, 0);
      if (due >= t->end) {
        past_end = 1;
        break;
      }
      tl_mark(t, due);
      last = due;
      got++;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return; /* no more marks */
    if (past_end || got < lim) return;                 /* series done */
    if (remaining > 0) {
      remaining -= got;
      after = last;
      continue;
    }
    /* a full batch inside the window: fill the rest of its stretch */
    long long stretch = t->now + ((last - t->now) / BUCKET_MS + 1) * BUCKET_MS;
    if (NEVER(stretch > t->end)) stretch = t->end; /* DAY_MS: whole hours */
    char title[80];
    snprintf(title, sizeof title, "%d+ fires: more up to here, not each drawn",
             PREVIEW_BATCH);
    tl_rect(t, row, last, stretch, "f", title);
    after = stretch - 1;
  }
}

static void timeline_section(sqlite3_str *s, readdb *r, const page_info *in,
                             int *budget) {
  timeline t = {s, r, in->now_ms, in->now_ms + DAY_MS, *budget, 0, -1, -1};
  sqlite3_stmt *st = readdb_stmt(r, RQ_UPCOMING);
  sqlite3_bind_int64(st, 1, INT64_MIN);
  sqlite3_bind_int64(st, 2, t.end);
  sqlite3_bind_int(st, 3, PAGE_TIMELINE_ROWS + 1);
  /* collect the rows first: the preview statements run while it is reset */
  struct {
    char *id, *name;
    long long next, remaining;
  } rows[PAGE_TIMELINE_ROWS];
  int n = 0, more = 0, rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (n == PAGE_TIMELINE_ROWS) {
      more = 1;
      break;
    }
    rows[n].id = xstrdup(col(st, 0));
    rows[n].name = xstrdup(col(st, 1));
    rows[n].next = sqlite3_column_int64(st, 2);
    rows[n].remaining = sqlite3_column_type(st, 3) == SQLITE_NULL
                            ? -1
                            : sqlite3_column_int64(st, 3);
    if (rows[n].remaining < -1) rows[n].remaining = 0;
    n++;
  }
  int failed = rc != SQLITE_ROW && rc != SQLITE_DONE;
  if (failed) sql_error(s, r, "upcoming triggers");
  sqlite3_reset(st);
  sqlite3_str_appendall(s, "<h3>Next 24 hours</h3>\n");
  if (n == 0 && !failed)
    sqlite3_str_appendall(s, "<p class=\"muted\">Nothing is due in the next "
                             "24 hours.</p>\n");
  if (n > 0) {
    tl_axis(&t, n);
    for (int i = 0; i < n; i++) {
      int y = TL_TOP + i * TL_ROW + 14;
      sqlite3_str_appendall(s, "<g><title>");
      esc(s, rows[i].id, TEXT_MAX);
      sqlite3_str_appendall(s, "</title>");
      sqlite3_str_appendf(s, "<text x=\"4\" y=\"%d\">", y);
      esc(s, rows[i].name && *rows[i].name ? rows[i].name : rows[i].id, 30);
      sqlite3_str_appendall(s, "</text>");
      t.row = i;
      long long after = rows[i].next - 1;
      if (rows[i].next < t.now) {
        tl_rect(&t, i, t.now, t.now, "od", "overdue");
        after = t.now;
      }
      if (rows[i].id) tl_fires(&t, i, rows[i].id, after, rows[i].remaining);
      tl_flush(&t);
      sqlite3_str_appendall(s, "</g>");
    }
    sqlite3_str_appendall(s, "</svg>\n");
  }
  if (more)
    sqlite3_str_appendf(s,
                        "<p class=\"muted\">More triggers are due in the next "
                        "24 hours; the first %d are drawn.</p>\n",
                        PAGE_TIMELINE_ROWS);
  for (int i = 0; i < n; i++) {
    free(rows[i].id);
    free(rows[i].name);
  }
  *budget = t.budget;
}

/* ---- triggers -------------------------------------------------------- */

static void describe(sqlite3_str *s, readdb *r, const char *id) {
  sqlite3_stmt *st = readdb_stmt(r, RQ_DESCRIBE);
  sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
  char *err = NULL;
  char *text = readdb_text(r, st, &err);
  if (text) esc(s, text, TEXT_MAX);
  else if (err) {
    sqlite3_str_appendall(s, "<span class=\"err\">");
    esc(s, err, TEXT_MAX);
    sqlite3_str_appendall(s, "</span>");
  }
  free(text);
  free(err);
}

static void trigger_row(sqlite3_str *s, readdb *r, sqlite3_stmt *st,
                        const page_info *in) {
  const char *id = col(st, 0), *last = col(st, 6);
  int failed = last && strcmp(last, "failed") == 0;
  /* the instructions as the cell's tooltip */
  sqlite3_str_appendf(s, "<tr%s><td title=\"", failed ? " class=\"fail\"" : "");
  esc(s, col(st, 10), TEXT_MAX * 2);
  sqlite3_str_appendall(s, "\"><b>");
  esc(s, id, TEXT_MAX);
  sqlite3_str_appendall(s, "</b><br><small>");
  esc(s, col(st, 1), TEXT_MAX);
  sqlite3_str_appendall(s, "</small></td><td>");
  esc(s, col(st, 2), TEXT_MAX);
  /* the rule or cron expression as the schedule's tooltip */
  sqlite3_str_appendall(s, "</td><td title=\"");
  esc(s, col(st, 11), TEXT_MAX * 2);
  sqlite3_str_appendall(s, "\">");
  describe(s, r, id);
  sqlite3_str_appendall(s, "</td><td>");
  status_span(s, col(st, 3));
  sqlite3_str_appendall(s, "</td><td>");
  if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
    char rel[48];
    rel_text(sqlite3_column_int64(st, 4) - in->now_ms, rel, sizeof rel);
    sqlite3_str_appendf(s, "%s<br><small>", rel);
    esc(s, col(st, 5), 64);
    sqlite3_str_appendall(s, "</small>");
  } else {
    sqlite3_str_appendall(s, "<span class=\"muted\">&mdash;</span>");
  }
  sqlite3_str_appendall(s, "</td><td>");
  status_span(s, last);
  if (col(st, 7)) {
    sqlite3_str_appendall(s, "<br><small>");
    esc(s, col(st, 7), 64);
    sqlite3_str_appendall(s, "</small>");
  }
  if (failed && col(st, 8)) {
    sqlite3_str_appendall(s, "<br><small>");
    esc(s, col(st, 8), TEXT_MAX);
    sqlite3_str_appendall(s, "</small>");
  }
  sqlite3_str_appendf(s, "</td><td>%lld</td></tr>\n",
                      (long long)sqlite3_column_int64(st, 9));
}

static void triggers_section(sqlite3_str *s, readdb *r, const page_info *in) {
  sqlite3_str_appendall(s, "<h3>Triggers</h3>\n");
  /* those with a next due time first, in its order; then the others */
  static const readdb_query parts[] = {RQ_TRIGGERS, RQ_TRIGGERS_IDLE};
  int n = 0, rc = SQLITE_DONE, more = 0;
  for (int p = 0; p < 2 && !more && rc == SQLITE_DONE; p++) {
    sqlite3_stmt *st = readdb_stmt(r, parts[p]);
    sqlite3_bind_int(st, 1, PAGE_TRIGGERS + 1 - n);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (n == PAGE_TRIGGERS) {
        more = 1;
        break;
      }
      if (n++ == 0)
        sqlite3_str_appendall(s, "<table><tr><th>trigger</th><th>agent</th>"
                                 "<th>schedule</th><th>status</th><th>next</th>"
                                 "<th>last run</th><th>runs</th></tr>\n");
      trigger_row(s, r, st, in);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) sql_error(s, r, "triggers");
    sqlite3_reset(st);
  }
  if (n) sqlite3_str_appendall(s, "</table>\n");
  else if (rc == SQLITE_DONE)
    sqlite3_str_appendall(s, "<p class=\"muted\">No triggers.</p>\n");
  if (more)
    sqlite3_str_appendf(s,
                        "<p class=\"muted\">Only the first %d triggers by next "
                        "due time are listed.</p>\n",
                        PAGE_TRIGGERS);
}

/* ---- runs ------------------------------------------------------------ */

static const long long run_windows[] = {600000LL, 7200000LL, DAY_MS,
                                        7 * DAY_MS};
#define NWINDOWS (int)(sizeof run_windows / sizeof run_windows[0])

static sqlite3_stmt *runs_query(readdb *r, const page_info *in, int w) {
  sqlite3_stmt *st = readdb_stmt(r, RQ_RUNS);
  sqlite3_bind_int64(st, 1, in->now_ms - run_windows[w]);
  sqlite3_bind_int64(st, 2, in->now_ms + DAY_MS);
  sqlite3_bind_int(st, 3, PAGE_RUNS);
  return st;
}

static void run_row(sqlite3_str *s, sqlite3_stmt *st) {
  const char *status = col(st, 5);
  int failed = status && strcmp(status, "failed") == 0;
  int expired = status && strcmp(status, "expired") == 0;
  sqlite3_str_appendf(s, "<tr%s><td class=\"t\">",
                      failed    ? " class=\"fail\""
                      : expired ? " class=\"warn\""
                                : "");
  esc(s, col(st, 3), 64);
  sqlite3_str_appendall(s, "</td><td>");
  esc(s, col(st, 1), TEXT_MAX);
  sqlite3_str_appendall(s, "</td><td>");
  esc(s, col(st, 2), TEXT_MAX);
  sqlite3_str_appendf(s, "</td><td>%lld</td><td>",
                      (long long)sqlite3_column_int64(st, 4));
  status_span(s, status);
  sqlite3_str_appendall(s, "</td><td>");
  if (sqlite3_column_type(st, 6) != SQLITE_NULL)
    sqlite3_str_appendf(s, "%lld ms", (long long)sqlite3_column_int64(st, 6));
  sqlite3_str_appendall(s, "</td><td>");
  esc(s, col(st, failed || expired ? 7 : 8), TEXT_MAX);
  if (!failed && !expired && !col(st, 8)) esc(s, col(st, 7), TEXT_MAX);
  sqlite3_str_appendall(s, "</td></tr>\n");
}

static void runs_section(sqlite3_str *s, readdb *r, const page_info *in) {
  /* the narrowest window that holds PAGE_RUNS runs (or the widest) */
  int w = 0, rc = SQLITE_DONE;
  for (; w < NWINDOWS; w++) {
    sqlite3_stmt *st = runs_query(r, in, w);
    int n = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) n++;
    sqlite3_reset(st);
    if (rc != SQLITE_DONE || n >= PAGE_RUNS) break;
  }
  if (w == NWINDOWS) w--;
  sqlite3_str_appendf(s, "<h3>Recent runs</h3>\n");
  if (rc != SQLITE_DONE) {
    sql_error(s, r, "runs");
    return;
  }
  sqlite3_stmt *st = runs_query(r, in, w);
  int n = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (n++ == 0)
      sqlite3_str_appendall(s, "<table><tr><th>scheduled for</th>"
                               "<th>trigger</th><th>agent</th><th>attempt</th>"
                               "<th>status</th><th>latency</th>"
                               "<th>error / result</th></tr>\n");
    run_row(s, st);
  }
  if (rc != SQLITE_DONE) sql_error(s, r, "runs");
  sqlite3_reset(st);
  if (n) sqlite3_str_appendall(s, "</table>\n");
  else if (rc == SQLITE_DONE)
    sqlite3_str_appendall(s, "<p class=\"muted\">No runs in the last 7 "
                             "days.</p>\n");
}

/* ---- the page -------------------------------------------------------- */

static void db_section(sqlite3_str *s, readdb *r, const page_info *in,
                       int *budget) {
  sqlite3_str_appendall(s, "<section><h2>");
  esc(s, r->path, 400);
  sqlite3_str_appendall(s, "</h2>\n");
  if (readdb_begin(r) != 0) {
    sql_error(s, r, "read transaction");
  } else {
    cards(s, r, in);
    timeline_section(s, r, in, budget);
    triggers_section(s, r, in);
    runs_section(s, r, in);
  }
  readdb_end(r);
  sqlite3_str_appendall(s, "</section>\n");
}

char *page_render(readdb *dbs, int ndbs, const page_info *in, size_t *len) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  char now[32], started[32];
  utc_text(in->now_ms, now, sizeof now);
  utc_text(in->start_ms, started, sizeof started);
  sqlite3_str_appendf(s,
                      "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                      "<meta charset=\"utf-8\">"
                      "<meta http-equiv=\"refresh\" content=\"%d\">"
                      "<meta name=\"viewport\" content=\"width=device-width\">"
                      "<title>trigger-host status</title><style>%s</style>"
                      "</head><body>\n<header><h1>trigger-host status</h1>"
                      "<p class=\"muted\">",
                      PAGE_REFRESH_S, page_style);
  esc(s, in->owner, 200);
  sqlite3_str_appendf(s,
                      " &middot; %s, %d database%s &middot; started %s "
                      "&middot; as of %s &middot; refreshes every %d s"
                      " &middot; times in UTC unless a zone is shown</p>"
                      "</header>\n",
                      in->mode, ndbs, ndbs == 1 ? "" : "s", started, now,
                      PAGE_REFRESH_S);
  int budget = PAGE_PREVIEW_CALLS, i = 0;
  for (; i < ndbs && sqlite3_str_length(s) < PAGE_MAX_BYTES; i++)
    db_section(s, &dbs[i], in, &budget);
  if (i < ndbs) {
    sqlite3_str_appendf(s,
                        "<p class=\"muted\">%d more database(s) not shown "
                        "(page size limit):</p><ul>",
                        ndbs - i);
    for (int shown = 0; i < ndbs && shown < 100; i++, shown++) {
      sqlite3_str_appendall(s, "<li>");
      esc(s, dbs[i].path, 400);
      sqlite3_str_appendall(s, "</li>");
    }
    sqlite3_str_appendall(s, i < ndbs ? "<li>&hellip;</li></ul>\n" : "</ul>\n");
  }
  sqlite3_str_appendall(
      s, "<footer class=\"muted\">Read-only. Also: <a href=\"/metrics\">"
         "/metrics</a> (Prometheus text), <a href=\"/health\">/health</a>"
         " (JSON).</footer>\n</body></html>\n");
  *len = (size_t)sqlite3_str_length(s);
  return sqlite3_str_finish(s);
}
