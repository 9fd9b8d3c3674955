/*
** test_tzdb_links.c -- the link table of tzdata.zi (ext/time/tzdb_links.c)
** and its use by the zone directory (ext/time/tzdb.c): "L" lines read,
** everything else ignored, names checked, chains followed, loops refused,
** the UTC family as "UTC"; a directory with a tzdata.zi looks link names up
** as their zones, one without keeps them; the system's file read as a
** whole, and Etc/GMT's offsets equal UTC's (why GMT is "UTC").
*/
#include "time/tz.h"
#include "time/tzdb.h"
#include "time/tzdb_links.h"

#include <stdlib.h>

#include "check.h"
#include "tzif_fixed.h"

static tzdb_links *parse(const char *text) {
  return tzdb_links_parse(text, strlen(text));
}

static void test_parse(void) {
  tzdb_links *l = parse(
      "# version x\n"
      "R d 1916 o - Jun 14 23s 1 S\n"
      "Z Europe/Berlin 0:53:28 - LMT 1893 Ap\n"
      "L America/New_York US/Eastern\n"
      "L\tAsia/Kolkata\t Asia/Calcutta \r\n"
      "L Etc/UTC UTC\n"
      "L Etc/UTC Zulu # comment\n"
      "L Etc/GMT GMT\n"
      "L GMT Fix/Chain\n"              /* a link to a link */
      "L Fix/B Fix/A\nL Fix/A Fix/B\n" /* a loop */
      "L America/New_York\n"           /* one name */
      "L A B C\n"                      /* three */
      "L ../etc/passwd Bad/Dots\n"     /* not a zone name */
      "L Europe/Berlin Bad Name\n"
      "LL Europe/Berlin Bad/Kind\n"
      "L Europe/Paris US/Eastern\n" /* the same link again: the first wins */
      "L Asia/Tokyo Japan");        /* no newline at the end */
  CHECK(l != NULL, "parsed");
  CHECK_EQ_I64(tzdb_links_count(l), 9, "links kept");
  CHECK_STR(tzdb_links_zone(l, "US/Eastern"), "America/New_York", "US/Eastern");
  CHECK_STR(tzdb_links_zone(l, "Asia/Calcutta"), "Asia/Kolkata", "tabs, CR");
  CHECK_STR(tzdb_links_zone(l, "UTC"), "UTC", "UTC");
  CHECK_STR(tzdb_links_zone(l, "Zulu"), "UTC", "a comment after");
  CHECK_STR(tzdb_links_zone(l, "GMT"), "UTC", "GMT");
  CHECK_STR(tzdb_links_zone(l, "Fix/Chain"), "UTC", "a chain");
  CHECK_STR(tzdb_links_zone(l, "Japan"), "Asia/Tokyo", "the last line");
  CHECK(tzdb_links_zone(l, "Fix/A") == NULL, "a loop");
  CHECK(tzdb_links_zone(l, "us/eastern") == NULL, "exact case only");
  CHECK(tzdb_links_zone(l, "America/New_York") == NULL, "a zone is no link");
  CHECK(tzdb_links_zone(l, "Bad/Dots") == NULL, "not a zone name");
  CHECK(tzdb_links_zone(l, "Bad/Kind") == NULL, "not an L line");
  CHECK(tzdb_links_zone(l, "C") == NULL && tzdb_links_zone(l, "B") == NULL,
        "three names");
  CHECK(tzdb_links_is_utc("Etc/UTC") && tzdb_links_is_utc("Etc/GMT") &&
            !tzdb_links_is_utc("Etc/GMT+1") && !tzdb_links_is_utc("UTC"),
        "is_utc");
  tzdb_links_free(l);
  l = tzdb_links_parse("", 0);
  CHECK(l && tzdb_links_count(l) == 0, "empty");
  tzdb_links_free(l);
  tzdb_links_free(NULL);
  CHECK(tzdb_links_zone(NULL, "UTC") == NULL, "no table");
  CHECK_EQ_I64(tzdb_links_count(NULL), 0, "count of none");
  /* bytes past len are not read; a NUL inside is only a byte */
  static const char cut[] = "L Asia/Tokyo Japan\nL Asia/Tokyo Nippon";
  l = tzdb_links_parse(cut, 19);
  CHECK(l && tzdb_links_count(l) == 1 && !tzdb_links_zone(l, "Nippon"), "len");
  tzdb_links_free(l);
  static const char nul[] = "L Asia/Tokyo Ja\0pan\nL Asia/Tokyo Nippon\n";
  l = tzdb_links_parse(nul, sizeof nul - 1);
  CHECK(l && tzdb_links_count(l) == 1 && tzdb_links_zone(l, "Nippon"), "NUL");
  tzdb_links_free(l);
}

static void write_file(const char *path, const void *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(bytes, 1, n, f) == n, "writing %s", path);
  if (f) fclose(f);
}

