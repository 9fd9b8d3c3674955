/*
** create_policy.c -- what an agent's create may do (create_policy.h): its
** autonomy and role, the bounds of the fields it may set (one row per
** field, its config key and how the key bounds it), the schedule's
** bounds (min_interval_ms, max_interval_ms), the confirmation below
** confirm_below_ms, the quotas, and a trigger_id it names.
*/
#include "agent/create_policy.h"

#include <string.h>

#include "agent/time_claim.h"
#include "agent/xml_request.h"
#include "base/args.h"
#include "store/agent.h"
#include "store/columns.h"
#include "store/config.h"
#include "time/civil.h"

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
  const char *name = store_trigger_cols[b->col].name;
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

/* Row r (valid and normalized: defaults applied) against the bounds of
** the fields; metadata_bytes is the size of the request's own metadata
** (before the action adds metadata.when and metadata.user_id). SQLITE_OK
** when within them; SQLITE_ERROR with *reason naming the field, its value
** and the key ("max_attempts 1000000 is above max_agent_attempts 10");
** SQLITE_NOMEM. A key that cannot be read sets s->err (config.h). */
static int bounds_check(store *s, const trg_row *r, size_t metadata_bytes,
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
    i64 limit = store_config_int(s, b->key);
    if (s->err) return s->err;
    int out = b->kind == BOUND_RETRY_MIN ? v < limit : v > limit;
    if (!out) continue;
    *reason = refusal(b, r, v, limit);
    return *reason ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

static int role_allowed(create_req *q) {
  char *roles = store_config_text(q->call.st, "creator_roles");
  int ok = 0;
  if (roles) {
    size_t n = strlen(q->role);
    for (char *p = roles; *p && !ok;) {
      char *end = strchr(p, ',');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      while (len && *p == ' ') {
        p++;
        len--;
      }
      while (len && p[len - 1] == ' ') len--;
      ok = n && len == n && strncmp(p, q->role, n) == 0;
      p = end ? end + 1 : p + strlen(p);
    }
  }
  sqlite3_free(roles);
  return ok;
}

/* Shortest gap between the next occurrences of a cron or rrule schedule
** (sampled over the next 200 occurrences), or -1 when it never fires. */
static i64 cron_shortest_gap(const sched_spec *s, i64 now) {
  i64 prev, next, best = -1;
  if (!sched_next(s, now, &prev)) return -1;
  for (int i = 0; i < 200 && sched_next(s, prev, &next); i++) {
    if (best < 0 || next - prev < best) best = next - prev;
    prev = next;
  }
  return best < 0 ? INT64_MAX : best;
}

/* A schedule with no occurrence after now: the reason it can never run
** (end_at not in the future, no occurrence before end_at, a cron that
** never fires). */
static int never_runs(create_req *q) {
  const sched_spec *s = &q->spec;
  char end[CIVIL_ISO_MAX];
  if (s->end_at != SCHED_NONE) {
    civil_format_iso(s->end_at, 0, 1, end);
    return agent_create_fail(
        q, "INVALID_SCHEDULE",
        s->end_at <= q->now
            ? sqlite3_mprintf("end_at %s is not in the future: the schedule "
                              "can never run",
                              end)
            : sqlite3_mprintf("the %s schedule has no occurrence before "
                              "end_at %s: it can never run",
                              sched_type_name(s->type), end));
  }
  if (s->type == SCHED_RRULE) {
    char buf[TRG_ECHO_MAX];
    return agent_create_fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("rrule '%s' never occurs after now",
                        trg_echo(trg_val_text(&q->row.v[TC_RRULE]), buf)));
  }
  return agent_create_fail(
      q, "INVALID_SCHEDULE",
      sqlite3_mprintf("cron_expression '%s' never fires after now",
                      trg_val_text(&q->row.v[TC_CRON_EXPRESSION])));
}

