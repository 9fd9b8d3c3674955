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

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "http/html.h"
#include "http/http.h"
#include "text/coverage.h"
#include "time/civil.h"

#define DAY_MS 86400000LL
#define BUCKET_MS 3600000LL /* a dense stretch of the timeline */
#define PREVIEW_BATCH 100
#define ROW_CALLS 24 /* one per stretch */

/* Timeline geometry (SVG user units). */
#define TL_WIDTH 960
#define TL_X0 200
#define TL_PLOT (TL_WIDTH - TL_X0 - 10)
#define TL_TOP 24
#define TL_ROW 20

static const char *col(sqlite3_stmt *st, int i) {
  return (const char *)sqlite3_column_text(st, i);
}

static void sql_error(sqlite3_str *s, readdb *r, const char *what) {
  html_error(s, what, readdb_errmsg(r));
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
        html_utc_text(f[i].value, when, sizeof when);
        html_rel_text(f[i].value - in->now_ms, rel, sizeof rel);
      }
      sqlite3_str_appendf(s, "<li><b>%s</b>next due <small>%s</small></li>",
                          rel[0] ? rel : "none", when);
    } else if (!f[i].isnull) {
      /* a capped count is the cap + 1: shown as "10000+" */
      int warn = warn_key(f[i].key) && f[i].value > 0;
      sqlite3_str_appendf(
          s, "<li%s><b>%lld%s</b>%s</li>", warn ? " class=\"warn\"" : "",
          f[i].value - (f[i].capped ? 1 : 0), f[i].capped ? "+" : "", label);
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
      html_esc(s, rows[i].id, HTML_TEXT_MAX);
      sqlite3_str_appendall(s, "</title>");
      sqlite3_str_appendf(s, "<text x=\"4\" y=\"%d\">", y);
      html_esc(s, rows[i].name && *rows[i].name ? rows[i].name : rows[i].id,
               30);
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
  if (text) html_esc(s, text, HTML_TEXT_MAX);
  else if (err) {
    sqlite3_str_appendall(s, "<span class=\"err\">");
    html_esc(s, err, HTML_TEXT_MAX);
    sqlite3_str_appendall(s, "</span>");
  }
  free(text);
  free(err);
}

void page_link(sqlite3_str *s, const char *kind, const char *id, int dbi,
               int ndbs, const char *text) {
  sqlite3_str_appendf(s, "<a href=\"/%s/", kind);
  html_url(s, id, HTTP_ID_MAX);
  if (ndbs > 1) sqlite3_str_appendf(s, "?db=%d", dbi);
  sqlite3_str_appendall(s, "\">");
  html_esc(s, text, HTML_TEXT_MAX);
  sqlite3_str_appendall(s, "</a>");
}

/* What a section is drawing: the database's place among those served. */
typedef struct where {
  readdb *r;
  int dbi, ndbs;
} where;

static void trigger_row(sqlite3_str *s, const where *w, sqlite3_stmt *st,
                        const page_info *in) {
  const char *id = col(st, 0), *last = col(st, 6);
  int failed = last && strcmp(last, "failed") == 0;
  /* the instructions as the cell's tooltip */
  sqlite3_str_appendf(s, "<tr%s><td title=\"", failed ? " class=\"fail\"" : "");
  html_esc(s, col(st, 10), HTML_TEXT_MAX * 2);
  sqlite3_str_appendall(s, "\"><b>");
  page_link(s, "trigger", id, w->dbi, w->ndbs, id);
  sqlite3_str_appendall(s, "</b><br><small>");
  html_esc(s, col(st, 1), HTML_TEXT_MAX);
  sqlite3_str_appendall(s, "</small></td><td>");
  html_esc(s, col(st, 2), HTML_TEXT_MAX);
  /* the rule or cron expression as the schedule's tooltip */
  sqlite3_str_appendall(s, "</td><td title=\"");
  html_esc(s, col(st, 11), HTML_TEXT_MAX * 2);
  sqlite3_str_appendall(s, "\">");
  describe(s, w->r, id);
  sqlite3_str_appendall(s, "</td><td>");
  html_status(s, col(st, 3));
  sqlite3_str_appendall(s, "</td><td>");
  if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
    char rel[48];
    html_rel_text(sqlite3_column_int64(st, 4) - in->now_ms, rel, sizeof rel);
    sqlite3_str_appendf(s, "%s<br><small>", rel);
    html_esc(s, col(st, 5), 64);
    sqlite3_str_appendall(s, "</small>");
  } else {
    sqlite3_str_appendall(s, "<span class=\"muted\">&mdash;</span>");
  }
  sqlite3_str_appendall(s, "</td><td>");
  html_status(s, last);
  if (col(st, 7)) {
    sqlite3_str_appendall(s, "<br><small>");
    html_esc(s, col(st, 7), 64);
    sqlite3_str_appendall(s, "</small>");
  }
  if (failed && col(st, 8)) {
    sqlite3_str_appendall(s, "<br><small>");
    html_esc(s, col(st, 8), HTML_TEXT_MAX);
    sqlite3_str_appendall(s, "</small>");
  }
  sqlite3_str_appendf(s, "</td><td>%lld</td></tr>\n",
                      (long long)sqlite3_column_int64(st, 9));
}

