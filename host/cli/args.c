/*
** args.c -- command-line parsing and the --help text of trigger-host
** (see args.h).
** getopt_long permutes, so flags may come before or after the mode and
** the databases. A directory argument of `serve` expands to its *.db
** files (sorted), scanned once at start.
*/
#include "cli/args.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "http/http_addr.h"

/* Where the Makefile installs the extension (from PREFIX), the same seen
** from the installed binary's directory ("" when not below PREFIX), and
** the platform's suffix for loadable objects. */
#ifndef TRIGGERS_EXTDIR
#define TRIGGERS_EXTDIR "/usr/local/lib/sqlite-triggers"
#endif
#ifndef TRIGGERS_EXTDIR_REL
#define TRIGGERS_EXTDIR_REL ""
#endif
#ifndef TRIGGERS_SO_SUFFIX
#define TRIGGERS_SO_SUFFIX ".so"
#endif

static const char usage_text[] =
    "usage: trigger-host run    [options] DB\n"
    "       trigger-host serve  [options] DB... | DIR\n"
    "       trigger-host tick   [options] DB...\n"
    "       trigger-host status [--json] DB\n"
    "       trigger-host mcp    [--agent ID --scope S --user U --role R\n"
    "                           --no-autonomy] DB\n"
    "       trigger-host --version | --help\n"
    "\n"
    "The reference host loop of sqlite-triggers. It opens each database\n"
    "(busy_timeout first, then journal_mode=WAL, then synchronous), loads the\n"
    "extension, runs trigger_install() (idempotent), claims due runs with\n"
    "trigger_run_due(), dispatches each one and reports it with\n"
    "trigger_run_finish(), many reports in one transaction (see Reports).\n"
    "\n"
    "Modes:\n"
    "  run DB      Local loop for one database. Sleeps until trigger_next_wakeup()\n"
    "              says something is due (at most 60 s when nothing is scheduled),\n"
    "              never on a fixed tick. Wakes early when another connection\n"
    "              changes the database: PRAGMA data_version is read every\n"
    "              --poll-ms (default 200 ms); on a change the wakeup is\n"
    "              recomputed. A trigger inserted by another process is therefore\n"
    "              seen within --poll-ms and fires at its due time (plus the time\n"
    "              of the tick itself); one already overdue fires within --poll-ms.\n"
    "              An idle host only reads data_version (and once a minute looks\n"
    "              for runs to prune): no write transaction.\n"
    "  serve DB... | DIR\n"
    "              The same loop for many databases in one process with one timer\n"
    "              (e.g. one database per agent); a DIR argument means every *.db\n"
    "              file in it, scanned at start. --jobs is shared by all of them.\n"
    "  tick DB...  One pass: claim what is due now, dispatch it, wait for it,\n"
    "              report, exit. For system cron or a serverless request handler.\n"
    "              With --exec it claims as slots free up until a claim finds\n"
    "              less than it asked for (it caught up with what is due).\n"
    "  status DB   What is scheduled, like `systemctl list-timers`: one line per\n"
    "              trigger, sorted by next due (NEXT, LEFT, LAST, STATUS, TRIGGER,\n"
    "              SCHEDULE; times in the trigger's own zone with their UTC\n"
    "              offset; triggers with nothing due last), then the failed runs\n"
    "              of the last 24 h (WHEN, TRIGGER, ATTEMPT, ERROR). STATUS is the\n"
    "              trigger's state when it is not scheduled (paused, completed,\n"
    "              cancelled, expired), else running, else its last run's status,\n"
    "              else scheduled. Opens the database read-only: writes nothing.\n"
    "              --json: the same as one JSON object.\n"
    "  mcp DB      A Model Context Protocol server on stdin/stdout (JSON-RPC 2.0,\n"
    "              one message per line of at most 1 MiB): tools create_trigger,\n"
    "              find_time, list_triggers, trigger_history, pause_trigger,\n"
    "              resume_trigger, cancel_trigger, describe_schedule, each one\n"
    "              call of the extension's SQL functions. They act for the\n"
    "              identity given here, never one a model names in its\n"
    "              arguments, and only on that agent's and scope's triggers:\n"
    "                --agent ID     agent_id (default '')\n"
    "                --scope S      scope (default '')\n"
    "                --user U       user_id, for the per-user quotas (default none)\n"
    "                --role R       owner, admin, user or agent (default agent; a\n"
    "                               create needs R in trigger_config('creator_roles'))\n"
    "                --no-autonomy  every create refused AUTONOMY_UNAVAILABLE\n"
    "              Ends on EOF, SIGTERM or SIGINT (exit 0). Logs on stderr only;\n"
    "              warnings by default, each call with -v. See docs/mcp.md.\n"
    "\n"
    "A database file that does not exist is an error (exit 2) unless --create\n"
    "is given (run, serve, tick): a mistyped path never makes a new database.\n"
    "Nor is anything written into a file that is not a SQLite database: an\n"
    "empty file (a database only with --create, which makes it one), a file\n"
    "without SQLite's header, a damaged one. run and tick exit 3 on it; serve\n"
    "logs it once (path and why), serves the others, and exits 3 when none is\n"
    "left.\n"
    "\n"
    "A database that cannot be written (a full disk, a read-only file, a lock\n"
    "held past --busy-timeout): run and serve try its claims again after 1 s,\n"
    "doubling to at most 5 s, and log the failure once, then once a minute.\n"
    "\n"
    "Dispatch:\n"
    "  (default)   Print each claimed run as one JSON line on stdout (the element\n"
    "              of trigger_run_due: run_id, trigger_id, agent_id, scheduled_for,\n"
    "              attempt, wake_mode, instructions, payload), recorded\n"
    "              'success' once the line is written. Where stdout cannot\n"
    "              block (a file, /dev/null, a pipe with room for the batch) a\n"
    "              batch is claimed with {\"ack\": false} in a transaction that\n"
    "              commits after its lines are written: one commit, no lease; a\n"
    "              crash before the commit leaves the runs due; a full pipe is\n"
    "              waited for with nothing claimed. Otherwise (a terminal, a\n"
    "              socket) each run is claimed with a lease and reported\n"
    "              'success' once its line is flushed.\n"
    "  --print-lease\n"
    "              Print mode always claims with a lease and reports (runs are\n"
    "              'running' until their line is out; for a pipe that another\n"
    "              process also writes to).\n"
    "  --exec CMD  Run CMD with /bin/sh -c for each run, in its own process group,\n"
    "              with the payload JSON (one line) on stdin.\n"
    "              Environment: TRIGGER_RUN_ID, TRIGGER_ID, TRIGGER_AGENT_ID,\n"
    "              TRIGGER_ATTEMPT, TRIGGER_SCHEDULED_FOR, TRIGGER_WAKE_MODE,\n"
    "              TRIGGER_DB. Exit 0 -> 'success', the last 4096 bytes of its\n"
    "              stdout as the run's result; otherwise 'failed' with the last\n"
    "              500 bytes of its stderr as the error (or \"exit status N\",\n"
    "              \"killed by signal N\" when stderr is empty); bytes that are\n"
    "              not UTF-8, and NULs, become U+FFFD.\n"
    "  --clean-env Give each command a minimal environment instead of the\n"
    "              host's: PATH=/usr/bin:/bin, HOME (the host's, else /),\n"
    "              LANG=C.UTF-8 and the TRIGGER_* variables, nothing else (no\n"
    "              secret of the host's environment leaks into a command).\n"
    "  --env NAME  With --clean-env: pass the host's NAME through as well\n"
    "              (repeatable; also overrides PATH, HOME or LANG; a NAME the\n"
    "              host does not have is left out).\n"
    "  --timeout SEC\n"
    "              Kill a command still running after SEC seconds (SIGKILL to its\n"
    "              process group) -> 'failed', error \"timeout after SEC s\".\n"
    "  --jobs N    At most N commands at once (default 4). A claim takes the\n"
    "              free slots and the runs --prefetch allows (print mode claims\n"
    "              a batch: printing is immediate).\n"
    "  --prefetch N\n"
    "              Claim up to N runs ahead of the free slots (default: --jobs;\n"
    "              0..1024), and only while the commands are short: as many as\n"
    "              the commands' mean run time says start within 20 ms. They\n"
    "              start in claim order as slots free up; a stop releases them\n"
    "              ('deferred').\n"
    "\n"
    "Leases: a running command's lease is renewed (trigger_run_heartbeat) every\n"
    "half lease, so a command may run longer than --lease-ms. A claimed run is\n"
    "never started or printed with less than a quarter of its lease left: it is\n"
    "reported 'deferred' instead (re-offered by the next tick, same run_id and\n"
    "attempt). If a renewal is refused (the run was reclaimed), the command goes\n"
    "on and its report is refused.\n"
    "\n"
    "Reports (--exec, and print mode's lease path; print mode in the claim's\n"
    "transaction writes none): the reports ready within --report-ms (or 256\n"
    "of them) are written in one transaction (BEGIN IMMEDIATE, a\n"
    "trigger_run_finish each, COMMIT); a refused report (e.g. its run was\n"
    "reclaimed) undoes only itself.\n"
    "Pending reports are also written in the transaction of the next claim\n"
    "from their database, and before exiting.\n"
    "A host killed with SIGKILL loses the reports not yet written (one window\n"
    "at most): their runs stay 'running' and are reclaimed after their lease.\n"
    "  --report-ms MS    how long a report may wait for others (0..1000,\n"
    "                    default 5; 0: written at the end of the loop pass)\n"
    "  --synchronous full|normal\n"
    "                    PRAGMA synchronous of the host's connections (default\n"
    "                    normal in WAL mode, else full). normal: a committed\n"
    "                    claim or report survives a crash of the host, but a\n"
    "                    power loss or OS crash may undo the last ones (a claim\n"
    "                    undone is claimed again: its run may execute twice).\n"
    "                    full: an fsync per commit, durable through power loss.\n"
    "\n"
    "Claim options (passed to trigger_run_due):\n"
    "  --owner NAME      claimant recorded in trigger_runs.owner\n"
    "                    (default trigger-host@HOSTNAME:PID)\n"
    "  --lease-ms MS     lease of a claimed run, renewed while its command runs; a\n"
    "                    run neither reported nor renewed within it (its host\n"
    "                    died) is reclaimed by the next tick (default 60000, or\n"
    "                    --timeout + 30 s when that is longer)\n"
    "  --wake-mode MODE  claim only runs of that wake_mode (inject_now or\n"
    "                    next_autonomy_cycle)\n"
    "  --limit N         claim at most N runs per tick (tick mode: per pass)\n"
    "  --agents a,b      claim only runs of these agent_ids\n"
    "\n"
    "Another SQLite engine (a dqlite cluster):\n"
    "  --via CMD   Open nothing: run every statement with /bin/sh -c 'CMD \"$1\"'\n"
    "              (the SQL as its last argument, TRIGGER_DB set to the DB\n"
    "              argument, which only names the database) and read the answer\n"
    "              from its stdout; a non-zero exit is a failed statement. For\n"
    "              dqlite: --via 'dqlite -s HOST:PORT,... \"$TRIGGER_DB\"', the\n"
    "              extension on every node (build/triggers-preload.so). One\n"
    "              process per statement; the wakeup is asked again every\n"
    "              --poll-ms (default 1000 here). A statement cut by a failover\n"
    "              fails: a claim whose answer was lost is reclaimed after its\n"
    "              lease, a report that failed leaves the run to its lease too.\n"
    "\n"
    "Status server (run and serve):\n"
    "  --http ADDR Serve a read-only status page at /, Prometheus metrics at\n"
    "              /metrics and trigger_health() as JSON at /health. ADDR is\n"
    "              PORT (on 127.0.0.1: this machine only), HOST:PORT or\n"
    "              [IPV6]:PORT; another interface, e.g. 0.0.0.0:PORT, must be\n"
    "              written out (no authentication: anyone who reaches it can\n"
    "              read the triggers). PORT 0 picks a free port (logged). It\n"
    "              reads through its own read-only connections, never delaying\n"
    "              a claim.\n"
    "  --http-conns N\n"
    "              At most N connections at once (default 64, 1..1024); more\n"
    "              wait in the listen backlog until one closes.\n"
    "  --http-conns-per-ip N\n"
    "              At most N of them from one client address (default 16,\n"
    "              1..1024); more are closed at once.\n"
    "  --http-timeout SEC\n"
    "              A request must arrive whole and its answer be sent within\n"
    "              SEC seconds of the connection's start or of its previous\n"
    "              request (default 10, 1..3600), else the connection is\n"
    "              closed: a client sending a header line now and then no\n"
    "              longer holds a connection.\n"
    "\n"
    "Other options:\n"
    "  --extension PATH  the extension to load (default: triggers" TRIGGERS_SO_SUFFIX
    " beside this\n"
    "                    binary, else in " TRIGGERS_EXTDIR "/)\n"
    "  --poll-ms MS      how often to read PRAGMA data_version (10..5000, default\n"
    "                    200; 1000 with --via): the bound on noticing another\n"
    "                    connection's change\n"
    "  --busy-timeout MS SQLite busy_timeout of every connection (default 5000)\n"
    "  --grace SEC       after SIGTERM/SIGINT, how long running commands may take\n"
    "                    before they are killed (default 10)\n"
    "  --create          create a database file that does not exist\n"
    "  --version         print trigger-host's version and, when the extension\n"
    "                    loads, its trigger_version()\n"
    "  --help, -h        this text\n"
    "\n"
    "Logging (stderr; stdout is print mode's):\n"
    "  (default)         run and serve: one line on start (version, mode,\n"
    "                    databases, extension and its version, dispatch), one\n"
    "                    per failed run, one on stop; tick: only failures.\n"
    "                    Warnings (a lease lost, a refused report) unless -q.\n"
    "  --verbose, -v     also every run, claim, lease renewal and wakeup\n"
    "  --quiet, -q       only errors that stop the host (exit 3)\n"
    "  --log json        one JSON object per line: ts, level (debug, info, warn,\n"
    "                    error, fatal), event (start, run, report_refused, stop,\n"
    "                    message); run lines carry db, trigger_id, run_id,\n"
    "                    attempt, status, error; others msg (or their fields)\n"
    "  --log text        \"trigger-host: 2026-03-09T06:15:00.012Z message\" (default)\n"
    "\n"
    "Retention: run and serve delete finished runs older than\n"
    "trigger_config('run_retention_ms') (default 30 days; 0 keeps them all) with\n"
    "trigger_prune(before, 100): at most 100 rows per transaction (a few ms\n"
    "of write lock), the next batch 20 ms later while there are more, a new\n"
    "round once a minute; and events (trigger_events) older than\n"
    "trigger_config('event_retention_ms') (default 7 days) the same way.\n"
    "tick does not prune.\n"
    "\n"
    "Signals: SIGTERM or SIGINT stops claiming, lets running commands finish\n"
    "(killing them after --grace; a second signal kills at once; killed runs\n"
    "are reported 'failed'), releases claimed runs not yet started ('deferred',\n"
    "re-offered at the next tick), reports everything and exits 0. A host killed\n"
    "with SIGKILL leaves its runs 'running'; the next tick after their lease\n"
    "reclaims them.\n"
    "\n"
    "When filtered by --agents or --wake-mode, trigger_next_wakeup() also sees\n"
    "runs this host does not claim; if it reports something overdue that the\n"
    "filtered claim does not return, the host backs off (--poll-ms doubling, at\n"
    "most 1 s) instead of spinning.\n"
    "\n"
    "Exit status:\n"
    "  0  success; for run/serve: stopped by SIGTERM/SIGINT\n"
    "  1  tick: at least one dispatched run failed, or a report was refused\n"
    "  2  usage error, or a database file that does not exist (no --create)\n"
    "  3  database or extension error (open, load, install, claim), stdout\n"
    "     closed in print mode, or --http cannot listen\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("trigger-host: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\n(see trigger-host --help)\n", stderr);
  return 2;
}

