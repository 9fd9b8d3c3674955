/*
** trigger-host.c -- the reference host of sqlite-triggers (docs/host.md).
** main(): parse the command line, then print the versions (--version,
** version.c), or set up the log and either print the status of a
** database (status.c) or open every database (extension loaded, schema
** installed), log the start line, start the status server (--http,
** http.c), run the loop, close; or serve MCP (mcp, mcp/mcp.c). Modes, flags and exit codes are in
** `trigger-host --help` (opts.c); the loop is in loop.c, dispatch in
** dispatch.c and exec.c, the SQL in hostdb.c, the log in log.c.
*/
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/history.h"
#include "cli/status.h"
#include "cli/verbs.h"
#include "cli/version.h"
#include "core/log.h"
#include "core/notify.h"
#include "core/sig.h"
#include "core/util.h"
#include "db/hostdb.h"
#include "dispatch/printtx.h"
#include "http/http.h"
#include "loop.h"
#include "mcp/mcp.h"

/* Open o's databases into dbs: how many are open, 0 when the host cannot
** go on (logged). run and tick need every one; serve serves those that
** open and logs each one that does not, with its path and why, once (a
** file in its directory that is not a database, docs/host.md): o->dbs
** keeps only the served ones, in order, for the start line. */
static int open_databases(host_opts *o, hostdb *dbs) {
  int opened = 0, given = o->ndbs;
  for (int i = 0; i < given; i++) {
    char *err = NULL;
    if (hostdb_open(&dbs[opened], o->dbs[i], o, &err) == 0) {
      o->dbs[opened++] = o->dbs[i];
      continue;
    }
    hostdb_close(&dbs[opened]);
    if (o->mode != MODE_SERVE) {
      log_fatal("%s", err ? err : "cannot open database");
      free(err);
      for (int j = 0; j < opened; j++) hostdb_close(&dbs[j]);
      return 0;
    }
    log_warn("%s; not served", err ? err : o->dbs[i]);
    free(err);
    free(o->dbs[i]);
  }
  o->ndbs = opened;
  if (!opened)
    log_fatal("no database to serve: none of the %d could be opened", given);
  return opened;
}

int main(int argc, char **argv) {
  /* Before SQLite initializes: no allocation statistics (the host reads
  ** none), so no global mutex around every allocation. */
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  host_opts o;
  int rc = args_parse(&o, argc, argv);
  if (rc < 0 && o.version) rc = version_print(&o);
  if (rc >= 0) {
    args_free(&o);
    return rc;
  }
  log_setup(&o);
  if (o.mode == MODE_MCP || o.mode >= MODE_PAUSE) { /* one-shot commands */
    if (o.mode == MODE_MCP) rc = mcp_main(&o);      /* stdin, stdout: MCP's */
    else if (o.mode >= MODE_RUNS) rc = history_main(&o);
    else rc = verbs_main(&o);
    args_free(&o);
    return rc;
  }
  char *nerr = NULL; /* before any thread or child: it edits environ */
  if (o.mode != MODE_STATUS && notify_init(&nerr) != 0) log_warn("%s", nerr);
  free(nerr);
  printtx ptx; /* print mode's stdout, as it is before the first log line */
  printtx_init(&ptx, o.exec_cmd || o.print_lease);
  if (o.mode == MODE_STATUS) {
    rc = status_main(&o);
    args_free(&o);
    return rc;
  }
  if (sig_init() != 0) {
    log_fatal("cannot set up signal handling");
    args_free(&o);
    return 3;
  }
  hostdb *dbs = xmalloc(sizeof *dbs * (size_t)o.ndbs);
  memset(dbs, 0, sizeof *dbs * (size_t)o.ndbs);
  int opened = open_databases(&o, dbs);
  if (opened == 0) rc = 3;
  http_server *srv = NULL; /* --http: beside the loop, until it ends */
  if (rc != 3 && o.http && !(srv = http_start(&o))) rc = 3;
  if (rc != 3) {
    if (log_enabled(LOG_INFO)) { /* with --via, asking costs a process */
      char *version = version_of_db(&dbs[0]);
      log_start(&o, version);
      free(version);
    }
    rc = loop_main(&o, dbs, o.ndbs, &ptx);
  }
  http_stop(srv);
  notify_close();
  for (int i = 0; i < opened; i++) hostdb_close(&dbs[i]);
  free(dbs);
  args_free(&o);
  return rc;
}
