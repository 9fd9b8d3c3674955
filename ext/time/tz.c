/*
** tz.c -- one time zone: the TZif reader and UTC <-> local mapping.
**
** Owns: parsing TZif bytes (RFC 8536, versions 1-4) into a compact zone,
** parsing and evaluating the POSIX TZ footer rule (with the RFC 8536
** extensions: quoted <+1030> names, times from -167h to +167h), and the
** lookups declared in tz.h.
**
** A parsed zone holds:
**   - the transition table reduced to the instants where the UT offset
**     really changes (abbreviation-only or isdst-only changes are dropped,
**     since callers only ever ask for offsets), searched by bisection;
**   - the offset before the first transition (time type 0, RFC 8536 3.2);
**   - the footer rule, which decides every instant at or after the last
**     transition of the file (or every instant, if there is no table).
**
** The Gregorian calendar repeats every 400 years (146097 days, a whole
** number of weeks), so the rule's events are computed once, at parse time,
** for the frame [2000, 2400) (plus two years either side), reduced to the
** instants where the offset changes. An instant past the table is moved
** into the frame by whole cycles and bisected there. Every lookup is
** therefore O(log n): n is at most the file's transitions, or 808 events.
**
** Local -> UTC works on the UTC line: within two days either side of the
** local time (offsets are bounded by 26 hours), each constant-offset
** segment holds at most one instant whose wall clock equals it. Zero
** instants means a gap; the transition whose jump covers it ends the gap.
*/
#include "time/tz.h"

#include "text/ascii.h"
#include "text/coverage.h"
#include "time/civil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TZ_MAX_OFF 93599           /* |UT offset| limit, RFC 8536 3.2 */
#define TZ_WINDOW (2 * 86400)      /* > max |offset|, see tz_local_lookup */
#define TZ_LIMIT (1LL << 61)       /* instants are clamped to +-TZ_LIMIT */
#define CYCLE_S (146097LL * 86400) /* 400 Gregorian years in seconds */
#define FRAME_BASE 946684800LL     /* 2000-01-01T00:00:00Z */
#define NEXT_STEPS 64              /* candidates tried per next_transition */

/* One yearly date of a POSIX rule: Jn, n or Mm.w.d, plus a local time. */
typedef struct tz_rule_date {
  char kind; /* 'J' (1-365, no Feb 29), 'D' (0-365), 'M' (month.week.day) */
  int a, b, c;
  int32_t time; /* seconds after local midnight, may be <0 or >24h */
} tz_rule_date;

typedef struct tz_rule {
  int32_t std_off, dst_off; /* seconds east of UTC */
  int has_dst;              /* 0: std_off everywhere */
  tz_rule_date start, end;  /* DST starts (in std time), ends (in DST) */
} tz_rule;

struct tz_zone {
  const char *name;
  size_t n;          /* entries in at/off: real offset changes only */
  const int64_t *at; /* strictly ascending transition instants */
  const int32_t *off;
  int32_t first_off;  /* before the first transition */
  int has_table;      /* the file had transitions; last_at is valid */
  int64_t last_at;    /* the file's last transition (rule starts here) */
  int has_rule;       /* a footer rule decides from last_at on */
  int32_t rule_fixed; /* its offset when it never changes (rule_n == 0) */
  size_t rule_n;      /* its offset changes within the frame, ascending */
  const int64_t *rule_at;
  const int32_t *rule_off;
};

static const tz_zone utc_zone = {"UTC", 0, NULL, NULL, 0,    0,
                                 0,     0, 0,    0,    NULL, NULL};

const tz_zone *tz_utc(void) { return &utc_zone; }

const char *tz_name(const tz_zone *z) { return z->name; }

static int64_t clamp_instant(int64_t t) {
  if (t > TZ_LIMIT) return TZ_LIMIT;
  if (t < -TZ_LIMIT) return -TZ_LIMIT;
  return t;
}

/* ---- POSIX TZ rule: evaluation --------------------------------------- */

