/*
** hostdb.c -- a database connection of trigger-host (see hostdb.h).
** Open order matters: busy_timeout is set before any statement runs, so
** that even the journal_mode change waits for a busy database instead of
** failing; then WAL (readers never block the claim's write transaction),
** then synchronous (hostdb.h: NORMAL with WAL unless --synchronous full),
** then the extension is loaded with loading enabled only for that call.
** The connection is SQLITE_DBCONFIG_DEFENSIVE: no SQL of its own can write
** the shadow tables directly (the extension's functions still do; see
** docs/tables.md "Changed shadow tables").
*/
#include "db/hostdb.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/log.h"
#include "core/util.h"
#include "db/dbfile.h"
#include "db/json.h"
#include "db/via.h"

static char *db_error(hostdb *h, const char *what) {
  /* the extension's messages start with its function's name already */
  const char *msg = sqlite3_errmsg(h->db);
  size_t n = strlen(what);
  if (strncmp(msg, what, n) == 0 && msg[n] == ':')
    return xprintf("%s: %s", h->path, msg);
  return xprintf("%s: %s: %s", h->path, what, msg);
}

static int prepare(hostdb *h, const char *sql, sqlite3_stmt **st, char **err) {
  int rc =
      sqlite3_prepare_v3(h->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
  if (rc == SQLITE_OK) return 0;
  *err = db_error(h, "prepare");
  return -1;
}

/* Run one statement returning one text value (copied into *out, may be
** NULL). */
static int exec_text(hostdb *h, const char *sql, char **out, char **err) {
  sqlite3_stmt *st;
  if (prepare(h, sql, &st, err)) return -1;
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && out)
    *out = xstrdup((const char *)sqlite3_column_text(st, 0));
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) *err = db_error(h, sql);
  sqlite3_finalize(st);
  return (rc == SQLITE_ROW || rc == SQLITE_DONE) ? 0 : -1;
}

int hostdb_load_extension(sqlite3 *db, const char *ext, char **err) {
  char *msg = NULL;
  sqlite3_enable_load_extension(db, 1);
  int rc = sqlite3_load_extension(db, ext, NULL, &msg);
  sqlite3_enable_load_extension(db, 0);
  if (rc == SQLITE_OK) return 0;
  *err = xprintf("cannot load extension %s: %s", ext,
                 msg ? msg : sqlite3_errstr(rc));
  sqlite3_free(msg);
  return -1;
}

/* *json = result of sql(?1 = *json, ?2 = path, ?3 = text or num), one of
** SQLite's JSON functions: no hand-made JSON. */
static int json_edit(hostdb *h, char **json, const char *sql, const char *path,
                     const char *text, long long num, char **err) {
  sqlite3_stmt *st;
  if (prepare(h, sql, &st, err)) return -1;
  sqlite3_bind_text(st, 1, *json, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
  if (sqlite3_bind_parameter_count(st) >= 3) {
    if (text) sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
    else sqlite3_bind_int64(st, 3, num);
  }
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    char *next = xstrdup((const char *)sqlite3_column_text(st, 0));
    free(*json);
    *json = next;
  } else {
    *err = db_error(h, "building the claim options");
  }
  sqlite3_finalize(st);
  return rc == SQLITE_ROW ? 0 : -1;
}

static int json_put(hostdb *h, char **json, const char *path, const char *text,
                    long long num, char **err) {
  return json_edit(h, json, "SELECT json_set(?1, ?2, ?3)", path, text, num,
                   err);
}

/* "a,b" -> "agents":["a","b"], each name appended with json_set '[#]'
** (strtok_r skips empty names: ",a,,b," is the same list). */
static int put_agents(hostdb *h, char **json, const char *list, char **err) {
  const char *init = "SELECT json_set(?1, ?2, json_array())";
  if (json_edit(h, json, init, "$.agents", NULL, 0, err)) return -1;
  char *copy = xstrdup(list), *save = NULL;
  int res = 0;
  for (char *a = strtok_r(copy, ",", &save); a && !res;
       a = strtok_r(NULL, ",", &save)) {
    res = json_put(h, json, "$.agents[#]", a, 0, err);
  }
  free(copy);
  return res;
}