/* The first occurrence: in the future (a once instant), at all (before
** end_at), and at most max_interval_ms ahead, for every type. */
static int check_first(create_req *q, i64 max_iv) {
  const sched_spec *s = &q->spec;
  char a[CIVIL_ISO_MAX];
  i64 first;
  /* an event trigger waits for its key: only a timeout is an occurrence */
  if (s->type == SCHED_EVENT && s->scheduled_at == SCHED_NONE) return SQLITE_OK;
  if ((s->type == SCHED_ONCE || s->type == SCHED_EVENT) &&
      s->scheduled_at <= q->now) {
    civil_format_iso(s->scheduled_at, 0, 1, a);
    return agent_create_fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("scheduled_at %s is not in the future", a));
  }
  if (!sched_first(s, q->now, &first)) return never_runs(q);
  if (first - q->now <= max_iv) return SQLITE_OK;
  civil_format_iso(first, 0, 1, a);
  return agent_create_fail(
      q, "INVALID_SCHEDULE",
      sqlite3_mprintf("%s %s is further ahead than max_interval_ms %lld",
                      s->type != SCHED_INTERVAL && s->type != SCHED_CRON
                          ? "scheduled_at"
                          : "the first occurrence",
                      a, (long long)max_iv));
}

static int check_policy(create_req *q) {
  i64 min_iv = store_config_int(q->call.st, "min_interval_ms");
  i64 max_iv = store_config_int(q->call.st, "max_interval_ms");
  i64 confirm = store_config_int(q->call.st, "confirm_below_ms");
  i64 period = INT64_MAX;
  const sched_spec *s = &q->spec;
  if (s->type == SCHED_INTERVAL) {
    period = s->interval_ms;
  } else if (s->type == SCHED_CRON || s->type == SCHED_RRULE) {
    period = cron_shortest_gap(s, q->now);
    if (period < 0) return never_runs(q);
  }
  if (period != INT64_MAX && period < min_iv) {
    return agent_create_fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf(
            "%s every %lld ms is more often than min_interval_ms %lld",
            s->type == SCHED_CRON    ? "cron_expression fires"
            : s->type == SCHED_RRULE ? "rrule occurs"
                                     : "interval_ms: runs",
            (long long)period, (long long)min_iv));
  }
  if (s->type == SCHED_INTERVAL && period > max_iv) {
    return agent_create_fail(
        q, "INVALID_SCHEDULE",
        sqlite3_mprintf("interval_ms %lld is above max_interval_ms %lld",
                        (long long)period, (long long)max_iv));
  }
  int rc = check_first(q, max_iv);
  if (rc) return rc;
  if (period != INT64_MAX && period < confirm && !q->confirmed) {
    return agent_create_fail(
        q, "CONFIRMATION_REQUIRED",
        sqlite3_mprintf("runs every %lld ms, below confirm_below_ms %lld: "
                        "repeat with context.confirmed = true",
                        (long long)period, (long long)confirm));
  }
  return SQLITE_OK;
}

static int check_quota(create_req *q) {
  i64 max_active = store_config_int(q->call.st, "max_active_per_scope");
  i64 max_new = store_config_int(q->call.st, "max_creations_per_window");
  i64 window = store_config_int(q->call.st, "creation_window_ms");
  i64 active, recent;
  int rc = store_agent_quota(q->call.st, trg_val_text(&q->row.v[TC_AGENT_ID]),
                             trg_val_text(&q->row.v[TC_SCOPE]), q->now - window,
                             &active, &recent);
  if (rc != SQLITE_OK) return rc;
  if (active >= max_active) {
    return agent_create_fail(
        q, "TRIGGER_QUOTA_EXCEEDED",
        sqlite3_mprintf(
            "%lld active triggers in this agent and scope (max_active_per_scope %lld)",
            (long long)active, (long long)max_active));
  }
  if (recent >= max_new) {
    return agent_create_fail(
        q, "TRIGGER_QUOTA_EXCEEDED",
        sqlite3_mprintf(
            "%lld triggers created in the last %lld ms (max_creations_per_window %lld)",
            (long long)recent, (long long)window, (long long)max_new));
  }
  return SQLITE_OK;
}

/* With context.user_id: max_active_per_user active triggers of the user
** in this agent (any scope), and max_creations_per_window created by the
** user within creation_window_ms. */
static int check_user_quota(create_req *q) {
  if (!q->user) return SQLITE_OK;
  i64 max_active = store_config_int(q->call.st, "max_active_per_user");
  i64 max_new = store_config_int(q->call.st, "max_creations_per_window");
  i64 window = store_config_int(q->call.st, "creation_window_ms");
  i64 active, recent;
  int rc =
      store_agent_user_quota(q->call.st, trg_val_text(&q->row.v[TC_AGENT_ID]),
                             q->user, q->now - window, &active, &recent);
  if (rc != SQLITE_OK) return rc;
  if (active >= max_active) {
    return agent_create_fail(
        q, "TRIGGER_QUOTA_EXCEEDED",
        sqlite3_mprintf("%lld active triggers of user '%s' in this "
                        "agent (max_active_per_user %lld)",
                        (long long)active, q->user, (long long)max_active));
  }
  if (recent >= max_new) {
    return agent_create_fail(
        q, "TRIGGER_QUOTA_EXCEEDED",
        sqlite3_mprintf("%lld triggers created by user '%s' in the "
                        "last %lld ms (max_creations_per_window %lld, "
                        "per user)",
                        (long long)recent, q->user, (long long)window,
                        (long long)max_new));
  }
  return SQLITE_OK;
}