/* Day number (days since 1970-01-01) on which a rule date falls in year. */
static int64_t rule_day(const tz_rule_date *d, int year) {
  int64_t jan1 = civil_days_from_date(year, 1, 1);
  if (d->kind == 'J') {
    int skip_leap = civil_is_leap(year) && d->a >= 60;
    return jan1 + d->a - 1 + skip_leap;
  }
  if (d->kind == 'D') return jan1 + d->a;
  {
    /* Mm.w.d: day d (0 = Sunday) of week w (5 = last) of month m. */
    int64_t first = civil_days_from_date(year, d->a, 1);
    int64_t day = first + (d->c - civil_weekday(first) + 7) % 7;
    int64_t last = first + civil_days_in_month(year, d->a) - 1;
    day += (int64_t)(d->b - 1) * 7;
    while (day > last) day -= 7;
    return day;
  }
}

/* Years whose events are kept: the frame [2000, 2400) and two years either
** side, enough for rule times of +-167 hours. */
#define RULE_FIRST_YEAR 1998
#define RULE_LAST_YEAR 2401
#define RULE_EVENTS (2 * (RULE_LAST_YEAR - RULE_FIRST_YEAR + 1))

/*
** Writes the rule's events (DST start, DST end) for every year of
** RULE_FIRST_YEAR..RULE_LAST_YEAR into at/off, sorted by instant, then
** keeps only those that change the offset. Ties keep generation order, so
** the later event wins: "DST all year" rules (the end of one year is the
** start of the next) come out as DST. Returns the number kept.
*/
static size_t rule_build(const tz_rule *r, int64_t *at, int32_t *off) {
  size_t m = 0, n = 0, k, j;
  int year;
  for (year = RULE_FIRST_YEAR; year <= RULE_LAST_YEAR; year++) {
    at[m] = rule_day(&r->start, year) * 86400 + r->start.time - r->std_off;
    off[m++] = r->dst_off;
    at[m] = rule_day(&r->end, year) * 86400 + r->end.time - r->dst_off;
    off[m++] = r->std_off;
  }
  for (k = 1; k < m; k++) { /* stable insertion sort; nearly sorted input */
    int64_t a = at[k];
    int32_t o = off[k];
    for (j = k; j > 0 && at[j - 1] > a; j--) {
      at[j] = at[j - 1];
      off[j] = off[j - 1];
    }
    at[j] = a;
    off[j] = o;
  }
  for (k = 0; k < m; k++) {
    if (k + 1 < m && at[k + 1] == at[k]) continue; /* the tie's last wins */
    if (n > 0 && off[k] == off[n - 1]) continue;
    at[n] = at[k];
    off[n++] = off[k];
  }
  return n;
}