static int build_options(hostdb *h, const host_opts *o, char **err) {
  h->options = xstrdup("{}");
  if (json_put(h, &h->options, "$.owner", o->owner, 0, err)) return -1;
  h->lease_ms = o->lease_ms;
  if (json_put(h, &h->options, "$.lease_ms", NULL, o->lease_ms, err)) return -1;
  if (o->wake_mode &&
      json_put(h, &h->options, "$.wake_mode", o->wake_mode, 0, err))
    return -1;
  if (o->limit && json_put(h, &h->options, "$.limit", NULL, o->limit, err))
    return -1;
  if (o->agents && put_agents(h, &h->options, o->agents, err)) return -1;
  if (o->sql &&
      json_edit(h, &h->options, "SELECT json_set(?1, ?2, json('true'))",
                "$.sql", NULL, 0, err))
    return -1; /* SQL jobs only (docs/sql-jobs.md) */
  return 0;
}

/* The claim options with the limit of this tick. */
#define CLAIM_OPTS \
  "CASE WHEN ?2 IS NULL THEN ?1 ELSE json_set(?1, '$.limit', ?2) END"

/* Claim, finish and wakeup. With --via each local statement computes the
** text of the remote one instead, its values quoted by format('%Q'). */
static int prepare_all(hostdb *h, char **err) {
  int via = h->via != NULL;
  if (prepare(
          h,
          via ? "SELECT format('SELECT trigger_run_due(NULL, %Q)', " CLAIM_OPTS
                ")"
              : "SELECT trigger_run_due(NULL, " CLAIM_OPTS ")",
          &h->st_claim, err))
    return -1;
  /* print mode's claim inside its own transaction (printtx.h): the runs
  ** recorded 'success' at once, committed once their lines are out */
  if (!via && prepare(h,
                      "SELECT trigger_run_due(NULL, json_set(" CLAIM_OPTS
                      ", '$.ack', json('false')))",
                      &h->st_claim_acked, err))
    return -1;
  if (prepare(h,
              via ? "SELECT format('SELECT trigger_run_finish(%Q, %Q, %Q)',"
                    " ?1, ?2, ?3)"
                  : "SELECT trigger_run_finish(?1, ?2, ?3)",
              &h->st_finish, err))
    return -1;
  if (prepare(h,
              via ? "SELECT format('SELECT trigger_run_heartbeat(%Q, %d)',"
                    " ?1, ?2)"
                  : "SELECT trigger_run_heartbeat(?1, ?2)",
              &h->st_heartbeat, err))
    return -1;
  /* The claim options: the wakeup counts only what our own tick takes. */
  if (prepare(h,
              via ? "SELECT format('SELECT coalesce(trigger_next_wakeup(NULL,"
                    " %Q), -1)', ?1)"
                  : "SELECT coalesce(trigger_next_wakeup(?2, ?1), -1)",
              &h->st_wakeup, err))
    return -1;
  /* A SQL job and its end (an older extension has no such function). */
  if (sqlite3_prepare_v3(h->db,
                         via ? "SELECT format('SELECT trigger_run_sql_job(%Q,"
                               " %lld)', ?1, ?2)"
                             : "SELECT trigger_run_sql_job(?1, ?2)",
                         -1, SQLITE_PREPARE_PERSISTENT, &h->st_sql_job,
                         NULL) != SQLITE_OK)
    h->st_sql_job = NULL;
  /* Many reports in one call (an older extension has one call each). */
  if (!via && sqlite3_prepare_v3(h->db, "SELECT trigger_run_finish_many(?1)",
                                 -1, SQLITE_PREPARE_PERSISTENT,
                                 &h->st_finish_many, NULL) != SQLITE_OK)
    h->st_finish_many = NULL;
  /* The cancel probe (an extension before it has no such column). */
  if (!via && sqlite3_prepare_v3(h->db,
                                 "SELECT cancel_requested_at IS NOT NULL"
                                 " FROM trigger_runs WHERE run_id = ?1",
                                 -1, SQLITE_PREPARE_PERSISTENT, &h->st_cancel,
                                 NULL) != SQLITE_OK)
    h->st_cancel = NULL;
  if (!via && (prepare(h, "BEGIN IMMEDIATE", &h->st_begin, err) ||
               prepare(h, "COMMIT", &h->st_commit, err) ||
               prepare(h, "ROLLBACK", &h->st_rollback, err)))
    return -1;
  return prepare(h, "PRAGMA data_version", &h->st_version, err);
}

