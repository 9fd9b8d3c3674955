/*
** test_tz.c -- unit tests for ext/time/tz.c and ext/time/tzdb.c.
**
** Zone fixtures are compiled at test time: the zone source below is written
** to <dir of this binary>/tzfix/ and run through `zic -b fat` and
** `zic -b slim`. `zdump -v -c 1990,2060` is the oracle: every instant it
** prints (both sides of every transition) must get the same UT offset from
** tz_offset_at, and tz_next_transition must step through exactly its
** transitions. The same holds for a few real zones read from the system
** zoneinfo through tzdb_get. Hand-built TZif buffers cover footer rules
** (J/n/M forms, odd times, DST all year) and corrupt input.
*/
#include "time/civil.h"
#include "time/tz.h"
#include "time/tzdb.h"
#include "time/tzdb_names.h"

#include <limits.h>
#include <stdlib.h>

#include "check.h"

static char fixdir[512];

/* ---- helpers ----------------------------------------------------------- */

static int64_t utc_s(int y, int mo, int d, int h, int mi, int s) {
  return civil_days_from_date(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf;
  long n;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc(n > 0 ? (size_t)n : 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static tz_zone *load_file(const char *path) {
  size_t len;
  unsigned char *buf = slurp(path, &len);
  tz_zone *z = NULL;
  char err[256] = "";
  if (!buf) {
    CHECK(0, "cannot read %s", path);
    return NULL;
  }
  CHECK(tz_parse(buf, len, path, &z, err, sizeof err) == 0, "parse %s: %s",
        path, err);
  free(buf);
  return z;
}

/* ---- hand-built TZif buffers ------------------------------------------ */

typedef struct tzif_spec {
  char version; /* 0, '2', '3', '4' */
  int ntimes;
  const int64_t *times;
  const unsigned char *idx;
  int ntypes;
  const int32_t *offs;
  const char *footer; /* NULL: none at all (v1) */
} tzif_spec;

static size_t put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
  return 4;
}

static size_t put_block(unsigned char *p, const tzif_spec *s, int tsize) {
  size_t n = 0;
  int k;
  memcpy(p, "TZif", 4);
  p[4] = (unsigned char)s->version;
  memset(p + 5, 0, 15);
  n = 20;
  n += put32(p + n, 0); /* isutcnt */
  n += put32(p + n, 0); /* isstdcnt */
  n += put32(p + n, 0); /* leapcnt */
  n += put32(p + n, (uint32_t)s->ntimes);
  n += put32(p + n, (uint32_t)s->ntypes);
  n += put32(p + n, 4); /* charcnt */
  for (k = 0; k < s->ntimes; k++) {
    if (tsize == 8) n += put32(p + n, (uint32_t)((uint64_t)s->times[k] >> 32));
    n += put32(p + n, (uint32_t)s->times[k]);
  }
  for (k = 0; k < s->ntimes; k++) p[n++] = s->idx[k];
  for (k = 0; k < s->ntypes; k++) {
    n += put32(p + n, (uint32_t)s->offs[k]);
    p[n++] = 0;
    p[n++] = 0;
  }
  memcpy(p + n, "XXX", 4);
  return n + 4;
}

/* Writes a TZif file image into buf (>= 4096 bytes); returns its length. */
static size_t build_tzif(unsigned char *buf, const tzif_spec *s) {
  size_t n = put_block(buf, s, 4);
  if (s->version == 0) return n;
  n += put_block(buf + n, s, 8);
  if (s->footer) n += (size_t)sprintf((char *)buf + n, "\n%s\n", s->footer);
  return n;
}

/* A zone with no transitions, described by its footer alone. */
static tz_zone *footer_zone(const char *footer, char *err, size_t errlen) {
  unsigned char buf[4096];
  int32_t off = 0;
  tzif_spec s = {'2', 0, NULL, NULL, 1, &off, footer};
  tz_zone *z = NULL;
  size_t n = build_tzif(buf, &s);
  err[0] = '\0';
  if (tz_parse(buf, n, footer, &z, err, errlen) != 0) return NULL;
  return z;
}

/* ---- the zdump oracle --------------------------------------------------- */

typedef struct oracle {
  int n;
  int64_t at[4096];
  int32_t off[4096];
} oracle;

static int month_number(const char *m) {
  static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  const char *p = strstr(names, m);
  return p && strlen(m) == 3 ? (int)(p - names) / 3 + 1 : 0;
}

/* Runs zdump on a zone name or path and collects (instant, gmtoff). */
static int oracle_run(const char *zone, oracle *o) {
  char cmd[1200], line[512];
  FILE *p;
  o->n = 0;
  snprintf(cmd, sizeof cmd, "zdump -v -c 1990,2060 '%s'", zone);
  p = popen(cmd, "r");
  if (!p) return -1;
  while (fgets(line, sizeof line, p)) {
    char mon[8];
    int d, h, mi, s, y;
    const char *sp = strchr(line, ' '), *g = strstr(line, "gmtoff=");
    if (!sp || !g || !strstr(line, " UT = ")) continue;
    if (sscanf(sp, " %*s %7s %d %d:%d:%d %d UT", mon, &d, &h, &mi, &s, &y) !=
            6 ||
        !month_number(mon) || o->n >= 4096)
      continue;
    o->at[o->n] = utc_s(y, month_number(mon), d, h, mi, s);
    o->off[o->n++] = (int32_t)atol(g + 7);
  }
  return pclose(p) == 0 ? 0 : -1;
}

/*
** Checks tz_offset_at at every instant zdump printed, then walks
** tz_next_transition across the whole range and compares it with the
** instants where zdump's offset changes. Returns the number of offset
** transitions seen.
*/
static int check_against_zdump(const tz_zone *z, const char *zone) {
  static oracle o;
  int k, bad = 0, nchange = 0, walked = 0;
  int64_t t;
  CHECK(oracle_run(zone, &o) == 0, "zdump %s", zone);
  for (k = 0; k < o.n; k++) {
    int32_t got = tz_offset_at(z, o.at[k]);
    if (got != o.off[k] && bad++ < 5)
      CHECK(0, "%s: offset at %lld: got %ld, zdump %ld", zone,
            (long long)o.at[k], (long)got, (long)o.off[k]);
  }
  CHECK(bad == 0, "%s: %d offsets differ from zdump", zone, bad);
  /* Transitions: a line at T whose offset differs from the line at T-1. */
  t = utc_s(1990, 1, 1, 0, 0, 0) - 1;
  for (k = 1; k < o.n; k++) {
    if (o.at[k] != o.at[k - 1] + 1 || o.off[k] == o.off[k - 1]) continue;
    nchange++;
    t = tz_next_transition(z, t);
    walked++;
    if (t != o.at[k]) {
      CHECK(0, "%s: transition #%d: got %lld, zdump %lld", zone, nchange,
            (long long)t, (long long)o.at[k]);
      return nchange;
    }
  }
  t = tz_next_transition(z, t);
  CHECK(t >= utc_s(2060, 1, 1, 0, 0, 0), "%s: extra transition at %lld", zone,
        (long long)t);
  CHECK(walked == nchange, "%s walked", zone);
  return nchange;
}

/*
** Every instant u, seen as local time L = u + offset(u), must come back
** from tz_local_lookup among its instants; a local time inside each jump
** forward must be a gap ending at that transition.
*/
static void check_local_consistency(const tz_zone *z, const char *zone,
                                    int64_t from, int64_t to, int64_t step) {
  int64_t u, t;
  int bad = 0, badgap = 0;
  for (u = from; u < to; u += step) {
    tz_local r;
    int64_t L = u + tz_offset_at(z, u);
    tz_local_lookup(z, L, &r);
    if (!((r.count >= 1 && r.utc[0] == u) || (r.count == 2 && r.utc[1] == u)) ||
        tz_local_to_utc(z, L) != r.utc[0] || r.utc[0] + r.off_before != L ||
        r.utc[r.count - 1] + r.off_after != L) {
      if (bad++ < 3)
        CHECK(0, "%s: local %lld of %lld: count %d utc %lld/%lld", zone,
              (long long)L, (long long)u, r.count, (long long)r.utc[0],
              (long long)r.utc[1]);
    }
  }
  CHECK(bad == 0, "%s: %d round-trip failures", zone, bad);
  for (t = tz_next_transition(z, from); t < to; t = tz_next_transition(z, t)) {
    int32_t before = tz_offset_at(z, t - 1), after = tz_offset_at(z, t);
    tz_local r;
    if (after <= before) continue;
    tz_local_lookup(z, t + before + (after - before) / 2, &r);
    if (r.count != 0 || r.gap_end_utc != t || r.off_before != before ||
        r.off_after != after ||
        tz_local_to_utc(z, t + before + (after - before) / 2) !=
            t + (after - before) / 2) {
      if (badgap++ < 3)
        CHECK(0, "%s: gap at %lld: count %d end %lld", zone, (long long)t,
              r.count, (long long)r.gap_end_utc);
    }
  }
  CHECK(badgap == 0, "%s: %d gap failures", zone, badgap);
}

/* ---- fixtures ------------------------------------------------------------ */

static const char fixture_source[] =
    "# Lord-Howe-like: +10:30 standard, +11 in summer (30-minute DST)\n"
    "Rule LH 1990 max - Oct Sun>=1 2:00 0:30 -\n"
    "Rule LH 1991 max - Apr Sun>=1 2:00 0 -\n"
    "Zone Fix/Howe 10:30 LH +1030/+11\n"
    "# southern hemisphere, changes at midnight\n"
    "Rule SO 1990 max - Oct Sun>=15 0:00 1:00 -\n"
    "Rule SO 1991 max - Feb Sun>=15 0:00 0 -\n"
    "Zone Fix/South -3:00 SO -03/-02\n"
    "# negative DST, like Europe/Dublin\n"
    "Rule NE 1990 max - Mar lastSun 1:00u 0 -\n"
    "Rule NE 1990 max - Oct lastSun 1:00u -1:00 -\n"
    "Zone Fix/NegDST 1:00 NE IST/GMT\n"
    "# start at 26:00 on a Thursday, like Asia/Jerusalem\n"
    "Rule JR 1990 max - Mar Fri>=23 2:00 1:00 D\n"
    "Rule JR 1990 max - Oct lastSun 2:00 0 S\n"
    "Zone Fix/Jeru 2:00 JR I%sT\n"
    "# changes at 01:00 UT in a -02 zone: negative rule time\n"
    "Rule NU 1990 max - Mar lastSun 1:00u 1:00 -\n"
    "Rule NU 1990 max - Oct lastSun 1:00u 0 -\n"
    "Zone Fix/Nuuk -2:00 NU -02/-01\n"
    "# US-like with a rule change in 2007\n"
    "Rule US 1987 2006 - Apr Sun>=1 2:00 1:00 D\n"
    "Rule US 1987 2006 - Oct lastSun 2:00 0 S\n"
    "Rule US 2007 max - Mar Sun>=8 2:00 1:00 D\n"
    "Rule US 2007 max - Nov Sun>=1 2:00 0 S\n"
    "Zone Fix/East -5:00 US E%sT\n"
    "# a whole day skipped, like Pacific/Apia in 2011\n"
    "Zone Fix/Skip -11:00 - -11 2011 Dec 30\n"
    "  13:00 - +13\n"
    "# DST that ends for good, then a new fixed offset\n"
    "Rule OLD 1990 2010 - Apr 1 0:00 1:00 -\n"
    "Rule OLD 1990 2010 - Oct 1 0:00 0 -\n"
    "Zone Fix/Ended 5:30 OLD +0530/+0630 2011\n"
    "  5:45 - +0545\n";

static const char *const fixture_zones[] = {
    "Fix/Howe", "Fix/South", "Fix/NegDST", "Fix/Jeru",
    "Fix/Nuuk", "Fix/East",  "Fix/Skip",   "Fix/Ended"};
#define NFIX (int)(sizeof fixture_zones / sizeof fixture_zones[0])

static int build_fixtures(const char *argv0) {
  char cmd[8192], src[600];
  const char *slash = strrchr(argv0, '/');
  FILE *f;
  if (slash)
    snprintf(fixdir, sizeof fixdir, "%.*s/tzfix", (int)(slash - argv0), argv0);
  else snprintf(fixdir, sizeof fixdir, "tzfix");
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/Fix'", fixdir, fixdir);
  if (system(cmd) != 0) return -1;
  /* zdump (through TZ) needs an absolute path */
  if (fixdir[0] != '/') {
    char abs[PATH_MAX];
    if (!realpath(fixdir, abs) || strlen(abs) >= sizeof fixdir) return -1;
    strcpy(fixdir, abs);
  }
  snprintf(src, sizeof src, "%s/fixtures.zi", fixdir);
  f = fopen(src, "w");
  if (!f) return -1;
  fputs(fixture_source, f);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "zic -b fat -d '%s/fat' '%s' && zic -b slim -d '%s/slim' '%s' && "
           "printf 'not a zone file' > '%s/fat/Fix/Bad'",
           fixdir, src, fixdir, src, fixdir);
  return system(cmd) == 0 ? 0 : -1;
}

static void test_fixtures(void) {
  static const char *const forms[] = {"fat", "slim"};
  int f, k;
  for (f = 0; f < 2; f++) {
    for (k = 0; k < NFIX; k++) {
      char path[1300];
      tz_zone *z;
      int n;
      snprintf(path, sizeof path, "%s/%s/%s", fixdir, forms[f],
               fixture_zones[k]);
      z = load_file(path);
      if (!z) continue;
      n = check_against_zdump(z, path);
      CHECK(n >= 1, "%s: zdump saw %d transitions", path, n);
      check_local_consistency(z, path, utc_s(1990, 1, 1, 0, 0, 0),
                              utc_s(2060, 1, 1, 0, 0, 0), 3600 * 5 + 17);
      tz_free(z);
    }
  }
}

/* Fat and slim files of one zone agree from 1991 on, past 2037 included.
** (Before the first transition a slim file may hold only the type of that
** transition: zic drops the zone's earlier history there.) */
static void test_fat_equals_slim(void) {
  int k;
  for (k = 0; k < NFIX; k++) {
    char a[1300], b[1300];
    tz_zone *fat, *slim;
    int64_t t;
    int bad = 0;
    snprintf(a, sizeof a, "%s/fat/%s", fixdir, fixture_zones[k]);
    snprintf(b, sizeof b, "%s/slim/%s", fixdir, fixture_zones[k]);
    fat = load_file(a);
    slim = load_file(b);
    if (!fat || !slim) {
      tz_free(fat);
      tz_free(slim);
      continue;
    }
    for (t = utc_s(1991, 1, 1, 0, 0, 0); t < utc_s(2400, 1, 1, 0, 0, 0);
         t += 86400 * 3 + 3601)
      if (tz_offset_at(fat, t) != tz_offset_at(slim, t)) bad++;
    CHECK(bad == 0, "%s: fat and slim differ at %d instants", fixture_zones[k],
          bad);
    tz_free(fat);
    tz_free(slim);
  }
}

/* The Apia-like fixture: a local day that never happened. */
static void test_skipped_day(void) {
  char path[1300];
  tz_zone *z;
  tz_local r;
  snprintf(path, sizeof path, "%s/slim/Fix/Skip", fixdir);
  z = load_file(path);
  if (!z) return;
  tz_local_lookup(z, utc_s(2011, 12, 30, 12, 0, 0), &r);
  CHECK_EQ_I64(r.count, 0, "2011-12-30 12:00 is in the gap");
  CHECK_EQ_I64(r.gap_end_utc, utc_s(2011, 12, 30, 11, 0, 0), "gap end");
  CHECK_EQ_I64(r.off_before, -11 * 3600, "before");
  CHECK_EQ_I64(r.off_after, 13 * 3600, "after");
  CHECK_EQ_I64(tz_local_to_utc(z, utc_s(2011, 12, 30, 12, 0, 0)),
               utc_s(2011, 12, 30, 23, 0, 0), "moved forward by a day");
  tz_local_lookup(z, utc_s(2011, 12, 31, 0, 0, 0), &r);
  CHECK(r.count == 1 && r.utc[0] == utc_s(2011, 12, 30, 11, 0, 0),
        "2011-12-31 00:00 exists");
  tz_free(z);
}

/* Two transitions a day apart, so the local lookup's two-day window
** holds both: the second is walked past after a gap, and after the two
** instants of an overlap. */
static void test_close_transitions(void) {
  static const int64_t t1 = 1000000000, times[] = {t1, t1 + 86400};
  static const unsigned char spring[] = {1, 0}, fall[] = {1, 0};
  static const int32_t spring_offs[] = {0, 3600}, fall_offs[] = {3600, 0};
  unsigned char buf[4096];
  char err[160];
  tz_zone *z = NULL;
  tz_local r;
  /* +1 h at t1, back at t1 + 1 day: t1 + 30 min (wall) is in the gap */
  tzif_spec s = {0, 2, times, spring, 2, spring_offs, NULL};
  size_t n = build_tzif(buf, &s);
  CHECK(tz_parse(buf, n, "spring", &z, err, sizeof err) == 0, "%s", err);
  if (z) {
    tz_local_lookup(z, t1 + 1800, &r);
    CHECK(r.count == 0 && r.gap_end_utc == t1 && r.off_before == 0 &&
              r.off_after == 3600,
          "gap: count %d, end %" PRId64, r.count, r.gap_end_utc);
    tz_free(z);
  }
  /* -1 h at t1, +1 h a day later: t1 + 30 min (wall) happens twice */
  s.idx = fall;
  s.offs = fall_offs;
  n = build_tzif(buf, &s);
  CHECK(tz_parse(buf, n, "fall", &z, err, sizeof err) == 0, "%s", err);
  if (z) {
    tz_local_lookup(z, t1 + 1800, &r);
    CHECK(r.count == 2 && r.utc[0] == t1 - 1800 && r.utc[1] == t1 + 1800 &&
              r.off_before == 3600 && r.off_after == 0,
          "overlap: count %d, %" PRId64 ", %" PRId64, r.count, r.utc[0],
          r.utc[1]);
    tz_free(z);
  }
}

/* ---- real zones ---------------------------------------------------------- */

static void test_real_zones(tzdb *db) {
  static const char *const names[] = {
      "America/New_York",  "Europe/Berlin",    "Australia/Lord_Howe",
      "Australia/Sydney",  "Asia/Kolkata",     "Pacific/Apia",
      "America/Sao_Paulo", "Asia/Jerusalem",   "America/Nuuk",
      "Europe/Dublin",     "Africa/Casablanca"};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    const tz_zone *z;
    char err[256];
    if (tzdb_get(db, names[k], &z, err, sizeof err) != 0) {
      CHECK(0, "%s: %s", names[k], err);
      continue;
    }
    check_against_zdump(z, names[k]);
    check_local_consistency(z, names[k], utc_s(1990, 1, 1, 0, 0, 0),
                            utc_s(2060, 1, 1, 0, 0, 0), 3600 * 7 + 13);
  }
}

