/*
** fn_run_report.c -- what a host reports about a run it claimed:
** trigger_run_finish(run_id, status [, detail [, now]]), its end (success,
** failed with a retry when attempts remain, skipped, deferred), and
** trigger_run_heartbeat(run_id [, lease_ms [, now]]), that it is still
** working (its lease renewed). A host finishes its runs one call each,
** often many in one transaction of its own: the connection's kept
** statements (and SAVEPOINT) serve.
*/
#include <string.h>

#include "base/args.h"
#include "base/json_out.h"
#include "base/register.h"
#include "store/json.h"
#include "store/run_rows.h"
#include "store/stored.h"
#include "text/json_shape.h"
#include "text/utf8.h"
#include "tick/call.h"
#include "tick/finish.h"
#include "tick/lifecycle.h"
#include "time/civil.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/* A usage text (docs/reactive.md#usage) checked: SQLITE_OK with *why NULL
** (a JSON object of at most TRG_RESULT_MAX bytes, its cost a number >= 0
** and its tokens an integer >= 0 when given) or with *why what is wrong
** (sqlite3_malloc'd); else an error code. */
static int usage_check(tick *t, const char *text, char **why) {
  *why = NULL;
  if (strlen(text) > TRG_RESULT_MAX) {
    *why = sqlite3_mprintf("more than %d bytes", TRG_RESULT_MAX);
    return *why ? SQLITE_OK : SQLITE_NOMEM;
  }
  return store_json_usage_check(t->call.st, text, why);
}

/* Argument 5 of trigger_run_finish, usage: a JSON object's text, checked
** (usage_check), into t->usage. 0, or -1 with the error set. */
static int usage_arg(sqlite3_context *ctx, tick *t, sqlite3_value *v) {
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    trg_result_error(ctx, SQLITE_MISMATCH, t->fname,
                     "argument 5 (usage) must be a JSON object's text");
    return -1;
  }
  const char *text = trg_arg_text(ctx, t->fname, &v, 0, "usage");
  if (!text) return -1;
  char *why = NULL;
  int rc = usage_check(t, text, &why);
  if (rc == SQLITE_OK && !why) {
    t->usage = text;
    return 0;
  }
  if (why)
    trg_result_error(ctx, SQLITE_ERROR, t->fname, "argument 5 (usage): %s",
                     why);
  else trg_result_error(ctx, rc, t->fname, "%s", trg_errmsg(t->call.db, rc));
  sqlite3_free(why);
  return -1;
}

/* trigger_run_finish(run_id, status [, detail [, now [, usage]]]): the
** trigger's JSON (null when it was deleted). */
static void fn_run_finish(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_finish") != 0) return;
  const char *run_id = trg_arg_text(ctx, t.fname, argv, 0, "run_id");
  const char *status =
      run_id ? trg_arg_text(ctx, t.fname, argv, 1, "status") : NULL;
  const char *detail = NULL;
  size_t detail_len = 0;
  char *error = NULL, *result = NULL; /* the detail, as one or the other */
  if (!status) goto out;
  if (!tick_finish_status_ok(status)) {
    trg_result_error(ctx, SQLITE_ERROR, t.fname,
                     "argument 2 (status): '%s' is not one of 'success', "
                     "'failed', 'skipped', 'deferred'",
                     status);
    goto out;
  }
  if (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL) {
    /* A host's report is never refused for its bytes: repaired instead
    ** (a BLOB too: a command's raw output passed as it came). */
    int type = sqlite3_value_type(argv[2]);
    if (type != SQLITE_TEXT && type != SQLITE_BLOB) {
      trg_result_error(ctx, SQLITE_MISMATCH, t.fname,
                       "argument 3 (detail) must be text");
      goto out;
    }
    detail = (const char *)sqlite3_value_text(argv[2]);
    detail_len = (size_t)sqlite3_value_bytes(argv[2]);
    if (!detail) {
      sqlite3_result_error_nomem(ctx);
      goto out;
    }
  }
  if (trg_arg_instant(ctx, t.fname, argc, argv, 3, "now", 1, &t.now) != 0)
    goto out;
  if (argc > 4 && sqlite3_value_type(argv[4]) != SQLITE_NULL &&
      usage_arg(ctx, &t, argv[4]) != 0)
    goto out;
  if (tick_finish_detail(status, detail, detail_len, &error, &result) !=
      SQLITE_OK) {
    sqlite3_result_error_nomem(ctx);
    goto out;
  }
  t.out = sqlite3_str_new(t.call.db);
  store_call_take(&t.call);
  int rc = tick_finish(&t, run_id, status, error, result, t.out);
  tick_result(&t, ctx, rc);
out:
  store_call_give(&t.call);
  sqlite3_free(error);
  sqlite3_free(result);
  tick_end(&t);
}