/* A text filter's input, its value kept. */
static void filter_input(sqlite3_str *s, const char *name, const char *v) {
  sqlite3_str_appendf(s, "<label>%s <input name=\"%s\" value=\"", name, name);
  html_esc(s, v, HTML_TEXT_MAX);
  sqlite3_str_appendall(s, "\"></label> ");
}

/* The filters: a GET form to / (no script). */
static void filter_form(sqlite3_str *s, const page_info *in) {
  static const char *const states[] = {"scheduled", "paused", "completed",
                                       "cancelled", "expired"};
  sqlite3_str_appendall(s, "<form class=\"filter\" method=\"get\" "
                           "action=\"/\">");
  filter_input(s, "agent", in->agent);
  filter_input(s, "scope", in->scope);
  sqlite3_str_appendall(s, "<label>status <select name=\"status\">"
                           "<option value=\"\">any</option>");
  for (size_t i = 0; i < sizeof states / sizeof *states; i++)
    sqlite3_str_appendf(
        s, "<option%s>%s</option>",
        in->status && strcmp(in->status, states[i]) == 0 ? " selected" : "",
        states[i]);
  sqlite3_str_appendall(s, "</select></label> <button>Filter</button> "
                           "<a href=\"/\">clear</a></form>\n");
}

static void bind_filter(sqlite3_stmt *st, int i, const char *v) {
  if (v) sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

#define COL_HIT 12 /* RQ_TRIGGERS*'s last column: the row matches */

/* The trigger list's walk (page.h): a keyset cursor over the due index,
** then the triggers by id; each request reads at most PAGE_WALK rows. */
typedef struct list_walk {
  const where *w;
  const page_info *in;
  sqlite3_str *s;
  long long due; /* the last row read: its next_due_at (part != idle) */
  char *id;      /* and trigger_id; NULL: none read, the first page */
  int idle;      /* the last row read is of the idle part */
  long walked;   /* rows read */
  int shown, more;
} list_walk;

/* Read part (RQ_TRIGGERS_TIE, RQ_TRIGGERS, RQ_TRIGGERS_IDLE, ...) after the
** cursor, showing the rows that match, until the page is full (more) or
** PAGE_WALK rows were read. 0, or -1 on an SQL error. */
static int list_part(list_walk *l, readdb_query part) {
  readdb *r = l->w->r;
  sqlite3_stmt *st = readdb_stmt(r, part);
  sqlite3_bind_int64(st, 1, PAGE_WALK - l->walked);
  bind_filter(st, 2, l->in->agent);
  bind_filter(st, 3, l->in->scope);
  bind_filter(st, 4, l->in->status);
  sqlite3_bind_int64(st, 5, l->due);
  sqlite3_bind_text(st, 6, l->id ? l->id : "", -1, SQLITE_TRANSIENT);
  int rc = SQLITE_DONE; /* set by the first step (gcc -O1 cannot tell) */
  while (!l->more && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (sqlite3_column_int(st, COL_HIT)) {
      if (l->shown == PAGE_TRIGGERS) {
        l->more = 1; /* the next page starts after the last row read */
        break;
      }
      if (l->shown++ == 0)
        sqlite3_str_appendall(l->s,
                              "<table><tr><th>trigger</th><th>agent</th>"
                              "<th>schedule</th><th>status</th><th>next</th>"
                              "<th>last run</th><th>runs</th></tr>\n");
      trigger_row(l->s, l->w, st, l->in);
    }
    free(l->id);
    l->id = xstrdup(col(st, 0));
    l->due = sqlite3_column_int64(st, 4);
    l->idle = part == RQ_TRIGGERS_IDLE || part == RQ_TRIGGERS_IDLE_A ||
              part == RQ_TRIGGERS_STATE;
    l->walked++;
  }
  sqlite3_reset(st);
  if (!l->more && rc != SQLITE_DONE) return -1;
  if (l->walked == PAGE_WALK) l->more = 1;
  return 0;
}

/* A query value of the next page's link: &name=value, escaped. */
static void link_arg(sqlite3_str *s, const char *name, const char *v) {
  if (!v) return;
  sqlite3_str_appendf(s, "&amp;%s=", name);
  html_url(s, v, HTTP_ID_MAX);
}

/* The filters of the list's links. */
static void filter_args(sqlite3_str *s, const page_info *in) {
  link_arg(s, "agent", in->agent);
  link_arg(s, "scope", in->scope);
  link_arg(s, "status", in->status);
}

/* After the list: the next page's link (when more may follow), the first
** page's (when this is not it). */
static void list_links(const list_walk *l, int paged) {
  sqlite3_str *s = l->s;
  if (!l->more && !paged) return;
  sqlite3_str_appendall(s, "<p class=\"muted\">");
  if (l->more && l->shown < PAGE_TRIGGERS)
    sqlite3_str_appendf(s, "%d of the %d triggers read match. ", l->shown,
                        PAGE_WALK);
  if (l->more) {
    if (l->idle) sqlite3_str_appendall(s, "<a href=\"/?idle=1");
    else sqlite3_str_appendf(s, "<a href=\"/?after=%lld", l->due);
    link_arg(s, "after_id", l->id);
    filter_args(s, l->in);
    if (l->w->ndbs > 1) sqlite3_str_appendf(s, "&amp;db=%d", l->w->dbi);
    sqlite3_str_appendall(s, "\" rel=\"next\">Next page</a> ");
  }
  if (paged) {
    sqlite3_str_appendall(s, "<a href=\"/?");
    filter_args(s, l->in);
    sqlite3_str_appendall(s, "\">First page</a>");
  }
  sqlite3_str_appendall(s, "</p>\n");
}

static void triggers_section(sqlite3_str *s, const where *w,
                             const page_info *in) {
  int filtered = in->agent || in->scope || in->status;
  int paged = in->after_id && in->cursor_db == w->dbi;
  sqlite3_str_appendall(s, "<h3>Triggers</h3>\n");
  filter_form(s, in);
  list_walk l = {
      w, in, s, paged ? in->after_due : LLONG_MIN, NULL, paged && in->idle,
      0, 0,  0};
  if (paged) l.id = xstrdup(in->after_id);
  /* those with a next due time first, in its order; then the others; a
  ** state other than scheduled has nothing due: its own index, by id */
  static const readdb_query any[] = {RQ_TRIGGERS_TIE, RQ_TRIGGERS,
                                     RQ_TRIGGERS_IDLE};
  static const readdb_query agent[] = {RQ_TRIGGERS_TIE_A, RQ_TRIGGERS_A,
                                       RQ_TRIGGERS_IDLE_A};
  static const readdb_query state[] = {RQ_TRIGGERS_STATE, RQ_TRIGGERS_STATE,
                                       RQ_TRIGGERS_STATE};
  int by_state = in->status && strcmp(in->status, "scheduled") != 0;
  const readdb_query *parts = in->agent ? agent : by_state ? state : any;
  int p = paged ? (in->idle ? 2 : 0) : 1, rc = 0;
  if (parts == state) p = 2; /* one part, by id: an idle cursor */
  for (; p < 3 && !l.more && rc == 0; p++) {
    if (p == 2 && !l.idle) { /* the idle part from its start */
      free(l.id);
      l.id = NULL;
    }
    rc = list_part(&l, parts[p]);
  }
  if (rc != 0) sql_error(s, w->r, "triggers");
  if (l.shown) sqlite3_str_appendall(s, "</table>\n");
  else if (rc == 0 && !l.more)
    sqlite3_str_appendf(s, "<p class=\"muted\">No %striggers%s.</p>\n",
                        paged ? "more " : "",
                        filtered ? " match the filters" : "");
  list_links(&l, paged);
  free(l.id);
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

void page_runs_head(sqlite3_str *s) {
  sqlite3_str_appendall(s, "<table><tr><th>scheduled for</th>"
                           "<th>trigger</th><th>agent</th><th>attempt</th>"
                           "<th>status</th><th title=\"from the scheduled "
                           "time to the claim, as "
                           "trigger_host_claim_latency_seconds\">claim "
                           "latency</th><th title=\"from the claim to the "
                           "report (latency_ms)\">run time</th>"
                           "<th>error / result</th></tr>\n");
}

/* A span column, or a dash for NULL. */
static void span_cell(sqlite3_str *s, sqlite3_stmt *st, int i) {
  sqlite3_str_appendall(s, "</td><td>");
  if (sqlite3_column_type(st, i) != SQLITE_NULL)
    html_span(s, sqlite3_column_int64(st, i));
}

void page_run_row(sqlite3_str *s, sqlite3_stmt *st, int dbi, int ndbs) {
  const char *status = col(st, 5);
  int failed = status && strcmp(status, "failed") == 0;
  int expired = status && strcmp(status, "expired") == 0;
  sqlite3_str_appendf(s, "<tr%s><td class=\"t\">",
                      failed    ? " class=\"fail\""
                      : expired ? " class=\"warn\""
                                : "");
  page_link(s, "run", col(st, 0), dbi, ndbs, col(st, 3));
  sqlite3_str_appendall(s, "</td><td>");
  page_link(s, "trigger", col(st, 1), dbi, ndbs, col(st, 1));
  sqlite3_str_appendall(s, "</td><td>");
  html_esc(s, col(st, 2), HTML_TEXT_MAX);
  sqlite3_str_appendf(s, "</td><td>%lld</td><td>",
                      (long long)sqlite3_column_int64(st, 4));
  html_status(s, status);
  span_cell(s, st, 9);
  span_cell(s, st, 6);
  sqlite3_str_appendall(s, "</td><td>");
  html_esc(s, col(st, failed || expired ? 7 : 8), HTML_TEXT_MAX);
  if (!failed && !expired && !col(st, 8))
    html_esc(s, col(st, 7), HTML_TEXT_MAX);
  sqlite3_str_appendall(s, "</td></tr>\n");
}

static void runs_section(sqlite3_str *s, const where *wh, const page_info *in) {
  readdb *r = wh->r;
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
    if (n++ == 0) page_runs_head(s);
    page_run_row(s, st, wh->dbi, wh->ndbs);
  }
  if (rc != SQLITE_DONE) sql_error(s, r, "runs");
  sqlite3_reset(st);
  if (n) sqlite3_str_appendall(s, "</table>\n");
  else if (rc == SQLITE_DONE)
    sqlite3_str_appendall(s, "<p class=\"muted\">No runs in the last 7 "
                             "days.</p>\n");
}

/* ---- the page -------------------------------------------------------- */

static void db_section(sqlite3_str *s, const where *w, const page_info *in,
                       int *budget) {
  readdb *r = w->r;
  sqlite3_str_appendall(s, "<section><h2>");
  html_esc(s, r->path, 400);
  sqlite3_str_appendall(s, "</h2>\n");
  if (readdb_begin(r) != 0) {
    sql_error(s, r, "read transaction");
  } else {
    cards(s, r, in);
    timeline_section(s, r, in, budget);
    triggers_section(s, w, in);
    runs_section(s, w, in);
  }
  readdb_end(r);
  sqlite3_str_appendall(s, "</section>\n");
}

char *page_render(readdb *dbs, int ndbs, const page_info *in, size_t *len) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  char now[32], started[32];
  html_utc_text(in->now_ms, now, sizeof now);
  html_utc_text(in->start_ms, started, sizeof started);
  html_head(s, "trigger-host status", PAGE_REFRESH_S);
  sqlite3_str_appendall(s, "<p class=\"muted\">");
  html_esc(s, in->owner, 200);
  sqlite3_str_appendf(s,
                      " &middot; %s, %d database%s &middot; started %s "
                      "&middot; as of %s &middot; refreshes every %d s"
                      " &middot; times in UTC unless a zone is shown</p>"
                      "</header>\n",
                      in->mode, ndbs, ndbs == 1 ? "" : "s", started, now,
                      PAGE_REFRESH_S);
  int budget = PAGE_PREVIEW_CALLS, i = 0;
  for (; i < ndbs && sqlite3_str_length(s) < PAGE_MAX_BYTES; i++) {
    where w = {&dbs[i], i, ndbs};
    db_section(s, &w, in, &budget);
  }
  if (i < ndbs) {
    sqlite3_str_appendf(s,
                        "<p class=\"muted\">%d more database(s) not shown "
                        "(page size limit):</p><ul>",
                        ndbs - i);
    for (int shown = 0; i < ndbs && shown < 100; i++, shown++) {
      sqlite3_str_appendall(s, "<li>");
      html_esc(s, dbs[i].path, 400);
      sqlite3_str_appendall(s, "</li>");
    }
    sqlite3_str_appendall(s, i < ndbs ? "<li>&hellip;</li></ul>\n" : "</ul>\n");
  }
  html_foot(s);
  *len = (size_t)sqlite3_str_length(s);
  return sqlite3_str_finish(s);
}
