/*
** run.h -- one run as trigger-host holds it from its claim (hostdb.h,
** an element of trigger_run_due's array) to its report (reports.h): what
** the log, the dispatcher and the commands read of it, and its lease.
*/
#ifndef HOST_RUN_H
#define HOST_RUN_H

#include <stdint.h>

typedef struct hostdb hostdb;

typedef struct host_run {
  hostdb *db; /* where it was claimed and must be reported */
  char *run_id;
  char *trigger_id;
  char *agent_id;
  char *wake_mode;
  char *element;    /* the element, JSON text (print mode's line) */
  char *payload;    /* its payload object, JSON text (--exec stdin) */
  char *action_sql; /* a SQL job's statements (--sql), else NULL */
  char *usage; /* its command's usage, a checked JSON object (usage_file.h),
                  reported with its outcome; else NULL */
  double usage_cost; /* its cost, when has_cost (/metrics) */
  int has_cost;
  long long scheduled_for;
  long long attempt;
  /* its lease as the host keeps it (lease.h), monotonic ms */
  int64_t claimed;   /* just before the claim's call: the lease starts in it */
  int64_t lease_end; /* the lease passes then (or earlier: never later) */
  int64_t renew_at;  /* next heartbeat; INT64_MAX: none (lease lost) */
  /* a cancel (trigger_run_cancel) looked for while its command runs */
  int64_t cancel_check_at; /* next look, monotonic ms; 0: not started */
  int cancel_asked;        /* seen: its command is being stopped */
} host_run;

/* Free r and its texts (NULL: nothing). */
void run_free(host_run *r);
/* Free n runs and their array (a claim's answer). */
void runs_free(host_run **runs, int n);

#endif
