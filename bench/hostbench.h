/*
** hostbench.h -- what the trigger-host rows share (host_print.c,
** host_exec.c, host_latency.c): the wall clock (the host has no `now`: it
** claims at the real time, so its data sets are due at real instants), a
** database of interval triggers due at chosen wall-clock instants, and
** starting build/trigger-host with its stdout a pipe.
**
** The host is $TRIGGER_HOST (bench/run.sh sets it), else
** build/trigger-host; the extension is $TRIGGERS_EXT (bench.h).
*/
#ifndef BENCH_HOSTBENCH_H
#define BENCH_HOSTBENCH_H

#include <stdio.h>
#include <sys/types.h>

#include "bench.h"

/* CLOCK_REALTIME in milliseconds, with the microseconds as a fraction. */
double hb_wall_ms(void);

/*
** A fresh database at path (WAL checkpointed, so bench_copy_file can copy
** it): n interval triggers "h000000".. with interval_ms, trigger i first
** due at first_due + i * step_us / 1000 (wall-clock ms), each due once
** until then + interval_ms. Instructions of 64 bytes.
*/
void hb_build_due(const char *path, int n, i64 first_due, i64 step_us,
                  i64 interval_ms);

/* n triggers all due now, each once: due over the last minute, one day
** apart (the print and exec rows' template). */
void hb_build_all_due(const char *path, int n);

/* A row's files in WORKDIR: NAME_tmpl.db, NAME.db (the copy worked on),
** NAME.err (the host's stderr). */
typedef struct hb_files {
  char tmpl[4096], work[4096], err[4096];
} hb_files;
void hb_files_in(hb_files *f, const char *dir, const char *name);

/* Start the host with args (NULL-terminated, after the program name) and
** the extension; its stdout is *out (a pipe, read it), its stderr goes to
** errpath. Returns the pid. */
pid_t hb_start_host(const char *const *args, FILE **out, const char *errpath);
/* Wait for pid; dies unless it exited with status 0. */
void hb_wait_ok(pid_t pid, const char *what, const char *errpath);
/* Count the runs of path in status (a fresh connection). */
i64 hb_count_status(const char *path, const char *status);

#endif