static void test_new_york(tzdb *db) {
  const tz_zone *z;
  tz_local r;
  char err[256];
  if (tzdb_get(db, "America/New_York", &z, err, sizeof err) != 0) {
    CHECK(0, "New York: %s", err);
    return;
  }
  CHECK_STR(tz_name(z), "America/New_York", "name kept");
  /* spring forward: 02:30 does not exist */
  tz_local_lookup(z, utc_s(2026, 3, 8, 2, 30, 0), &r);
  CHECK_EQ_I64(r.count, 0, "NY 2026-03-08 02:30 is a gap");
  CHECK_EQ_I64(r.gap_end_utc, utc_s(2026, 3, 8, 7, 0, 0), "gap ends 07:00Z");
  CHECK_EQ_I64(r.off_before, -5 * 3600, "gap: EST before");
  CHECK_EQ_I64(r.off_after, -4 * 3600, "gap: EDT after");
  CHECK_EQ_I64(tz_local_to_utc(z, utc_s(2026, 3, 8, 2, 30, 0)),
               utc_s(2026, 3, 8, 7, 30, 0), "compatible: 02:30 -> 03:30 EDT");
  /* fall back: 01:30 happens twice */
  tz_local_lookup(z, utc_s(2026, 11, 1, 1, 30, 0), &r);
  CHECK_EQ_I64(r.count, 2, "NY 2026-11-01 01:30 is repeated");
  CHECK_EQ_I64(r.utc[0], utc_s(2026, 11, 1, 5, 30, 0), "first 05:30Z");
  CHECK_EQ_I64(r.utc[1], utc_s(2026, 11, 1, 6, 30, 0), "second 06:30Z");
  CHECK_EQ_I64(r.off_before, -4 * 3600, "overlap: EDT first");
  CHECK_EQ_I64(r.off_after, -5 * 3600, "overlap: EST second");
  CHECK_EQ_I64(tz_local_to_utc(z, utc_s(2026, 11, 1, 1, 30, 0)),
               utc_s(2026, 11, 1, 5, 30, 0), "compatible: earlier");
  /* ordinary */
  tz_local_lookup(z, utc_s(2026, 7, 1, 12, 0, 0), &r);
  CHECK(r.count == 1 && r.utc[0] == utc_s(2026, 7, 1, 16, 0, 0) &&
            r.off_before == -4 * 3600 && r.off_after == -4 * 3600,
        "NY summer noon unique");
  /* edges of the gap and overlap */
  tz_local_lookup(z, utc_s(2026, 3, 8, 2, 0, 0), &r);
  CHECK_EQ_I64(r.count, 0, "02:00:00 is in the gap");
  CHECK_EQ_I64(r.gap_end_utc, utc_s(2026, 3, 8, 7, 0, 0), "02:00:00 gap end");
  tz_local_lookup(z, utc_s(2026, 3, 8, 2, 59, 59), &r);
  CHECK(r.count == 0 && r.gap_end_utc == utc_s(2026, 3, 8, 7, 0, 0),
        "02:59:59 is in the gap");
  tz_local_lookup(z, utc_s(2026, 3, 8, 3, 0, 0), &r);
  CHECK(r.count == 1 && r.utc[0] == utc_s(2026, 3, 8, 7, 0, 0), "03:00 exists");
  tz_local_lookup(z, utc_s(2026, 3, 8, 1, 59, 59), &r);
  CHECK(r.count == 1 && r.utc[0] == utc_s(2026, 3, 8, 6, 59, 59), "01:59:59");
  tz_local_lookup(z, utc_s(2026, 11, 1, 2, 0, 0), &r);
  CHECK(r.count == 1 && r.utc[0] == utc_s(2026, 11, 1, 7, 0, 0),
        "02:00 after fall back is unique");
  tz_local_lookup(z, utc_s(2026, 11, 1, 1, 0, 0), &r);
  CHECK_EQ_I64(r.count, 2, "01:00 is repeated");
  /* beyond 2037: the footer rule */
  CHECK_EQ_I64(tz_offset_at(z, utc_s(2040, 7, 1, 0, 0, 0)), -4 * 3600,
               "NY 2040-07-01 EDT");
  CHECK_EQ_I64(tz_offset_at(z, utc_s(2040, 1, 1, 0, 0, 0)), -5 * 3600,
               "NY 2040-01-01 EST");
  CHECK_EQ_I64(tz_offset_at(z, utc_s(2999, 7, 1, 0, 0, 0)), -4 * 3600,
               "NY 2999-07-01 EDT");
  CHECK_EQ_I64(tz_offset_at(z, utc_s(9999, 12, 31, 0, 0, 0)), -5 * 3600,
               "NY 9999-12-31 EST");
  CHECK_EQ_I64(tz_next_transition(z, utc_s(2100, 1, 1, 0, 0, 0)),
               utc_s(2100, 3, 14, 7, 0, 0), "NY 2100 spring forward");
  CHECK_EQ_I64(tz_next_transition(z, utc_s(2100, 3, 14, 7, 0, 0)),
               utc_s(2100, 11, 7, 6, 0, 0), "NY 2100 fall back");
  CHECK_EQ_I64(tz_local_to_utc(z, utc_s(2100, 3, 14, 2, 30, 0)),
               utc_s(2100, 3, 14, 7, 30, 0), "NY 2100 gap moves forward");
  /* historical: before 1883 New York used LMT -4:56:02 */
  CHECK_EQ_I64(tz_offset_at(z, utc_s(1800, 1, 1, 0, 0, 0)), -17762, "NY LMT");
  /* far instants do not crash and stay plausible */
  CHECK(tz_offset_at(z, INT64_MAX) >= -5 * 3600 &&
            tz_offset_at(z, INT64_MAX) <= -4 * 3600,
        "INT64_MAX");
  CHECK_EQ_I64(tz_offset_at(z, INT64_MIN), -17762, "INT64_MIN");
  tz_local_lookup(z, INT64_MAX, &r);
  CHECK(r.count >= 0 && r.count <= 2, "local INT64_MAX");
  tz_local_lookup(z, INT64_MIN, &r);
  CHECK(r.count == 1, "local INT64_MIN");
  CHECK(tz_next_transition(z, INT64_MAX) == INT64_MAX, "next after max");
  CHECK(tz_next_transition(z, INT64_MIN) == -2717650800LL,
        "first transition: 1883-11-18 17:00Z, got %lld",
        (long long)tz_next_transition(z, INT64_MIN));
}

