/*
** config.h -- the trigger_config keys (DESIGN.md §7), their defaults and
** typed reads of the values stored in triggers_config.
*/
#ifndef TRIGGERS_CONFIG_H
#define TRIGGERS_CONFIG_H

#include "store.h"

typedef struct config_key {
  const char *key;
  const char *def; /* default, as text */
  int integer;     /* the value is an integer >= 0 */
} config_key;

const config_key *config_find(const char *key); /* NULL: unknown key */
i64 config_int(store *s, const char *key);      /* stored or default */
double config_real(store *s, const char *key);
char *config_text(store *s, const char *key); /* sqlite3_free it */

#endif
