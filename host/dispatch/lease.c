/*
** lease.c -- renewing and checking the lease of a claimed run (see
** lease.h). One write transaction per renewal, every half lease per
** running command: a 60 s lease costs one heartbeat per command per 30 s.
*/
#include "dispatch/lease.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "core/log.h"
#include "core/util.h"
#include "db/hostdb.h"

#define BUSY_RETRY_MAX_MS 1000

/* The lease length the run was claimed with (its hostdb's). */
static int64_t lease_len(const host_run *r) { return r->db->lease_ms; }

void lease_start(host_run *r) {
  r->lease_end = r->claimed + lease_len(r);
  r->renew_at = r->claimed + lease_len(r) / 2;
}

int64_t lease_start_deadline(const host_run *r) {
  return r->lease_end - lease_len(r) / 4;
}

int lease_startable(const host_run *r, int64_t now) {
  return now < lease_start_deadline(r);
}

void lease_renew(host_run *r, int64_t now) {
  if (now < r->renew_at) return;
  int code = SQLITE_OK;
  char *err = NULL;
  int64_t len = lease_len(r);
  int cancel = 0;
  if (hostdb_heartbeat_cancel(r->db, r->run_id, &cancel, &code, &err) == 0) {
    if (cancel) r->cancel_asked = 1; /* the heartbeat's answer says so */
    r->lease_end = now + len;        /* now was read before the call */
    r->renew_at = now + len / 2;
    log_debug("%s: renewed the lease of %s for %lld ms", r->db->path, r->run_id,
              (long long)len);
    return;
  }
  if ((code == SQLITE_BUSY || code == SQLITE_LOCKED) && now < r->lease_end) {
    int64_t retry = len / 10;
    if (retry > BUSY_RETRY_MAX_MS) retry = BUSY_RETRY_MAX_MS;
    r->renew_at = now + retry + 1;
    log_warn("%s; trying again in %lld ms", err,
             (long long)(r->renew_at - now));
  } else {
    r->renew_at = INT64_MAX;
    log_warn("%s; the command goes on without a lease", err);
  }
  free(err);
}