static void test_lord_howe(tzdb *db) {
  const tz_zone *z;
  tz_local r;
  char err[256];
  if (tzdb_get(db, "Australia/Lord_Howe", &z, err, sizeof err) != 0) {
    CHECK(0, "Lord Howe: %s", err);
    return;
  }
  /* 2026-10-04 02:00 +10:30 -> 02:30 +11: a 30-minute gap */
  tz_local_lookup(z, utc_s(2026, 10, 4, 2, 15, 0), &r);
  CHECK_EQ_I64(r.count, 0, "Lord Howe 02:15 is a gap");
  CHECK_EQ_I64(r.gap_end_utc, utc_s(2026, 10, 3, 15, 30, 0), "gap end");
  CHECK_EQ_I64(r.off_after - r.off_before, 1800, "30-minute jump");
  CHECK_EQ_I64(tz_local_to_utc(z, utc_s(2026, 10, 4, 2, 15, 0)),
               utc_s(2026, 10, 3, 15, 45, 0), "02:15 -> 02:45 +11");
  tz_local_lookup(z, utc_s(2026, 10, 4, 2, 30, 0), &r);
  CHECK(r.count == 1 && r.utc[0] == utc_s(2026, 10, 3, 15, 30, 0),
        "02:30 +11 exists");
  /* 2026-04-05 02:00 +11 -> 01:30 +10:30: 01:45 twice */
  tz_local_lookup(z, utc_s(2026, 4, 5, 1, 45, 0), &r);
  CHECK_EQ_I64(r.count, 2, "Lord Howe 01:45 repeated");
  CHECK_EQ_I64(r.utc[0], utc_s(2026, 4, 4, 14, 45, 0), "first at +11");
  CHECK_EQ_I64(r.utc[1], utc_s(2026, 4, 4, 15, 15, 0), "second at +10:30");
  tz_local_lookup(z, utc_s(2026, 4, 5, 1, 15, 0), &r);
  CHECK_EQ_I64(r.count, 1, "Lord Howe 01:15 unique");
  CHECK_EQ_I64(tz_offset_at(z, utc_s(2045, 1, 1, 0, 0, 0)), 39600,
               "Lord Howe 2045 summer");
  CHECK_EQ_I64(tz_offset_at(z, utc_s(2045, 7, 1, 0, 0, 0)), 37800,
               "Lord Howe 2045 winter");
}

