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
** tzdb_free. Unknown names are an error, never a silent UTC.
*/
#ifndef TRIGGERS_TZDB_H
#define TRIGGERS_TZDB_H

#include <stddef.h>
#include "tz.h"

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

#endif