static int parse_ll(const char *s, long long lo, long long hi, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static int parse_seconds(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v > 0) || v > 86400.0 * 366) return -1;
  *out = v;
  return 0;
}

static void add_db(host_opts *o, const char *path) {
  o->dbs = xrealloc(o->dbs, sizeof(char *) * (size_t)(o->ndbs + 1));
  o->dbs[o->ndbs++] = xstrdup(path);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular *.db file of dir, sorted. Returns how many were added. */
static int add_dir(host_opts *o, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int first = o->ndbs;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 3, ".db") != 0) continue;
    char *p = xprintf("%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) add_db(o, p);
    free(p);
  }
  closedir(d);
  /* none found: o->dbs may still be NULL, which qsort must not be given */
  if (o->ndbs > first)
    qsort(o->dbs + first, (size_t)(o->ndbs - first), sizeof(char *), cmp_str);
  return o->ndbs - first;
}

/* The extension without its suffix (SQLite adds it), the first present
** of: triggers beside this executable (the build tree), then the install
** directory relative to it (an installed tree wherever it was copied or
** staged), then the install directory compiled in. None present: the
** compiled-in one, so the load error names where `make install` puts it. */
static char *default_extension(const char *argv0) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = 0;
  } else {
    snprintf(buf, sizeof buf, "%s", argv0);
  }
  const char *dir = dirname(buf);
  char *cand[3] = {xprintf("%s/triggers", dir), NULL,
                   xstrdup(TRIGGERS_EXTDIR "/triggers")};
  if (TRIGGERS_EXTDIR_REL[0])
    cand[1] = xprintf("%s/%s/triggers", dir, TRIGGERS_EXTDIR_REL);
  int pick = 2;
  for (int i = 0; i < 3; i++) {
    if (!cand[i]) continue;
    char *file = xprintf("%s%s", cand[i], TRIGGERS_SO_SUFFIX);
    int found = access(file, R_OK) == 0;
    free(file);
    if (found) {
      pick = i;
      break;
    }
  }
  for (int i = 0; i < 3; i++)
    if (i != pick) free(cand[i]);
  return cand[pick];
}

