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

#include "cli/status.h"
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

/* --help: the modes and the flags most used; every flag, the environment
** and the exit codes are in the man page (docs/trigger-host.1). */
static const char usage_text[] =
    "usage: trigger-host run    [options] DB\n"
    "       trigger-host serve  [options] DB... | DIR\n"
    "       trigger-host tick   [options] DB...\n"
    "       trigger-host status [--json] [--all | --limit N] [--agent ID]\n"
    "                           [--scope SCOPE] [--status STATE] DB\n"
    "       trigger-host mcp    [--agent ID --scope S --user U --role R\n"
    "                           --no-autonomy] DB\n"
    "       trigger-host VERB   [--json] DB ID | signal [--json] DB KEY [JSON]\n"
    "       trigger-host runs|events [--json] [--since T] [--limit N] DB [ID]\n"
    "       trigger-host --version | --help\n"
    "\n"
    "Claims the due runs of sqlite-triggers databases, runs them, reports.\n"
    "  run DB        the loop for one database, sleeping until the next due run\n"
    "  serve DB|DIR  the same for many databases (every *.db of DIR), one timer\n"
    "  tick DB       one pass: claim what is due, run it, report, exit\n"
    "  status DB     the next 50 triggers, the failed runs of the last 24 h\n"
    "  mcp DB        a Model Context Protocol server on stdin/stdout (docs/mcp.md)\n"
    "  VERB DB ID    pause, resume, cancel, fire a trigger; retry, cancel-run a run\n"
    "  signal DB KEY make KEY's event triggers due\n"
    "  runs, events  the run history, the lifecycle events, newest first\n"
    "\n"
    "Common options:\n"
    "  --exec CMD       run CMD (/bin/sh -c) per run, the payload on stdin\n"
    "                   (default: print each run as a JSON line on stdout)\n"
    "  --jobs N         at most N commands at once (default 4)\n"
    "  --timeout SEC    kill a command after SEC seconds\n"
    "  --agents a,b     claim only these agents' runs\n"
    "  --sql            run SQL jobs (action_sql), each job in one transaction\n"
    "  --http ADDR      status page, /metrics and /health on ADDR (PORT: local)\n"
    "  --http-token-file FILE  the page's actions for FILE's token (mode 600)\n"
    "  --create         create a database file that does not exist\n"
    "  --extension PATH the extension (default: triggers" TRIGGERS_SO_SUFFIX
    " beside this\n"
    "                   binary, else in " TRIGGERS_EXTDIR "/)\n"
    "  -v, -q           more, less log (--log json: JSON lines)\n"
    "\n"
    "Every option, the environment, systemd and the exit status:\n"
    "man trigger-host (docs/trigger-host.1), and docs/host.md.\n";

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
  O_NO_AUTONOMY,
  O_ALL,
  O_STATE,
  O_SQL,
  O_SQL_TIMEOUT,
  O_SINCE,
  O_HTTP_TOKEN
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
    {"http-token-file", required_argument, 0, O_HTTP_TOKEN},
    {"synchronous", required_argument, 0, O_SYNC},
    {"report-ms", required_argument, 0, O_REPORT_MS},
    {"print-lease", no_argument, 0, O_PRINT_LEASE},
    {"agent", required_argument, 0, O_AGENT},
    {"scope", required_argument, 0, O_SCOPE},
    {"user", required_argument, 0, O_USER},
    {"role", required_argument, 0, O_ROLE},
    {"no-autonomy", no_argument, 0, O_NO_AUTONOMY},
    {"all", no_argument, 0, O_ALL},
    {"status", required_argument, 0, O_STATE},
    {"sql", no_argument, 0, O_SQL},
    {"sql-timeout", required_argument, 0, O_SQL_TIMEOUT},
    {"since", required_argument, 0, O_SINCE},
    {"verbose", no_argument, 0, 'v'},
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0},
};

static const char *const msg_secs = "%s: not a positive number of seconds";

