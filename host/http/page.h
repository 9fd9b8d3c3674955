/*
** page.h -- the HTML status page (GET /): per database its health counts,
** a timeline of the next 24 hours of fires, the triggers with their
** schedules in words, and the latest runs with failures highlighted.
**
** The list can be filtered by agent, scope and status (a GET form; the
** query string ?agent=&scope=&status=); each trigger and run links to its
** own page (detail.h).
**
** Server-rendered HTML with an inline stylesheet and inline SVG: no
** script, nothing fetched from anywhere (the server also sends a
** Content-Security-Policy that forbids both), a <meta http-equiv=refresh>
** reloads it. Every text from a database is HTML-escaped and cut to a
** bounded length at a character boundary.
**
** Bounds (one page never grows with the run history or the number of
** triggers): at most PAGE_TRIGGERS triggers listed (ordered by next due
** time, then the triggers with nothing due by id) from at most PAGE_WALK
** rows read, and a link to the next page that starts after the last row
** read (a keyset cursor: ?after=NEXT_DUE_MS&after_id=ID, or
** ?idle=1&after_id=ID among those with nothing due; ?db=N with several
** databases), PAGE_TIMELINE_ROWS rows on the timeline (an index range on
** next_due_at), PAGE_RUNS runs (an index range on scheduled_for, widened
** from 10 minutes to 7 days until it holds PAGE_RUNS runs), at most
** PAGE_PREVIEW_CALLS trigger_preview calls for the whole page, and
** PAGE_MAX_BYTES of HTML (further databases are named, not shown).
*/
#ifndef HOST_PAGE_H
#define HOST_PAGE_H

#include <stddef.h>

#include "http/readdb.h"

#define PAGE_TRIGGERS 100
#define PAGE_WALK 10000 /* rows of the trigger list read per request */
#define PAGE_TIMELINE_ROWS 12
#define PAGE_RUNS 50
#define PAGE_PREVIEW_CALLS 120
#define PAGE_MAX_BYTES (1 << 20)
#define PAGE_REFRESH_S 10

typedef struct page_info {
  long long now_ms;   /* wall clock of the request */
  long long start_ms; /* when the host started */
  const char *owner;  /* the host's claim owner */
  const char *mode;   /* "run" or "serve" */
  /* the list's filters from the query string (?agent=&scope=&status=),
  ** NULL for any */
  const char *agent, *scope, *status;
  /* where the list starts (?after=&after_id=, ?idle=1&after_id=) in the
  ** list of database cursor_db; after_id NULL: the first page */
  const char *after_id;
  long long after_due;
  int idle, cursor_db;
} page_info;

/* The page as HTML, *len bytes (free with sqlite3_free; NULL when out of
** memory). The databases are read in one
** transaction each. */
char *page_render(readdb *dbs, int ndbs, const page_info *info, size_t *len);

/* For the pages of one trigger and one run (detail.h): a link to
** /KIND/ID (?db=DBI when the host serves several databases) around the
** escaped text, and the run tables (RQ_RUNS' columns). */
void page_link(sqlite3_str *s, const char *kind, const char *id, int dbi,
               int ndbs, const char *text);
void page_runs_head(sqlite3_str *s);
void page_run_row(sqlite3_str *s, sqlite3_stmt *st, int dbi, int ndbs);

#endif
