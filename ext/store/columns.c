/*
** columns.c -- the layout of the shadow tables (columns.h): every column of
** a trigger, of a run and of an event with its kind and declared type,
** which of a trigger's two tables holds it, and the column lists and joins
** that the statements of the other store files are built from.
*/
#include "store/columns.h"

SQLITE_EXTENSION_INIT3

/* An enum's CHECK is written as "= OR =", not IN (...): SQLite builds an
** IN list's ephemeral table on every row an INSERT writes (create was
** 1.4x slower with two IN checks). */

/* A time within the instant range, SCHED_MS_MIN..SCHED_MS_MAX
** (time/schedule.h): the range the tick's probes of the time indexes
** reach. */
#define STORE_CHECK_INSTANT(col) \
  col " BETWEEN -62135596800000 AND 253402300799999"

const store_coldef store_trigger_cols[TC_NCOL] = {
    {"trigger_id", 'T', 0, "TEXT NOT NULL UNIQUE", 0},
    {"agent_id", 'T', 0, "TEXT NOT NULL DEFAULT ''", 0},
    {"scope", 'T', 0, "TEXT NOT NULL DEFAULT ''", 0},
    {"display_name", 'T', 0, "TEXT", 0},
    {"instructions", 'T', 0, "TEXT NOT NULL", 0},
    {"trigger_type", 'T', 0, "TEXT NOT NULL",
     "trigger_type = 'interval' OR trigger_type = 'once'"
     " OR trigger_type = 'cron' OR trigger_type = 'event'"
     " OR trigger_type = 'rrule'"},
    {"interval_ms", 'I', 0, "INTEGER", 0},
    {"scheduled_at", 'S', 0, "INTEGER", 0},
    {"cron_expression", 'T', 0, "TEXT", 0},
    {"event_key", 'T', 0, "TEXT", 0},
    {"debounce_ms", 'I', 0, "INTEGER", 0},
    {"debounce_max_ms", 'I', 0, "INTEGER", 0},
    /* budgets (docs/reactive.md#budgets) */
    {"budget_window_ms", 'I', 0, "INTEGER", 0},
    {"budget_runs", 'I', 0, "INTEGER", 0},
    {"budget_cost", 'I', 0, "INTEGER", 0},
    {"budget_policy", 'T', 0, "TEXT",
     "budget_policy = 'pause' OR budget_policy = 'skip'"},
    /* calendar triggers (docs/calendar.md) */
    {"rrule", 'T', 0, "TEXT", 0},
    {"calendar", 'T', 0, "TEXT", 0},
    {"calendar_policy", 'T', 0, "TEXT",
     "calendar_policy = 'skip' OR calendar_policy = 'previous_business_day'"
     " OR calendar_policy = 'next_business_day'"},
    {"timezone", 'T', 0, "TEXT NOT NULL DEFAULT 'UTC'", 0},
    {"start_at", 'S', 0, "INTEGER", 0},
    {"end_at", 'S', 0, "INTEGER", 0},
    {"wake_mode", 'T', 0, "TEXT", 0},
    {"created_by", 'T', 0, "TEXT", 0},
    {"enabled", 'I', 0, "INTEGER", 0},
    {"max_runs", 'I', 0, "INTEGER", 0},
    {"misfire_policy", 'T', 0, "TEXT", 0},
    {"overlap_policy", 'T', 0, "TEXT", 0},
    {"max_attempts", 'I', 0, "INTEGER", 0},
    {"backoff_ms", 'I', 0, "INTEGER", 0},
    {"jitter_ms", 'I', 0, "INTEGER", 0},
    {"window_ms", 'I', 0, "INTEGER", 0},
    {"pause_after_failures", 'I', 0, "INTEGER", 0},
    {"metadata", 'J', 0, "TEXT", 0},
    {"status", 'T', 1, "TEXT NOT NULL",
     "status = 'scheduled' OR status = 'paused' OR status = 'completed'"
     " OR status = 'cancelled' OR status = 'expired'"},
    {"run_count", 'I', 1, "INTEGER NOT NULL DEFAULT 0", 0},
    {"next_due_at", 'I', 1, "INTEGER", STORE_CHECK_INSTANT("next_due_at")},
    {"last_run_at", 'I', 1, "INTEGER", 0},
    {"last_status", 'T', 1, "TEXT", 0},
    {"last_error", 'T', 1, "TEXT", 0},
    {"dedupe_key", 'T', 1, "TEXT", 0},
    {"created_at", 'S', 0, "INTEGER NOT NULL", 0},
    {"updated_at", 'I', 1, "INTEGER NOT NULL", 0},
    {"action_sql", 'T', 0, "TEXT", 0},
    {"fire_at", 'I', 1, "INTEGER", 0},
    {"claims", 'I', 1, "INTEGER NOT NULL DEFAULT 0", 0},
    {"running", 'I', 1, "INTEGER NOT NULL DEFAULT 0", 0},
    {"fail_streak", 'I', 1, "INTEGER NOT NULL DEFAULT 0", 0},
    {"incarnation", 'I', 1, "INTEGER NOT NULL DEFAULT 1", 0},
    {"event_count", 'I', 1, "INTEGER NOT NULL DEFAULT 0", 0},
    {"event_at", 'I', 1, "INTEGER", 0},
    {"event_payload", 'T', 1, "TEXT", 0},
    {"event_first_at", 'I', 1, "INTEGER", 0},
};