/* One element of trigger_run_finish_many's array, as read. */
typedef struct finish_item {
  char *run_id, *status, *detail; /* NULL: absent or JSON null */
  char *usage;     /* the usage member's JSON object text, or NULL */
  const char *bad; /* why the element cannot be a report, or NULL */
} finish_item;

static void items_free(finish_item *v, int n) {
  for (int i = 0; i < n; i++) {
    sqlite3_free(v[i].run_id);
    sqlite3_free(v[i].status);
    sqlite3_free(v[i].detail);
    sqlite3_free(v[i].usage);
  }
  sqlite3_free(v);
}

static const char *const item_keys[] = {"run_id", "status", "detail"};

/* Member key of element it, a string (value) or null (value NULL, or
** null_ok 0: another JSON type): run_id and status must be strings,
** detail a string or null; other members are ignored. */
static int item_member(finish_item *it, const char *key, const char *value,
                       int null_ok) {
  if (strcmp(key, "usage") == 0) { /* an object: items_tree reads it */
    if (!null_ok) it->bad = "usage must be a JSON object or null";
    return SQLITE_OK;
  }
  for (int k = 0; k < 3; k++) {
    if (strcmp(key, item_keys[k]) != 0) continue;
    if (k == 2 && !value && null_ok) return SQLITE_OK;
    if (!value) {
      it->bad = k == 0   ? "run_id must be a string"
                : k == 1 ? "status must be a string"
                         : "detail must be a string or null";
      return SQLITE_OK;
    }
    char **to = k == 0 ? &it->run_id : k == 1 ? &it->status : &it->detail;
    sqlite3_free(*to);
    *to = sqlite3_mprintf("%s", value);
    return *to ? SQLITE_OK : SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

/* The items read so far, growing. */
typedef struct item_list {
  finish_item *v;
  int n, cap;
  int rc;
} item_list;

static finish_item *item_add(item_list *l) {
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 64;
    finish_item *grown =
        sqlite3_realloc64(l->v, (sqlite3_uint64)cap * sizeof *l->v);
    if (!grown) {
      l->rc = SQLITE_NOMEM;
      return NULL;
    }
    l->v = grown;
    l->cap = cap;
  }
  finish_item *e = &l->v[l->n++];
  memset(e, 0, sizeof *e);
  return e;
}

static void items_clear(item_list *l) {
  items_free(l->v, l->n);
  memset(l, 0, sizeof *l);
}

static void walk_elem(void *arg) { item_add(arg); }

static int walk_member(void *arg, const char *key, const char *value) {
  item_list *l = arg;
  if (l->rc == SQLITE_OK && l->n)
    l->rc = item_member(&l->v[l->n - 1], key, value, 1);
  return l->rc == SQLITE_OK;
}

/* The array in one json_tree pass (what json_shape_flat_array is not
** sure of): the root must be an array, each element an object. */
static int items_tree(tick *t, const char *json, item_list *l) {
  store_json_each it;
  int rc = store_json_tree_open(t->call.st, json, &it);
  i64 root = -1, cur = -1;
  while (rc == SQLITE_OK && (rc = store_json_each_next(&it)) == SQLITE_ROW) {
    rc = SQLITE_OK;
    const store_json_member *m = &it.m;
    if (m->top) {
      if (strcmp(m->type, "array") != 0) {
        t->err = sqlite3_mprintf("argument 1 (runs) must be a JSON array "
                                 "of {run_id, status, detail} objects");
        rc = SQLITE_MISMATCH;
      }
      root = m->id;
    } else if (m->parent == root) {
      finish_item *e = item_add(l);
      if (!e) rc = l->rc;
      else if (strcmp(m->type, "object") != 0) e->bad = "not an object";
      cur = m->id;
    } else if (m->parent == cur && l->n > 0 && !l->v[l->n - 1].bad && m->json &&
               strcmp(m->key, "usage") == 0) {
      finish_item *e = &l->v[l->n - 1]; /* an object member: its text */
      sqlite3_free(e->usage);
      e->usage = sqlite3_mprintf("%s", m->json);
      if (!e->usage) rc = SQLITE_NOMEM;
    } else if (m->parent == cur && l->n > 0 && !l->v[l->n - 1].bad) {
      int text = strcmp(m->type, "text") == 0;
      rc = item_member(&l->v[l->n - 1], m->key, text ? m->text : NULL,
                       strcmp(m->type, "null") == 0);
    }
  }
  store_json_each_close(&it);
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc == SQLITE_ERROR && !t->err) /* malformed JSON */
    t->err =
        sqlite3_mprintf("argument 1 (runs): %s", sqlite3_errmsg(t->call.db));
  return rc;
}