/* tzdb over a directory: Fix/Three and its link Fix/Link (files both),
** with and without tzdata.zi. */
static void test_directory(const char *argv0) {
  char dir[1024], path[1200], cmd[2600];
  const char *slash = strrchr(argv0, '/');
  snprintf(dir, sizeof dir, "%.*s/tzlinkfix", slash ? (int)(slash - argv0) : 1,
           slash ? argv0 : ".");
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/Fix'", dir, dir);
  CHECK(system(cmd) == 0, "%s", cmd);
  snprintf(path, sizeof path, "%s/Fix/Three", dir);
  write_file(path, tzif_plus3, sizeof tzif_plus3);
  snprintf(path, sizeof path, "%s/Fix/Link", dir);
  write_file(path, tzif_plus3, sizeof tzif_plus3);
  const tz_zone *z;
  const char *canon;
  char err[200];
  for (int with = 0; with < 2; with++) {
    tzdb *db = tzdb_new(dir);
    CHECK(db != NULL, "tzdb_new");
    CHECK_EQ_I64(tzdb_has_links(db), with, "has links");
    CHECK(tzdb_lookup(db, "fix/link", &z, &canon, err, sizeof err) == 0, "%s",
          err);
    CHECK_STR(canon, with ? "Fix/Three" : "Fix/Link", "fix/link");
    CHECK_STR(tz_name(z), canon, "the zone's name");
    CHECK(tzdb_lookup(db, "Fix/Gmt", &z, &canon, err, sizeof err) == with - 1,
          "Fix/Gmt");
    if (with) CHECK(z == tz_utc() && strcmp(canon, "UTC") == 0, "Fix/Gmt");
    CHECK(tzdb_lookup(db, "Fix/Lost", &z, &canon, err, sizeof err) == with - 1,
          "a link to a missing zone: its own file");
    tzdb_free(db);
    static const char zi[] = "L Fix/Three Fix/Link\nL Etc/GMT Fix/Gmt\n"
                             "L Fix/Nowhere Fix/Lost\n";
    snprintf(path, sizeof path, "%s/tzdata.zi", dir);
    write_file(path, zi, sizeof zi - 1);
    snprintf(path, sizeof path, "%s/Fix/Lost", dir);
    write_file(path, tzif_plus3, sizeof tzif_plus3);
  }
  /* the UTC names without a file, with or without links */
  tzdb *db = tzdb_new(dir);
  static const char *const utc[] = {"UTC", "Z", "Etc/UTC", "Etc/GMT"};
  for (size_t k = 0; db && k < sizeof utc / sizeof utc[0]; k++) {
    CHECK(tzdb_lookup(db, utc[k], &z, &canon, err, sizeof err) == 0 &&
              z == tz_utc() && strcmp(canon, "UTC") == 0,
          "%s", utc[k]);
  }
  tzdb_free(db);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0, "%s", cmd);
}

/* The system's tzdata.zi (when installed): all its links kept, the ones
** the docs name, and Etc/GMT offset 0 at every transition-free instant. */
static void test_system(void) {
  tzdb *db = tzdb_new("/usr/share/zoneinfo");
  const tz_zone *z;
  const char *canon;
  char err[200];
  if (!db || !tzdb_has_links(db)) {
    printf(
        "tzdb_links: no /usr/share/zoneinfo/tzdata.zi, system part skipped\n");
    tzdb_free(db);
    return;
  }
  static const char *const pairs[][2] = {{"US/Eastern", "America/New_York"},
                                         {"Asia/Calcutta", "Asia/Kolkata"},
                                         {"Zulu", "UTC"},
                                         {"Etc/Universal", "UTC"},
                                         {"Greenwich", "UTC"},
                                         {"GMT-0", "UTC"},
                                         {"Japan", "Asia/Tokyo"},
                                         {"Europe/Berlin", "Europe/Berlin"}};
  for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
    CHECK(tzdb_lookup(db, pairs[k][0], &z, &canon, err, sizeof err) == 0, "%s",
          err);
    CHECK_STR(canon, pairs[k][1], pairs[k][0]);
  }
  tzdb_free(db);
  /* Etc/GMT's own file: offset 0, no transition, as UTC */
  FILE *f = fopen("/usr/share/zoneinfo/Etc/GMT", "rb");
  unsigned char buf[4096];
  size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
  if (f) fclose(f);
  tz_zone *gmt = NULL;
  CHECK(n > 0 && tz_parse(buf, n, "Etc/GMT", &gmt, err, sizeof err) == 0,
        "Etc/GMT: %s", err);
  if (gmt) {
    static const int64_t at[] = {-2208988800LL, 0, 1700000000, 4102444800LL};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
      CHECK_EQ_I64(tz_offset_at(gmt, at[k]), 0, "Etc/GMT offset");
    CHECK(tz_next_transition(gmt, -2208988800LL) == INT64_MAX, "no transition");
    tz_free(gmt);
  }
}

int main(int argc, char **argv) {
  (void)argc;
  test_parse();
  test_directory(argv[0]);
  test_system();
  return check_report("tzdb_links");
}
