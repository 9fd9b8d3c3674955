/*
** log.c -- trigger-host's log lines on stderr, text or JSON (see log.h).
** Every line is built whole in a sqlite3_str (out.h) and written with one
** fputs, so lines never interleave. Times are UTC with milliseconds.
**
** When stderr is the journal (JOURNAL_STREAM names stderr's device and
** inode, as systemd sets it for a service), a text line is "<N>message":
** N the syslog priority journald stores for the line, without the
** program name and time journald records itself (docs/host.md#logs).
*/
#include "core/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/out.h"

static log_level threshold = LOG_INFO;
static int as_json = 0;
static int to_journal = 0; /* stderr is the journal: "<N>" prefixes */
static int one_shot = 0;   /* status, runs, events, the verbs: no time */

static const char *const level_names[] = {"debug", "info", "warn", "error",
                                          "fatal"};

/* syslog priorities of the levels: debug, info, warning, err, crit */
static const int journal_priority[] = {7, 6, 4, 3, 2};

/* A decimal number up to stop (the byte after it): 0, or -1. */
static int parse_ull(const char *p, char stop, const char **end,
                     unsigned long long *out) {
  char *e;
  if (*p < '0' || *p > '9') return -1;
  errno = 0;
  *out = strtoull(p, &e, 10);
  if (errno || *e != stop) return -1;
  *end = e;
  return 0;
}

int log_journal_stream(int fd, const char *journal_stream) {
  unsigned long long dev, ino;
  const char *p;
  struct stat st;
  if (!journal_stream || parse_ull(journal_stream, ':', &p, &dev) != 0 ||
      parse_ull(p + 1, '\0', &p, &ino) != 0)
    return 0;
  return fstat(fd, &st) == 0 && (unsigned long long)st.st_dev == dev &&
         (unsigned long long)st.st_ino == ino;
}

void log_setup(const host_opts *o) {
  as_json = o->log_json;
  to_journal = log_journal_stream(2, getenv("JOURNAL_STREAM"));
  one_shot = o->mode == MODE_STATUS || o->mode >= MODE_PAUSE;
  if (o->verbosity < 0) threshold = LOG_FATAL;
  else if (o->verbosity > 0) threshold = LOG_DEBUG;
  else
    threshold =
        o->mode == MODE_TICK || o->mode == MODE_MCP ? LOG_WARN : LOG_INFO;
}

int log_enabled(log_level lv) { return lv >= threshold; }

/* Start a line: the JSON object's ts, level and event, or the text
** prefix. */
static void line_begin(sqlite3_str *b, log_level lv, const char *event) {
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  char when[64];
  snprintf(when, sizeof when, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
           tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
           tm.tm_sec, ts.tv_nsec / 1000000L);
  if (as_json) {
    out_json_open(b, NULL, '{');
    out_json_str(b, "ts", when);
    out_json_str(b, "level", level_names[lv]);
    out_json_str(b, "event", event);
  } else if (to_journal) {
    sqlite3_str_appendf(b, "<%d>", journal_priority[lv]);
  } else if (one_shot) { /* a command's message, as systemctl's */
    sqlite3_str_appendall(b, "trigger-host: ");
  } else {
    sqlite3_str_appendf(b, "trigger-host: %s ", when);
  }
}

static atomic_long lines_written;

long log_lines(void) { return atomic_load(&lines_written); }

static void line_end(sqlite3_str *b) {
  if (as_json) out_json_close(b, '}');
  sqlite3_str_appendchar(b, 1, '\n');
  char *line = out_finish(b);
  fputs(line, stderr);
  fflush(stderr);
  atomic_fetch_add(&lines_written, 1);
  sqlite3_free(line);
}

static void vmessage(log_level lv, const char *fmt, va_list ap) {
  if (!log_enabled(lv)) return;
  char *msg = NULL;
  va_list cp;
  va_copy(cp, ap);
  int n = vsnprintf(NULL, 0, fmt, cp);
  va_end(cp);
  if (n < 0) return;
  msg = xmalloc((size_t)n + 1);
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  sqlite3_str *b = sqlite3_str_new(NULL);
  line_begin(b, lv, "message");
  if (as_json) out_json_str(b, "msg", msg);
  else out_line(b, msg);
  free(msg);
  line_end(b);
}

void log_debug(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(LOG_DEBUG, fmt, ap);
  va_end(ap);
}

void log_info(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(LOG_INFO, fmt, ap);
  va_end(ap);
}

void log_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(LOG_WARN, fmt, ap);
  va_end(ap);
}

void log_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage(LOG_FATAL, fmt, ap);
  va_end(ap);
}

