/*
** fn_admin.c -- the functions an operator calls: trigger_version,
** trigger_install, trigger_health, trigger_prune and trigger_config.
** Argument errors name the function and the argument ("trigger_config:
** argument 1 (key): unknown key 'x'").
*/
#include <stdlib.h>
#include <string.h>

#include "base/args.h"
#include "base/json_out.h"
#include "base/register.h"
#include "store/budget.h"
#include "store/config.h"
#include "store/health.h"
#include "store/install.h"
#include "store/json.h"
#include "store/preload_sql.h"
#include "store/prune.h"
#include "store/schema.h"
#include "store/stored.h"

SQLITE_EXTENSION_INIT3

static void fn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_result_text(ctx, TRIGGERS_VERSION, -1, SQLITE_STATIC);
}

static void fn_install(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  char *err = NULL;
  if (trg_refuse_in_preload(ctx, "trigger_install") != 0) return;
  trg_ctx *c = sqlite3_user_data(ctx);
  int rc = store_install(db, c->zones, trg_wall_clock_ms(), &err);
  if (rc != SQLITE_OK) {
    trg_result_error(ctx, rc, "trigger_install", "%s",
                     err ? err : trg_errmsg(db, rc));
    sqlite3_free(err);
    return;
  }
  sqlite3_result_int(ctx, TRIGGERS_SCHEMA_VERSION);
}

/* trigger_health's options: {"agents": [ids], "scope": text}, into f
** (texts sqlite3_malloc'd). Text that is not valid UTF-8 (or a JSON escape
** of a NUL or a lone surrogate) is refused first, naming the byte in hex,
** so a message never quotes raw bytes. 0, or -1 with the error set. */
static int health_options(sqlite3_context *ctx, store *s, sqlite3_value *arg,
                          char **agents, char **scope) {
  const char *fname = "trigger_health";
  const char *json = NULL;
  char *err = NULL, buf[TRG_ECHO_MAX];
  if (trg_value_text(arg, 1, "argument 2 (options)", &json, &err) !=
      SQLITE_OK) {
    if (err) trg_result_error(ctx, SQLITE_ERROR, fname, "%s", err);
    else sqlite3_result_error_nomem(ctx);
    sqlite3_free(err);
    return -1;
  }
  int ob = 0;
  /* (a failure to tell is answered as no object) */
  if (!json || store_json_is_object(s, json, &ob) != SQLITE_OK || !ob) {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "argument 2 (options) must be a JSON object");
    return -1;
  }
  store_json_each it;
  int rc = store_json_each_open(s, json, &it), bad = 0;
  while (rc == SQLITE_OK && (rc = store_json_each_next(&it)) == SQLITE_ROW) {
    const char *k = it.m.key, *t = it.m.type;
    char **to = strcmp(k, "agents") == 0 && strcmp(t, "array") == 0 ? agents
                : strcmp(k, "scope") == 0 && strcmp(t, "text") == 0 ? scope
                                                                    : NULL;
    if (!to) {
      trg_result_error(ctx, SQLITE_ERROR, fname,
                       "argument 2 (options): %s: unknown key or wrong type "
                       "(known: agents, an array of agent ids; scope, text)",
                       trg_echo(k, buf));
      bad = 1;
      break;
    }
    sqlite3_free(*to);
    *to = sqlite3_mprintf("%s", to == agents ? it.m.json : it.m.text);
    rc = *to ? SQLITE_OK : SQLITE_NOMEM;
  }
  return store_json_options_end(ctx, fname, &it, bad, rc);
}

/* sep "key":v, and ,"key_capped":true when v is past the cap (health.h). */
static void health_count(sqlite3_str *out, char sep, const char *key, i64 v) {
  sqlite3_str_appendf(out, "%c\"%s\":%lld", sep, key, (long long)v);
  if (v > STORE_HEALTH_CAP)
    sqlite3_str_appendf(out, ",\"%s_capped\":true", key);
}

