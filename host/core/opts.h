/*
** opts.h -- what trigger-host was asked to do: its mode, databases and
** flags, as main() read them from the command line (cli/args.h). Read by
** every other module; nothing changes them after main() has.
*/
#ifndef HOST_OPTS_H
#define HOST_OPTS_H

typedef enum {
  MODE_RUN,
  MODE_SERVE,
  MODE_TICK,
  MODE_STATUS,
  MODE_MCP,
  /* the operator's verbs (cli/verbs.h) and listings (cli/history.h) */
  MODE_PAUSE,
  MODE_RESUME,
  MODE_CANCEL,
  MODE_FIRE,
  MODE_RETRY,
  MODE_CANCEL_RUN,
  MODE_SIGNAL,
  MODE_RUNS,
  MODE_EVENTS
} host_mode;
/* --synchronous: DEFAULT is NORMAL in WAL mode, FULL otherwise (hostdb.h) */
typedef enum { SYNC_DEFAULT, SYNC_NORMAL, SYNC_FULL } host_sync;

/* Pointers and 64-bit members first, then the ints: no padding holes
** (clang-tidy's padding check in make lint). */
typedef struct host_opts {
  char **dbs;            /* database paths (directories expanded) */
  char *extension;       /* --extension, default: see default_extension */
  const char *exec_cmd;  /* --exec CMD, NULL = print mode */
  const char **env_pass; /* --env NAME (repeatable): passed through */
  double timeout_s;      /* --timeout SEC, 0 = none */
  long long timeout_ms;  /* the same in ms */
  char *owner;           /* --owner, default trigger-host@HOST:PID */
  long long lease_ms;    /* --lease-ms, default 60000 (or --timeout + 30 s) */
  const char *wake_mode; /* --wake-mode */
  long long limit;       /* --limit, 0 = none */
  const char *agents;    /* --agents a,b */
  long long grace_ms;    /* --grace SEC after SIGTERM */
  const char *via;       /* --via CMD: statements run by CMD (via.h) */
  const char *state;     /* status --status STATE */
  const char *target;    /* a verb's TRIGGER_ID, RUN_ID or KEY; runs,
                            events: a TRIGGER_ID or NULL */
  const char *payload;   /* signal's JSON, or NULL */
  const char *since;     /* runs, events --since TIME (cli/history.h) */
  const char *http;      /* --http ADDR: the status server (http.h) */
  const char *http_token_file; /* --http-token-file: actions (actions.h) */
  /* mcp: who the tools act for (mcp/mcp.h), never what a model says;
  ** status: --agent and --scope filter the list (NULL: no filter) */
  const char *agent_id;     /* --agent (mcp: default "") */
  const char *scope;        /* --scope (mcp: default "") */
  const char *user_id;      /* --user, NULL = none */
  const char *role;         /* --role, default "agent" */
  long long sql_timeout_ms; /* --sql-timeout SEC, default 60 s */
  host_mode mode;
  int ndbs;
  int clean_env;   /* --clean-env: children get a minimal environment */
  int print_lease; /* --print-lease: print mode never claims in its
                            own transaction (printtx.h) */
  int nenv_pass;
  int jobs;              /* --jobs N: concurrent --exec children */
  int prefetch;          /* --prefetch N: runs claimed ahead (dispatch.h) */
  int poll_ms;           /* --poll-ms: PRAGMA data_version interval */
  int max_sleep_ms;      /* sleep cap when nothing is scheduled */
  int busy_ms;           /* --busy-timeout MS */
  int verbosity;         /* -1 with -q, 1 with -v, else 0 (log.h) */
  int log_json;          /* --log json */
  int create;            /* --create: a missing database file is created */
  int json;              /* status --json */
  int all;               /* status --all: every trigger (else --limit, 50) */
  int version;           /* --version */
  int http_conns;        /* --http-conns N: connections at once */
  int http_per_ip;       /* --http-conns-per-ip N: from one address */
  int http_timeout_s;    /* --http-timeout SEC: a whole request's time */
  host_sync synchronous; /* --synchronous full|normal */
  int report_ms;   /* --report-ms: how long a report may wait (reports.h) */
  int no_autonomy; /* --no-autonomy: autonomy_available false */
  /* --sql: run SQL jobs, only them (dispatch/sql_job.h) */
  int sql;
} host_opts;

#endif
