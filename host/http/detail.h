/*
** detail.h -- the status server's pages of one trigger and of one run.
**
**   GET /trigger/<id>  its schedule in words (trigger_describe), its next
**                      occurrences (trigger_preview), every column of its
**                      row, its runs (DETAIL_RUNS a page, latest first,
**                      "older" pages from a cursor: ?before=MS&before_run=
**                      RUN_ID, stable whatever is added meanwhile) and its
**                      events (DETAIL_EVENTS a page, latest first, older
**                      pages from ?events_before=MS&events_before_id=ROWID)
**   GET /run/<run_id>  its trigger, status, times, claim latency and run
**                      time (the words of /metrics), payload, result or
**                      error, and every attempt of its occurrence
**
** The id is the rest of the path, percent-decoded by libmicrohttpd; with
** several databases ?db=N picks the Nth served (0 the first). An id that
** names nothing is a 404 page. Each page reads in one read transaction,
** a bounded number of rows (index probes on trigger_id, run_id), and
** writes every text escaped (html.h). With actions on (actions.h) the
** trigger's and the run's forms are drawn by the action hook.
*/
#ifndef HOST_DETAIL_H
#define HOST_DETAIL_H

#include <stddef.h>

#include "http/page.h"
#include "http/readdb.h"

#define DETAIL_RUNS 25
#define DETAIL_EVENTS 20
#define DETAIL_NEXT 5

/* What the request asked, beside the id. */
typedef struct detail_req {
  readdb *r;
  int dbi, ndbs;
  const char *id;
  long long before_ms;     /* the runs' cursor: LLONG_MAX for the first page */
  const char *before_run;  /* and the run id at before_ms, or NULL */
  long long events_before; /* the events' cursor: LLONG_MAX for the */
  long long events_before_id; /* first page; and the rowid at it */
  /* the forms of the trigger (kind "trigger") or run (kind "run") page,
  ** NULL for none; status: the trigger's or run's */
  void (*forms)(sqlite3_str *s, const struct detail_req *q, const char *kind,
                const char *status, void *ctx);
  void *forms_ctx;
  const char *notice; /* a line shown first (an action's outcome), or NULL */
} detail_req;

/* The page as HTML (sqlite3_free), *len bytes; *status 200, or 404 when
** the id names nothing (a page that says so). NULL when out of memory. */
char *detail_trigger(const detail_req *q, const page_info *in, size_t *len,
                     unsigned *status);
char *detail_run(const detail_req *q, const page_info *in, size_t *len,
                 unsigned *status);

#endif