static void health_json(sqlite3_str *out, const store_health *h,
                        i64 budget_held) {
  health_count(out, '{', "active", h->active);
  health_count(out, ',', "paused", h->paused);
  health_count(out, ',', "overdue", h->overdue);
  health_count(out, ',', "running", h->running);
  health_count(out, ',', "expired_leases", h->expired_leases);
  health_count(out, ',', "failures_24h", h->failures_24h);
  sqlite3_str_appendall(out, ",\"next_due_at\":");
  if (h->has_next_due)
    sqlite3_str_appendf(out, "%lld", (long long)h->next_due_at);
  else sqlite3_str_appendall(out, "null");
  health_count(out, ',', "stalled", h->stalled);
  health_count(out, ',', "recent_creations", h->recent_creations);
  health_count(out, ',', "budget_held", budget_held);
  sqlite3_str_appendall(out, ",\"last_create_error\":");
  if (!h->error_code) {
    sqlite3_str_appendall(out, "null}");
    return;
  }
  sqlite3_str_appendall(out, "{\"code\":");
  json_str(out, h->error_code);
  sqlite3_str_appendall(out, ",\"reason\":");
  json_str(out, h->error_reason);
  sqlite3_str_appendf(out, ",\"at\":%lld}}", (long long)h->error_at);
}

static void fn_health(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_health";
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  i64 now;
  if (store_require_installed(ctx, fname) != 0) return;
  if (trg_arg_instant(ctx, fname, argc, argv, 0, "now", 1, &now) != 0) return;
  store s;
  store_health h;
  memset(&h, 0, sizeof h);
  char *agents = NULL, *scope = NULL;
  store_init(&s, db);
  int narrowed = argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL;
  if (narrowed && health_options(ctx, &s, argv[1], &agents, &scope) != 0) {
    store_close(&s);
    sqlite3_free(agents);
    sqlite3_free(scope);
    return;
  }
  store_health_filter f = {agents, scope};
  i64 window = store_config_int(&s, "creation_window_ms");
  int rc = s.err
               ? s.err
               : store_health_counts(&s, now, window, narrowed ? &f : NULL, &h);
  i64 budget_held = 0; /* docs/reactive.md#budgets */
  if (rc == SQLITE_OK)
    rc = store_budget_held(&s, now, agents, scope, &budget_held);
  store_close(&s);
  sqlite3_free(agents);
  sqlite3_free(scope);
  if (rc != SQLITE_OK) {
    store_health_free(&h);
    trg_result_error(ctx, rc, fname, "%s", trg_errmsg(db, rc));
    return;
  }
  sqlite3_str *out = sqlite3_str_new(db);
  health_json(out, &h, budget_held);
  store_health_free(&h);
  trg_result_str(ctx, out);
}

/* trigger_prune's limit: NULL (no limit) or an integer >= 1. 0, or -1
** with the error set. */
static int prune_limit(sqlite3_context *ctx, sqlite3_value *v, i64 *limit) {
  if (sqlite3_value_type(v) == SQLITE_NULL) return 0;
  int ok;
  if (trg_int_of(v, limit, &ok) != SQLITE_OK) {
    sqlite3_result_error_nomem(ctx);
    return -1;
  }
  if (ok && *limit >= 1) return 0;
  trg_result_error(ctx, SQLITE_MISMATCH, "trigger_prune",
                   "argument 2 (limit) must be an integer >= 1 or NULL");
  return -1;
}

static void fn_prune(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_prune";
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  i64 before;
  if (store_require_installed(ctx, fname) != 0) return;
  if (trg_arg_instant(ctx, fname, argc, argv, 0, "before", 0, &before) != 0)
    return;
  i64 limit = -1; /* none */
  if (argc > 1 && prune_limit(ctx, argv[1], &limit) != 0) return;
  int events = 0; /* argument 3: which table, trigger_runs by default */
  if (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL) {
    const char *table = trg_arg_text(ctx, fname, argv, 2, "table");
    if (!table) return;
    events = strcmp(table, "trigger_events") == 0;
    if (!events && strcmp(table, "trigger_runs") != 0) {
      trg_result_error(ctx, SQLITE_ERROR, fname,
                       "argument 3 (table): '%s' is not 'trigger_runs' or "
                       "'trigger_events'",
                       table);
      return;
    }
  }
  store s;
  i64 deleted;
  store_init(&s, db);
  int rc = events ? store_prune_events(&s, before, limit, &deleted)
                  : store_prune_runs(&s, before, limit, &deleted);
  store_close(&s);
  if (rc != SQLITE_OK) {
    trg_result_error(ctx, rc, fname, "%s", trg_errmsg(db, rc));
    return;
  }
  sqlite3_result_int64(ctx, deleted);
}

