/*
** log.h -- what trigger-host tells its operator, on stderr (stdout is
** print mode's). Each line is one event with a level:
**
**   fatal  the host cannot go on (it exits 3): always, even with -q
**   error  a run failed, a report was refused
**   warn   something the operator should look at (a lease lost, ...)
**   info   start and stop of run and serve
**   debug  every run, claim, renewal, wakeup (-v)
**
** Shown by default: info and above for run and serve, warn and above for
** tick (a tick from system cron prints nothing when all went well, so cron
** mails only failures); -v shows everything, -q only fatal.
**
** --log text (default): "trigger-host: 2026-03-09T06:15:00.012Z message"
** ("trigger-host: message" from a one-shot command: status, runs, events,
** pause, resume, cancel, fire).
** When stderr is the journal (JOURNAL_STREAM), a text line is
** "<N>message", N the level's syslog priority (2 fatal .. 7 debug).
** --log json: one JSON object per line with the stable keys ts, level,
** event and, by event: start (version, extension, extension_version,
** mode, databases, dispatch, pid), run (db, trigger_id, run_id, attempt,
** status, error), stop (runs, failed), message (msg).
*/
#ifndef HOST_LOG_H
#define HOST_LOG_H

#include "core/opts.h"
#include "core/run.h"
#include "core/util.h"

typedef enum { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_FATAL } log_level;

/* From the parsed options: the threshold (mode, -q, -v) and --log. */
void log_setup(const host_opts *o);
int log_enabled(log_level lv);

/* A message; the name says when it shows: log_debug with -v, log_info
** as the start line does, log_warn unless -q, log_fatal always (a fatal
** error). */
void log_debug(const char *fmt, ...) HOST_FORMAT(1, 2);
void log_info(const char *fmt, ...) HOST_FORMAT(1, 2);
void log_warn(const char *fmt, ...) HOST_FORMAT(1, 2);
void log_fatal(const char *fmt, ...) HOST_FORMAT(1, 2);

/* The start line: version, mode, databases, extension (and its
** trigger_version(), NULL when unknown), dispatch. */
void log_start(const host_opts *o, const char *ext_version);
/* A reported run of the database db (its path): 'failed' at level error,
** anything else at debug. detail: a failure's error. */
void log_run(const char *db, const host_run *r, const char *status,
             const char *detail);
/* A report the database refused (level error). */
void log_refused(const char *db, const host_run *r, const char *status,
                 const char *why);
/* The stop line: runs reported, how many failed. */
void log_stop(int runs, int failed);
/* 1 when fd is the stream journal_stream ("DEV:INO", systemd's
** JOURNAL_STREAM) names, else 0 (also for NULL or a malformed value). */
int log_journal_stream(int fd, const char *journal_stream);
/* How many lines the log has written to stderr so far (any thread). */
long log_lines(void);

#endif
