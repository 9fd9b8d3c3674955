/*
** hostdb.h -- one database as trigger-host sees it: a connection with the
** extension loaded and the schema installed, and the five statements the
** loop needs (claim, parse the claimed runs, finish, next wakeup,
** data_version). Everything goes through the extension's SQL functions;
** the claimed JSON array is taken apart with SQLite's json_each.
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
} host_run;

struct hostdb {
  char *path;
  sqlite3 *db;
  const char *via; /* --via CMD, or NULL: a local file */
  char *options;   /* trigger_run_due options, JSON text */
  sqlite3_stmt *st_claim, *st_parse, *st_finish, *st_wakeup, *st_version;
  long long data_version;
  /* scheduling state, owned by loop.c */
  int64_t tick_at; /* monotonic ms of the next tick */
  int64_t idle_ms; /* backoff while overdue work is not ours */
  int64_t idle_until;
  int empty_due; /* empty ticks in a row while "due now" */
  int refresh;   /* recompute the wakeup (we changed the db) */
};

/* Open path, load the extension, install, prepare. 0 ok; else -1 and *err
** (free()). */
int hostdb_open(hostdb *h, const char *path, const host_opts *o, char **err);
void hostdb_close(hostdb *h);

/* Claim up to limit runs (0 = options' own limit). *runs is a malloc'ed
** array of *n runs (free each with run_free, then the array). */
int hostdb_claim(hostdb *h, long long limit, host_run ***runs, int *n,
                 char **err);
int hostdb_finish(hostdb *h, const char *run_id, const char *status,
                  const char *error, char **err);
/* ms until the earliest due work (0 if overdue), -1 when nothing is due. */
int hostdb_wakeup(hostdb *h, long long *ms, char **err);
/* 1 if another connection committed since the last call, 0 if not, -1 on
** error. */
int hostdb_changed(hostdb *h);

void run_free(host_run *r);

#endif