/* Number of entries of the ascending at[0..n) that are <= t. */
static size_t count_le(const int64_t *at, size_t n, int64_t t) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (at[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Moves t into the frame [2000, 2400); returns what was subtracted. */
static int64_t frame_shift(int64_t t) {
  return civil_floor_div(t - FRAME_BASE, CYCLE_S) * CYCLE_S;
}

/* ---- POSIX TZ rule: parsing ------------------------------------------ */

typedef struct rule_cursor {
  const char *s;
  size_t n, i;
} rule_cursor;

static int rc_peek(const rule_cursor *c) {
  return c->i < c->n ? (unsigned char)c->s[c->i] : -1;
}

/* Unsigned decimal in [lo, hi]. */
static int rc_number(rule_cursor *c, int lo, int hi, int *v) {
  int acc = 0, digits = 0;
  while (ascii_is_digit(rc_peek(c))) {
    acc = acc * 10 + (c->s[c->i++] - '0');
    if (acc > hi) return -1;
    digits++;
  }
  if (digits == 0 || acc < lo) return -1;
  *v = acc;
  return 0;
}

/* Zone abbreviation: 3+ letters, or <...> of letters, digits, '+', '-'. */
static int rc_name(rule_cursor *c) {
  size_t start;
  if (rc_peek(c) == '<') {
    c->i++;
    start = c->i;
    while (ascii_is_alpha(rc_peek(c)) || ascii_is_digit(rc_peek(c)) ||
           rc_peek(c) == '+' || rc_peek(c) == '-')
      c->i++;
    if (c->i - start < 3 || rc_peek(c) != '>') return -1;
    c->i++;
    return 0;
  }
  start = c->i;
  while (ascii_is_alpha(rc_peek(c))) c->i++;
  return c->i - start < 3 ? -1 : 0;
}

/* [+-]hh[:mm[:ss]] with hh <= max_h; returns seconds (signed). */
static int rc_hms(rule_cursor *c, int max_h, int32_t *out) {
  int sign = 1, h, m = 0, s = 0;
  if (rc_peek(c) == '+' || rc_peek(c) == '-') {
    if (rc_peek(c) == '-') sign = -1;
    c->i++;
  }
  if (rc_number(c, 0, max_h, &h)) return -1;
  if (rc_peek(c) == ':') {
    c->i++;
    if (rc_number(c, 0, 59, &m)) return -1;
    if (rc_peek(c) == ':') {
      c->i++;
      if (rc_number(c, 0, 59, &s)) return -1;
    }
  }
  *out = sign * (h * 3600 + m * 60 + s);
  return 0;
}

/* ",date[/time]" */
static int rc_date(rule_cursor *c, tz_rule_date *d) {
  if (rc_peek(c) != ',') return -1;
  c->i++;
  if (rc_peek(c) == 'J') {
    c->i++;
    d->kind = 'J';
    if (rc_number(c, 1, 365, &d->a)) return -1;
  } else if (rc_peek(c) == 'M') {
    c->i++;
    d->kind = 'M';
    if (rc_number(c, 1, 12, &d->a) || rc_peek(c) != '.') return -1;
    c->i++;
    if (rc_number(c, 1, 5, &d->b) || rc_peek(c) != '.') return -1;
    c->i++;
    if (rc_number(c, 0, 6, &d->c)) return -1;
  } else {
    d->kind = 'D';
    if (rc_number(c, 0, 365, &d->a)) return -1;
  }
  d->time = 2 * 3600;
  if (rc_peek(c) == '/') {
    c->i++;
    if (rc_hms(c, 167, &d->time)) return -1;
  }
  return 0;
}

/*
** Parses a TZ string such as "EST5EDT,M3.2.0,M11.1.0". POSIX offsets are
** west-positive, so they are negated. A DST name without a rule is
** rejected (POSIX leaves the default to the implementation).
*/
static int rule_parse(const char *s, size_t n, tz_rule *r) {
  rule_cursor c;
  int32_t off;
  c.s = s;
  c.n = n;
  c.i = 0;
  memset(r, 0, sizeof *r);
  if (rc_name(&c) || rc_hms(&c, 24, &off)) return -1;
  r->std_off = -off;
  r->dst_off = r->std_off;
  if (c.i == c.n) return 0;
  if (rc_name(&c)) return -1;
  r->has_dst = 1;
  r->dst_off = r->std_off + 3600;
  if (rc_peek(&c) != ',') {
    if (rc_hms(&c, 24, &off)) return -1;
    r->dst_off = -off;
  }
  if (rc_date(&c, &r->start) || rc_date(&c, &r->end)) return -1;
  return c.i == c.n ? 0 : -1;
}

/* ---- TZif parsing ---------------------------------------------------- */

static int tz_fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         (uint32_t)p[3];
}

static int64_t be64(const unsigned char *p) {
  return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

typedef struct tzif_header {
  int version; /* 1..4 */
  uint32_t isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt;
} tzif_header;

#define TZIF_HEADER_LEN 44

static int header_read(const unsigned char *p, size_t avail, tzif_header *h,
                       char *err, size_t errlen) {
  if (avail < TZIF_HEADER_LEN)
    return tz_fail(err, errlen, "TZif: truncated header");
  if (memcmp(p, "TZif", 4) != 0) return tz_fail(err, errlen, "TZif: bad magic");
  switch (p[4]) {
    case 0: h->version = 1; break;
    case '2': h->version = 2; break;
    case '3': h->version = 3; break;
    case '4': h->version = 4; break;
    default:
      return tz_fail(err, errlen, "TZif: unsupported version 0x%02x", p[4]);
  }
  h->isutcnt = be32(p + 20);
  h->isstdcnt = be32(p + 24);
  h->leapcnt = be32(p + 28);
  h->timecnt = be32(p + 32);
  h->typecnt = be32(p + 36);
  h->charcnt = be32(p + 40);
  if (h->typecnt == 0 || h->typecnt > 256 || h->charcnt == 0 ||
      (h->isutcnt != 0 && h->isutcnt != h->typecnt) ||
      (h->isstdcnt != 0 && h->isstdcnt != h->typecnt))
    return tz_fail(err, errlen, "TZif: inconsistent counts in header");
  return 0;
}

/* Bytes of the data block that follows a header; tsize is 4 or 8. */
static uint64_t block_len(const tzif_header *h, unsigned tsize) {
  return (uint64_t)h->timecnt * tsize + h->timecnt + (uint64_t)h->typecnt * 6 +
         h->charcnt + (uint64_t)h->leapcnt * (tsize + 4) + h->isstdcnt +
         h->isutcnt;
}

/* Reads and checks the local time type records; offsets into offs[]. */
static int types_read(const unsigned char *p, const tzif_header *h,
                      int32_t *offs, char *err, size_t errlen) {
  uint32_t k;
  for (k = 0; k < h->typecnt; k++) {
    const unsigned char *rec = p + (size_t)k * 6;
    int32_t off = (int32_t)be32(rec);
    if (off < -TZ_MAX_OFF || off > TZ_MAX_OFF)
      return tz_fail(err, errlen, "TZif: UT offset %ld out of range",
                     (long)off);
    if (rec[4] > 1) return tz_fail(err, errlen, "TZif: bad isdst flag");
    if (rec[5] >= h->charcnt)
      return tz_fail(err, errlen, "TZif: bad abbreviation index");
    offs[k] = off;
  }
  return 0;
}

/* Copies at most FOOTER_SHOW printable characters of a footer for a
** message. */
#define FOOTER_SHOW 40
static void footer_excerpt(const char *s, size_t n, char out[FOOTER_SHOW + 1]) {
  size_t k;
  for (k = 0; k < n && k < FOOTER_SHOW; k++) {
    unsigned char ch = (unsigned char)s[k];
    out[k] = ch >= 0x20 && ch < 0x7f && ch != '\'' ? (char)ch : '?';
  }
  out[k] = '\0';
}

/* Footer: "\n" TZ-string "\n"; an empty string means no rule. */
static int footer_read(const unsigned char *p, size_t avail, tz_rule *r,
                       int *has_rule, char *err, size_t errlen) {
  const unsigned char *nl;
  size_t n;
  if (avail < 2 || p[0] != '\n')
    return tz_fail(err, errlen, "TZif: footer: missing");
  nl = memchr(p + 1, '\n', avail - 1);
  if (!nl) return tz_fail(err, errlen, "TZif: footer: missing final newline");
  n = (size_t)(nl - (p + 1));
  if (n == 0) return 0;
  if (rule_parse((const char *)p + 1, n, r)) {
    char ex[FOOTER_SHOW + 1];
    footer_excerpt((const char *)p + 1, n, ex);
    return tz_fail(err, errlen, "TZif: footer: bad rule '%s'", ex);
  }
  *has_rule = 1;
  return 0;
}

/*
** Fills the zone's table from a data block (times of tsize bytes),
** keeping only real offset changes. at/off point into the zone's block.
*/
static int table_read(const unsigned char *p, const tzif_header *h,
                      unsigned tsize, tz_zone *z, int64_t *at, int32_t *off,
                      char *err, size_t errlen) {
  int32_t offs[256];
  const unsigned char *times = p, *idx = p + (size_t)h->timecnt * tsize;
  int32_t prev;
  uint32_t k;
  size_t n = 0;
  if (types_read(idx + h->timecnt, h, offs, err, errlen)) return -1;
  /* Set unless types_read failed (the analyzer cannot see into tz_fail). */
  /* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign) */
  z->first_off = prev = offs[0];
  for (k = 0; k < h->timecnt; k++) {
    int64_t t = tsize == 8 ? be64(times + (size_t)k * 8)
                           : (int64_t)(int32_t)be32(times + (size_t)k * 4);
    if (idx[k] >= h->typecnt)
      return tz_fail(err, errlen, "TZif: transition %lu has bad type %u",
                     (unsigned long)k, idx[k]);
    if (k > 0 && t <= z->last_at)
      return tz_fail(err, errlen, "TZif: transition times not ascending");
    z->last_at = t;
    if (offs[idx[k]] != prev) {
      at[n] = t;
      off[n++] = prev = offs[idx[k]];
    }
  }
  z->has_table = h->timecnt > 0;
  z->n = n;
  z->at = at;
  z->off = off;
  return 0;
}

/* Installs the footer rule: its event table, or one offset if it never
** changes (no DST, equal offsets, DST all year). */
static void rule_install(tz_zone *z, const tz_rule *r, int64_t *at,
                         int32_t *off) {
  size_t n = r->has_dst ? rule_build(r, at, off) : 0;
  z->has_rule = 1;
  z->rule_fixed = n > 0 ? off[0] : r->std_off;
  z->rule_n = n > 1 ? n : 0;
  z->rule_at = at;
  z->rule_off = off;
}

/*
** One block holds the zone, then the int64 arrays (table, rule events),
** then the int32 arrays, then the name: alignment follows from the order.
*/
static tz_zone *zone_alloc(size_t ntimes, size_t nevents, const char *name,
                           int64_t **at, int64_t **rule_at, int32_t **off,
                           int32_t **rule_off) {
  size_t namelen = strlen(name ? name : "");
  size_t size = sizeof(tz_zone) +
                (ntimes + nevents) * (sizeof(int64_t) + sizeof(int32_t)) +
                namelen + 1;
  tz_zone *z = malloc(size);
  char *nm;
  if (!z) return NULL;
  memset(z, 0, sizeof *z);
  *at = (int64_t *)(void *)(z + 1);
  *rule_at = *at + ntimes;
  *off = (int32_t *)(void *)(*rule_at + nevents);
  *rule_off = *off + ntimes;
  nm = (char *)(*rule_off + nevents);
  memcpy(nm, name ? name : "", namelen + 1);
  z->name = nm;
  return z;
}

int tz_parse(const unsigned char *buf, size_t len, const char *name,
             tz_zone **out, char *err, size_t errlen) {
  tzif_header h;
  tz_rule rule;
  const unsigned char *p = buf;
  size_t avail = len, blen;
  unsigned tsize = 4;
  int has_rule = 0;
  tz_zone *z;
  int64_t *at, *rule_at;
  int32_t *off, *rule_off;
  *out = NULL;
  if (!buf) return tz_fail(err, errlen, "TZif: truncated header");
  if (header_read(p, avail, &h, err, errlen)) return -1;
  /* Set unless header_read failed (the analyzer cannot see into tz_fail). */
  /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult) */
  if (h.version >= 2) { /* skip the 32-bit block, use the 64-bit one */
    uint64_t skip = TZIF_HEADER_LEN + block_len(&h, 4);
    if (skip > avail) return tz_fail(err, errlen, "TZif: truncated data block");
    p += skip;
    avail -= (size_t)skip;
    if (header_read(p, avail, &h, err, errlen)) return -1;
    tsize = 8;
  }
  p += TZIF_HEADER_LEN;
  avail -= TZIF_HEADER_LEN;
  if (block_len(&h, tsize) > avail)
    return tz_fail(err, errlen, "TZif: truncated data block");
  blen = (size_t)block_len(&h, tsize);
  if (h.version >= 2 &&
      footer_read(p + blen, avail - blen, &rule, &has_rule, err, errlen))
    return -1;
  z = zone_alloc(h.timecnt, has_rule && rule.has_dst ? RULE_EVENTS : 0, name,
                 &at, &rule_at, &off, &rule_off);
  if (!z) return tz_fail(err, errlen, "TZif: out of memory");
  if (table_read(p, &h, tsize, z, at, off, err, errlen)) {
    free(z);
    return -1;
  }
  if (has_rule) rule_install(z, &rule, rule_at, rule_off);
  *out = z;
  return 0;
}

void tz_free(tz_zone *z) {
  if (z && z != &utc_zone) free(z);
}

/* ---- Lookups ----------------------------------------------------------- */

static int32_t rule_offset(const tz_zone *z, int64_t t) {
  int64_t tf;
  size_t k;
  if (z->rule_n == 0) return z->rule_fixed;
  t = clamp_instant(t);
  tf = t - frame_shift(t);
  k = count_le(z->rule_at, z->rule_n, tf);
  /* tf lies in [2000, 2400); the events start two years before */
  return z->rule_off[NEVER(k == 0) ? 0 : k - 1];
}

/* First rule event strictly after t, or INT64_MAX. */
static int64_t rule_next_event(const tz_zone *z, int64_t t) {
  int64_t shift;
  size_t k;
  if (z->rule_n == 0 || t >= TZ_LIMIT) return INT64_MAX;
  t = clamp_instant(t);
  shift = frame_shift(t);
  k = count_le(z->rule_at, z->rule_n, t - shift);
  /* t - shift lies in [2000, 2400); the events end two years after */
  return ALWAYS(k < z->rule_n) ? z->rule_at[k] + shift : INT64_MAX;
}

static int in_rule_domain(const tz_zone *z, int64_t t) {
  return z->has_rule && (!z->has_table || t >= z->last_at);
}

int32_t tz_offset_at(const tz_zone *z, int64_t utc_s) {
  size_t k;
  if (in_rule_domain(z, utc_s)) return rule_offset(z, utc_s);
  k = count_le(z->at, z->n, utc_s);
  return k == 0 ? z->first_off : z->off[k - 1];
}

/* Next instant > t where the offset may change (table, rule start, rule). */
static int64_t next_candidate(const tz_zone *z, int64_t t) {
  int64_t best = INT64_MAX;
  size_t k;
  if (in_rule_domain(z, t)) return rule_next_event(z, t);
  k = count_le(z->at, z->n, t);
  if (k < z->n) best = z->at[k];
  if (z->has_rule && z->last_at < best) best = z->last_at;
  return best;
}

int64_t tz_next_transition(const tz_zone *z, int64_t utc_s) {
  int32_t cur = tz_offset_at(z, utc_s);
  int64_t t = utc_s;
  int k;
  for (k = 0; k < NEXT_STEPS; k++) {
    t = next_candidate(z, t);
    if (t == INT64_MAX || tz_offset_at(z, t) != cur) return t;
  }
  return INT64_MAX;
}

static void local_add(tz_local *r, int64_t u, int32_t off) {
  if (r->count == 0) r->off_before = off;
  r->off_after = off;
  r->utc[r->count++] = u;
}

void tz_local_lookup(const tz_zone *z, int64_t local_s, tz_local *r) {
  int64_t L = clamp_instant(local_s);
  int64_t seg = L - TZ_WINDOW, hi = L + TZ_WINDOW;
  int32_t o = tz_offset_at(z, seg);
  int gap = 0;
  memset(r, 0, sizeof *r);
  while (r->count < 2) {
    int64_t nt = tz_next_transition(z, seg);
    int64_t u = L - o;
    int32_t o2;
    if (u >= seg && u < nt) local_add(r, u, o);
    if (nt > hi) break;
    o2 = tz_offset_at(z, nt);
    /* Without a match so far, the wall clock of each segment ended at or
    ** before L (nt + o <= L): a gap when the next one starts after it. */
    if (!gap && r->count == 0 && L < nt + o2) {
      gap = 1;
      r->gap_end_utc = nt;
      r->off_before = o;
      r->off_after = o2;
    }
    seg = nt;
    o = o2;
  }
  if (r->count > 0) r->gap_end_utc = 0;
  if (r->count == 1) r->utc[1] = r->utc[0];
}

int64_t tz_local_to_utc(const tz_zone *z, int64_t local_s) {
  tz_local r;
  tz_local_lookup(z, local_s, &r);
  if (r.count > 0) return r.utc[0];
  return clamp_instant(local_s) - r.off_before;
}