/* --via: a local :memory: connection for quoting and JSON; the schema is
** installed on the far side. */
static int open_via(hostdb *h, const host_opts *o, char **err) {
  h->via = o->via;
  if (sqlite3_open_v2(":memory:", &h->db, SQLITE_OPEN_READWRITE, NULL) !=
      SQLITE_OK) {
    *err = xprintf("%s: open :memory:: %s", h->path,
                   h->db ? sqlite3_errmsg(h->db) : "out of memory");
    return -1;
  }
  char *out = NULL;
  if (via_run(h->via, h->path, "SELECT trigger_install()", &out, err))
    return -1;
  free(out);
  return 0;
}

/* Read the schema before the first write (journal_mode=WAL writes the
** header): a damaged database is refused with nothing written (dbfile.h).
** 0, or -1 and *err. */
static int schema_readable(hostdb *h, char **err) {
  sqlite3_stmt *st = NULL;
  const char *what = "prepare";
  int rc = sqlite3_prepare_v2(h->db, "SELECT count(*) FROM sqlite_schema", -1,
                              &st, NULL);
  if (rc == SQLITE_OK) {
    what = "reading the schema";
    rc = sqlite3_step(st);
  }
  sqlite3_finalize(st);
  if (rc == SQLITE_ROW) return 0;
  int primary = sqlite3_errcode(h->db) & 0xff;
  if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
    *err = xprintf("%s: not a SQLite database, or a damaged one (%s)", h->path,
                   sqlite3_errmsg(h->db));
  else *err = db_error(h, what); /* no descriptor, no memory, I/O: as is */
  return -1;
}

/* PRAGMA journal_mode=WAL (*mode: the mode it answers), tried again
** while another connection holds a lock it needs, for up to busy_ms:
** switching takes the write lock after the read lock, and SQLite answers
** SQLITE_BUSY at once then instead of waiting (two hosts starting on one
** new file, one of them installing: docs/reliability.md). */
static int set_wal(hostdb *h, int busy_ms, char **mode, char **err) {
  const struct timespec pause = {0, 10 * 1000 * 1000};
  for (int waited = 0;; waited += 10) {
    if (exec_text(h, "PRAGMA journal_mode=WAL", mode, err) == 0) return 0;
    if ((sqlite3_errcode(h->db) & 0xff) != SQLITE_BUSY || waited >= busy_ms)
      return -1;
    free(*err);
    *err = NULL;
    nanosleep(&pause, NULL);
  }
}

