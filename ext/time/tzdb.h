/*
** tzdb.h -- finding IANA zones by name and caching them per connection.
**
** The only module that touches files. Names are validated (ASCII letters,
** digits, '_', '+', '-', '/'; no "..", no leading '/', at most 64 bytes)
** before any path is built; "localtime" and "posixrules" (this machine's
** setting, not IANA zones) are refused. "UTC", "Etc/UTC" and "Z" need no
** file. The directory is $TZDIR when set (like glibc), else
** /usr/share/zoneinfo.
** A zone is read once per cache (one cache per connection) and kept until
** tzdb_free. Unknown names are an error, never a silent UTC. Names match
** case-insensitively (tzdb_names.h lists the directory for that). A link
** name is looked up as the zone it stands for (tzdb_links.h), whose name
** is the canonical spelling: "US/Eastern" is "America/New_York", "Zulu"
** "UTC".
*/
#ifndef TRIGGERS_TZDB_H
#define TRIGGERS_TZDB_H

#include <stddef.h>
#include "time/tz.h"

typedef struct tzdb tzdb;

/* dir NULL: $TZDIR or /usr/share/zoneinfo. Returns NULL on OOM. */
tzdb *tzdb_new(const char *dir);
void tzdb_free(tzdb *db);

/*
** Look a zone up. Returns 0 and *out (owned by the cache), or -1 with a
** message such as "unknown time zone 'Mars/Olympus'" or
** "invalid time zone name '../etc/passwd'".
*/
int tzdb_get(tzdb *db, const char *name, const tz_zone **out, char *err,
             size_t errlen);

/*
** tzdb_get, and the name's canonical spelling: a name not found as given
** is matched case-insensitively against the names the directory lists
** ("europe/berlin" -> "Europe/Berlin"); *canon (when canon is not NULL) is
** that spelling, or name itself when it matched as given (valid while the
** cache and name live). An unknown or invalid name's message ends with
** "; did you mean 'Europe/Berlin'?" when a listed name is close.
*/
int tzdb_lookup(tzdb *db, const char *name, const tz_zone **out,
                const char **canon, char *err, size_t errlen);

/* 1 when the directory's tzdata.zi was read and holds links (so link
** names are looked up as their zones), else 0 (read on first call). */
int tzdb_has_links(tzdb *db);

#endif