/* The array json into l: an array of {run_id, status[, detail]} objects
** (an element that is not one is refused alone: finish_item.bad). The
** usual shape is read in C (json_shape_flat_array), the rest by json1. */
static int items_read(tick *t, const char *json, item_list *l) {
  size_t cap = 2 * (strlen(json) + 1);
  char *buf = sqlite3_malloc64(cap);
  if (!buf) return SQLITE_NOMEM;
  json_shape_walk w = {walk_elem, walk_member, l, buf, cap};
  int sure = json_shape_flat_array(json, &w);
  sqlite3_free(buf);
  if (l->rc != SQLITE_OK) return l->rc;
  if (!sure) {
    items_clear(l);
    int rc = items_tree(t, json, l);
    if (rc != SQLITE_OK) return rc;
  }
  for (int i = 0; i < l->n; i++) {
    finish_item *e = &l->v[i];
    if (e->bad) continue;
    if (!e->run_id) e->bad = "run_id is missing";
    else if (!e->status) e->bad = "status is missing";
    else if (!tick_finish_status_ok(e->status))
      e->bad = "status is not one of 'success', 'failed', 'skipped', "
               "'deferred'";
  }
  return SQLITE_OK;
}

/* A report whose run_id or status read differently repaired and marked
** (utf8_json_mark) held a problem there: refused alone, as
** trigger_run_finish refuses such an argument. */
static void items_refuse_marked(item_list *l, const item_list *marked) {
  for (int i = 0; i < l->n && i < marked->n; i++) {
    finish_item *e = &l->v[i];
    const finish_item *m = &marked->v[i];
    if (e->bad) continue;
    if (e->run_id && m->run_id && strcmp(e->run_id, m->run_id) != 0)
      e->bad = "run_id is not valid UTF-8 (an invalid byte, a NUL or a bad "
               "\\u escape; shown as U+FFFD)";
    else if (e->status && m->status && strcmp(e->status, m->status) != 0)
      e->bad = "status is not valid UTF-8 (an invalid byte, a NUL or a bad "
               "\\u escape; shown as U+FFFD)";
  }
}