static int open_local(hostdb *h, const host_opts *o, char **err) {
  const char *path = h->path;
  /* a missing file was refused by opts.c unless --create; not creating it
  ** here either keeps a file deleted since then from being made anew */
  /* NOMUTEX: only the loop's thread uses this connection (the
  ** checkpointer and --http have their own), so SQLite need not lock it
  ** around every call (a claim or a report reads ~40 columns a row). */
  const char *why = NULL;
  if (dbfile_check(path, o->create, &why) != 0) {
    *err = xprintf("%s: %s", path, why);
    return -1;
  }
  int rc = sqlite3_open_v2(path, &h->db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                               (o->create ? SQLITE_OPEN_CREATE : 0),
                           NULL);
  if (rc != SQLITE_OK) {
    *err = h->db ? db_error(h, "open")
                 : xprintf("%s: open: %s", path, sqlite3_errstr(rc));
    return -1;
  }
  sqlite3_busy_timeout(h->db, o->busy_ms); /* first, before any statement */
  int defensive = 0;
  sqlite3_db_config(h->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config(h->db, SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive);
  if (!defensive) {
    *err = xprintf("%s: open: cannot turn on SQLITE_DBCONFIG_DEFENSIVE", path);
    return -1;
  }
  if (schema_readable(h, err)) return -1;
  char *mode = NULL;
  if (set_wal(h, o->busy_ms, &mode, err)) return -1;
  int wal = mode && strcmp(mode, "wal") == 0;
  if (!wal)
    log_debug("%s: journal_mode is %s, not wal", path, mode ? mode : "?");
  free(mode);
  /* NORMAL is safe from corruption only in WAL mode: FULL otherwise */
  int full =
      o->synchronous == SYNC_FULL || (o->synchronous == SYNC_DEFAULT && !wal);
  char *sync = NULL;
  if (exec_text(h,
                full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL",
                NULL, err) ||
      exec_text(h, "PRAGMA synchronous", &sync, err))
    return -1;
  /* read back: 1 NORMAL, 2 FULL */
  log_debug("%s: synchronous %s", path,
            sync && strcmp(sync, "2") == 0   ? "full"
            : sync && strcmp(sync, "1") == 0 ? "normal"
                                             : (sync ? sync : "?"));
  free(sync);
  if (hostdb_load_extension(h->db, o->extension, err)) return -1;
  /* SQLite falls back to read-only when the file is not writable, and the
  ** connection stays so: every claim fails (backed off, loop.c) */
  if (sqlite3_db_readonly(h->db, "main") == 1)
    log_warn("%s: opened read-only (the file is not writable): nothing can "
             "be claimed until it is and the host is restarted",
             path);
  return exec_text(h, "SELECT trigger_install()", NULL, err);
}

int hostdb_open(hostdb *h, const char *path, const host_opts *o, char **err) {
  memset(h, 0, sizeof *h);
  h->path = xstrdup(path);
  if (o->via ? open_via(h, o, err) : open_local(h, o, err)) return -1;
  if (build_options(h, o, err) || prepare_all(h, err)) return -1;
  int changed;
  if (hostdb_changed(h, &changed) != 0) {
    *err = db_error(h, "data_version");
    return -1;
  }
  /* Our own connection is defensive; with --via it is only a :memory:
  ** helper, and the far side's connection is the via command's. */
  log_debug("%s: open (%s), extension %s, claim options %s", path,
            h->via ? "via" : "defensive", o->extension, h->options);
  return 0;
}

void hostdb_close(hostdb *h) {
  sqlite3_finalize(h->st_claim);
  sqlite3_finalize(h->st_finish);
  sqlite3_finalize(h->st_finish_many);
  sqlite3_finalize(h->st_sql_job);
  sqlite3_finalize(h->st_claim_acked);
  sqlite3_finalize(h->st_heartbeat);
  sqlite3_finalize(h->st_cancel);
  sqlite3_finalize(h->st_wakeup);
  sqlite3_finalize(h->st_version);
  sqlite3_finalize(h->st_begin);
  sqlite3_finalize(h->st_commit);
  sqlite3_finalize(h->st_rollback);
  sqlite3_close(h->db);
  free(h->options);
  free(h->path);
  memset(h, 0, sizeof *h);
}

static char *col_dup(sqlite3_stmt *st, int i) {
  return xstrdup((const char *)sqlite3_column_text(st, i));
}

static char *span_dup(json_span v) {
  char *s = xmalloc(v.n + 1);
  memcpy(s, v.p, v.n);
  s[v.n] = 0;
  return s;
}

/* One member of a claimed element (a run object) into the run. */
static void run_member(void *arg, json_span key, json_span val) {
  static const char *const names[] = {"run_id", "trigger_id", "agent_id",
                                      "wake_mode", "action_sql"};
  host_run *r = arg;
  for (int i = 0; i < 5; i++) {
    if (!json_key_is(key, names[i])) continue;
    char **to = i == 0   ? &r->run_id
                : i == 1 ? &r->trigger_id
                : i == 2 ? &r->agent_id
                : i == 3 ? &r->wake_mode
                         : &r->action_sql;
    free(*to); /* a member given twice: the last one */
    *to = json_string(val);
    return;
  }
  if (json_key_is(key, "payload") && val.p[0] == '{') {
    free(r->payload);
    r->payload = span_dup(val);
  } else if (json_key_is(key, "scheduled_for")) {
    json_int64(val, &r->scheduled_for);
  } else if (json_key_is(key, "attempt")) {
    json_int64(val, &r->attempt);
  }
}

static host_run *run_new(hostdb *h) {
  host_run *r = xmalloc(sizeof *r);
  memset(r, 0, sizeof *r);
  r->db = h;
  r->lease_end = r->renew_at = INT64_MAX; /* set by the claim: lease.h */
  return r;
}

/* The claimed array -> runs (json.h). */
static int parse_runs(hostdb *h, const char *json, host_run ***runs, int *n,
                      char **err) {
  json_iter it;
  json_span elem;
  int rc, found, cap = 0;
  json_iter_init(&it, (json_span){json, strlen(json)});
  host_run *r = run_new(h);
  while ((rc = json_next_element_members(&it, &elem, run_member, r, &found)) ==
             0 &&
         found) {
    if (!r->run_id || !r->payload) {
      log_warn("%s: claimed element without run_id or payload ignored",
               h->path);
      run_free(r);
      r = run_new(h);
      continue;
    }
    r->element = span_dup(elem);
    if (*n == cap) {
      cap = cap ? cap * 2 : 8;
      *runs = xrealloc(*runs, sizeof(host_run *) * (size_t)cap);
    }
    (*runs)[(*n)++] = r;
    r = run_new(h);
  }
  run_free(r); /* the one no element filled */
  if (rc < 0)
    *err = xprintf("%s: trigger_run_due: the answer is not a JSON array of "
                   "runs: %.60s",
                   h->path, json);
  return rc < 0 ? -1 : 0;
}

/* Step a bound statement for its answer: the first column, or with --via
** the output of CMD running the statement text that column holds. */
static int answer(hostdb *h, sqlite3_stmt *st, const char *what, char **out,
                  char **err) {
  *out = NULL;
  int rc = sqlite3_step(st);
  char *text = rc == SQLITE_ROW ? col_dup(st, 0) : NULL;
  if (rc != SQLITE_ROW) *err = db_error(h, what);
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  if (rc != SQLITE_ROW) return -1;
  if (!h->via) {
    *out = text;
    return 0;
  }
  int res = via_run(h->via, h->path, text ? text : "", out, err);
  free(text);
  return res;
}

int hostdb_claim(hostdb *h, long long limit, int acked, host_run ***runs,
                 int *n, char **err) {
  *runs = NULL;
  *n = 0;
  sqlite3_stmt *st = acked ? h->st_claim_acked : h->st_claim;
  sqlite3_bind_text(st, 1, h->options, -1, SQLITE_STATIC);
  if (limit > 0) sqlite3_bind_int64(st, 2, limit);
  char *json = NULL;
  int64_t before = mono_ms(); /* the lease starts inside the call */
  if (answer(h, st, "trigger_run_due", &json, err)) return -1;
  int res = json ? parse_runs(h, json, runs, n, err) : 0;
  free(json);
  for (int i = 0; i < *n; i++) (*runs)[i]->claimed = before;
  return res;
}

/* Step a bound write: 0 ok with *out (its answer, malloc'ed, or NULL);
** else -1, *code (the primary SQLite code; with --via, where it is not
** known, SQLITE_ERROR) and *err. Our own writes change the wakeup (a
** retry, a completed trigger, a lease's expiry): it is asked again. */
static int write_call_answer(hostdb *h, sqlite3_stmt *st, const char *what,
                             char **out, int *code, char **err) {
  h->refresh = 1;
  *out = NULL;
  if (h->via) {
    int res = answer(h, st, what, out, err);
    *code = res ? SQLITE_ERROR : SQLITE_OK;
    return res;
  }
  int rc = sqlite3_step(st);
  *code = rc == SQLITE_ROW ? SQLITE_OK : rc & 0xff;
  if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
    *out = col_dup(st, 0);
  /* the message names the function already */
  if (rc != SQLITE_ROW)
    *err = xprintf("%s: %s", h->path, sqlite3_errmsg(h->db));
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  return rc == SQLITE_ROW ? 0 : -1;
}

/* The same when the answer is not needed (finish, heartbeat). */
static int write_call(hostdb *h, sqlite3_stmt *st, const char *what, int *code,
                      char **err) {
  char *out = NULL;
  int res = write_call_answer(h, st, what, &out, code, err);
  free(out);
  return res;
}

int hostdb_finish(hostdb *h, const char *run_id, const char *status,
                  const char *detail, int *code, char **err) {
  sqlite3_stmt *st = h->st_finish;
  sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, status, -1, SQLITE_STATIC);
  if (detail) sqlite3_bind_text(st, 3, detail, -1, SQLITE_STATIC);
  return write_call(h, st, "trigger_run_finish", code, err);
}