/*
** The value argument of trigger_config, checked: integer keys take
** integer-valued text ('30000') and store the number. *out is the text to
** store (in num for integer keys). 0, or -1 with the error set.
*/
static int config_arg(sqlite3_context *ctx, const config_key *k,
                      sqlite3_value *arg, char num[24], const char **out) {
  const char *fname = "trigger_config";
  char buf[TRG_ECHO_MAX];
  i64 i = 0;
  if (sqlite3_value_type(arg) == SQLITE_NULL) {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "argument 2 (value) must not be NULL");
    return -1;
  }
  char rule[48];
  store_config_rule(k, rule, sizeof rule);
  int type = sqlite3_value_type(arg); /* before it is read as text */
  if (strcmp(rule, "text") == 0 && type != SQLITE_TEXT) {
    /* creator_roles = 5 is a mistake, not a role named "5" */
    trg_result_error(ctx, SQLITE_MISMATCH, fname,
                     "argument 2 (value): %s must be text, got %s", k->key,
                     store_stored_type_word(type));
    return -1;
  }
  const char *v;
  char *err = NULL;
  int rc = trg_value_text(arg, 0, "argument 2 (value)", &v, &err);
  if (rc != SQLITE_OK) {
    trg_result_error(ctx, rc, fname, "%s", err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    return -1;
  }
  int isint = 1;
  if (k->integer && trg_int_of(arg, &i, &isint) != SQLITE_OK) {
    sqlite3_result_error_nomem(ctx);
    return -1;
  }
  *out = v;
  if (!k->integer) {
    if (store_config_value_ok(k, v)) return 0;
    trg_result_error(ctx, SQLITE_MISMATCH, fname,
                     "argument 2 (value): %s must be %s", k->key, rule);
    return -1;
  }
  if (!isint) {
    trg_result_error(ctx, SQLITE_MISMATCH, fname,
                     "argument 2 (value): %s: '%s' is not an integer%s", k->key,
                     trg_echo(v, buf), trg_int_unit(k->key));
    return -1;
  }
  if (i < 0 || i > store_config_max(k)) {
    trg_result_error(ctx, SQLITE_MISMATCH, fname,
                     "argument 2 (value): %s must be an integer 0..%lld",
                     k->key, (long long)store_config_max(k));
    return -1;
  }
  sqlite3_snprintf(24, num, "%lld", (long long)i);
  *out = num;
  return 0;
}

/*
** trigger_config('preload_sql', value): NULL or '' clears it; other text
** must be one read-only query (store_preload_check), refused otherwise.
** 0 (*out: the text to set, "" to clear), or -1 with the error set.
*/
static int preload_arg(sqlite3_context *ctx, sqlite3 *db, sqlite3_value *arg,
                       const char **out) {
  const char *fname = "trigger_config";
  const char *v = "";
  char *err = NULL;
  int type = sqlite3_value_type(arg), rc = SQLITE_OK;
  if (type != SQLITE_NULL && type != SQLITE_TEXT) {
    trg_result_error(ctx, SQLITE_MISMATCH, fname,
                     "argument 2 (value): preload_sql must be text (one "
                     "read-only query) or NULL");
    return -1;
  }
  if (type == SQLITE_TEXT) {
    rc = trg_value_text(arg, 0, "argument 2 (value)", &v, &err);
    if (rc != SQLITE_OK) {
      trg_result_error(ctx, rc, fname, "%s", err ? err : sqlite3_errstr(rc));
      sqlite3_free(err);
      return -1;
    }
  }
  if (*v) rc = store_preload_check(sqlite3_user_data(ctx), db, v, &err);
  *out = v;
  if (rc == SQLITE_OK) return 0;
  if (err) {
    trg_result_error(ctx, rc, fname, "argument 2 (value): %s", err);
  } else if (rc == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(ctx);
  } else {
    trg_result_error(ctx, rc, fname, "%s", trg_errmsg(db, rc));
  }
  sqlite3_free(err);
  return -1;
}

