/*
** config.h -- the trigger_config keys (docs/functions.md#config-keys),
** their defaults, the triggers_config table, and typed reads of the values
** stored there.
*/
#ifndef TRIGGERS_CONFIG_H
#define TRIGGERS_CONFIG_H

#include "store/store.h"

typedef struct config_key {
  const char *key;
  const char *def; /* default, as text; NULL: none (the key is unset) */
  int integer;     /* the value is an integer >= 0 */
} config_key;

/* preload_max_bytes's largest value (a run's payload stays small). */
#define CONFIG_PRELOAD_BYTES_MAX 1048576
/* The largest value of a max_agent_*_bytes key: a create's request (JSON
** or XML) is at most this long (agent/create_policy.h). */
#define CONFIG_REQUEST_BYTES_MAX 65536

const config_key *store_config_find(const char *key); /* NULL: unknown key */
/* 1 when text is a value key k may hold, what trigger_config(key, value)
** accepts: an integer key's digits of 0..store_config_max(k), min_confidence a
** number 0..1, other keys any text (preload_sql is checked by
** store_preload_check when it is set). A stored value that is not
** (changed outside the extension) reads as the default. */
int store_config_value_ok(const config_key *k, const char *text);
/* The largest value of integer key k: SCHED_SPAN_MAX, or less for a key
** that bounds memory (preload_max_bytes, the max_agent_*_bytes keys). */
i64 store_config_max(const config_key *k);
/* The rule of store_config_value_ok in words ("an integer
** 0..315537897599999"). */
void store_config_rule(const config_key *k, char *buf, size_t n);
/* The stored text of key, or NULL when none (sqlite3_free it); a value
** that cannot be read sets s->err. */
char *store_config_get(store *s, const char *key);
int store_config_set(store *s, const char *key, const char *value);
/* Remove key's stored value (a key without a default is unset again). */
int store_config_clear(store *s, const char *key);

i64 store_config_int(store *s, const char *key); /* stored or default */
double store_config_real(store *s, const char *key);
/* The stored value, or the default when there is none or it is not one
** store_config_value_ok allows; sqlite3_free it. */
char *store_config_text(store *s, const char *key);

#endif