static void test_apia_and_fixed(tzdb *db) {
  const tz_zone *z;
  tz_local r;
  char err[256];
  if (tzdb_get(db, "Pacific/Apia", &z, err, sizeof err) == 0) {
    tz_local_lookup(z, utc_s(2011, 12, 30, 12, 0, 0), &r);
    CHECK_EQ_I64(r.count, 0, "Apia 2011-12-30 skipped");
    CHECK_EQ_I64(r.gap_end_utc, utc_s(2011, 12, 30, 10, 0, 0), "Apia gap end");
    CHECK_EQ_I64(r.off_before, -10 * 3600, "Apia before");
    CHECK_EQ_I64(r.off_after, 14 * 3600, "Apia after");
  } else {
    CHECK(0, "Apia: %s", err);
  }
  if (tzdb_get(db, "Asia/Kolkata", &z, err, sizeof err) == 0) {
    CHECK_EQ_I64(tz_offset_at(z, utc_s(2026, 1, 1, 0, 0, 0)), 19800, "Kolkata");
    CHECK_EQ_I64(tz_offset_at(z, utc_s(2080, 7, 1, 0, 0, 0)), 19800,
                 "Kolkata 2080");
    CHECK(tz_next_transition(z, utc_s(2000, 1, 1, 0, 0, 0)) == INT64_MAX,
          "Kolkata has no more transitions");
    CHECK_EQ_I64(tz_local_to_utc(z, utc_s(2026, 1, 1, 5, 30, 0)),
                 utc_s(2026, 1, 1, 0, 0, 0), "Kolkata local");
  } else {
    CHECK(0, "Kolkata: %s", err);
  }
}

