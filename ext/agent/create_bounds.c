/*
** create_bounds.c -- an agent's create against the bounds of the fields
** it may set (create_bounds.h): one row per field, its config key and
** how the key bounds it. The schedule's own bounds (min_interval_ms,
** max_interval_ms, confirm_below_ms) are fn_create.c's.
*/
#include "agent/create_bounds.h"

#include <string.h>

#include "agent/xml_request.h"
#include "store/columns.h"
#include "store/config.h"

SQLITE_EXTENSION_INIT3

_Static_assert(CREATE_INPUT_MAX_BYTES == XML_REQUEST_MAX_BYTES,
               "one bound for a create's request, JSON or XML");
_Static_assert(CREATE_INPUT_MAX_BYTES == CONFIG_REQUEST_BYTES_MAX,
               "a max_agent_*_bytes key never exceeds the request");

typedef enum bound_kind {
  BOUND_MAX,      /* a given value is at most the key */
  BOUND_BYTES,    /* a given text is at most the key, in bytes */
  BOUND_RETRY_MIN /* at least the key when retries are allowed */
} bound_kind;

static const struct field_bound {
  const char *key;
  int col;
  bound_kind kind;
} bounds[] = {
    {"max_agent_trigger_id_bytes", TC_TRIGGER_ID, BOUND_BYTES},
    {"max_agent_display_name_bytes", TC_DISPLAY_NAME, BOUND_BYTES},
    {"max_agent_instructions_bytes", TC_INSTRUCTIONS, BOUND_BYTES},
    {"max_agent_metadata_bytes", TC_METADATA, BOUND_BYTES},
    {"max_agent_runs", TC_MAX_RUNS, BOUND_MAX},
    {"max_agent_attempts", TC_MAX_ATTEMPTS, BOUND_MAX},
    {"min_agent_backoff_ms", TC_BACKOFF_MS, BOUND_RETRY_MIN},
    {"max_agent_jitter_ms", TC_JITTER_MS, BOUND_MAX},
    {"max_agent_window_ms", TC_WINDOW_MS, BOUND_MAX},
    {"max_agent_pause_after_failures", TC_PAUSE_AFTER_FAILURES, BOUND_MAX},
};

/* The refusal of field b at value v (bound by limit), or NULL when out of
** memory. */
static char *refusal(const struct field_bound *b, const trg_row *r, i64 v,
                     i64 limit) {
  const char *name = trg_cols[b->col].name;
  switch (b->kind) {
    case BOUND_BYTES:
      return sqlite3_mprintf("%s is %lld bytes, more than %s %lld", name,
                             (long long)v, b->key, (long long)limit);
    case BOUND_RETRY_MIN:
      return sqlite3_mprintf("%s %lld is below %s %lld (retries are allowed: "
                             "max_attempts %lld)",
                             name, (long long)v, b->key, (long long)limit,
                             (long long)r->v[TC_MAX_ATTEMPTS].i);
    default:
      return sqlite3_mprintf("%s %lld is above %s %lld", name, (long long)v,
                             b->key, (long long)limit);
  }
}

int create_bounds_check(store *s, const trg_row *r, size_t metadata_bytes,
                        char **reason) {
  *reason = NULL;
  for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
    const struct field_bound *b = &bounds[i];
    const trg_val *val = &r->v[b->col];
    if (val->null) continue; /* not given: the table's default */
    i64 v = b->kind != BOUND_BYTES  ? val->i
            : b->col == TC_METADATA ? (i64)metadata_bytes
                                    : (i64)strlen(val->t);
    if (b->kind == BOUND_RETRY_MIN && r->v[TC_MAX_ATTEMPTS].i <= 1) continue;
    i64 limit = config_int(s, b->key);
    if (s->err) return s->err;
    int out = b->kind == BOUND_RETRY_MIN ? v < limit : v > limit;
    if (!out) continue;
    *reason = refusal(b, r, v, limit);
    return *reason ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  return SQLITE_OK;
}
