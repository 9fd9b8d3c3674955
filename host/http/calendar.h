/*
** calendar.h -- GET /calendar.ics: the schedule as an iCalendar feed a
** calendar app subscribes to (docs/ical.md, docs/host.md): trigger_ical
** of each database the server reads, over its default range (now .. now
** + 60 days), narrowed by ?agent= (one agent id) and ?scope=, each at
** most HTTP_ID_MAX bytes of UTF-8 (else 400). Several databases make one
** calendar: the first's header, every zone once, every event.
*/
#ifndef HOST_CALENDAR_H
#define HOST_CALENDAR_H

#include <stddef.h>

#include "http/readdb.h"

/* The feed (sqlite3_free it) with *len; NULL with *status (400: a bad
** argument; 503: a database could not be read; 500: out of memory) and
** *err (free it), a line for the client. */
char *calendar_render(readdb *dbs, int ndbs, const char *agent,
                      const char *scope, size_t *len, unsigned *status,
                      char **err);

#endif
