/*
** hostdb.h -- one database as trigger-host sees it: a connection with the
** extension loaded and the schema installed, and the six statements the
** loop needs (claim, parse the claimed runs, finish, heartbeat, next
** wakeup, data_version). Everything goes through the extension's SQL
** functions; the claimed JSON array is taken apart with SQLite's json_each.
**
** With --via CMD the database is elsewhere (a dqlite cluster): the
** connection is a local :memory: one without the extension, whose claim,
** finish and wakeup statements write the text of the statement CMD runs
** (format('%Q') quotes every value); json_each still parses the answer
** here. data_version cannot be read there, so every poll asks the wakeup.
*/
#ifndef HOST_HOSTDB_H
#define HOST_HOSTDB_H

#include <sqlite3.h>
#include <stdint.h>

#include "opts.h"

typedef struct hostdb hostdb;

/* One claimed run (an element of trigger_run_due's array). */
typedef struct host_run {
  hostdb *db; /* where it was claimed and must be reported */
  char *run_id;
  char *trigger_id;
  char *agent_id;
  char *wake_mode;
  char *element; /* the element, JSON text (print mode's line) */
  char *payload; /* its payload object, JSON text (--exec stdin) */
  long long scheduled_for;
  long long attempt;
  /* its lease as the host keeps it (lease.h), monotonic ms */
  int64_t lease_end; /* the lease passes then (or earlier: never later) */
  int64_t renew_at;  /* next heartbeat; INT64_MAX: none (lease lost) */
} host_run;

struct hostdb {
  char *path;
  sqlite3 *db;
  const char *via; /* --via CMD, or NULL: a local file */
  char *options;   /* trigger_run_due options, JSON text */
  sqlite3_stmt *st_claim, *st_parse, *st_finish, *st_heartbeat, *st_wakeup,
      *st_version;
  long long data_version;
  /* scheduling state, owned by loop.c */
  int64_t tick_at; /* monotonic ms of the next tick */
  int64_t idle_ms; /* backoff while overdue work is not ours */
  int64_t idle_until;
  int empty_due; /* empty ticks in a row while "due now" */
  int refresh;   /* recompute the wakeup (we changed the db) */

  long long lease_ms;     /* the lease claimed and renewed (lease.h) */
  long long pass_claimed; /* tick mode: runs claimed by this pass */
};

/* Open path, load the extension, install, prepare. 0 ok; else -1 and *err
** (free()). */
int hostdb_open(hostdb *h, const char *path, const host_opts *o, char **err);
void hostdb_close(hostdb *h);
/* Load the extension ext into db, loading enabled for that call only. 0
** ok; else -1 and *err (free()). */
int hostdb_load_extension(sqlite3 *db, const char *ext, char **err);

/* Claim up to limit runs (0 = options' own limit). *runs is a malloc'ed
** array of *n runs (free each with run_free, then the array). */
int hostdb_claim(hostdb *h, long long limit, host_run ***runs, int *n,
                 char **err);
/* trigger_run_finish(run_id, status, detail): detail is a failure's error
** or another run's result (NULL: none). */
int hostdb_finish(hostdb *h, const char *run_id, const char *status,
                  const char *detail, char **err);
/* Renew run_id's lease by lease_ms (trigger_run_heartbeat). 0 ok; else
** -1, *err (free()) and *code the SQLite error code (SQLITE_BUSY: the
** database was busy; SQLITE_ERROR: refused, the run is no longer ours). */
int hostdb_heartbeat(hostdb *h, const char *run_id, int *code, char **err);
/* ms until the earliest due work (0 if overdue), -1 when nothing is due. */
int hostdb_wakeup(hostdb *h, long long *ms, char **err);
/* 1 if another connection committed since the last call, 0 if not, -1 on
** error. */
int hostdb_changed(hostdb *h);

void run_free(host_run *r);

#endif
