/*
** calendar.c -- GET /calendar.ics (calendar.h): the query arguments
** checked and quoted into trigger_ical's options, one call per database
** in its own read transaction, the feeds joined into one calendar.
**
** The statement is this route's own (prepared per request, as a feed is
** asked for rarely): SELECT trigger_ical(?1).
*/
#include "http/calendar.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "http/http.h"
#include "text/json_write.h"
#include "text/utf8.h"

/* An argument a client may send: absent, or valid UTF-8 of at most
** HTTP_ID_MAX bytes. */
static int arg_ok(const char *v) {
  return !v || (strlen(v) <= HTTP_ID_MAX && utf8_check(v, strlen(v), NULL));
}

/* ",\"key\":" and the JSON literal of v (JSON-escaped: any quote or
** control character in it stays text), appended to s. */
static void member(sqlite3_str *s, const char *key, const char *v, int array) {
  char *q = xmalloc(json_quoted_len(v) + 1);
  *json_quote_to(q, v) = 0;
  sqlite3_str_appendf(s, "%s\"%s\":%s%s%s",
                      sqlite3_str_length(s) > 1 ? "," : "", key,
                      array ? "[" : "", q, array ? "]" : "");
  free(q);
}

/* One database's feed (malloc'd), or NULL and *err. */
static char *feed_of(readdb *r, const char *options, char **err) {
  sqlite3_stmt *st = NULL;
  char *out = NULL;
  *err = NULL;
  if (readdb_begin(r) != 0) {
    *err = xprintf("%s", readdb_errmsg(r));
    return NULL;
  }
  if (sqlite3_prepare_v2(r->db, "SELECT trigger_ical(?1)", -1, &st, NULL) ==
      SQLITE_OK) {
    sqlite3_bind_text(st, 1, options, -1, SQLITE_STATIC);
    out = readdb_text(r, st, err);
  } else {
    *err = xprintf("%s", readdb_errmsg(r));
  }
  sqlite3_finalize(st);
  readdb_end(r);
  return out;
}

/* The components of a feed (between its header and END:VCALENDAR). */
static const char *components(const char *feed, const char **end) {
  const char *p = strstr(feed, "\r\nBEGIN:V");
  *end = strstr(feed, "END:VCALENDAR\r\n");
  if (!*end) *end = feed + strlen(feed);
  return p && p < *end ? p + 2 : *end;
}

/* Whether s already holds a VTIMEZONE with the TZID line of block b. */
static int zone_known(sqlite3_str *s, const char *b, const char *b_end) {
  const char *id = strstr(b, "\r\nTZID:");
  if (!id || id > b_end) return 0;
  const char *eol = strstr(id + 2, "\r\n");
  char *line = xprintf("%.*s", (int)(eol - id + 2), id);
  const char *text = sqlite3_str_value(s);
  int known = text && strstr(text, line) != NULL;
  free(line);
  return known;
}

/* The components of a later feed: its VTIMEZONEs not yet in s, then the
** rest, added before the first feed's END:VCALENDAR. */
static void join(sqlite3_str *s, const char *feed) {
  const char *end, *p = components(feed, &end);
  while (p < end) {
    const char *next = strstr(p + 1, "\r\nBEGIN:V");
    const char *stop = next && next < end ? next + 2 : end;
    if (strncmp(p, "BEGIN:VTIMEZONE", 15) != 0 || !zone_known(s, p, stop))
      sqlite3_str_append(s, p, (int)(stop - p));
    p = stop;
  }
}

char *calendar_render(readdb *dbs, int ndbs, const char *agent,
                      const char *scope, size_t *len, unsigned *status,
                      char **err) {
  *err = NULL;
  if (!arg_ok(agent) || !arg_ok(scope)) {
    *status = 400;
    *err = xprintf("bad ?agent or ?scope: at most %d bytes of UTF-8\n",
                   HTTP_ID_MAX);
    return NULL;
  }
  sqlite3_str *opts = sqlite3_str_new(NULL);
  sqlite3_str_appendall(opts, "{");
  if (agent) member(opts, "agents", agent, 1);
  if (scope) member(opts, "scope", scope, 0);
  sqlite3_str_appendall(opts, "}");
  char *options = sqlite3_str_finish(opts);
  sqlite3_str *s = sqlite3_str_new(NULL);
  for (int i = 0; options && i < ndbs && !*err; i++) {
    char *why = NULL, *feed = feed_of(&dbs[i], options, &why);
    if (!feed) {
      *status = 503;
      *err =
          xprintf("cannot read %s: %s\n", dbs[i].path, why ? why : "no feed");
    } else if (i == 0) {
      const char *end;
      components(feed, &end);
      sqlite3_str_append(s, feed, (int)(end - feed));
    } else {
      join(s, feed);
    }
    free(feed);
    free(why);
  }
  sqlite3_free(options);
  sqlite3_str_appendall(s, "END:VCALENDAR\r\n");
  *len = (size_t)sqlite3_str_length(s);
  char *body = sqlite3_str_finish(s);
  if (*err || !body || !options) {
    sqlite3_free(body);
    if (!*err) {
      *status = 500;
      *err = xprintf("out of memory\n");
    }
    return NULL;
  }
  return body;
}
