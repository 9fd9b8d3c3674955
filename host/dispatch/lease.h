/*
** lease.h -- a claimed run's lease as trigger-host keeps it. The database
** sets lease_until = now + lease_ms inside trigger_run_due (and
** trigger_run_heartbeat); the host counts on its monotonic clock from just
** before that call, so its lease_end is never later than the database's.
**
** The rules: a running command's lease is renewed at half the lease
** (trigger_run_heartbeat with the host's --lease-ms), again half a lease
** after each renewal; a claimed run is started (or printed) only while
** more than a quarter of its lease is left, otherwise it is reported
** 'deferred' and re-offered by the next tick, same run_id and attempt.
** A renewal the database refuses (the run is no longer running, or its
** lease passed and the next tick may reclaim it) ends the renewals: the
** command goes on, and its report is refused if the run was reclaimed.
** A busy database is tried again a tenth of a lease later (at most 1 s).
*/
#ifndef HOST_LEASE_H
#define HOST_LEASE_H

#include <stdint.h>

#include "core/run.h"

/* Start the lease of a run just claimed (at r->claimed, with its hostdb's
** lease_ms). */
void lease_start(host_run *r);
/* 1 when r may be started (or printed) now, 0 when it must be deferred. */
int lease_startable(const host_run *r, int64_t now);
/* The time from which lease_startable(r) is 0. */
int64_t lease_start_deadline(const host_run *r);
/* Renew r's lease if its renewal is due at now (a running command); an
** answer that says its cancel was asked for sets r->cancel_asked. */
void lease_renew(host_run *r, int64_t now);

#endif
