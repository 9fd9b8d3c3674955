/*
** columns.c -- the layout of the shadow tables (columns.h): every column of
** a trigger, of a run and of an event with its kind and declared type,
** which of a trigger's two tables holds it, and the column lists and joins
** that the statements of the other store files are built from.
*/
#include "store/columns.h"

SQLITE_EXTENSION_INIT3

const store_coldef store_trigger_cols[TC_NCOL] = {
    {"trigger_id", 'T', 0, "TEXT NOT NULL UNIQUE"},
    {"agent_id", 'T', 0, "TEXT NOT NULL DEFAULT ''"},
    {"scope", 'T', 0, "TEXT NOT NULL DEFAULT ''"},
    {"display_name", 'T', 0, "TEXT"},
    {"instructions", 'T', 0, "TEXT NOT NULL"},
    {"trigger_type", 'T', 0, "TEXT NOT NULL"},
    {"interval_ms", 'I', 0, "INTEGER"},
    {"scheduled_at", 'S', 0, "INTEGER"},
    {"cron_expression", 'T', 0, "TEXT"},
    {"timezone", 'T', 0, "TEXT NOT NULL DEFAULT 'UTC'"},
    {"start_at", 'S', 0, "INTEGER"},
    {"end_at", 'S', 0, "INTEGER"},
    {"wake_mode", 'T', 0, "TEXT"},
    {"created_by", 'T', 0, "TEXT"},
    {"enabled", 'I', 0, "INTEGER"},
    {"max_runs", 'I', 0, "INTEGER"},
    {"misfire_policy", 'T', 0, "TEXT"},
    {"overlap_policy", 'T', 0, "TEXT"},
    {"max_attempts", 'I', 0, "INTEGER"},
    {"backoff_ms", 'I', 0, "INTEGER"},
    {"jitter_ms", 'I', 0, "INTEGER"},
    {"window_ms", 'I', 0, "INTEGER"},
    {"pause_after_failures", 'I', 0, "INTEGER"},
    {"metadata", 'J', 0, "TEXT"},
    {"status", 'T', 1, "TEXT NOT NULL"},
    {"run_count", 'I', 1, "INTEGER NOT NULL DEFAULT 0"},
    {"next_due_at", 'I', 1, "INTEGER"},
    {"last_run_at", 'I', 1, "INTEGER"},
    {"last_status", 'T', 1, "TEXT"},
    {"last_error", 'T', 1, "TEXT"},
    {"dedupe_key", 'T', 1, "TEXT"},
    {"created_at", 'S', 0, "INTEGER NOT NULL"},
    {"updated_at", 'I', 1, "INTEGER NOT NULL"},
    {"fire_at", 'I', 1, "INTEGER"},
    {"claims", 'I', 1, "INTEGER NOT NULL DEFAULT 0"},
    {"running", 'I', 1, "INTEGER NOT NULL DEFAULT 0"},
    {"fail_streak", 'I', 1, "INTEGER NOT NULL DEFAULT 0"},
    {"incarnation", 'I', 1, "INTEGER NOT NULL DEFAULT 1"},
};

const store_coldef store_run_cols[RC_NCOL] = {
    {"run_id", 'T', 0, "TEXT NOT NULL UNIQUE"},
    {"trigger_id", 'T', 0, "TEXT NOT NULL"},
    {"agent_id", 'T', 0, "TEXT NOT NULL"},
    {"scheduled_for", 'I', 0, "INTEGER NOT NULL"},
    {"attempt", 'I', 0, "INTEGER NOT NULL"},
    {"status", 'T', 0, "TEXT NOT NULL"},
    {"owner", 'T', 0, "TEXT"},
    {"claimed_at", 'I', 0, "INTEGER"},
    {"lease_until", 'I', 0, "INTEGER"},
    {"finished_at", 'I', 0, "INTEGER"},
    {"latency_ms", 'I', 0, "INTEGER"},
    {"error", 'T', 0, "TEXT"},
    {"result", 'T', 0, "TEXT"},
    {"payload", 'J', 0, "TEXT"},
    {"retry_at", 'I', 0, "INTEGER"},
    {"deferrals", 'I', 0, "INTEGER NOT NULL DEFAULT 0"},
    {"incarnation", 'I', 0, "INTEGER NOT NULL DEFAULT 1"},
    {"lease_ms", 'I', 0, "INTEGER"},
};

const store_coldef store_event_cols[EC_NCOL] = {
    {"at", 'I', 1, "INTEGER NOT NULL"},
    {"agent_id", 'T', 1, "TEXT NOT NULL DEFAULT ''"},
    {"scope", 'T', 1, "TEXT NOT NULL DEFAULT ''"},
    {"trigger_id", 'T', 1, "TEXT"},
    {"kind", 'T', 1, "TEXT NOT NULL"},
    {"code", 'T', 1, "TEXT"},
    {"detail", 'J', 1, "TEXT"},
};

/* The trigger columns stored in triggers_state (schema.c). */
static const uint64_t state_cols =
    (1ull << TC_RUN_COUNT) | (1ull << TC_NEXT_DUE_AT) |
    (1ull << TC_LAST_RUN_AT) | (1ull << TC_LAST_STATUS) |
    (1ull << TC_LAST_ERROR) | (1ull << TC_UPDATED_AT) | (1ull << TC_FIRE_AT) |
    (1ull << TC_CLAIMS) | (1ull << TC_RUNNING) | (1ull << TC_FAIL_STREAK);

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