/* The status, error and result members of a run's JSON into to[0..3)
** (a string each; null leaves NULL). */
static void job_member(char **to, json_span key, json_span val) {
  int k = json_key_is(key, "status")   ? 0
          : json_key_is(key, "error")  ? 1
          : json_key_is(key, "result") ? 2
                                       : -1;
  if (k < 0 || to[k] || val.p[0] != '"') return;
  to[k] = json_string(val);
}

int hostdb_sql_job(hostdb *h, const char *run_id, long long timeout_ms,
                   char **status, char **detail, int *code, char **err) {
  sqlite3_stmt *st = h->st_sql_job;
  char *out = NULL, *got[3] = {NULL, NULL, NULL};
  *status = *detail = NULL;
  *code = SQLITE_ERROR;
  if (!st) {
    *err = xprintf("%s: the extension has no trigger_run_sql_job (older "
                   "than this host)",
                   h->path);
    return -1;
  }
  sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, timeout_ms);
  if (write_call_answer(h, st, "trigger_run_sql_job", &out, code, err))
    return -1;
  json_iter it; /* the answer: the run's JSON object */
  json_span key, val;
  int found = 0;
  json_iter_init(&it, (json_span){out ? out : "", out ? strlen(out) : 0});
  while (json_next_member(&it, &key, &val, &found) == 0 && found)
    job_member(got, key, val);
  free(out);
  if (!got[0]) {
    free(got[1]);
    free(got[2]);
    *code = SQLITE_ERROR;
    *err = xprintf("%s: trigger_run_sql_job: no status in its answer", h->path);
    return -1;
  }
  *status = got[0];
  *detail = got[1] ? got[1] : got[2];
  free(got[1] ? got[2] : NULL);
  return 0;
}

