/*
** config.c -- trigger_config keys and defaults; values live in the
** triggers_config shadow table (store.c) and fall back to these defaults.
** A value that cannot be read (out of memory, I/O) is not a default: the
** error is kept in store.err and fails the caller's transaction.
*/
#include "config.h"

#include <stdlib.h>
#include <string.h>

SQLITE_EXTENSION_INIT3

static const config_key keys[] = {
    {"min_interval_ms", "60000", 1},
    {"max_interval_ms", "31622400000", 1}, /* 366 days */
    {"confirm_below_ms", "300000", 1},
    {"max_active_per_scope", "50", 1},
    {"max_creations_per_window", "20", 1},
    {"creation_window_ms", "3600000", 1},
    {"creator_roles", "owner,admin", 0},
    {"run_retention_ms", "2592000000", 1}, /* 30 days */
    {"misfire_grace_ms", "60000", 1},
    {"min_confidence", "0.5", 0},
};

const config_key *config_find(const char *key) {
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    if (strcmp(keys[i].key, key) == 0) return &keys[i];
  }
  return NULL;
}

char *config_text(store *s, const char *key) {
  char *v = store_config_get(s, key);
  if (v) return v;
  const config_key *k = config_find(key);
  v = sqlite3_mprintf("%s", k ? k->def : "");
  if (!v && !s->err) s->err = SQLITE_NOMEM; /* not the default: an error */
  return v;
}

i64 config_int(store *s, const char *key) {
  char *v = config_text(s, key);
  i64 out = v ? (i64)strtoll(v, NULL, 10) : 0;
  sqlite3_free(v);
  return out;
}

double config_real(store *s, const char *key) {
  char *v = config_text(s, key);
  double out = v ? strtod(v, NULL) : 0;
  sqlite3_free(v);
  return out;
}