/* ---- UTC ------------------------------------------------------------------ */

static void test_utc(void) {
  const tz_zone *z = tz_utc();
  tz_local r;
  CHECK_STR(tz_name(z), "UTC", "UTC name");
  CHECK_EQ_I64(tz_offset_at(z, 1234567890), 0, "UTC offset");
  CHECK(tz_next_transition(z, 0) == INT64_MAX, "UTC never changes");
  tz_local_lookup(z, 1234567890, &r);
  CHECK(r.count == 1 && r.utc[0] == 1234567890 && r.off_before == 0,
        "UTC local");
  CHECK_EQ_I64(tz_local_to_utc(z, -5), -5, "UTC local_to_utc");
  tz_free((tz_zone *)z); /* a no-op for the static zone */
  CHECK_EQ_I64(tz_offset_at(tz_utc(), 0), 0, "UTC survives tz_free");
}

/* ---- footer rules ----------------------------------------------------------- */

typedef struct footer_case {
  const char *rule;
  int64_t at;  /* UTC instant */
  int32_t off; /* expected offset at it */
} footer_case;

static void test_footer_rules(void) {
  static const footer_case cases[] = {
      {"EST5EDT,M3.2.0,M11.1.0", 1772953199 /* 2026-03-08T06:59:59Z */, -18000},
      {"EST5EDT,M3.2.0,M11.1.0", 1772953200, -14400},
      {"EST5EDT,M3.2.0,M11.1.0", 1793512799 /* 2026-11-01T05:59:59Z */, -14400},
      {"EST5EDT,M3.2.0,M11.1.0", 1793512800, -18000},
      {"<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1791041400 - 1, 37800},
      {"<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1791041400 /* 10-03 15:30Z */,
       39600},
      {"<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1775314800 - 1, 39600},
      {"<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 1775314800 /* 04-04 15:00Z */,
       37800},
      {"AEST-10AEDT,M10.1.0,M4.1.0/3",
       1775314800 - 1 /* 04-04 15:59:59Z */ + 3600, 39600},
      {"AEST-10AEDT,M10.1.0,M4.1.0/3", 1775314800 + 3600, 36000},
      /* J: day 60 is always March 1; n: day 59 is Feb 29 in leap years */
      {"AAA0BBB,J60/0,J300/0", 1709208000 /* 2024-02-29T12:00Z */, 0},
      {"AAA0BBB,J60/0,J300/0", 1709251200 /* 2024-03-01T00:00Z */, 3600},
      /* before day 60, a leap year changes nothing: J10 is January 10 */
      {"AAA0BBB,J10/0,J300/0", 1704844800 - 1 /* 2024-01-10T00:00Z */, 0},
      {"AAA0BBB,J10/0,J300/0", 1704844800, 3600},
      {"AAA0BBB,59/0,300/0", 1709164800 - 1 /* 2024-02-28T23:59:59Z */, 0},
      {"AAA0BBB,59/0,300/0", 1709164800 /* 2024-02-29T00:00Z */, 3600},
      {"AAA0BBB,59/0,300/0", 1677628800 - 1 /* 2023-02-28T23:59:59Z */, 0},
      {"AAA0BBB,59/0,300/0", 1677628800 /* 2023-03-01T00:00Z */, 3600},
      /* negative rule time: 2026-03-29 -1:00 at -2 = 2026-03-29T01:00Z */
      {"<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 1774746000 - 1, -7200},
      {"<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 1774746000, -3600},
      /* over 24h: 4th Thursday of March 2026 + 26h = 03-27 02:00 +2 */
      {"IST-2IDT,M3.4.4/26,M10.5.0", 1774569600 - 1 /* 2026-03-27T00:00Z */,
       7200},
      {"IST-2IDT,M3.4.4/26,M10.5.0", 1774569600, 10800},
      /* negative DST (std +1 in summer, GMT in winter) */
      {"IST-1GMT0,M10.5.0,M3.5.0/1", 1782907200 /* 2026-07-01T12:00Z */, 3600},
      {"IST-1GMT0,M10.5.0,M3.5.0/1", 1767268800 /* 2026-01-01T12:00Z */, 0},
      /* DST all year (RFC 8536 example form) */
      {"XXX3YYY,0/0,J365/25", 1767268800, -7200},
      {"XXX3YYY,0/0,J365/25", 1782907200, -7200},
      /* fixed */
      {"<+0530>-5:30", 1782907200, 19800},
      {"UTC0", 1782907200, 0},
      {"AAA+3", 1782907200, -10800}, /* an explicit '+': west, as 3 */
      {"<+0330>-3:30:15", 1782907200, 12615},
      {"<-0330>3:30", 1782907200, -12600},
      /* explicit DST offset and hh:mm:ss times */
      {"STD-1DST-3,M3.5.0/1:30:15,M10.5.0", 1774744215 - 1, 3600},
      {"STD-1DST-3,M3.5.0/1:30:15,M10.5.0",
       1774744215 /* 2026-03-29T00:30:15Z */, 10800},
  };
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char err[256];
    tz_zone *z = footer_zone(cases[k].rule, err, sizeof err);
    CHECK(z != NULL, "footer '%s': %s", cases[k].rule, err);
    if (!z) continue;
    CHECK(tz_offset_at(z, cases[k].at) == cases[k].off,
          "footer '%s' at %lld: got %ld, want %ld", cases[k].rule,
          (long long)cases[k].at, (long)tz_offset_at(z, cases[k].at),
          (long)cases[k].off);
    tz_free(z);
  }
}

static void test_footer_transitions(void) {
  char err[256];
  tz_zone *z = footer_zone("EST5EDT,M3.2.0,M11.1.0", err, sizeof err);
  int64_t t;
  int n = 0;
  if (!z) {
    CHECK(0, "EST5EDT: %s", err);
    return;
  }
  CHECK_EQ_I64(tz_next_transition(z, utc_s(2026, 1, 1, 0, 0, 0)), 1772953200,
               "first 2026 transition");
  CHECK_EQ_I64(tz_next_transition(z, 1772953200 - 1), 1772953200,
               "just before");
  CHECK_EQ_I64(tz_next_transition(z, 1772953200), 1793512800, "from it");
  for (t = utc_s(2000, 1, 1, 0, 0, 0); t < utc_s(3000, 1, 1, 0, 0, 0);
       t = tz_next_transition(z, t))
    n++;
  CHECK_EQ_I64(n - 1, 2000, "two transitions a year for 1000 years");
  CHECK_EQ_I64(tz_next_transition(z, utc_s(-5000, 1, 1, 0, 0, 0)) >
                   utc_s(-5000, 1, 1, 0, 0, 0),
               1, "rule works before year 1");
  tz_free(z);
  z = footer_zone("XXX3YYY,0/0,J365/25", err, sizeof err);
  if (z) {
    CHECK(tz_next_transition(z, 0) == INT64_MAX, "DST all year: no change");
    tz_free(z);
  }
  z = footer_zone("<+0530>-5:30", err, sizeof err);
  if (z) {
    tz_local r;
    CHECK(tz_next_transition(z, 0) == INT64_MAX, "fixed: no change");
    tz_local_lookup(z, 19800, &r);
    CHECK(r.count == 1 && r.utc[0] == 0, "fixed local");
    tz_free(z);
  }
  check_local_consistency(
      (z = footer_zone("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", err,
                       sizeof err)),
      "LH footer", utc_s(2030, 1, 1, 0, 0, 0), utc_s(2040, 1, 1, 0, 0, 0),
      1801);
  tz_free(z);
}

static void test_footer_errors(void) {
  static const char *const bad[] = {
      "XYZ",
      "EST5EDT",
      "EST5EDT,M13.1.0,M11.1.0",
      "EST5EDT,M3.6.0,M11.1.0",
      "EST5EDT,M3.2.7,M11.1.0",
      "EST5EDT,J0,J365",
      "EST5EDT,366,1",
      "EST25",
      "<AB>5",
      "<+05",
      "EST5EDT,M3.2.0",
      "EST5EDT,M3.2.0/168,M11.1.0",
      "EST5EDT,M3.2.0,M11.1.0x",
      "ES5",
      "EST5:60",
      "EST5:00:60",
      "EST",
      "EST5EDT,M3.2.0,M11.1.0/-168",
      "EST5EDT25,M3.2.0,M11.1.0",
      " EST5",
      "EST5 ",
  };
  size_t k;
  for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char err[256], want[256];
    tz_zone *z = footer_zone(bad[k], err, sizeof err);
    CHECK(z == NULL, "footer '%s' should be rejected", bad[k]);
    tz_free(z);
    snprintf(want, sizeof want, "TZif: footer: bad rule '%s'", bad[k]);
    CHECK_STR(err, want, bad[k]);
  }
  /* a long one is shown by its first 40 characters */
  char err[256];
  tz_zone *z = footer_zone("EST5EDT,M3.2.0,M11.1.0,M3.2.0,M11.1.0,M3.2.0", err,
                           sizeof err);
  CHECK(z == NULL, "a long bad footer");
  tz_free(z);
  CHECK_STR(err,
            "TZif: footer: bad rule 'EST5EDT,M3.2.0,M11.1.0,M3.2.0,M11.1.0,M3'",
            "cut at 40");
}

/* ---- corrupt and unusual files ------------------------------------------------ */

static void expect_reject(const unsigned char *buf, size_t len,
                          const char *message, const char *what) {
  tz_zone *z = (tz_zone *)1;
  char err[256] = "";
  int rc = tz_parse(buf, len, "t", &z, err, sizeof err);
  CHECK(rc == -1 && z == NULL, "%s: should be rejected", what);
  if (message) CHECK_STR(err, message, what);
}

static void test_corrupt(void) {
  unsigned char buf[4096], copy[4096];
  int64_t times[3] = {100, 200, 300};
  unsigned char idx[3] = {1, 0, 1};
  int32_t offs[2] = {0, 3600};
  tzif_spec s = {'2', 3, times, idx, 2, offs, "AAA0"};
  size_t n = build_tzif(buf, &s), k;
  tz_zone *z = NULL;
  char err[256];

  CHECK(tz_parse(buf, n, "ok", &z, err, sizeof err) == 0, "baseline: %s", err);
  if (z) {
    CHECK_EQ_I64(tz_offset_at(z, 150), 3600, "baseline offset");
    CHECK_EQ_I64(tz_offset_at(z, 99), 0, "before first: type 0");
    CHECK_EQ_I64(tz_offset_at(z, 1000), 0, "footer after the table");
    CHECK_EQ_I64(tz_next_transition(z, 0), 100, "baseline next");
    tz_free(z);
  }
  expect_reject(buf, 0, "TZif: truncated header", "empty");
  expect_reject(NULL, 0, "TZif: truncated header", "NULL");
  expect_reject(buf, 43, "TZif: truncated header", "43 bytes");
  memcpy(copy, buf, n);
  copy[3] = 'X';
  expect_reject(copy, n, "TZif: bad magic", "bad magic");
  memcpy(copy, buf, n);
  copy[4] = '5';
  expect_reject(copy, n, "TZif: unsupported version 0x35", "version 5");
  memcpy(copy, buf, n);
  put32(copy + 32, 0xffffffffu); /* timecnt of the v1 block */
  expect_reject(copy, n, "TZif: truncated data block", "huge timecnt");
  memcpy(copy, buf, n);
  put32(copy + 28, 0x10000000u); /* leapcnt */
  expect_reject(copy, n, "TZif: truncated data block", "huge leapcnt");
  memcpy(copy, buf, n);
  put32(copy + 36, 0); /* typecnt */
  expect_reject(copy, n, "TZif: inconsistent counts in header", "typecnt 0");
  memcpy(copy, buf, n);
  put32(copy + 20, 1); /* isutcnt != typecnt */
  expect_reject(copy, n, "TZif: inconsistent counts in header", "isutcnt");
  memcpy(copy, buf, n);
  put32(copy + 24, 1); /* isstdcnt != typecnt */
  expect_reject(copy, n, "TZif: inconsistent counts in header", "isstdcnt");
  memcpy(copy, buf, n);
  put32(copy + 40, 0); /* charcnt */
  expect_reject(copy, n, "TZif: inconsistent counts in header", "charcnt 0");
  /* no room for a message: still rejected */
  z = (tz_zone *)1;
  CHECK(tz_parse(copy, n, "t", &z, NULL, 0) == -1 && z == NULL, "no err");
  z = (tz_zone *)1;
  CHECK(tz_parse(copy, n, "t", &z, err, 0) == -1 && z == NULL, "errlen 0");
  /* a zone without a name is named "" */
  z = NULL;
  CHECK(tz_parse(buf, n, NULL, &z, err, sizeof err) == 0 && z &&
            strcmp(tz_name(z), "") == 0,
        "NULL name");
  tz_free(z);
  for (k = 0; k < n; k++) /* every strict prefix */
    expect_reject(buf, k, NULL, "prefix");
  {
    unsigned char idx_bad[3] = {1, 2, 1};
    tzif_spec t = s;
    t.idx = idx_bad;
    n = build_tzif(copy, &t);
    expect_reject(copy, n, "TZif: transition 1 has bad type 2", "bad type");
  }
  {
    int64_t desc[3] = {100, 100, 300};
    tzif_spec t = s;
    t.times = desc;
    n = build_tzif(copy, &t);
    expect_reject(copy, n, "TZif: transition times not ascending",
                  "equal times");
  }
  {
    int32_t big[2] = {0, 100000};
    tzif_spec t = s;
    t.offs = big;
    n = build_tzif(copy, &t);
    expect_reject(copy, n, "TZif: UT offset 100000 out of range", "big offset");
  }
  {
    tzif_spec t = s;
    n = build_tzif(copy, &t);
    expect_reject(copy, n - 1, "TZif: footer: missing final newline",
                  "footer without newline");
    copy[n - 6] = 'x'; /* the newline before the footer */
    expect_reject(copy, n, "TZif: footer: missing", "no footer");
  }
  {
    /* version 1: no footer, 32-bit times */
    tzif_spec t = s;
    t.version = 0;
    t.footer = NULL;
    n = build_tzif(copy, &t);
    CHECK(tz_parse(copy, n, "v1", &z, err, sizeof err) == 0, "v1: %s", err);
    if (z) {
      CHECK_EQ_I64(tz_offset_at(z, 400), 3600, "v1: last type after table");
      CHECK(tz_next_transition(z, 300) == INT64_MAX, "v1: no rule");
      tz_free(z);
    }
  }
  {
    /* versions 3 and 4 read like 2; empty footer means no rule */
    tzif_spec t = s;
    t.footer = "";
    t.version = '4';
    n = build_tzif(copy, &t);
    CHECK(tz_parse(copy, n, "v4", &z, err, sizeof err) == 0, "v4: %s", err);
    if (z) {
      CHECK_EQ_I64(tz_offset_at(z, 400), 3600, "v4 empty footer");
      tz_free(z);
    }
  }
}

/* Deterministic byte flips of a real fixture: never crash, lookups sane. */
static void test_mutations(void) {
  char path[1300];
  size_t len, k;
  unsigned char *orig, *buf;
  uint32_t seed = 12345;
  int parsed = 0;
  snprintf(path, sizeof path, "%s/fat/Fix/East", fixdir);
  orig = slurp(path, &len);
  if (!orig) {
    CHECK(0, "read %s", path);
    return;
  }
  buf = malloc(len);
  for (k = 0; k < 3000; k++) {
    tz_zone *z = NULL;
    char err[256];
    int flips, j;
    memcpy(buf, orig, len);
    seed = seed * 1103515245u + 12345u;
    flips = 1 + (int)(seed >> 28);
    for (j = 0; j < flips; j++) {
      seed = seed * 1103515245u + 12345u;
      buf[(seed >> 8) % len] = (unsigned char)(seed >> 3);
    }
    if (tz_parse(buf, len, "m", &z, err, sizeof err) == 0) {
      tz_local r;
      parsed++;
      tz_offset_at(z, 0);
      tz_next_transition(z, 0);
      tz_local_lookup(z, 1700000000, &r);
      tz_free(z);
    } else {
      CHECK(strncmp(err, "TZif: ", 6) == 0, "message: %s", err);
    }
  }
  CHECK(parsed > 0, "some mutations still parse (%d)", parsed);
  free(buf);
  free(orig);
}

/* ---- tzdb ------------------------------------------------------------------- */

static void expect_tzdb_error(tzdb *db, const char *name, const char *message) {
  const tz_zone *z = (const tz_zone *)1;
  char err[256] = "";
  CHECK(tzdb_get(db, name, &z, err, sizeof err) == -1 && z == NULL,
        "tzdb '%s' should fail", name);
  CHECK_STR(err, message, name);
}

static void test_tzdb(tzdb *db) {
  const tz_zone *a, *b;
  char err[256];
  static const char *const many[] = {
      "Europe/Paris",   "Europe/London",    "Asia/Tokyo",
      "Asia/Shanghai",  "Africa/Cairo",     "America/Chicago",
      "America/Denver", "America/Phoenix",  "Asia/Kathmandu",
      "Asia/Tehran",    "Pacific/Chatham",  "Pacific/Kiritimati",
      "Europe/Moscow",  "America/St_Johns", "Atlantic/Azores",
      "Etc/GMT+12",     "Etc/GMT-14",       "America/Argentina/Buenos_Aires"};
  size_t k;
  CHECK(tzdb_get(db, "America/New_York", &a, err, sizeof err) == 0, "%s", err);
  CHECK(tzdb_get(db, "America/New_York", &b, err, sizeof err) == 0 && a == b,
        "cache returns the same zone");
  CHECK(tzdb_get(db, "UTC", &b, err, sizeof err) == 0 && b == tz_utc(), "UTC");
  CHECK(tzdb_get(db, "Etc/UTC", &b, err, sizeof err) == 0 && b == tz_utc(),
        "Etc/UTC");
  CHECK(tzdb_get(db, "Z", &b, err, sizeof err) == 0 && b == tz_utc(), "Z");
  for (k = 0; k < sizeof many / sizeof many[0]; k++)
    CHECK(tzdb_get(db, many[k], &b, err, sizeof err) == 0, "%s: %s", many[k],
          err);
  CHECK(tzdb_get(db, "America/New_York", &b, err, sizeof err) == 0 && a == b,
        "same zone after the table grew");
  CHECK(tzdb_get(db, "Etc/GMT+12", &b, err, sizeof err) == 0 &&
            tz_offset_at(b, 0) == -12 * 3600,
        "Etc/GMT+12 is UTC-12");
  expect_tzdb_error(db, "../etc/passwd",
                    "invalid time zone name '../etc/passwd'");
  expect_tzdb_error(db, "/etc/passwd", "invalid time zone name '/etc/passwd'");
  expect_tzdb_error(db, "Mars/Olympus", "unknown time zone 'Mars/Olympus'");
  /* Files of the zoneinfo directory that depend on the machine. */
  expect_tzdb_error(db, "localtime",
                    "not an IANA time zone 'localtime': it names this "
                    "machine's setting; give an IANA name such as "
                    "Europe/Berlin");
  expect_tzdb_error(db, "posixrules",
                    "not an IANA time zone 'posixrules': it names this "
                    "machine's setting; give an IANA name such as "
                    "Europe/Berlin");
  expect_tzdb_error(db, "America/../../etc/passwd",
                    "invalid time zone name 'America/../../etc/passwd'");
  expect_tzdb_error(db, "", "invalid time zone name ''");
  expect_tzdb_error(db, "America//New_York",
                    "invalid time zone name 'America//New_York'; did you mean "
                    "'America/New_York'?");
  expect_tzdb_error(db, "America/New York",
                    "invalid time zone name 'America/New York'; did you mean "
                    "'America/New_York'?");
  expect_tzdb_error(db, "Europ/Berlin",
                    "unknown time zone 'Europ/Berlin'; did you mean "
                    "'Europe/Berlin'?");
  expect_tzdb_error(db, "Berlin",
                    "unknown time zone 'Berlin'; did you mean "
                    "'Europe/Berlin'?");
  expect_tzdb_error(db, "America/Sao_Paolo",
                    "unknown time zone 'America/Sao_Paolo'; did you mean "
                    "'America/Sao_Paulo'?");
  expect_tzdb_error(db, "Nowhere/Land", "unknown time zone 'Nowhere/Land'");
  expect_tzdb_error(db, "America/", "invalid time zone name 'America/'");
  expect_tzdb_error(db, "America", "unknown time zone 'America'");
  expect_tzdb_error(db, "zone1970.tab",
                    "invalid time zone name 'zone1970.tab'");
  expect_tzdb_error(db, "A\x01'B", "invalid time zone name 'A??B'");
  expect_tzdb_error(
      db, "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaz",
      "invalid time zone name "
      "'Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'");
  {
    /* any case finds the listed spelling, which is what is cached */
    static const char *const spelled[][2] = {
        {"europe/berlin", "Europe/Berlin"},
        {"EUROPE/BERLIN", "Europe/Berlin"},
        {"america/argentina/buenos_aires", "America/Argentina/Buenos_Aires"},
        {"etc/gmt+12", "Etc/GMT+12"},
        {"utc", "UTC"},
        {"Europe/Berlin", "Europe/Berlin"},
        /* the UTC family and links are their zone (docs/time.md#link-names) */
        {"Etc/UTC", "UTC"},
        {"etc/gmt", "UTC"},
        {"us/eastern", "America/New_York"}};
    const tz_zone *c1, *c2;
    const char *canon = NULL;
    for (k = 0; k < sizeof spelled / sizeof spelled[0]; k++) {
      CHECK(tzdb_lookup(db, spelled[k][0], &c1, &canon, err, sizeof err) == 0,
            "%s: %s", spelled[k][0], err);
      CHECK_STR(canon, spelled[k][1], spelled[k][0]);
      CHECK(tzdb_get(db, spelled[k][1], &c2, err, sizeof err) == 0 && c1 == c2,
            "%s: the same cached zone as %s", spelled[k][0], spelled[k][1]);
    }
    CHECK(tzdb_lookup(db, "utc", &c1, &canon, err, sizeof err) == 0 &&
              c1 == tz_utc(),
          "utc is UTC");
    canon = "x";
    CHECK(tzdb_lookup(db, "Mars/Olympus", &c1, &canon, err, sizeof err) == -1 &&
              canon == NULL && c1 == NULL,
          "unknown: no canonical name");
  }
  {
    const tz_zone *z = (const tz_zone *)1;
    CHECK(tzdb_get(db, NULL, &z, err, sizeof err) == -1 && z == NULL,
          "NULL name");
  }
}

static void test_tzdb_dir(void) {
  char dir[1100];
  tzdb *db;
  const tz_zone *z;
  char err[256];
  snprintf(dir, sizeof dir, "%s/fat", fixdir);
  db = tzdb_new(dir);
  CHECK(db != NULL, "tzdb_new(dir)");
  if (!db) return;
  CHECK(tzdb_get(db, "Fix/East", &z, err, sizeof err) == 0, "%s", err);
  expect_tzdb_error(db, "Fix/Bad",
                    "bad time zone file for 'Fix/Bad': TZif: truncated header");
  expect_tzdb_error(db, "America/New_York",
                    "unknown time zone 'America/New_York'");
  tzdb_free(db);
  /* $TZDIR is honoured when no directory is given */
  setenv("TZDIR", dir, 1);
  db = tzdb_new(NULL);
  unsetenv("TZDIR");
  CHECK(db != NULL, "tzdb_new(NULL)");
  if (!db) return;
  CHECK(tzdb_get(db, "Fix/Howe", &z, err, sizeof err) == 0 &&
            tz_offset_at(z, utc_s(2026, 7, 1, 0, 0, 0)) == 37800,
        "TZDIR zone: %s", err);
  tzdb_free(db);
}

/* The name list of a directory built for it: what is listed and what is
** left out, canonical spellings, suggestions, and tzdb using them. */
static void test_tzdb_names(void) {
  char dir[700], cmd[4096], err[256];
  snprintf(dir, sizeof dir, "%s/names", fixdir);
  snprintf(cmd, sizeof cmd,
           "d='%s' && z='%s/fat/Fix/East' && rm -rf \"$d\" && "
           "mkdir -p \"$d/Fix/Sub/Sub2\" \"$d/posix/Fix\" \"$d/right\" && "
           "cp \"$z\" \"$d/Fix/East\" && cp \"$z\" \"$d/Fix/Sub/Deep\" && "
           "cp \"$z\" \"$d/Fix/Sub/Sub2/TooDeep\" && "
           "cp \"$z\" \"$d/posix/Fix/East\" && cp \"$z\" \"$d/right/Other\" && "
           "cp \"$z\" \"$d/localtime\" && cp \"$z\" \"$d/posixrules\" && "
           "cp \"$z\" \"$d/Bad.Name\" && printf 'x' > \"$d/README\" && "
           "ln -s Fix/East \"$d/Link\" && ln -s . \"$d/Loop\" && "
           "ln -s Fix \"$d/DirLink\" && ln -s Gone \"$d/Dangling\"",
           dir, fixdir);
  if (system(cmd) != 0) {
    CHECK(0, "building %s failed", dir);
    return;
  }
  tzdb_names *n = tzdb_names_load(dir);
  CHECK(n != NULL, "tzdb_names_load");
  if (!n) return;
  CHECK_EQ_I64(tzdb_names_count(n), 3, "Fix/East, Fix/Sub/Deep, Link");
  CHECK_STR(tzdb_names_canonical(n, "fix/east"), "Fix/East", "fix/east");
  CHECK_STR(tzdb_names_canonical(n, "FIX/SUB/DEEP"), "Fix/Sub/Deep", "deep");
  CHECK_STR(tzdb_names_canonical(n, "link"), "Link", "a link to a file");
  static const char *const left_out[] = {
      "Fix/Sub/Sub2/TooDeep", "posix/Fix/East", "right/Other", "localtime",
      "posixrules",           "Bad.Name",       "README",      "Loop/Fix/East",
      "DirLink/East",         "Dangling",       "Fix",         ""};
  for (size_t k = 0; k < sizeof left_out / sizeof left_out[0]; k++)
    CHECK(tzdb_names_canonical(n, left_out[k]) == NULL, "%s is not listed",
          left_out[k]);
  CHECK_STR(tzdb_names_suggest(n, "Fix/Eats"), "Fix/East", "transposed");
  CHECK_STR(tzdb_names_suggest(n, "fix/sub/deeep"), "Fix/Sub/Deep", "one more");
  CHECK_STR(tzdb_names_suggest(n, "Deep"), "Fix/Sub/Deep", "last component");
  CHECK(tzdb_names_suggest(n, "Keep") == NULL, "short: first letter differs");
  CHECK(tzdb_names_suggest(n, "Lnk") == NULL, "3 bytes: never");
  CHECK(tzdb_names_suggest(n, "Mars/Olympus") == NULL, "nothing close");
  CHECK(tzdb_names_suggest(n, "Seep") == NULL, "component: first letter");
  tzdb_names_free(n);

  n = tzdb_names_load("/nonexistent/zoneinfo");
  CHECK(n != NULL && tzdb_names_count(n) == 0, "a missing folder: empty");
  CHECK(tzdb_names_canonical(n, "UTC") == NULL, "empty list");
  tzdb_names_free(n);

  tzdb *db = tzdb_new(dir);
  const tz_zone *a = NULL, *b = NULL;
  const char *canon = NULL;
  CHECK(db && tzdb_lookup(db, "fix/EAST", &a, &canon, err, sizeof err) == 0,
        "fix/EAST: %s", err);
  CHECK_STR(canon, "Fix/East", "canonical");
  CHECK(db && tzdb_get(db, "Fix/East", &b, err, sizeof err) == 0 && a == b,
        "cached once");
  if (db) {
    expect_tzdb_error(
        db, "Fix/Eastt",
        "unknown time zone 'Fix/Eastt'; did you mean 'Fix/East'?");
    /* not listed, but a file: the exact name still loads */
    CHECK(tzdb_get(db, "Fix/Sub/Sub2/TooDeep", &b, err, sizeof err) == 0,
          "exact name below the listed depth: %s", err);
    expect_tzdb_error(db, "fix/sub/sub2/toodeep",
                      "unknown time zone 'fix/sub/sub2/toodeep'");
  }
  tzdb_free(db);
}

int main(int argc, char **argv) {
  tzdb *db;
  (void)argc;
  test_utc();
  test_footer_rules();
  test_footer_transitions();
  test_footer_errors();
  test_corrupt();
  test_close_transitions();
  if (build_fixtures(argv[0]) != 0) {
    CHECK(0, "building fixtures with zic in %s failed", fixdir);
  } else {
    test_fixtures();
    test_fat_equals_slim();
    test_skipped_day();
    test_mutations();
    test_tzdb_dir();
    test_tzdb_names();
  }
  db = tzdb_new(NULL);
  CHECK(db != NULL, "tzdb_new");
  if (db) {
    test_tzdb(db);
    test_real_zones(db);
    test_new_york(db);
    test_lord_howe(db);
    test_apia_and_fixed(db);
    tzdb_free(db);
  }
  return check_report("tz");
}
