/*
** tzdb_links.h -- the link names of the time zone database and the zone
** each one stands for ("US/Eastern" -> "America/New_York"), read from the
** "L TARGET LINK" lines of a zic input file (tzdata.zi, which Debian and
** most distributions install in the zoneinfo directory).
**
** Pure: the caller reads the file (tzdb.c); this parses its text. A link
** whose chain of links ends at Etc/UTC or Etc/GMT (UTC, Zulu, Universal,
** Etc/UCT, GMT, Greenwich, GMT0, ...) stands for "UTC": both zones are
** offset 0 at every instant with no daylight saving time, so they mean the
** same schedules, and "UTC" is the spelling the project stores
** (docs/time.md#link-names).
*/
#ifndef TRIGGERS_TZDB_LINKS_H
#define TRIGGERS_TZDB_LINKS_H

#include <stddef.h>

typedef struct tzdb_links tzdb_links;

/* The links of a zic input text (len bytes, NUL not needed). Lines that
** are not well-formed "L" lines are ignored (Z, R and comment lines too);
** a name must be a zone name (ASCII letters, digits, '_', '+', '-', '/',
** at most 64 bytes). NULL only when out of memory. */
tzdb_links *tzdb_links_parse(const char *text, size_t len);
void tzdb_links_free(tzdb_links *l);
size_t tzdb_links_count(const tzdb_links *l);

/* The zone the link name stands for, following a link to a link (at most
** 8 steps), "UTC" for the UTC family; NULL when name (matched exactly,
** case included) is no link, or its chain loops. Etc/UTC and Etc/GMT
** themselves are no links: tzdb_links_is_utc says they are UTC. */
const char *tzdb_links_zone(const tzdb_links *l, const char *name);

/* 1 when zone is Etc/UTC or Etc/GMT (the zones the UTC family ends at). */
int tzdb_links_is_utc(const char *zone);

#endif