/* --sql: SQL jobs, no command
** (docs/sql-jobs.md#running-jobs-trigger-host---sql). */
static int check_sql(host_opts *o) {
  if (o->sql_timeout_ms && !o->sql)
    return usage_error("%s", "--sql-timeout needs --sql");
  if (!o->sql) return -1;
  if (o->mode != MODE_RUN && o->mode != MODE_SERVE && o->mode != MODE_TICK)
    return usage_error("%s", "--sql is for run, serve and tick");
  if (o->exec_cmd)
    return usage_error("%s", "--sql runs SQL jobs only: run the commands "
                             "(--exec) with another host");
  if (!o->sql_timeout_ms) o->sql_timeout_ms = 60000;
  return -1;
}

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
    case O_HTTP_TOKEN: o->http_token_file = arg; break;
    case O_TIMEOUT:
      if (parse_seconds(arg, &secs)) return usage_error(msg_secs, "--timeout");
      o->timeout_s = secs;
      o->timeout_ms = (long long)(secs * 1000.0 + 0.5);
      break;
    case O_SQL: o->sql = 1; break;
    case O_SQL_TIMEOUT:
      if (parse_seconds(arg, &secs))
        return usage_error(msg_secs, "--sql-timeout");
      o->sql_timeout_ms = (long long)(secs * 1000.0 + 0.5);
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
    case O_ALL: o->all = 1; break;
    case O_STATE:
      if (!status_state_valid(arg))
        return usage_error("--status: expected scheduled, paused, completed, "
                           "cancelled or expired, not %s",
                           arg);
      o->state = arg;
      break;
    case O_SINCE: o->since = arg; break;
    case O_VERSION: o->version = 1; break;
    case 'h': fputs(usage_text, stdout); return 0;
    default: return usage_error("%s", "unknown option");
  }
  return rc;
}

/* The one-shot commands that read or change one database: no loop. */
static int one_shot(host_mode m) { return m == MODE_STATUS || m >= MODE_PAUSE; }

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
  if (o->create && !one_shot(o->mode)) return -1;
  fprintf(stderr, "trigger-host: %s: no such database file%s\n", path,
          one_shot(o->mode) ? "" : " (--create creates it)");
  return 2;
}

/* mcp's identity flags belong to mcp alone, and mcp serves a local
** database file with no command to run; its role defaults to agent. -1
** to go on, else 2 (reported). */
static int check_mcp(host_opts *o) {
  if (o->mode != MODE_MCP && o->mode != MODE_STATUS &&
      (o->agent_id || o->scope))
    return usage_error("%s", "--agent and --scope are options of mcp and "
                             "status (claims: --agents)");
  int identity = o->user_id || o->role || o->no_autonomy;
  if (o->mode != MODE_MCP)
    return identity ? usage_error("%s", "--user, --role and --no-autonomy "
                                        "are options of mcp")
                    : -1;
  if (o->via || o->exec_cmd || o->http)
    return usage_error("%s", "mcp serves a local database file: no --via, "
                             "--exec or --http");
  if (!o->agent_id) o->agent_id = "";
  if (!o->scope) o->scope = "";
  if (!o->role) o->role = "agent";
  return -1;
}

/* The mode words, and how many arguments each takes after the mode: a
** database and, for the verbs, a TRIGGER_ID (runs, events: optional). */
static const struct mode_word {
  const char *word;
  host_mode mode;
  int min_args, max_args; /* max 0: any number */
} mode_words[] = {
    {"run", MODE_RUN, 1, 1},
    {"serve", MODE_SERVE, 1, 0},
    {"tick", MODE_TICK, 1, 0},
    {"status", MODE_STATUS, 1, 1},
    {"mcp", MODE_MCP, 1, 1},
    {"pause", MODE_PAUSE, 2, 2},
    {"resume", MODE_RESUME, 2, 2},
    {"cancel", MODE_CANCEL, 2, 2},
    {"fire", MODE_FIRE, 2, 2},
    {"retry", MODE_RETRY, 2, 2},
    {"cancel-run", MODE_CANCEL_RUN, 2, 2},
    {"signal", MODE_SIGNAL, 2, 3},
    {"runs", MODE_RUNS, 1, 2},
    {"events", MODE_EVENTS, 1, 2},
};
#define NMODE_WORDS (int)(sizeof mode_words / sizeof mode_words[0])

static const char modes_list[] =
    "run, serve, tick, status, mcp, pause, resume, cancel, fire, retry, "
    "cancel-run, signal, runs or events";

static const struct mode_word *mode_word_of(host_mode m) {
  for (int i = 0; i < NMODE_WORDS; i++)
    if (mode_words[i].mode == m) return &mode_words[i];
  return &mode_words[0];
}

