/*
** tzdb_names.h -- the zone names a zoneinfo directory holds: the
** canonical spelling of a name given in any case ("europe/berlin" ->
** "Europe/Berlin") and a "did you mean" suggestion for an unknown one.
**
** The list is read once (tzdb.c keeps it per cache) by listing the
** directory: regular files (or links to them) that start with the TZif
** magic, names of ASCII letters, digits, '_', '+', '-' and '/', at most 64
** bytes and 3 levels deep. The "posix" and "right" trees (copies) and
** "localtime" and "posixrules" (not IANA names) are left out, and links to
** directories are not followed. A name given by a caller is only ever
** compared with the list, never used to build a path.
*/
#ifndef TRIGGERS_TZDB_NAMES_H
#define TRIGGERS_TZDB_NAMES_H

#include <stddef.h>

typedef struct tzdb_names tzdb_names;

/* List dir. NULL only when out of memory; an unreadable directory gives an
** empty list. */
tzdb_names *tzdb_names_load(const char *dir);
void tzdb_names_free(tzdb_names *n);
size_t tzdb_names_count(const tzdb_names *n);

/* The listed name equal to name ignoring ASCII case, or NULL. */
const char *tzdb_names_canonical(const tzdb_names *n, const char *name);

/*
** The listed name closest to name (Levenshtein distance, ignoring ASCII
** case; a name without '/' is also compared with the last component of
** each listed name, so "Tokyo" finds "Asia/Tokyo"), when it is close: at
** most 1 edit for names of 4-6 bytes, 2 for 7-12, 3 for longer, none for
** shorter ones. A name of at most 6 bytes, and a comparison with a last
** component, must also begin with the same letter ("CEST" is not "West",
** "America" is not "Merida"). Ties go to the first name in sorted order.
** NULL when nothing is close.
*/
const char *tzdb_names_suggest(const tzdb_names *n, const char *name);

#endif
