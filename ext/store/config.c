/*
** config.c -- trigger_config keys and defaults; values live in the
** triggers_config shadow table (read and written here) and fall back to
** these defaults. A value that cannot be read (out of memory, I/O) is not a
** default: the error is kept in store.err and fails the caller's
** transaction. A stored value that trigger_config(key, value) would refuse
** (changed outside the extension, docs/functions.md#config-keys) is not
** used either: the default is, and trigger_config(key) reports it.
*/
#include "store/config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

SQLITE_EXTENSION_INIT3

static const config_key keys[] = {
    {"min_interval_ms", "60000", 1},
    {"max_interval_ms", "31622400000", 1}, /* 366 days */
    {"confirm_below_ms", "300000", 1},
    {"max_active_per_scope", "50", 1},
    {"max_creations_per_window", "20", 1},
    {"max_active_per_user", "20", 1},
    {"creation_window_ms", "3600000", 1},
    {"creator_roles", "owner,admin", 0},
    {"run_retention_ms", "2592000000", 1}, /* 30 days */
    {"misfire_grace_ms", "60000", 1},
    {"min_confidence", "0.5", 0},
    {"preload_sql", NULL, 0}, /* preload_sql.h */
    {"preload_max_bytes", "4096", 1},
    {"event_retention_ms", "604800000", 1}, /* 7 days */
    /* an agent's create (agent/create_policy.c): the fields it may set */
    {"max_agent_attempts", "10", 1},
    {"min_agent_backoff_ms", "1000", 1},    /* when max_attempts > 1 */
    {"max_agent_jitter_ms", "3600000", 1},  /* 1 hour */
    {"max_agent_window_ms", "86400000", 1}, /* 1 day */
    {"max_agent_runs", "1000000", 1},
    {"max_agent_pause_after_failures", "100", 1},
    {"max_agent_trigger_id_bytes", "128", 1},
    {"max_agent_display_name_bytes", "256", 1},
    {"max_agent_instructions_bytes", "16384", 1},
    {"max_agent_metadata_bytes", "8192", 1},
    /* holidays (docs/calendar.md#holidays-and-business-days) */
    {"business_days", "MO,TU,WE,TH,FR", 0},
    {"default_calendar", NULL, 0},
    /* an agent's budget (docs/reactive.md#budgets); unset or 0: none */
    {"agent_budget_window_ms", NULL, 1},
    {"agent_budget_cost", NULL, 1},
};

const config_key *store_config_find(const char *key) {
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    if (strcmp(keys[i].key, key) == 0) return &keys[i];
  }
  return NULL;
}

/* A max_agent_*_bytes key: a size within a create's request. */
static int request_size_key(const char *key) {
  size_t n = strlen(key);
  return strncmp(key, "max_agent_", 10) == 0 && n > 16 &&
         strcmp(key + n - 6, "_bytes") == 0;
}

i64 store_config_max(const config_key *k) {
  if (request_size_key(k->key)) return CONFIG_REQUEST_BYTES_MAX;
  return strcmp(k->key, "preload_max_bytes") == 0 ? CONFIG_PRELOAD_BYTES_MAX
                                                  : SCHED_SPAN_MAX;
}

int store_config_value_ok(const config_key *k, const char *text) {
  if (k->integer) {
    size_t n = strspn(text, "0123456789");
    return n > 0 && n <= 15 && text[n] == 0 &&
           strtoll(text, NULL, 10) <= store_config_max(k);
  }
  if (strcmp(k->key, "business_days") == 0) {
    uint8_t bits;
    return sched_business_days_parse(text, &bits) == 0;
  }
  if (strcmp(k->key, "min_confidence") == 0) {
    char *end;
    double x = strtod(text, &end);
    return end != text && *end == 0 && isfinite(x) && x >= 0 && x <= 1;
  }
  return 1;
}

void store_config_rule(const config_key *k, char *buf, size_t n) {
  if (k->integer) {
    sqlite3_snprintf((int)n, buf, "an integer 0..%lld",
                     (long long)store_config_max(k));
  } else {
    sqlite3_snprintf((int)n, buf, "%s",
                     strcmp(k->key, "min_confidence") == 0 ? "a number 0..1"
                     : strcmp(k->key, "business_days") == 0
                         ? "weekdays MO..SU separated by commas"
                         : "text");
  }
}

char *store_config_text(store *s, const char *key) {
  char *v = store_config_get(s, key);
  const config_key *k = store_config_find(key);
  if (v && k && !store_config_value_ok(k, v)) {
    sqlite3_free(v); /* changed outside the extension: the default */
    v = NULL;
  }
  if (v) return v;
  v = sqlite3_mprintf("%s", k && k->def ? k->def : "");
  if (!v && !s->err) s->err = SQLITE_NOMEM; /* not the default: an error */
  return v;
}

i64 store_config_int(store *s, const char *key) {
  char *v = store_config_text(s, key);
  i64 out = v ? (i64)strtoll(v, NULL, 10) : 0;
  sqlite3_free(v);
  return out;
}

double store_config_real(store *s, const char *key) {
  char *v = store_config_text(s, key);
  double out = v ? strtod(v, NULL) : 0;
  sqlite3_free(v);
  return out;
}

/* ---- the triggers_config table ----------------------------------------- */

/* The text of statement `which` (NULL: out of memory, or not one of this
** file's). */
static char *sql_text(store_sql which) {
  char *out = NULL;
  switch (which) {
    case ST_CONFIG_GET:
      out = sqlite3_mprintf(
          "SELECT value FROM main.triggers_config WHERE key = ?1");
      break;
    case ST_CONFIG_DEL:
      out = sqlite3_mprintf("DELETE FROM main.triggers_config WHERE key = ?1");
      break;
    case ST_CONFIG_SET:
      out = sqlite3_mprintf(
          "INSERT OR REPLACE INTO main.triggers_config(key, value) VALUES(?1, ?2)");
      break;
    default: break;
  }
  return out;
}

char *store_config_get(store *s, const char *key) {
  sqlite3_stmt *st = store_stmt(s, ST_CONFIG_GET, sql_text);
  char *out = NULL;
  if (!st) {
    if (!s->err) s->err = store_err(s); /* not "unset": see store.err */
    return NULL;
  }
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
    const char *v = (const char *)sqlite3_column_text(st, 0);
    out = v ? sqlite3_mprintf("%s", v) : NULL;
    if (!out && !s->err) s->err = SQLITE_NOMEM;
  } else if (rc != SQLITE_ROW && rc != SQLITE_DONE && !s->err) {
    s->err = rc;
  }
  sqlite3_reset(st);
  return out;
}

int store_config_set(store *s, const char *key, const char *value) {
  sqlite3_stmt *st = store_stmt(s, ST_CONFIG_SET, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_config_clear(store *s, const char *key) {
  sqlite3_stmt *st = store_stmt(s, ST_CONFIG_DEL, sql_text);
  if (!st) return store_err(s);
  return store_step_done(st, sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC));
}
