/*
** zones.h -- the zone lookup shared by the C unit tests that need real
** IANA zones: `db` is the test program's tzdb (tzdb_new in main), and
** zone(name) returns UTC for "UTC" and fails the test (falling back to
** UTC) when the system zoneinfo lacks the name. Include after check.h.
*/
#ifndef TRIGGERS_TEST_ZONES_H
#define TRIGGERS_TEST_ZONES_H

#include "time/tz.h"
#include "time/tzdb.h"

static tzdb *db;

static const tz_zone *zone(const char *name) {
  const tz_zone *z = NULL;
  char err[200];
  if (strcmp(name, "UTC") == 0) return tz_utc();
  if (tzdb_get(db, name, &z, err, sizeof err)) {
    CHECK(0, "zone %s: %s", name, err);
    return tz_utc();
  }
  return z;
}

#endif