/* The runs argument's reports into l. A text that is not valid UTF-8
** (utf8_json_check) is read twice: repaired (utf8_json_repair: each
** invalid sequence, NUL and bad escape in a string is U+FFFD) for the
** details, which trigger_run_finish repairs the same way, and marked
** (utf8_json_mark) to find the run_id or status that held one. A problem
** outside every string fails the call: the text is not JSON. */
static int items_of_value(tick *t, sqlite3_value *v, item_list *l) {
  const char *raw = (const char *)sqlite3_value_text(v);
  if (!raw) return SQLITE_NOMEM;
  size_t n = (size_t)sqlite3_value_bytes(v);
  if (utf8_json_check(raw, n, NULL)) return items_read(t, raw, l);
  utf8_err e;
  size_t len = utf8_json_mark(raw, n, NULL, &e);
  if (e.what != UTF8_OK) {
    char why[UTF8_DESCRIBE_MAX];
    t->err = sqlite3_mprintf("argument 1 (runs): %s",
                             utf8_describe(&e, raw, why, sizeof why));
    return t->err ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  char *marked = sqlite3_malloc64(len + 1);
  char *repaired = marked ? trg_text_repair(raw, n, 1) : NULL;
  item_list other = {NULL, 0, 0, SQLITE_OK};
  int rc = repaired ? SQLITE_OK : SQLITE_NOMEM;
  if (rc == SQLITE_OK) {
    marked[utf8_json_mark(raw, n, marked, NULL)] = 0;
    rc = items_read(t, repaired, l);
  }
  if (rc == SQLITE_OK) rc = items_read(t, marked, &other);
  if (rc == SQLITE_OK) items_refuse_marked(l, &other);
  items_clear(&other);
  sqlite3_free(marked);
  sqlite3_free(repaired);
  return rc;
}

/* One report of the array, inside the call's transaction: SQLITE_OK with
** its element appended (ok, or refused: nothing of it was written), or a
** failure of the whole call. No SAVEPOINT per report: SQLite would
** journal each report's pages again for it, and past 64 KiB of such
** journal (a few reports) write it to a temporary file, a write per page
** (measured: 280k writes for 20k reports against 29k). */
static int finish_item_do(tick *t, int i, finish_item *e) {
  char *error = NULL, *result = NULL, *why = NULL;
  int rc = SQLITE_OK;
  if (!e->bad && e->usage) {
    rc = usage_check(t, e->usage, &why);
    if (why) {
      char *named = sqlite3_mprintf("usage: %s", why);
      sqlite3_free(why);
      why = named;
      if (!why) rc = SQLITE_NOMEM;
    }
  }
  if (!e->bad && !why && rc == SQLITE_OK) {
    rc = tick_finish_detail(e->status, e->detail,
                            e->detail ? strlen(e->detail) : 0, &error, &result);
    t->usage = e->usage; /* checked */
    if (rc == SQLITE_OK)
      rc = tick_finish_in(t, e->run_id, e->status, error, result, NULL);
    t->usage = NULL;
    if (rc != SQLITE_OK && t->err) { /* refused before any write */
      why = t->err;
      t->err = NULL;
      rc = SQLITE_OK;
    }
  }
  if (rc == SQLITE_OK) {
    const char *msg = e->bad ? e->bad : why;
    sqlite3_str_appendall(t->out, i ? ",{\"run_id\":" : "[{\"run_id\":");
    json_str(t->out, e->run_id);
    if (msg) {
      sqlite3_str_appendall(t->out, ",\"ok\":false,\"error\":");
      json_str(t->out, msg);
      sqlite3_str_appendall(t->out, "}");
    } else {
      sqlite3_str_appendall(t->out, ",\"ok\":true}");
    }
  }
  sqlite3_free(why);
  sqlite3_free(error);
  sqlite3_free(result);
  return rc;
}

/* trigger_run_finish_many(runs [, now]): runs a JSON array of {run_id,
** status[, detail]}, each finished as trigger_run_finish would, all in
** one transaction (a SAVEPOINT in the caller's): a report refused
** (unknown run, already finished, a bad element) writes nothing and is
** answered {"run_id":..,"ok":false,"error":..}; the others
** {"run_id":..,"ok":true}, in the order given; any other failure undoes
** the whole call. */
static void fn_run_finish_many(sqlite3_context *ctx, int argc,
                               sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_finish_many") != 0) return;
  item_list items = {NULL, 0, 0, SQLITE_OK};
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
    trg_result_error(ctx, SQLITE_MISMATCH, t.fname,
                     "argument 1 (runs) must be text");
    goto out;
  }
  if (trg_arg_instant(ctx, t.fname, argc, argv, 1, "now", 1, &t.now) != 0)
    goto out;
  t.out = sqlite3_str_new(t.call.db);
  store_call_take(&t.call);
  int rc = items_of_value(&t, argv[0], &items);
  if (rc == SQLITE_OK) {
    store_txn txn;
    rc = store_call_txn_begin(&t.call, &txn);
    for (int i = 0; rc == SQLITE_OK && i < items.n; i++)
      rc = finish_item_do(&t, i, &items.v[i]);
    if (rc == SQLITE_OK) sqlite3_str_appendall(t.out, items.n ? "]" : "[]");
    store_call_stmts_done(&t.call);
    rc = tick_txn_end(&t, &txn, rc);
  }
  tick_result(&t, ctx, rc);
out:
  store_call_give(&t.call);
  items_clear(&items);
  tick_end(&t);
}

/* The lease length a heartbeat renews by default: the claim's (rows
** claimed before schema version 4 have no lease_ms: their lease as
** claimed, never renewed then). */
static i64 claim_lease_ms(const trg_run *run) {
  if (!run->v[RC_LEASE_MS].null && run->v[RC_LEASE_MS].i > 0)
    return run->v[RC_LEASE_MS].i;
  i64 ms = run->v[RC_LEASE_UNTIL].i - run->v[RC_CLAIMED_AT].i;
  return ms > 0 ? ms : TRG_DEFAULT_LEASE_MS;
}