static const char *mode_name(host_mode m) {
  switch (m) {
    case MODE_RUN: return "run";
    case MODE_SERVE: return "serve";
    case MODE_TICK: return "tick";
    case MODE_STATUS: return "status";
    case MODE_MCP: return "mcp";
    default: break; /* the one-shot commands log no start line */
  }
  return "?";
}

#define START_LIST_MAX 4 /* databases named in a text start line */

void log_start(const host_opts *o, const char *ext_version) {
  if (!log_enabled(LOG_INFO)) return;
  sqlite3_str *b = sqlite3_str_new(NULL);
  line_begin(b, LOG_INFO, "start");
  const char *ext = o->via ? "(via)" : o->extension;
  if (as_json) {
    out_json_str(b, "version", TRIGGERS_VERSION);
    out_json_str(b, "mode", mode_name(o->mode));
    out_json_open(b, "databases", '[');
    for (int i = 0; i < o->ndbs; i++) out_json_str(b, NULL, o->dbs[i]);
    out_json_close(b, ']');
    out_json_str(b, "extension", ext);
    out_json_str(b, "extension_version", ext_version);
    out_json_str(b, "dispatch",
                 o->exec_cmd ? o->exec_cmd
                 : o->sql    ? "sql"
                             : "print");
    out_json_int(b, "pid", (long long)getpid());
  } else {
    sqlite3_str_appendf(b, "trigger-host %s started: %s", TRIGGERS_VERSION,
                        mode_name(o->mode));
    if (o->ndbs > 1) sqlite3_str_appendf(b, " %d databases:", o->ndbs);
    for (int i = 0; i < o->ndbs && i < START_LIST_MAX; i++) {
      sqlite3_str_appendall(b, i ? ", " : " ");
      out_line(b, o->dbs[i]);
    }
    if (o->ndbs > START_LIST_MAX) sqlite3_str_appendall(b, ", ...");
    sqlite3_str_appendall(b, "; extension ");
    out_line(b, ext);
    sqlite3_str_appendf(b, " %s; ",
                        ext_version ? ext_version : "(version unknown)");
    if (o->exec_cmd) {
      sqlite3_str_appendall(b, "--exec '");
      out_line(b, o->exec_cmd);
      sqlite3_str_appendf(b, "', --jobs %d", o->jobs);
    } else if (o->sql) {
      sqlite3_str_appendf(b, "running SQL jobs (--sql-timeout %lld ms)",
                          o->sql_timeout_ms);
    } else {
      sqlite3_str_appendall(b, "printing runs on stdout");
    }
    if (o->via) {
      sqlite3_str_appendall(b, "; --via '");
      out_line(b, o->via);
      sqlite3_str_appendchar(b, 1, '\'');
    }
    sqlite3_str_appendf(b, "; pid %ld", (long)getpid());
  }
  line_end(b);
}

/* One line about run r: its reported status and error (or a refusal). */
static void run_line(log_level lv, const char *event, const char *db,
                     const host_run *r, const char *status, const char *error) {
  if (!log_enabled(lv)) return;
  sqlite3_str *b = sqlite3_str_new(NULL);
  line_begin(b, lv, event);
  if (as_json) {
    out_json_str(b, "db", db);
    out_json_str(b, "trigger_id", r->trigger_id);
    out_json_str(b, "run_id", r->run_id);
    out_json_int(b, "attempt", r->attempt);
    out_json_str(b, "status", status);
    out_json_str(b, "error", error);
  } else {
    out_line(b, db);
    sqlite3_str_appendall(b, ": run ");
    out_line(b, r->run_id);
    sqlite3_str_appendall(b, strcmp(event, "run") == 0 ? " " : ": report ");
    sqlite3_str_appendall(b, status);
    if (strcmp(event, "run") != 0) sqlite3_str_appendall(b, " refused");
    if (error) {
      sqlite3_str_appendall(b, ": ");
      out_line(b, error);
    }
  }
  line_end(b);
}

void log_run(const char *db, const host_run *r, const char *status,
             const char *detail) {
  int failed = strcmp(status, "failed") == 0;
  run_line(failed ? LOG_ERROR : LOG_DEBUG, "run", db, r, status,
           failed ? detail : NULL);
}

void log_refused(const char *db, const host_run *r, const char *status,
                 const char *why) {
  run_line(LOG_ERROR, "report_refused", db, r, status, why);
}

void log_stop(int runs, int failed) {
  if (!log_enabled(LOG_INFO)) return;
  sqlite3_str *b = sqlite3_str_new(NULL);
  line_begin(b, LOG_INFO, "stop");
  if (as_json) {
    out_json_int(b, "runs", runs);
    out_json_int(b, "failed", failed);
  } else {
    sqlite3_str_appendf(
        b, "trigger-host stopped: %d run(s) reported, %d failed", runs, failed);
  }
  line_end(b);
}