/* How many arguments m takes, for its usage error. */
static int count_error(const struct mode_word *w, int n) {
  if (n < 1) return usage_error("%s: missing database", w->word);
  if (w->mode == MODE_RUN)
    return usage_error("%s", "run takes one database (use serve for several)");
  const char *what = w->mode == MODE_SIGNAL ? "KEY"
                     : w->mode == MODE_RETRY || w->mode == MODE_CANCEL_RUN
                         ? "RUN_ID"
                         : "TRIGGER_ID";
  if (w->min_args == 2 && n < 2)
    return usage_error(w->mode == MODE_SIGNAL
                           ? "%s: missing KEY (DB KEY [JSON])"
                       : w->mode == MODE_RETRY || w->mode == MODE_CANCEL_RUN
                           ? "%s: missing RUN_ID (DB RUN_ID)"
                           : "%s: missing TRIGGER_ID (DB TRIGGER_ID)",
                       w->word);
  if (w->mode == MODE_SIGNAL)
    return usage_error("%s takes a database, a KEY and at most a JSON",
                       w->word);
  if (w->max_args == 2 && w->min_args == 2) {
    fprintf(stderr,
            "trigger-host: %s takes a database and a %s\n(see "
            "trigger-host --help)\n",
            w->word, what);
    return 2;
  }
  if (w->max_args == 2)
    return usage_error("%s takes a database and at most one TRIGGER_ID",
                       w->word);
  return usage_error("%s takes one database", w->word);
}

/* The mode word and the database arguments. */
static int parse_positional(host_opts *o, int n, char **args) {
  if (n < 1) return usage_error("missing mode (%s)", modes_list);
  const struct mode_word *w = NULL;
  for (int i = 0; i < NMODE_WORDS && !w; i++)
    if (strcmp(args[0], mode_words[i].word) == 0) w = &mode_words[i];
  if (!w) {
    fprintf(stderr,
            "trigger-host: unknown mode '%s' (%s)\n"
            "(see trigger-host --help)\n",
            args[0], modes_list);
    return 2;
  }
  o->mode = w->mode;
  n--;
  args++;
  if (n < w->min_args || (w->max_args && n > w->max_args))
    return count_error(w, n);
  if (w->max_args >= 2 && n >= 2) {
    o->target = args[1];
    if (n == 3) o->payload = args[2];
    n = 1;
  }
  for (int i = 0; i < n; i++) {
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

/* The flags of the one-shot commands, each given to one that takes it.
** -1 to go on, else 2 (reported). */
static int check_one_shot(const host_opts *o) {
  int listing =
      o->mode == MODE_STATUS || o->mode == MODE_RUNS || o->mode == MODE_EVENTS;
  const char *word = mode_word_of(o->mode)->word;
  if (one_shot(o->mode) && o->via)
    return usage_error("%s reads a local database file (no --via)", word);
  if (one_shot(o->mode) && (o->exec_cmd || o->http))
    return usage_error("%s runs no command and serves no page (no --exec, "
                       "--http)",
                       word);
  if (o->json && !one_shot(o->mode))
    return usage_error("%s", "--json is an option of status, runs, events "
                             "and the verbs (for the log: --log json)");
  if (o->all && !listing)
    return usage_error("%s", "--all is an option of status, runs and events");
  if (o->state && o->mode != MODE_STATUS)
    return usage_error("%s", "--status is an option of status");
  if (o->since && o->mode != MODE_RUNS && o->mode != MODE_EVENTS)
    return usage_error("%s", "--since is an option of runs and events");
  if (o->all && o->limit)
    return usage_error("%s: --all or --limit N, not both", word);
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
  if ((rc = check_one_shot(o)) >= 0) return rc;
  if (!o->owner) o->owner = default_owner();
  if ((rc = check_sql(o)) >= 0) return rc;
  if (!o->lease_ms) { /* the extension's default, or a timeout + 30 s */
    long long t = o->sql ? o->sql_timeout_ms : o->timeout_ms;
    o->lease_ms = t + 30000 > 60000 ? t + 30000 : 60000;
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
  if ((o->http_conns || o->http_per_ip || o->http_timeout_s ||
       o->http_token_file) &&
      !o->http)
    return usage_error("%s", "--http-conns, --http-conns-per-ip, "
                             "--http-timeout and --http-token-file need "
                             "--http");
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
