/*
** html.h -- what the status server's pages share (page.c, the list;
** detail.c, one trigger and one run; actions.c, the forms): the head with
** its inline stylesheet (light, and dark under prefers-color-scheme:
** dark), the foot, and the writing of untrusted text: every text from a
** database or a request is HTML-escaped and cut to a bounded length at a
** character boundary (html_esc), and every id put in a link is
** percent-encoded (html_url). No script anywhere.
*/
#ifndef HOST_HTML_H
#define HOST_HTML_H

#include <sqlite3.h>
#include <stddef.h>

#define HTML_TEXT_MAX 200 /* bytes of a name, error or result shown */

/* t HTML-escaped, at most max bytes of it (never cutting a character;
** "..." when cut), control characters as U+FFFD. NULL appends nothing. */
void html_esc(sqlite3_str *s, const char *t, size_t max);
/* t percent-encoded for a path segment or a query value (all but
** A-Z a-z 0-9 - . _ ~), at most max bytes of t. */
void html_url(sqlite3_str *s, const char *t, size_t max);

/* <!DOCTYPE html> .. <body><header><h1>title</h1>: refresh_s > 0 adds a
** <meta http-equiv=refresh>. title is escaped. */
void html_head(sqlite3_str *s, const char *title, int refresh_s);
/* The footer and </body></html>. */
void html_foot(sqlite3_str *s);

/* "2026-03-09 07:00:00Z" */
void html_utc_text(long long ms, char *buf, size_t n);
/* "in 5 s", "3 min ago", "in 2 h 5 min", "in 3 d 4 h". */
void html_rel_text(long long delta_ms, char *buf, size_t n);
/* A span of ms as the tables show it: "850 ms", "12.4 s", "3 min 5 s". */
void html_span(sqlite3_str *s, long long ms);
/* A status word with its class (failed, success, running, paused); NULL
** is a dash. */
void html_status(sqlite3_str *s, const char *status);
/* <p class="err">what: why</p> */
void html_error(sqlite3_str *s, const char *what, const char *why);

#endif