/*
** trigger_config(key, value): the value checked, then written. The result
** is the value set, made before the write (not read back): nothing may
** fail once the write has committed, or the call would report an error
** for a change it made.
*/
static void config_set(sqlite3_context *ctx, store *s, const config_key *k,
                       sqlite3_value *arg) {
  char num[24];
  const char *v = NULL;
  int preload = strcmp(k->key, "preload_sql") == 0;
  if (preload ? preload_arg(ctx, s->db, arg, &v) != 0
              : config_arg(ctx, k, arg, num, &v) != 0) {
    return;
  }
  int text = !k->integer && (*v || !preload); /* else an integer or NULL */
  char *shown = text ? sqlite3_mprintf("%s", v) : NULL;
  int rc = text && !shown   ? SQLITE_NOMEM
           : *v || !preload ? store_config_set(s, k->key, v)
                            : store_config_clear(s, k->key);
  if (rc != SQLITE_OK) {
    sqlite3_free(shown);
    if (rc == SQLITE_NOMEM) sqlite3_result_error_nomem(ctx);
    else
      trg_result_error(ctx, rc, "trigger_config", "%s", trg_errmsg(s->db, rc));
  } else if (k->integer) {
    sqlite3_result_int64(ctx, strtoll(v, NULL, 10));
  } else if (text) {
    sqlite3_result_text(ctx, shown, -1, sqlite3_free);
  } else {
    sqlite3_result_null(ctx); /* preload_sql cleared */
  }
}

static void fn_config(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_config";
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  const char *key = trg_arg_text(ctx, fname, argv, 0, "key");
  if (!key) return;
  const config_key *k = store_config_find(key);
  if (!k) {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "argument 1 (key): unknown "
                     "key '%s'",
                     key);
    return;
  }
  if (store_require_installed(ctx, fname) != 0) return;
  store s;
  char rule[48];
  store_init(&s, db);
  if (argc > 1) {
    config_set(ctx, &s, k, argv[1]);
    store_close(&s);
    return;
  }
  char *v = store_config_get(&s, key);
  int err = s.err; /* not "unset": the default would be shown */
  store_close(&s);
  if (err) {
    sqlite3_free(v);
    if (err == SQLITE_NOMEM) sqlite3_result_error_nomem(ctx);
    else trg_result_error(ctx, err, fname, "%s", trg_errmsg(db, err));
    return;
  }
  if (v && !store_config_value_ok(k, v)) {
    /* Changed outside the extension: the tick and the create action use
    ** the default; say so rather than show either value as the setting. */
    char buf[STORED_SHOWN + 4];
    store_config_rule(k, rule, sizeof rule);
    trg_result_error(ctx, SQLITE_MISMATCH, fname,
                     "triggers_config.%s: '%s' is not %s (changed outside "
                     "the extension); the default %s is used until "
                     "trigger_config('%s', value) sets it",
                     key, store_stored_shown(v, buf), rule, k->def, key);
    sqlite3_free(v);
    return;
  }
  const char *val = v ? v : k->def;
  if (k->integer) {
    sqlite3_result_int64(ctx, strtoll(val, NULL, 10));
  } else {
    sqlite3_result_text(ctx, val, -1, SQLITE_TRANSIENT);
  }
  sqlite3_free(v);
}

int sql_fn_admin_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_version", 0, 0, TRG_FN_PURE | SQLITE_DETERMINISTIC, fn_version},
      {"trigger_install", 0, 0, TRG_FN_SIDE, fn_install},
      {"trigger_health", 0, 2, TRG_FN_SIDE, fn_health},
      {"trigger_prune", 1, 3, TRG_FN_SIDE, fn_prune},
      {"trigger_config", 1, 2, TRG_FN_SIDE, fn_config},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