const store_coldef store_run_cols[RC_NCOL] = {
    /* derived from the UNIQUE key (schema.c), looked up through it */
    {"run_id", 'T', 0, "TEXT NOT NULL", 0},
    {"trigger_id", 'T', 0, "TEXT NOT NULL", 0},
    {"agent_id", 'T', 0, "TEXT NOT NULL", 0},
    {"scheduled_for", 'I', 0, "INTEGER NOT NULL", 0},
    {"attempt", 'I', 0, "INTEGER NOT NULL", 0},
    {"status", 'T', 0, "TEXT NOT NULL", 0},
    {"owner", 'T', 0, "TEXT", 0},
    {"claimed_at", 'I', 0, "INTEGER", 0},
    {"lease_until", 'I', 0, "INTEGER", STORE_CHECK_INSTANT("lease_until")},
    {"finished_at", 'I', 0, "INTEGER", 0},
    {"latency_ms", 'I', 0, "INTEGER", 0},
    {"error", 'T', 0, "TEXT", 0},
    {"result", 'T', 0, "TEXT", 0},
    {"payload", 'J', 0, "TEXT", 0},
    {"usage", 'J', 0, "TEXT", 0},
    {"cancel_requested_at", 'I', 0, "INTEGER", 0},
    {"retry_at", 'I', 0, "INTEGER", STORE_CHECK_INSTANT("retry_at")},
    {"deferrals", 'I', 0, "INTEGER NOT NULL DEFAULT 0", 0},
    {"incarnation", 'I', 0, "INTEGER NOT NULL DEFAULT 1", 0},
    {"lease_ms", 'I', 0, "INTEGER", 0},
    {"retry_of", 'T', 0, "TEXT", 0},
};

const store_coldef store_event_cols[EC_NCOL] = {
    {"at", 'I', 1, "INTEGER NOT NULL", 0},
    {"agent_id", 'T', 1, "TEXT NOT NULL DEFAULT ''", 0},
    {"scope", 'T', 1, "TEXT NOT NULL DEFAULT ''", 0},
    {"trigger_id", 'T', 1, "TEXT", 0},
    {"kind", 'T', 1, "TEXT NOT NULL", 0},
    {"code", 'T', 1, "TEXT", 0},
    {"detail", 'J', 1, "TEXT", 0},
};

const store_coldef store_calendar_cols[CC_NCOL] = {
    {"calendar", 'T', 0, "TEXT NOT NULL", 0},
    {"day", 'T', 0, "TEXT NOT NULL", 0},
    {"name", 'T', 0, "TEXT NOT NULL DEFAULT ''", 0},
};

/* The trigger columns stored in triggers_state (schema.c). */
static const uint64_t state_cols =
    (1ull << TC_RUN_COUNT) | (1ull << TC_NEXT_DUE_AT) |
    (1ull << TC_LAST_RUN_AT) | (1ull << TC_LAST_STATUS) |
    (1ull << TC_LAST_ERROR) | (1ull << TC_UPDATED_AT) | (1ull << TC_FIRE_AT) |
    (1ull << TC_CLAIMS) | (1ull << TC_RUNNING) | (1ull << TC_FAIL_STREAK) |
    (1ull << TC_EVENT_COUNT) | (1ull << TC_EVENT_AT) |
    (1ull << TC_EVENT_PAYLOAD) | (1ull << TC_EVENT_FIRST_AT);

int store_col_in_state(int col) { return (int)((state_cols >> col) & 1); }

/* The trigger columns of one table in column order: triggers_data's
** (state 0), or triggers_state's (state 1), which begin with its copies
** of trigger_id and agent_id. Returns how many. */
int store_table_cols(int state, int out[TC_NCOL + 2]) {
  int n = 0;
  if (state) {
    out[n++] = TC_TRIGGER_ID;
    out[n++] = TC_AGENT_ID;
  }
  for (int c = 0; c < TC_NCOL; c++) {
    if (store_col_in_state(c) == state) out[n++] = c;
  }
  return n;
}

/* "a, b, c" of a column table; sqlite3_malloc'd. */
char *store_col_list(const store_coldef *defs, int n, const char *suffix) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  for (int i = 0; i < n; i++) {
    sqlite3_str_appendf(s, "%s%s%s", i ? ", " : "", defs[i].name, suffix);
  }
  return sqlite3_str_finish(s);
}

char *store_param_list(int n) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  for (int i = 0; i < n; i++)
    sqlite3_str_appendf(s, "%s?%d", i ? "," : "", i + 1);
  return sqlite3_str_finish(s);
}

/* "d.trigger_id, ..., s.next_due_at, ...": every trigger column, each
** from the table that holds it. */
char *store_trigger_select_list(void) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  for (int c = 0; c < TC_NCOL; c++) {
    sqlite3_str_appendf(s, "%s%s.%s", c ? ", " : "",
                        store_col_in_state(c) ? "s" : "d",
                        store_trigger_cols[c].name);
  }
  return sqlite3_str_finish(s);
}
