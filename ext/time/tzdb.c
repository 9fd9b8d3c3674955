/*
** tzdb.c -- finding IANA zones by name and caching them per connection.
**
** Owns: zone name validation, building the path under the zoneinfo
** directory ($TZDIR when set, else /usr/share/zoneinfo), reading one TZif
** file with a size cap, and the cache: an open-addressing hash table from
** name to parsed zone. Zones stay until tzdb_free, so pointers handed out
** remain valid for the cache's life. The cache holds at most
** TZDB_MAX_ZONES zones (more than the IANA database has names); past that,
** lookups of new names fail with a message rather than evicting.
**
** A name not found as given is looked up again by its canonical spelling
** in the directory's name list (tzdb_names.c, listed once per cache), so
** "europe/berlin" finds "Europe/Berlin"; an unknown or invalid name gets
** the list's closest name as "did you mean" in the message.
**
** A link name ("US/Eastern", "Asia/Calcutta") is the zone it stands for
** ("America/New_York", "Asia/Kolkata"), from the directory's tzdata.zi
** (tzdb_links.c, read once per cache); the UTC family (Etc/UTC, Etc/GMT
** and their links, "Z") is "UTC". Without tzdata.zi a link name is a zone
** of its own file, as named (docs/time.md#link-names).
**
** This is the only pure-side module that touches files; tz.c parses.
*/
#include "time/tzdb.h"
#include "time/tzdb_links.h"
#include "time/tzdb_names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TZDB_DEFAULT_DIR "/usr/share/zoneinfo"
#define TZDB_MAX_NAME 64
#define TZDB_MAX_FILE (1024 * 1024)
#define TZDB_MAX_ZONES 1024
#define TZDB_MIN_SLOTS 16

typedef struct tzdb_slot {
  char *name; /* NULL: empty slot */
  tz_zone *zone;
} tzdb_slot;

/* Why a lookup failed: the name, the file, or anything else. */
enum { TZDB_OK = 0, TZDB_INVALID = -1, TZDB_UNKNOWN = -2, TZDB_FAILED = -3 };

struct tzdb {
  char *dir;
  tzdb_names *names; /* listed on the first miss; NULL before */
  tzdb_links *links; /* tzdata.zi's links; NULL before or without one */
  int links_read;    /* 1 once tzdata.zi was read (or found missing) */
  tzdb_slot *slots;
  size_t nslot; /* power of two, or 0 before the first insert */
  size_t count;
};

static int tzdb_fail(char *err, size_t errlen, const char *what,
                     const char *name, const char *detail) {
  char shown[TZDB_MAX_NAME + 1];
  size_t k;
  /* cppcheck-suppress arrayIndexOutOfBoundsCond ; stops at name's NUL */
  for (k = 0; k < TZDB_MAX_NAME && name[k]; k++) {
    unsigned char ch = (unsigned char)name[k];
    shown[k] = ch >= 0x20 && ch < 0x7f && ch != '\'' ? (char)ch : '?';
  }
  shown[k] = '\0';
  if (err && errlen)
    snprintf(err, errlen, "%s '%s%s'%s%s", what, shown, name[k] ? "..." : "",
             detail ? ": " : "", detail ? detail : "");
  return -1;
}

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

tzdb *tzdb_new(const char *dir) {
  tzdb *db = calloc(1, sizeof *db);
  if (!db) return NULL;
  if (!dir) {
    const char *env = getenv("TZDIR");
    dir = env && env[0] ? env : TZDB_DEFAULT_DIR;
  }
  db->dir = dup_string(dir);
  if (!db->dir) {
    free(db);
    return NULL;
  }
  return db;
}

void tzdb_free(tzdb *db) {
  size_t k;
  if (!db) return;
  for (k = 0; k < db->nslot; k++) {
    free(db->slots[k].name);
    tz_free(db->slots[k].zone);
  }
  free(db->slots);
  free(db->dir);
  tzdb_names_free(db->names);
  tzdb_links_free(db->links);
  free(db);
}

/* ASCII letters, digits, '_', '+', '-', '/'; no "..", no leading '/',
** no empty component, 1..64 bytes. */
static int name_valid(const char *name) {
  size_t k, n = strlen(name);
  if (n == 0 || n > TZDB_MAX_NAME || name[0] == '/' || name[n - 1] == '/')
    return 0;
  if (strstr(name, "..") || strstr(name, "//")) return 0;
  for (k = 0; k < n; k++) {
    char ch = name[k];
    int ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
             (ch >= '0' && ch <= '9') || ch == '_' || ch == '+' || ch == '-' ||
             ch == '/';
    if (!ok) return 0;
  }
  return 1;
}

