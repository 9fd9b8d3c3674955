/*
** summary.h -- the autonomous state summary (docs/summary.md):
** trigger_state_summary(agent_id [, now [, options]]) -> TEXT and
** trigger_state_payload(agent_id [, now [, options]]) -> JSON
** (fn_summary.c). The contents, caps, truncation order and confidence rule
** are documented in fn_summary.c's header comment and docs/summary.md.
** Here: the caps, and one call's state: its options and admin items (read
** and resolved by summary_admin.c), the loop and pending rows formatted,
** the hints, and the segments built.
*/
#ifndef TRIGGERS_SUMMARY_H
#define TRIGGERS_SUMMARY_H

#include "agent/clean_text.h"
#include "store/kept.h"

/* Caps in bytes of UTF-8: the defaults are also the hard limits (options
** may lower them, a larger value is clamped to these). */
#define SUM_MAX_TOTAL 1500
#define SUM_MAX_ADMIN 900
#define SUM_MAX_LOOP 400
#define SUM_MAX_FOOTER 200

/* Rows read per call (each through an index, with LIMIT). */
#define SUM_SUCCESSES 3 /* latest successful runs */
#define SUM_PENDING 5   /* next pending triggers */

/* Per-piece limits before the segment caps apply. */
#define SUM_ITEM_MAX 280   /* one admin item's text */
#define SUM_NAME_MAX 60    /* a trigger's objective (display name) */
#define SUM_ID_MAX 48      /* a trigger_id */
#define SUM_ERROR_MAX 160  /* a failure's error, a success's note */
#define SUM_BUDGET_NEAR 80 /* percent of agent_budget_cost: nearly spent */
#define SUM_TOPIC_MAX 32   /* "topic:" prefix of a directive */

/* Returned instead of an error on any failure inside the functions. */
#define SUM_FALLBACK \
  "Admin context temporarily unavailable; continue with latest autonomous objective."
#define SUM_FALLBACK_PAYLOAD                                        \
  "{\"mode\":\"autonomous\",\"adminSummary\":\"" SUM_FALLBACK "\"," \
  "\"loopSummary\":\"\",\"pendingItems\":[],\"hints\":[],"          \
  "\"confidence\":\"low\"}"

/* The execution hints (docs/summary.md#execution-hints), a bit each. */
enum { H_CONTINUE = 1, H_RESUME = 2, H_PAUSE = 4, H_AWAIT = 8, H_ALL = 15 };

typedef struct adm_item {
  i64 ts;
  int idx; /* position in options.admin: later wins a tie */
  int resolved;
  int overrides; /* older same-topic items with other text it replaced */
  int dropped;   /* stale or superseded */
  char *text;    /* as given (sqlite3_malloc) */
  char topic[SUM_TOPIC_MAX + 1];
} adm_item;

typedef struct summary {
  sqlite3 *db;
  /* its reads (store/agent.c): the connection's kept statements, prepared
  ** once per connection like the tick's (store/kept.h), or the call's own */
  store_call call;
  store *st;
  text_cleaner rx; /* the redaction's rules and the connection's cache */
  i64 now;
  const char *agent;
  /* options */
  int cap_total, cap_admin, cap_loop, cap_footer;
  int has_stale;
  i64 stale_ms;
  /* admin items: all given, and the current ones in priority order */
  adm_item *items;
  int nitems, nstale, nconflicts;
  adm_item **order;
  int norder;
  /* loop and pending, formatted lines */
  char *fail_line;
  char *budget_line; /* what budgets hold (summary_budget.c), or NULL */
  char *ok_lines[SUM_SUCCESSES];
  int nok;
  int has_run;
  i64 newest_run;
  char *pend_lines[SUM_PENDING], *pend_json[SUM_PENDING];
  int npend, pend_shown;
  unsigned hints;       /* H_* derived from the state */
  unsigned hints_shown; /* those the Hints: line holds */
  /* output */
  sqlite3_str *seg[5]; /* hints, admin, loop, pending, footer */
  int truncated;
} summary;

/* The segments of the text, in their order (fn_summary.c). */
enum { SEG_HINTS, SEG_ADMIN, SEG_LOOP, SEG_PENDING, SEG_FOOTER, SEG_COUNT };

/* The options object (NULL: none) into s: caps (clamped to the hard
** limits), stale_ms, the admin items. SQLITE_ERROR for anything else
** (the caller then answers with the fallback). */
int agent_summary_opts_read(summary *s, const char *json);
/* Drop stale items, resolve conflicts, order the rest by priority (an
** open question among them: H_AWAIT). */
int agent_summary_admin_resolve(summary *s);
/* What budgets hold of the agent: the hint pause and s->budget_line. */
int agent_summary_budget_read(summary *s);

#endif