int hostdb_finish_many(hostdb *h, const char *runs, char **answer, int *code,
                       char **err) {
  sqlite3_stmt *st = h->st_finish_many;
  h->refresh = 1;
  *answer = NULL;
  sqlite3_bind_text(st, 1, runs, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  *code = rc == SQLITE_ROW ? SQLITE_OK : rc & 0xff;
  if (rc == SQLITE_ROW) *answer = col_dup(st, 0);
  else *err = xprintf("%s: %s", h->path, sqlite3_errmsg(h->db));
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  return rc == SQLITE_ROW ? 0 : -1;
}

int hostdb_heartbeat(hostdb *h, const char *run_id, int *code, char **err) {
  sqlite3_stmt *st = h->st_heartbeat;
  sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, h->lease_ms);
  return write_call(h, st, "trigger_run_heartbeat", code, err);
}

int hostdb_heartbeat_cancel(hostdb *h, const char *run_id, int *cancel,
                            int *code, char **err) {
  sqlite3_stmt *st = h->st_heartbeat;
  sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, h->lease_ms);
  h->refresh = 1;
  char *out = NULL;
  *cancel = 0;
  int res = answer(h, st, "trigger_run_heartbeat", &out, err);
  /* the run's JSON: "cancel_requested_at":<ms> once it was asked for */
  const char *k = out ? strstr(out, "\"cancel_requested_at\":") : NULL;
  *cancel = k && strncmp(k + 22, "null", 4) != 0;
  free(out);
  *code =
      res ? (h->via ? SQLITE_ERROR : sqlite3_errcode(h->db) & 0xff) : SQLITE_OK;
  return res;
}