/* Hook after validation (write.h): the policy bounds (step 5), the
** time-claim check (time_claim.h) and the confirmation (7), which waits until the duplicate check (6) found
** nothing: a duplicate still answers with the existing trigger. */
static int policy_checked(void *arg, const trg_row *r, const sched_spec *spec) {
  create_req *q = arg;
  char *why;
  q->spec = *spec;
  if (!r->v[TC_ACTION_SQL].null) /* docs/sql-jobs.md#who-may-write-a-job */
    return agent_create_fail(
        q, "PERMISSION_DENIED",
        sqlite3_mprintf("action_sql: an agent may not write a SQL job (only "
                        "the application writes action_sql)"));
  int rc = bounds_check(q->call.st, r, q->metadata_bytes, &why);
  if (rc == SQLITE_ERROR) return agent_create_fail(q, "INVALID_REQUEST", why);
  if (rc == SQLITE_OK) rc = agent_time_claim_check(q);
  if (rc == SQLITE_OK) rc = check_policy(q);
  if (rc && q->code && strcmp(q->code, "CONFIRMATION_REQUIRED") == 0) {
    q->pending_code = q->code;
    q->pending_reason = q->reason;
    q->code = NULL;
    q->reason = NULL;
    return SQLITE_OK;
  }
  return rc;
}

/* A trigger_id the request names must be free: no trigger of any agent
** has it, and no other agent's runs carry it (a deleted trigger's
** history, which the new trigger would sit on). One answer whoever holds
** it, so a create (or a dry run) never tells whose id it is. */
static int check_id_available(create_req *q, const trg_row *r) {
  int held = 0;
  const char *id = trg_val_text(&r->v[TC_TRIGGER_ID]);
  int rc = store_agent_id_held(q->call.st, id, trg_val_text(&r->v[TC_AGENT_ID]),
                               &held);
  if (rc != SQLITE_OK || !held) return rc;
  char buf[TRG_ECHO_MAX];
  return agent_create_fail(
      q, "INVALID_REQUEST",
      sqlite3_mprintf("trigger_id '%s' is not available (a trigger "
                      "has it, or another agent's runs do): leave "
                      "trigger_id out for a generated one",
                      trg_echo(id, buf)));
}

/* Hook before the write: no duplicate, so a waiting confirmation refusal
** stands (7); then the quotas (8) and a trigger_id the request names. */
static int policy_admit(void *arg, const trg_row *r) {
  create_req *q = arg;
  if (q->pending_code) {
    int rc = agent_create_fail(q, q->pending_code, q->pending_reason);
    q->pending_code = NULL;
    q->pending_reason = NULL;
    return rc;
  }
  int rc = check_quota(q);
  if (rc == SQLITE_OK) rc = check_user_quota(q);
  if (rc == SQLITE_OK && q->id_given) rc = check_id_available(q, r);
  return rc;
}

int agent_create_policy_allows(create_req *q) {
  if (!q->autonomy) {
    return agent_create_fail(
        q, "AUTONOMY_UNAVAILABLE",
        sqlite3_mprintf(
            "autonomy is not available, so a trigger could not run; nothing was created"));
  }
  if (role_allowed(q)) return SQLITE_OK;
  char *roles = store_config_text(q->call.st, "creator_roles");
  int rc = agent_create_fail(
      q, "PERMISSION_DENIED",
      sqlite3_mprintf("role '%s' may not create triggers (creator_roles: %s)",
                      q->role, roles ? roles : ""));
  sqlite3_free(roles);
  return rc;
}

trigger_insert_hooks agent_create_policy_hooks(create_req *q) {
  trigger_insert_hooks hooks = {policy_checked, policy_admit, q};
  return hooks;
}