static char *default_owner(void) {
  char host[256];
  if (gethostname(host, sizeof host) != 0)
    snprintf(host, sizeof host, "localhost");
  host[sizeof host - 1] = 0;
  return xprintf("trigger-host@%s:%ld", host, (long)getpid());
}

enum {
  O_EXT = 256,
  O_EXEC,
  O_TIMEOUT,
  O_JOBS,
  O_OWNER,
  O_LEASE,
  O_WAKE,
  O_LIMIT,
  O_AGENTS,
  O_POLL,
  O_BUSY,
  O_GRACE,
  O_CLEAN_ENV,
  O_ENV,
  O_VIA,
  O_LOG,
  O_CREATE,
  O_VERSION,
  O_JSON,
  O_HTTP,
  O_SYNC,
  O_REPORT_MS,
  O_PRINT_LEASE,
  O_PREFETCH,
  O_HTTP_CONNS,
  O_HTTP_PER_IP,
  O_HTTP_TIMEOUT,
  O_AGENT,
  O_SCOPE,
  O_USER,
  O_ROLE,
  O_NO_AUTONOMY
};

static const struct option long_opts[] = {
    {"extension", required_argument, 0, O_EXT},
    {"exec", required_argument, 0, O_EXEC},
    {"timeout", required_argument, 0, O_TIMEOUT},
    {"jobs", required_argument, 0, O_JOBS},
    {"prefetch", required_argument, 0, O_PREFETCH},
    {"owner", required_argument, 0, O_OWNER},
    {"lease-ms", required_argument, 0, O_LEASE},
    {"wake-mode", required_argument, 0, O_WAKE},
    {"limit", required_argument, 0, O_LIMIT},
    {"agents", required_argument, 0, O_AGENTS},
    {"poll-ms", required_argument, 0, O_POLL},
    {"busy-timeout", required_argument, 0, O_BUSY},
    {"grace", required_argument, 0, O_GRACE},
    {"clean-env", no_argument, 0, O_CLEAN_ENV},
    {"env", required_argument, 0, O_ENV},
    {"via", required_argument, 0, O_VIA},
    {"log", required_argument, 0, O_LOG},
    {"create", no_argument, 0, O_CREATE},
    {"version", no_argument, 0, O_VERSION},
    {"json", no_argument, 0, O_JSON},
    {"quiet", no_argument, 0, 'q'},
    {"http", required_argument, 0, O_HTTP},
    {"http-conns", required_argument, 0, O_HTTP_CONNS},
    {"http-conns-per-ip", required_argument, 0, O_HTTP_PER_IP},
    {"http-timeout", required_argument, 0, O_HTTP_TIMEOUT},
    {"synchronous", required_argument, 0, O_SYNC},
    {"report-ms", required_argument, 0, O_REPORT_MS},
    {"print-lease", no_argument, 0, O_PRINT_LEASE},
    {"agent", required_argument, 0, O_AGENT},
    {"scope", required_argument, 0, O_SCOPE},
    {"user", required_argument, 0, O_USER},
    {"role", required_argument, 0, O_ROLE},
    {"no-autonomy", no_argument, 0, O_NO_AUTONOMY},
    {"verbose", no_argument, 0, 'v'},
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0},
};