void hostdb_cancel_asked(hostdb *h, const char *run_id, int *asked) {
  sqlite3_stmt *st = h->st_cancel;
  *asked = 0;
  if (!st) return;
  sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW) *asked = sqlite3_column_int(st, 0);
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
}

/* Step a statement without rows (BEGIN, COMMIT): 0, or -1, *code, *err. */
static int step_txn(hostdb *h, sqlite3_stmt *st, const char *what, int *code,
                    char **err) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  *code = rc == SQLITE_DONE ? SQLITE_OK : rc & 0xff;
  if (rc == SQLITE_DONE) return 0;
  *err = db_error(h, what);
  return -1;
}

int hostdb_begin(hostdb *h, int *code, char **err) {
  *code = SQLITE_OK;
  return h->via ? 0 : step_txn(h, h->st_begin, "BEGIN IMMEDIATE", code, err);
}

int hostdb_commit(hostdb *h, int *code, char **err) {
  *code = SQLITE_OK;
  if (h->via || step_txn(h, h->st_commit, "COMMIT", code, err) == 0) return 0;
  hostdb_rollback(h);
  return -1;
}

void hostdb_rollback(hostdb *h) {
  if (h->via || sqlite3_get_autocommit(h->db)) return;
  sqlite3_step(h->st_rollback);
  sqlite3_reset(h->st_rollback);
}

int hostdb_in_txn(hostdb *h) {
  return h->via || !sqlite3_get_autocommit(h->db);
}

int hostdb_wakeup(hostdb *h, long long at_ms, long long *ms, char **err) {
  sqlite3_stmt *st = h->st_wakeup;
  sqlite3_bind_text(st, 1, h->options, -1, SQLITE_STATIC);
  if (!h->via) sqlite3_bind_int64(st, 2, at_ms);
  char *out = NULL;
  if (answer(h, st, "trigger_next_wakeup", &out, err)) return -1;
  char *end = NULL;
  *ms = out ? strtoll(out, &end, 10) : -1;
  int ok = out && end != out && *end == 0;
  if (!ok)
    *err = xprintf("%s: trigger_next_wakeup: not a number: %.60s", h->path,
                   out ? out : "NULL");
  free(out);
  return ok ? 0 : -1;
}

/* With --via nothing tells when another writer changed the database: every
** poll is a change, so the loop asks the wakeup again. */
int hostdb_changed(hostdb *h, int *changed) {
  *changed = 1;
  if (h->via) return 0;
  sqlite3_stmt *st = h->st_version;
  int rc = sqlite3_step(st);
  long long v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_reset(st);
  if (rc != SQLITE_ROW) return -1;
  *changed = v != h->data_version;
  h->data_version = v;
  return 0;
}