/* Load run run_id and check it as stored (store_run_check): SQLITE_OK, or an
** error (t->err: unknown run_id, or a value changed outside the extension,
** refused until it is fixed; the tick closes such a run when it reads it). */
static int run_find(tick *t, const char *run_id, trg_run *run) {
  int found = store_run_load(t->call.st, run_id, run);
  if (found == SQLITE_DONE) {
    t->err = sqlite3_mprintf("unknown run_id '%s'", run_id);
    return SQLITE_ERROR;
  }
  if (found != SQLITE_ROW) return found;
  char *why = NULL;
  int rc = store_run_check(t->call.st, run, &why);
  if (!why) return rc;
  t->err = sqlite3_mprintf("run '%s' holds a value changed outside the "
                           "extension: %s (fix it in the shadow table first)",
                           run_id, why);
  sqlite3_free(why);
  return t->err ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
}

/* Extend the lease of a running run to now + lease_ms (0: the claim's),
** never shortening it; refused for a run not running or whose lease passed
** at or before now (the tick reclaims exactly those). */
static int renew_lease(tick *t, trg_run *run, const char *run_id,
                       i64 lease_ms) {
  const char *status = trg_val_text(&run->v[RC_STATUS]);
  if (strcmp(status, "running") != 0) {
    t->err = sqlite3_mprintf("run '%s' is not running (%s%s%s)", run_id, status,
                             run->v[RC_ERROR].null ? "" : ": ",
                             trg_val_text(&run->v[RC_ERROR]));
    return SQLITE_ERROR;
  }
  /* a running run has its lease_until (run_find's store_run_check) */
  i64 until = run->v[RC_LEASE_UNTIL].i;
  if (until <= t->now) {
    char was[CIVIL_ISO_MAX], now[CIVIL_ISO_MAX];
    tick_iso_utc(until, was);
    tick_iso_utc(t->now, now);
    t->err = sqlite3_mprintf("run '%s': its lease passed at %s (now %s); "
                             "the next tick reclaims it",
                             run_id, was, now);
    return SQLITE_ERROR;
  }
  /* A lease never moves backwards: a heartbeat from a clock behind the
  ** claimer's (now before the claim) leaves the longer one. */
  i64 renewed = t->now + (lease_ms ? lease_ms : claim_lease_ms(run));
  if (renewed > until) trg_val_set_int(&run->v[RC_LEASE_UNTIL], renewed);
  return store_run_save(t->call.st, run);
}

/* One heartbeat's arguments and its run. */
typedef struct heartbeat {
  const char *run_id;
  i64 lease_ms;
  trg_run *run;
} heartbeat;

/* The heartbeat inside the call's transaction (tick_body). */
static int heartbeat_in_txn(tick *t, void *arg) {
  heartbeat *hb = arg;
  int rc = run_find(t, hb->run_id, hb->run);
  if (rc == SQLITE_OK) rc = renew_lease(t, hb->run, hb->run_id, hb->lease_ms);
  if (rc == SQLITE_OK) trigger_run_json(t->out, hb->run);
  return rc;
}

static void fn_run_heartbeat(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_heartbeat") != 0) return;
  trg_run run;
  memset(&run, 0, sizeof run);
  i64 lease_ms = 0;
  const char *run_id = trg_arg_text(ctx, t.fname, argv, 0, "run_id");
  if (!run_id) goto out;
  if (argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    lease_ms = sqlite3_value_int64(argv[1]);
    if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER || lease_ms < 1 ||
        lease_ms > SCHED_SPAN_MAX) {
      trg_result_error(ctx, SQLITE_MISMATCH, t.fname,
                       "argument 2 (lease_ms) must be an integer 1..%lld",
                       (long long)SCHED_SPAN_MAX);
      goto out;
    }
  }
  if (trg_arg_instant(ctx, t.fname, argc, argv, 2, "now", 1, &t.now) != 0)
    goto out;
  t.out = sqlite3_str_new(t.call.db);
  store_call_take(&t.call);
  heartbeat hb = {run_id, lease_ms, &run};
  tick_in_txn(&t, ctx, heartbeat_in_txn, &hb);
out:
  store_call_give(&t.call);
  trg_run_clear(&run);
  tick_end(&t);
}

int tick_fn_run_report_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_run_finish", 2, 5, TRG_FN_SIDE, fn_run_finish},
      {"trigger_run_finish_many", 1, 2, TRG_FN_SIDE, fn_run_finish_many},
      {"trigger_run_heartbeat", 1, 3, TRG_FN_SIDE, fn_run_heartbeat},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