/* Files of the zoneinfo directory that are not IANA zones but this
** machine's setting (a link to /etc/localtime, the POSIX TZ default): a
** trigger in them would change meaning from machine to machine. */
static int is_machine_name(const char *name) {
  return strcmp(name, "localtime") == 0 || strcmp(name, "posixrules") == 0;
}

/* UTC without a file: "UTC", "Z", and Etc/UTC and Etc/GMT (offset 0 at
** every instant, no daylight saving time: tzdb_links.h). */
static int is_utc_name(const char *name) {
  return strcmp(name, "UTC") == 0 || strcmp(name, "Z") == 0 ||
         tzdb_links_is_utc(name);
}

/* ---- the hash table ---------------------------------------------------- */

static size_t name_hash(const char *s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static tzdb_slot *slot_find(tzdb_slot *slots, size_t nslot, const char *name) {
  size_t k = name_hash(name) & (nslot - 1);
  while (slots[k].name && strcmp(slots[k].name, name) != 0)
    k = (k + 1) & (nslot - 1);
  return &slots[k];
}

/* Keeps the load factor at or below one half. */
static int table_grow(tzdb *db) {
  size_t nslot = db->nslot ? db->nslot * 2 : TZDB_MIN_SLOTS, k;
  tzdb_slot *slots;
  if ((db->count + 1) * 2 <= db->nslot) return 0;
  slots = calloc(nslot, sizeof *slots);
  if (!slots) return -1;
  for (k = 0; k < db->nslot; k++)
    if (db->slots[k].name)
      *slot_find(slots, nslot, db->slots[k].name) = db->slots[k];
  free(db->slots);
  db->slots = slots;
  db->nslot = nslot;
  return 0;
}

/* ---- reading a zone file ----------------------------------------------- */

/* What file_read found. */
enum {
  FILE_OK = 0,
  FILE_MISSING = -1,   /* no such file, or not a regular file */
  FILE_TOO_LARGE = -2, /* over TZDB_MAX_FILE, or it grew while read */
  FILE_NOMEM = -3,
  FILE_UNREADABLE = -4 /* fstat or read failed */
};

/* Reads the whole regular file at path (at most TZDB_MAX_FILE bytes):
** FILE_OK and *out (to free) and *len, or one of the failures above. */
static int file_read(const char *path, unsigned char **out, size_t *len) {
  struct stat st;
  unsigned char *buf = NULL;
  size_t got = 0, cap = 0;
  int rc = FILE_OK;
  /* O_NONBLOCK: the open of a FIFO returns at once (fstat refuses it) */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return FILE_MISSING;
  if (fstat(fd, &st) != 0) rc = FILE_UNREADABLE;
  else if (!S_ISREG(st.st_mode)) rc = FILE_MISSING;
  else if (st.st_size > TZDB_MAX_FILE) rc = FILE_TOO_LARGE;
  /* One byte more than fstat reports, so a file that grew is noticed. */
  else if (!(buf = malloc(cap = (size_t)st.st_size + 1))) rc = FILE_NOMEM;
  while (rc == FILE_OK) {
    ssize_t r = read(fd, buf + got, cap - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) rc = FILE_UNREADABLE;
    else if (r == 0) break;
    else if ((got += (size_t)r) == cap) rc = FILE_TOO_LARGE;
  }
  close(fd);
  if (rc != FILE_OK) {
    free(buf);
    return rc;
  }
  *out = buf;
  *len = got;
  return FILE_OK;
}

static int zone_load(const tzdb *db, const char *name, tz_zone **out, char *err,
                     size_t errlen) {
  char path[4096], perr[160];
  unsigned char *buf = NULL;
  size_t len = 0;
  int rc;
  if ((size_t)snprintf(path, sizeof path, "%s/%s", db->dir, name) >=
      sizeof path) {
    tzdb_fail(err, errlen, "unknown time zone", name, NULL);
    return TZDB_UNKNOWN;
  }
  rc = file_read(path, &buf, &len);
  if (rc == FILE_MISSING) {
    tzdb_fail(err, errlen, "unknown time zone", name, NULL);
    return TZDB_UNKNOWN;
  }
  if (rc != FILE_OK) {
    tzdb_fail(err, errlen, "cannot load time zone", name,
              rc == FILE_TOO_LARGE ? "file too large"
              : rc == FILE_NOMEM   ? "out of memory"
                                   : "cannot read the file");
    return TZDB_FAILED;
  }
  rc = tz_parse(buf, len, name, out, perr, sizeof perr);
  free(buf);
  if (rc) {
    tzdb_fail(err, errlen, "bad time zone file for", name, perr);
    return TZDB_FAILED;
  }
  return TZDB_OK;
}

/* The zone of name as spelled; *canon is the cache's copy of the name. */
static int zone_get(tzdb *db, const char *name, const tz_zone **out,
                    const char **canon, char *err, size_t errlen) {
  tzdb_slot *slot;
  tz_zone *z = NULL;
  int rc;
  *out = NULL;
  if (!name || !name_valid(name)) {
    tzdb_fail(err, errlen, "invalid time zone name", name ? name : "", NULL);
    return TZDB_INVALID;
  }
  if (is_machine_name(name)) {
    tzdb_fail(err, errlen, "not an IANA time zone", name,
              "it names this machine's setting; give an IANA name "
              "such as Europe/Berlin");
    return TZDB_INVALID;
  }
  if (is_utc_name(name)) {
    *out = tz_utc();
    *canon = "UTC";
    return TZDB_OK;
  }
  if (db->nslot) {
    slot = slot_find(db->slots, db->nslot, name);
    if (slot->name) {
      *out = slot->zone;
      *canon = slot->name;
      return TZDB_OK;
    }
  }
  if (db->count >= TZDB_MAX_ZONES) {
    tzdb_fail(err, errlen, "cannot load time zone", name,
              "too many time zones in use");
    return TZDB_FAILED;
  }
  if ((rc = zone_load(db, name, &z, err, errlen)) != TZDB_OK) return rc;
  if (table_grow(db)) {
    tz_free(z);
    tzdb_fail(err, errlen, "cannot load time zone", name, "out of memory");
    return TZDB_FAILED;
  }
  slot = slot_find(db->slots, db->nslot, name);
  slot->name = dup_string(name);
  if (!slot->name) {
    tz_free(z);
    tzdb_fail(err, errlen, "cannot load time zone", name, "out of memory");
    return TZDB_FAILED;
  }
  slot->zone = z;
  db->count++;
  *out = z;
  *canon = slot->name;
  return TZDB_OK;
}

/* The directory's names, listed on first use. NULL when out of memory. */
static const tzdb_names *names_of(tzdb *db) {
  if (!db->names) db->names = tzdb_names_load(db->dir);
  return db->names;
}

/* The links of tzdata.zi, read on first use: NULL when the directory has
** none (or it cannot be read: tried once), or when out of memory (tried
** again next time). */
static const tzdb_links *links_of(tzdb *db) {
  if (db->links_read) return db->links;
  char path[4096];
  unsigned char *buf = NULL;
  size_t len = 0;
  int rc = FILE_MISSING;
  if ((size_t)snprintf(path, sizeof path, "%s/tzdata.zi", db->dir) <
      sizeof path)
    rc = file_read(path, &buf, &len);
  if (rc == FILE_NOMEM) return NULL;
  if (rc == FILE_OK) {
    db->links = tzdb_links_parse((const char *)buf, len);
    free(buf);
    if (!db->links) return NULL;
  }
  db->links_read = 1;
  return db->links;
}

/* zone_get of the zone a link name stands for: "UTC" for the UTC family;
** the link's own file when the zone's cannot be read. */
static int zone_get_linked(tzdb *db, const char *name, const tz_zone **out,
                           const char **canon, char *err, size_t errlen) {
  const char *zone = NULL;
  if (name && name_valid(name) && !is_utc_name(name) &&
      !(db->nslot && slot_find(db->slots, db->nslot, name)->name))
    zone = tzdb_links_zone(links_of(db), name);
  if (zone && zone_get(db, zone, out, canon, NULL, 0) == TZDB_OK)
    return TZDB_OK;
  return zone_get(db, name, out, canon, err, errlen);
}

int tzdb_lookup(tzdb *db, const char *name, const tz_zone **out,
                const char **canon, char *err, size_t errlen) {
  const char *spelled = NULL;
  int rc = zone_get_linked(db, name, out, &spelled, err, errlen);
  if (rc == TZDB_UNKNOWN) { /* another case: the listed spelling */
    const char *fix = tzdb_names_canonical(names_of(db), name);
    if (fix && strcmp(fix, name) != 0)
      rc = zone_get_linked(db, fix, out, &spelled, err, errlen);
  }
  if (rc == TZDB_UNKNOWN || (rc == TZDB_INVALID && name)) {
    const char *near = tzdb_names_suggest(names_of(db), name);
    if (near && err && errlen) { /* tzdb_fail wrote a message */
      size_t used = strlen(err);
      snprintf(err + used, errlen - used, "; did you mean '%s'?", near);
    }
  }
  if (canon) *canon = rc == TZDB_OK ? spelled : NULL;
  return rc == TZDB_OK ? 0 : -1;
}

int tzdb_get(tzdb *db, const char *name, const tz_zone **out, char *err,
             size_t errlen) {
  return tzdb_lookup(db, name, out, NULL, err, errlen);
}

int tzdb_has_links(tzdb *db) { return tzdb_links_count(links_of(db)) > 0; }