static const char *const msg_secs = "%s: not a positive number of seconds";

/* A variable name: letters, digits and '_', not starting with a digit. */
static int env_name_valid(const char *s) {
  if (!*s || (*s >= '0' && *s <= '9')) return 0;
  for (; *s; s++) {
    int ok = (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
             (*s >= '0' && *s <= '9') || *s == '_';
    if (!ok) return 0;
  }
  return 1;
}

/* A numeric flag into *out; -1 ok, else 2 (reported). */
static int num_flag(const char *flag, const char *arg, long long lo,
                    long long hi, long long *out) {
  if (parse_ll(arg, lo, hi, out) == 0) return -1;
  fprintf(stderr, "trigger-host: %s %s: expected %lld..%lld\n", flag, arg, lo,
          hi);
  return 2;
}

/* One flag. Returns -1 to go on, else an exit status. */
static int apply_flag(host_opts *o, int c, const char *arg) {
  long long v = 0;
  double secs = 0;
  int rc = -1;
  switch (c) {
    case O_EXT:
      free(o->extension);
      o->extension = xstrdup(arg);
      break;
    case O_EXEC: o->exec_cmd = arg; break;
    case O_OWNER:
      free(o->owner);
      o->owner = xstrdup(arg);
      break;
    case O_AGENTS: o->agents = arg; break;
    case O_CLEAN_ENV: o->clean_env = 1; break;
    case O_ENV:
      if (!env_name_valid(arg))
        return usage_error("--env %s: not a variable name (letters, digits, "
                           "_; not starting with a digit)",
                           arg);
      o->env_pass =
          xrealloc(o->env_pass, sizeof(char *) * (size_t)(o->nenv_pass + 1));
      o->env_pass[o->nenv_pass++] = arg;
      break;
    case O_VIA: o->via = arg; break;
    case O_AGENT: o->agent_id = arg; break;
    case O_SCOPE: o->scope = arg; break;
    case O_USER: o->user_id = arg; break;
    case O_ROLE:
      if (strcmp(arg, "owner") != 0 && strcmp(arg, "admin") != 0 &&
          strcmp(arg, "user") != 0 && strcmp(arg, "agent") != 0)
        return usage_error("--role: expected owner, admin, user or agent, "
                           "not %s",
                           arg);
      o->role = arg;
      break;
    case O_NO_AUTONOMY: o->no_autonomy = 1; break;
    case O_HTTP: o->http = arg; break;
    case O_TIMEOUT:
      if (parse_seconds(arg, &secs)) return usage_error(msg_secs, "--timeout");
      o->timeout_s = secs;
      o->timeout_ms = (long long)(secs * 1000.0 + 0.5);
      break;
    case O_GRACE:
      if (parse_seconds(arg, &secs)) return usage_error(msg_secs, "--grace");
      o->grace_ms = (long long)(secs * 1000.0 + 0.5);
      break;
    case O_JOBS:
      if ((rc = num_flag("--jobs", arg, 1, 1024, &v)) < 0) o->jobs = (int)v;
      break;
    case O_PREFETCH:
      if ((rc = num_flag("--prefetch", arg, 0, 1024, &v)) < 0)
        o->prefetch = (int)v;
      break;
    case O_LEASE:
      if ((rc = num_flag("--lease-ms", arg, 1, 366LL * 86400000, &v)) < 0)
        o->lease_ms = v;
      break;
    case O_LIMIT:
      if ((rc = num_flag("--limit", arg, 1, 1000000000, &v)) < 0) o->limit = v;
      break;
    case O_POLL:
      if ((rc = num_flag("--poll-ms", arg, 10, 5000, &v)) < 0)
        o->poll_ms = (int)v;
      break;
    case O_BUSY:
      if ((rc = num_flag("--busy-timeout", arg, 0, 3600000, &v)) < 0)
        o->busy_ms = (int)v;
      break;
    case O_REPORT_MS:
      if ((rc = num_flag("--report-ms", arg, 0, 1000, &v)) < 0)
        o->report_ms = (int)v;
      break;
    case O_PRINT_LEASE: o->print_lease = 1; break;
    case O_HTTP_CONNS:
      if ((rc = num_flag("--http-conns", arg, 1, 1024, &v)) < 0)
        o->http_conns = (int)v;
      break;
    case O_HTTP_PER_IP:
      if ((rc = num_flag("--http-conns-per-ip", arg, 1, 1024, &v)) < 0)
        o->http_per_ip = (int)v;
      break;
    case O_HTTP_TIMEOUT:
      if ((rc = num_flag("--http-timeout", arg, 1, 3600, &v)) < 0)
        o->http_timeout_s = (int)v;
      break;
    case O_SYNC:
      if (strcmp(arg, "full") == 0) o->synchronous = SYNC_FULL;
      else if (strcmp(arg, "normal") == 0) o->synchronous = SYNC_NORMAL;
      else
        return usage_error("--synchronous: expected full or normal, not %s",
                           arg);
      break;
    case O_WAKE:
      if (strcmp(arg, "inject_now") != 0 &&
          strcmp(arg, "next_autonomy_cycle") != 0)
        return usage_error(
            "--wake-mode: expected inject_now or next_autonomy_cycle, not %s",
            arg);
      o->wake_mode = arg;
      break;
    case 'v': o->verbosity = 1; break;
    case 'q': o->verbosity = -1; break;
    case O_LOG:
      if (strcmp(arg, "json") != 0 && strcmp(arg, "text") != 0)
        return usage_error("--log: expected text or json, not %s", arg);
      o->log_json = strcmp(arg, "json") == 0;
      break;
    case O_CREATE: o->create = 1; break;
    case O_JSON: o->json = 1; break;
    case O_VERSION: o->version = 1; break;
    case 'h': fputs(usage_text, stdout); return 0;
    default: return usage_error("%s", "unknown option");
  }
  return rc;
}

/* A database argument that names no file: an error unless --create (a
** mistyped path must not become a new, empty database). With --via the
** argument only names the database on the far side. */
static int check_exists(const host_opts *o, const char *path) {
  struct stat st;
  if (o->via || stat(path, &st) == 0) return -1;
  if (errno != ENOENT) {
    fprintf(stderr, "trigger-host: %s: %s\n", path, strerror(errno));
    return 2;
  }
  if (o->create && o->mode != MODE_STATUS) return -1;
  fprintf(stderr, "trigger-host: %s: no such database file%s\n", path,
          o->mode == MODE_STATUS ? "" : " (--create creates it)");
  return 2;
}

/* mcp's identity flags belong to mcp alone, and mcp serves a local
** database file with no command to run; its role defaults to agent. -1
** to go on, else 2 (reported). */
static int check_mcp(host_opts *o) {
  int identity =
      o->agent_id || o->scope || o->user_id || o->role || o->no_autonomy;
  if (o->mode != MODE_MCP)
    return identity ? usage_error("%s", "--agent, --scope, --user, --role "
                                        "and --no-autonomy are options of mcp")
                    : -1;
  if (o->via || o->exec_cmd || o->http)
    return usage_error("%s", "mcp serves a local database file: no --via, "
                             "--exec or --http");
  if (!o->agent_id) o->agent_id = "";
  if (!o->scope) o->scope = "";
  if (!o->role) o->role = "agent";
  return -1;
}

/* The mode word and the database arguments. */
static int parse_positional(host_opts *o, int n, char **args) {
  const char *modes = "run, serve, tick, status or mcp";
  if (n < 1) return usage_error("missing mode (%s)", modes);
  const char *m = args[0];
  if (strcmp(m, "run") == 0) o->mode = MODE_RUN;
  else if (strcmp(m, "serve") == 0) o->mode = MODE_SERVE;
  else if (strcmp(m, "tick") == 0) o->mode = MODE_TICK;
  else if (strcmp(m, "status") == 0) o->mode = MODE_STATUS;
  else if (strcmp(m, "mcp") == 0) o->mode = MODE_MCP;
  else {
    fprintf(stderr,
            "trigger-host: unknown mode '%s' (%s)\n"
            "(see trigger-host --help)\n",
            m, modes);
    return 2;
  }
  if (n < 2) return usage_error("%s: missing database", m);
  if (o->mode == MODE_RUN && n > 2) {
    return usage_error("%s", "run takes one database (use serve for several)");
  }
  if ((o->mode == MODE_STATUS || o->mode == MODE_MCP) && n > 2)
    return usage_error("%s takes one database", m);
  for (int i = 1; i < n; i++) {
    struct stat st;
    if (o->mode == MODE_SERVE && stat(args[i], &st) == 0 &&
        S_ISDIR(st.st_mode)) {
      if (add_dir(o, args[i]) <= 0)
        return usage_error("no *.db file in %s", args[i]);
    } else {
      add_db(o, args[i]); /* checked after the flags (args_parse) */
    }
  }
  return -1;
}

int args_parse(host_opts *o, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  o->jobs = 4;
  o->prefetch = -1; /* --jobs */
  o->poll_ms = 0;   /* 200, or 1000 with --via */
  o->max_sleep_ms = 60000;
  o->grace_ms = 10000;
  o->busy_ms = 5000;
  o->report_ms = 5;
  int c;
  opterr = 1;
  while ((c = getopt_long(argc, argv, "vqh", long_opts, NULL)) != -1) {
    int rc = apply_flag(o, c, optarg);
    if (rc >= 0) return rc;
  }
  if (o->version) { /* main() prints the versions: nothing else is read */
    if (!o->extension) o->extension = default_extension(argv[0]);
    return -1;
  }
  int rc = parse_positional(o, argc - optind, argv + optind);
  if (rc >= 0) return rc;
  if (!o->poll_ms) o->poll_ms = o->via ? 1000 : 200;
  if (!o->extension) o->extension = default_extension(argv[0]);
  if (o->mode == MODE_STATUS && o->via)
    return usage_error("%s", "status reads a local database file (no --via)");
  if (o->json && o->mode != MODE_STATUS)
    return usage_error("%s", "--json is an option of status (for the log: "
                             "--log json)");
  if (!o->owner) o->owner = default_owner();
  if (!o->lease_ms) { /* the extension's default, or --timeout + 30 s */
    o->lease_ms = o->timeout_ms + 30000 > 60000 ? o->timeout_ms + 30000 : 60000;
  }
  if (o->timeout_ms && !o->exec_cmd)
    return usage_error("%s", "--timeout needs --exec");
  if (o->synchronous != SYNC_DEFAULT && o->via)
    return usage_error("%s", "--synchronous is for a local database, not "
                             "--via (the far side's engine decides)");
  if (o->clean_env && !o->exec_cmd)
    return usage_error("%s", "--clean-env needs --exec");
  if (o->prefetch >= 0 && !o->exec_cmd)
    return usage_error("%s", "--prefetch needs --exec (print mode claims a "
                             "batch)");
  if (o->prefetch < 0) o->prefetch = o->jobs;
  if (o->http) { /* the syntax now; the address is bound at start */
    http_addr a;
    char *err = NULL;
    if (o->mode == MODE_TICK || o->via)
      return usage_error("%s", o->via ? "--http cannot be used with --via (it "
                                        "reads the database files)"
                                      : "--http is for run and serve");
    if (http_addr_parse(o->http, &a, &err) != 0) {
      rc = usage_error("%s", err);
      free(err);
      return rc;
    }
  }
  if ((o->http_conns || o->http_per_ip || o->http_timeout_s) && !o->http)
    return usage_error("%s", "--http-conns, --http-conns-per-ip and "
                             "--http-timeout need --http");
  if (!o->http_conns) o->http_conns = 64;
  if (!o->http_per_ip) o->http_per_ip = 16;
  if (!o->http_timeout_s) o->http_timeout_s = 10;
  if ((rc = check_mcp(o)) >= 0) return rc;
  if (o->nenv_pass && !o->clean_env)
    return usage_error("%s", "--env needs --clean-env (without it the "
                             "command gets the host's whole environment)");
  /* a usage error is reported before a missing file */
  for (int i = 0; i < o->ndbs; i++) {
    rc = check_exists(o, o->dbs[i]);
    if (rc >= 0) return rc;
  }
  return -1;
}

void args_free(host_opts *o) {
  for (int i = 0; i < o->ndbs; i++) free(o->dbs[i]);
  free(o->dbs);
  free(o->env_pass);
  free(o->extension);
  free(o->owner);
}
