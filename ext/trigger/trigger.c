/*
** trigger.c -- the meaning of one `triggers` row: its values read and
** checked (the validator), its defaults, its schedule spec, and its JSON.
** See trigger.h; how its status changes is transition.c's.
*/
#include "trigger/trigger.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/args.h"
#include "base/json_out.h"
#include "store/calendar_rows.h"
#include "store/config.h"
#include "store/json.h"
#include "store/stored.h"
#include "text/coverage.h"
#include "text/dedupe.h"
#include "text/json_write.h"
#include "text/sha256.h"
#include "text/spelling.h"
#include "text/utf8.h"
#include "time/civil.h"

SQLITE_EXTENSION_INIT3

_Static_assert(TRG_EVENT_KEY_MAX == SCHED_EVENT_KEY_MAX,
               "an event key fits its schedule's copy");

#define ERR(...)                                                   \
  ((*err = sqlite3_mprintf(__VA_ARGS__)) ? SQLITE_CONSTRAINT_CHECK \
                                         : SQLITE_NOMEM)

static const char *const wake_modes[] = {"inject_now", "next_autonomy_cycle",
                                         0};
static const char *const creators[] = {"user", "agent", "system", 0};
static const char *const misfires[] = {"coalesce", "all", "skip", 0};
static const char *const overlaps[] = {"skip", "allow", "queue", 0};
const char *const trigger_statuses[] = {"scheduled", "paused",  "completed",
                                        "cancelled", "expired", 0};
static const char *const trigger_types[] = {"interval", "once",  "cron",
                                            "event",    "rrule", 0};
static const char *const calendar_policies[] = {"skip", "previous_business_day",
                                                "next_business_day", 0};
static const char *const budget_policies[] = {"pause", "skip", 0};

/* The values of an enum column a write may set, or NULL. */
static const char *const *enum_values(int col) {
  switch (col) {
    case TC_TRIGGER_TYPE: return trigger_types;
    case TC_WAKE_MODE: return wake_modes;
    case TC_CREATED_BY: return creators;
    case TC_MISFIRE_POLICY: return misfires;
    case TC_OVERLAP_POLICY: return overlaps;
    case TC_CALENDAR_POLICY: return calendar_policies;
    case TC_BUDGET_POLICY: return budget_policies;
    default: return NULL;
  }
}

static int in_set(const char *v, const char *const *set) {
  for (int i = 0; set[i]; i++) {
    if (strcmp(v, set[i]) == 0) return 1;
  }
  return 0;
}

/* The table a message names for column col: the virtual table's for a
** value written through it, the shadow table holding the column for a
** row read back (TRIGGER_STORED) and for the internal columns. */
static const char *col_table(int flags, int col) {
  if (!(flags & TRIGGER_STORED) && col < TC_NPUBLIC) return "triggers";
  return store_col_in_state(col) ? "triggers_state" : "triggers_data";
}

void trigger_status_clear(trigger_status *st) {
  sqlite3_free(st->msg);
  sqlite3_free(st->existing);
  st->rc = SQLITE_OK;
  st->col = -1;
  st->msg = NULL;
  st->existing = NULL;
}

/* "<table>.<column>: <message>" about column col, SQLITE_CONSTRAINT_CHECK. */
static int col_err(trigger_status *st, int flags, int col, const char *fmt,
                   ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  st->col = col;
  int rc = msg ? store_stored_err(&st->msg, col_table(flags, col),
                                  store_trigger_cols[col].name, "%s", msg)
               : (st->msg = NULL, SQLITE_NOMEM);
  sqlite3_free(msg);
  return rc;
}

static int type_error(trigger_status *st, int flags, int col, int type,
                      const char *text) {
  st->col = col;
  return store_stored_type_error(&st->msg, col_table(flags, col),
                                 &store_trigger_cols[col], type, text,
                                 flags & TRIGGER_STORED);
}

/* A written value of the wrong SQLite type for column col. */
static int read_type_error(char **err, int col, int type) {
  trigger_status st = TRIGGER_STATUS_INIT;
  int rc = type_error(&st, 0, col, type, NULL);
  *err = st.msg;
  return rc;
}

/* One SQL value into a column, by the column's kind. Integer columns
** take integer-valued text as SQLite's INTEGER affinity does ('300000'),
** instant columns too (ms); other text in an instant column is ISO-8601,
** converted in the row's zone by trigger_validate. An enum column's value in
** another spelling of one of its values ('INTERVAL', 'Inject-Now',
** 'injectNow': spelling.h) is stored as that value. borrow: a text points
** into v (which must outlive the row's use of it) instead of being copied.
*/
static int read_value(int col, sqlite3_value *v, trg_val *out, int borrow,
                      char **err) {
  const store_coldef *d = &store_trigger_cols[col];
  int t = sqlite3_value_type(v);
  if (t == SQLITE_NULL) {
    trg_val_set_null(out);
    return SQLITE_OK;
  }
  if (d->kind == 'I' || d->kind == 'S') {
    i64 i;
    int num;
    if (trg_int_of(v, &i, &num) != SQLITE_OK) return SQLITE_NOMEM;
    if (num) {
      trg_val_set_int(out, i);
      return SQLITE_OK;
    }
    if (d->kind == 'I' && (t == SQLITE_TEXT || t == SQLITE_FLOAT)) {
      char buf[TRG_ECHO_MAX];
      const char *text = (const char *)sqlite3_value_text(v);
      if (!text) return SQLITE_NOMEM;
      return ERR("triggers.%s: %s%s%s is not an integer%s", d->name,
                 t == SQLITE_TEXT ? "'" : "", trg_echo(text, buf),
                 t == SQLITE_TEXT ? "'" : "", trg_int_unit(d->name));
    }
    if (t != SQLITE_TEXT) return read_type_error(err, col, t);
  } else if (t != SQLITE_TEXT) {
    return read_type_error(err, col, t);
  }
  const char *text;
  int rc = trg_value_text(v, d->kind == 'J', "triggers", &text, err);
  if (rc == SQLITE_ERROR) { /* the message names the column: made again */
    char what[48];
    sqlite3_free(*err);
    sqlite3_snprintf(sizeof what, what, "triggers.%s", d->name);
    rc = trg_value_text(v, d->kind == 'J', what, &text, err);
    return rc == SQLITE_ERROR ? SQLITE_CONSTRAINT_CHECK : rc;
  }
  if (rc != SQLITE_OK) return rc;
  const char *const *set = enum_values(col);
  int k = set ? spelling_find(text, set) : -1;
  if (k >= 0) text = set[k]; /* a literal: borrowed as well */
  else if (!borrow) return trg_val_set_text(out, text);
  trg_val_borrow(out, text);
  return SQLITE_OK;
}

int trigger_read_value(int col, sqlite3_value *v, trg_val *out, char **err) {
  return read_value(col, v, out, 0, err);
}

int trigger_read_values(trg_row *r, sqlite3_value **vals, int only_changed,
                        uint64_t *changed, char **err) {
  for (int i = 0; i < TC_NPUBLIC; i++) {
    if (only_changed && sqlite3_value_nochange(vals[i])) continue;
    if (store_trigger_cols[i].ro) {
      if (!only_changed && sqlite3_value_type(vals[i]) == SQLITE_NULL) continue;
      return ERR("triggers.%s: is computed and cannot be written",
                 store_trigger_cols[i].name);
    }
    int rc = read_value(i, vals[i], &r->v[i], 1, err);
    if (rc != SQLITE_OK) return rc;
    if (changed) *changed |= (uint64_t)1 << i;
  }
  return SQLITE_OK;
}

/* ---- validation ------------------------------------------------------ */

/*
** One validator for a row written through the table and for a row read back
** from the shadow tables (flags & TRIGGER_STORED,
** docs/tables.md#changed-shadow-tables). A write fills the defaults of
** columns left NULL and reads ISO text in instant columns; a stored row
** must hold what a write leaves: every value of the right type, defaulted
** columns not NULL, instants as ms, and the computed columns in their
** ranges. The messages are the same, naming the virtual table for a write
** and the shadow table for a stored row.
*/

/* A NULL in a column that must have a value. */
static int not_null(trigger_status *st, int flags, int col) {
  if (flags & TRIGGER_STORED)
    return col_err(st, flags, col, "must not be NULL");
  st->col = col;
  st->msg = sqlite3_mprintf("NOT NULL constraint failed: triggers.%s",
                            store_trigger_cols[col].name);
  return st->msg ? SQLITE_CONSTRAINT_NOTNULL : SQLITE_NOMEM;
}

/* A column a write fills when NULL; stored, it must not be NULL. */
static int text_default(trg_row *r, int col, const char *def, int flags,
                        trigger_status *st) {
  if (!r->v[col].null) return SQLITE_OK;
  if (flags & TRIGGER_STORED) return not_null(st, flags, col);
  if (def) trg_val_borrow(&r->v[col], def); /* a literal */
  return SQLITE_OK;
}

static int int_default(trg_row *r, int col, i64 def, int flags,
                       trigger_status *st) {
  if (!r->v[col].null) return SQLITE_OK;
  if (flags & TRIGGER_STORED) return not_null(st, flags, col);
  trg_val_set_int(&r->v[col], def);
  return SQLITE_OK;
}

static int check_enum(trg_row *r, int col, const char *const *set,
                      const char *def, int flags, trigger_status *st) {
  int rc = text_default(r, col, def, flags, st);
  if (rc != SQLITE_OK) return rc;
  if (!in_set(r->v[col].t, set)) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    for (int i = 0; set[i]; i++)
      sqlite3_str_appendf(s, "%s'%s'", i ? ", " : "", set[i]);
    char *list = sqlite3_str_finish(s);
    char buf[STORED_SHOWN + 4];
    rc = col_err(st, flags, col, "'%s' is not one of %s",
                 store_stored_shown(r->v[col].t, buf), list ? list : "");
    sqlite3_free(list);
    return rc;
  }
  return SQLITE_OK;
}

/* An integer column within min..max (when not NULL); max SCHED_SPAN_MAX
** is the span of the instant range, so adding it to an instant cannot
** overflow. */
static int check_range(trg_row *r, int col, i64 min, i64 max, int flags,
                       trigger_status *st) {
  const trg_val *v = &r->v[col];
  if (v->null) return SQLITE_OK;
  if (v->i < min) {
    return col_err(st, flags, col, "must be >= %lld, got %lld", (long long)min,
                   (long long)v->i);
  }
  if (v->i > max) {
    return col_err(
        st, flags, col, "must be <= %lld%s, got %lld", (long long)max,
        max == SCHED_SPAN_MAX ? " (10,000 years)" : "", (long long)v->i);
  }
  return SQLITE_OK;
}

#define check_min(r, col, min, flags, st) \
  check_range(r, col, min, INT64_MAX, flags, st)
#define check_duration(r, col, min, flags, st) \
  check_range(r, col, min, SCHED_SPAN_MAX, flags, st)

/* An instant column: ISO text (written) -> ms in the row's zone, and ms
** within the years 1-9999. */
static int convert_instant(trg_row *r, int col, const tz_zone *z, int flags,
                           trigger_status *st) {
  trg_val *v = &r->v[col];
  if (v->null) return SQLITE_OK;
  char msg[SCHED_ERR_MAX], buf[STORED_SHOWN + 4];
  i64 ms;
  if (v->t && sched_parse_instant(v->t, z, &ms, msg, sizeof msg) != 0) {
    return col_err(st, flags, col, "cannot read '%s' as an instant: %s",
                   store_stored_shown(v->t, buf), msg);
  }
  if (!v->t) ms = v->i;
  if (sched_instant_check(ms, msg, sizeof msg) != 0) {
    return col_err(st, flags, col, "%s", msg);
  }
  trg_val_set_int(v, ms);
  return SQLITE_OK;
}

/* First words of the instructions, at most 6 words / 60 bytes. */
static int default_display_name(trg_row *r) {
  const char *s = r->v[TC_INSTRUCTIONS].t;
  char buf[64];
  size_t n = 0;
  int words = 0;
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  while (*s && n < 60) {
    int blank = (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r');
    if (blank) {
      if (++words == 6) break;
      while (s[1] == ' ' || s[1] == '\t' || s[1] == '\n' || s[1] == '\r') s++;
      buf[n++] = ' ';
    } else {
      buf[n++] = *s;
    }
    s++;
  }
  /* Do not cut a UTF-8 sequence in half (a whole one at the end stays). */
  buf[n] = 0;
  utf8_cut_tail(buf);
  n = strlen(buf);
  while (n > 0 && buf[n - 1] == ' ') n--;
  buf[n] = 0;
  return trg_val_set_text(&r->v[TC_DISPLAY_NAME], buf);
}

static int is_blank(const char *s) {
  for (; s && *s; s++) {
    if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') return 0;
  }
  return 1;
}

/* Columns that belong to some schedule types only: each (column, type)
** that allows it, and whether that type requires it. */
static const struct {
  int col;
  sched_type type;
  int required;
} type_cols[] = {
    {TC_INTERVAL_MS, SCHED_INTERVAL, 1}, {TC_SCHEDULED_AT, SCHED_ONCE, 1},
    {TC_SCHEDULED_AT, SCHED_EVENT, 0}, /* its timeout */
    {TC_CRON_EXPRESSION, SCHED_CRON, 1}, {TC_EVENT_KEY, SCHED_EVENT, 1},
    {TC_DEBOUNCE_MS, SCHED_EVENT, 0},    {TC_DEBOUNCE_MAX_MS, SCHED_EVENT, 0},
    {TC_RRULE, SCHED_RRULE, 1}};
#define TYPE_COLS_N ((int)(sizeof type_cols / sizeof type_cols[0]))

/* Whether type t allows column col (*required: and requires it); 0 for a
** column of every type. */
static int type_col(int col, sched_type t, int *owned, int *required) {
  *owned = *required = 0;
  int allowed = 0;
  for (int i = 0; i < TYPE_COLS_N; i++) {
    if (type_cols[i].col != col) continue;
    *owned = 1;
    if (type_cols[i].type == t) {
      allowed = 1;
      *required = type_cols[i].required;
    }
  }
  return allowed;
}

static int check_type_columns(trg_row *r, sched_type t, int flags,
                              trigger_status *st) {
  for (int i = 0; i < TYPE_COLS_N; i++) {
    int col = type_cols[i].col, owned, required;
    if (i > 0 && type_cols[i - 1].col == col) continue; /* seen */
    int allowed = type_col(col, t, &owned, &required);
    int given = !r->v[col].null;
    if (required && !given) {
      return col_err(st, flags, col, "required for trigger_type '%s'",
                     sched_type_name(t));
    }
    if (!allowed && given) {
      const char *also = i + 1 < TYPE_COLS_N && type_cols[i + 1].col == col
                             ? sched_type_name(type_cols[i + 1].type)
                             : NULL;
      return col_err(st, flags, col,
                     "only allowed for trigger_type '%s'%s%s%s (this "
                     "trigger is '%s')",
                     sched_type_name(type_cols[i].type), also ? " or '" : "",
                     also ? also : "", also ? "'" : "", sched_type_name(t));
    }
  }
  return SQLITE_OK;
}

/* An event trigger's key and debounce: a key that is not blank and at most
** TRG_EVENT_KEY_MAX bytes; debounce_max_ms only with debounce_ms, and not
** below it. */
static int check_event_columns(trg_row *r, int flags, trigger_status *st) {
  const trg_val *key = &r->v[TC_EVENT_KEY];
  if (key->null) return SQLITE_OK;
  static const int clock_cols[] = {TC_START_AT, TC_END_AT};
  for (int i = 0; i < 2; i++) {
    if (!r->v[clock_cols[i]].null) {
      return col_err(st, flags, clock_cols[i],
                     "not allowed for trigger_type 'event' (its timeout is "
                     "scheduled_at)");
    }
  }
  if (is_blank(key->t))
    return col_err(st, flags, TC_EVENT_KEY, "must not be empty");
  if (strlen(key->t) > TRG_EVENT_KEY_MAX) {
    return col_err(st, flags, TC_EVENT_KEY, "is %d bytes, more than %d",
                   (int)strlen(key->t), TRG_EVENT_KEY_MAX);
  }
  int rc = check_duration(r, TC_DEBOUNCE_MS, 1, flags, st);
  if (rc == SQLITE_OK) rc = check_duration(r, TC_DEBOUNCE_MAX_MS, 1, flags, st);
  if (rc != SQLITE_OK || r->v[TC_DEBOUNCE_MAX_MS].null) return rc;
  if (r->v[TC_DEBOUNCE_MS].null) {
    return col_err(st, flags, TC_DEBOUNCE_MAX_MS, "needs debounce_ms");
  }
  if (r->v[TC_DEBOUNCE_MAX_MS].i < r->v[TC_DEBOUNCE_MS].i) {
    return col_err(st, flags, TC_DEBOUNCE_MAX_MS,
                   "%lld is less than debounce_ms %lld",
                   (long long)r->v[TC_DEBOUNCE_MAX_MS].i,
                   (long long)r->v[TC_DEBOUNCE_MS].i);
  }
  return SQLITE_OK;
}

/* A budget (docs/reactive.md#budgets): budget_runs and budget_cost each
** >= 1 and only with budget_window_ms, which needs one of them; the
** policy 'pause' or 'skip' (NULL: 'pause'), also only with a window. */
static int check_budget(trg_row *r, int flags, trigger_status *st) {
  int rc = check_duration(r, TC_BUDGET_WINDOW_MS, 1, flags, st);
  if (rc == SQLITE_OK) rc = check_min(r, TC_BUDGET_RUNS, 1, flags, st);
  if (rc == SQLITE_OK) rc = check_min(r, TC_BUDGET_COST, 1, flags, st);
  if (rc != SQLITE_OK) return rc;
  int window = !r->v[TC_BUDGET_WINDOW_MS].null;
  int limit = !r->v[TC_BUDGET_RUNS].null || !r->v[TC_BUDGET_COST].null;
  if (window && !limit) {
    return col_err(st, flags, TC_BUDGET_WINDOW_MS,
                   "needs budget_runs or budget_cost");
  }
  static const int needs_window[] = {TC_BUDGET_RUNS, TC_BUDGET_COST,
                                     TC_BUDGET_POLICY};
  for (size_t i = 0; !window && i < 3; i++) {
    if (!r->v[needs_window[i]].null)
      return col_err(st, flags, needs_window[i], "needs budget_window_ms");
  }
  if (r->v[TC_BUDGET_POLICY].null) return SQLITE_OK;
  return check_enum(r, TC_BUDGET_POLICY, budget_policies, NULL, flags, st);
}

/* The schedule of a checked row: its zone (through the connection's cache)
** and, for cron, the parsed expression. */
/* An rrule trigger's rule compiled, with DTSTART from start_at (or
** created_at) in its zone; a rule that never occurs is refused
** (docs/calendar.md#errors). */
static int rrule_of(const trg_row *r, sched_spec *spec, int flags,
                    trigger_status *st) {
  char msg[RRULE_ERR_MAX];
  if (rrule_compile(trg_val_text(&r->v[TC_RRULE]), &spec->rrule, msg,
                    sizeof msg) != 0) {
    return col_err(st, flags, TC_RRULE, "%s", msg);
  }
  spec->dtstart = sched_rrule_dtstart(spec);
  if (rrule_check(&spec->rrule, spec->dtstart, spec->zone, msg, sizeof msg) !=
      0) {
    return col_err(st, flags, TC_RRULE, "%s", msg);
  }
  return SQLITE_OK;
}

/* A cron or rrule trigger's calendar
** (docs/calendar.md#holidays-and-business-days): its days, policy and
** the business days into the spec. Written, the calendar must hold a
** day; read back, an emptied one is a calendar without holidays. */
static int calendar_of(store *s, const trg_row *r, sched_spec *spec, int flags,
                       trigger_status *st) {
  const char *name = trg_val_text(&r->v[TC_CALENDAR]);
  i64 n = 0;
  if (!(flags & TRIGGER_STORED)) {
    int rc = store_calendar_count(s, name, &n);
    if (rc != SQLITE_OK) return rc;
    if (n == 0) {
      char buf[STORED_SHOWN + 4];
      return col_err(st, flags, TC_CALENDAR,
                     "no calendar '%s' (trigger_calendar_days holds no day "
                     "of it)",
                     store_stored_shown(name, buf));
    }
  }
  spec->cal_policy =
      sched_cal_policy_parse(trg_val_text(&r->v[TC_CALENDAR_POLICY]));
  snprintf(spec->cal_name, sizeof spec->cal_name, "%s", name);
  char *days = store_config_text(s, "business_days");
  if (!days) return SQLITE_NOMEM;
  if (sched_business_days_parse(days, &spec->business_days) != 0)
    spec->business_days = SCHED_BUSINESS_DEFAULT;
  sqlite3_free(days);
  return store_calendar_days(s, name, spec->cal_days, SCHED_CAL_MAX,
                             &spec->ncal);
}

static int spec_of(trg_ctx *c, store *s, const trg_row *r, sched_spec *spec,
                   int flags, trigger_status *st) {
  char msg[CRON_ERR_MAX + 64];
  sched_spec_clear(spec);
  spec->type = sched_type_parse(r->v[TC_TRIGGER_TYPE].t);
  spec->start_at = r->v[TC_START_AT].null ? SCHED_NONE : r->v[TC_START_AT].i;
  spec->end_at = r->v[TC_END_AT].null ? SCHED_NONE : r->v[TC_END_AT].i;
  spec->created_at = r->v[TC_CREATED_AT].i;
  spec->interval_ms = r->v[TC_INTERVAL_MS].i;
  spec->scheduled_at = r->v[TC_SCHEDULED_AT].i;
  if (spec->type == SCHED_EVENT) {
    if (r->v[TC_SCHEDULED_AT].null) spec->scheduled_at = SCHED_NONE;
    /* checked: at most TRG_EVENT_KEY_MAX bytes */
    sqlite3_snprintf(sizeof spec->event_key, spec->event_key, "%s",
                     trg_val_text(&r->v[TC_EVENT_KEY]));
  }
  if (trg_zone(c, trg_val_text(&r->v[TC_TIMEZONE]), &spec->zone, msg,
               sizeof msg) != 0) {
    return col_err(st, flags, TC_TIMEZONE, "%s", msg);
  }
  if (spec->type == SCHED_CRON &&
      cron_parse(trg_val_text(&r->v[TC_CRON_EXPRESSION]), &spec->cron, msg,
                 sizeof msg) != 0) {
    return col_err(st, flags, TC_CRON_EXPRESSION, "%s", msg);
  }
  int rc = SQLITE_OK;
  if (!r->v[TC_CALENDAR].null) rc = calendar_of(s, r, spec, flags, st);
  if (rc == SQLITE_OK && spec->type == SCHED_RRULE)
    rc = rrule_of(r, spec, flags, st);
  return rc;
}

/* calendar and calendar_policy: only for cron and rrule, the policy only
** with a calendar (default skip), a name of 1..63 bytes. */
static int check_calendar(trg_row *r, sched_type t, int flags,
                          trigger_status *st) {
  if (r->v[TC_CALENDAR].null) {
    if (r->v[TC_CALENDAR_POLICY].null) return SQLITE_OK;
    return col_err(st, flags, TC_CALENDAR_POLICY,
                   "only allowed with a calendar");
  }
  if (t != SCHED_CRON && t != SCHED_RRULE) {
    return col_err(st, flags, TC_CALENDAR,
                   "only allowed for trigger_type 'cron' or 'rrule' (this "
                   "trigger is '%s')",
                   sched_type_name(t));
  }
  if (!sched_cal_name_ok(r->v[TC_CALENDAR].t)) {
    return col_err(st, flags, TC_CALENDAR,
                   "must be a name of 1 to %d bytes, not blank",
                   SCHED_CAL_NAME_MAX - 1);
  }
  return check_enum(r, TC_CALENDAR_POLICY, calendar_policies, "skip", flags,
                    st);
}

/* A value marked bad when it was read (trg_val.bad). */
static int bad_value(trg_row *r, int col, int flags, trigger_status *st) {
  const trg_val *v = &r->v[col];
  if (v->bad == TRG_BAD_JSON) {
    return col_err(st, flags, col, "must be a JSON object");
  }
  if (v->bad == TRG_BAD_COPY) {
    char buf[STORED_SHOWN + 4];
    st->col = col;
    st->msg = sqlite3_mprintf("triggers_state.%s: differs from "
                              "triggers_data.%s '%s' (it is a copy)",
                              store_trigger_cols[col].name,
                              store_trigger_cols[col].name,
                              store_stored_shown(trg_val_text(v), buf));
    return st->msg ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
  }
  return type_error(st, flags, col, v->bad, v->t);
}

/* The computed columns of a stored row: status, counters, incarnation,
** instants, and what makes a row due (only a scheduled, enabled trigger is). */
static int check_state(trg_row *r, int flags, trigger_status *st) {
  static const int counters[] = {TC_RUN_COUNT, TC_CLAIMS, TC_RUNNING,
                                 TC_FAIL_STREAK, TC_EVENT_COUNT};
  static const int instants[] = {TC_NEXT_DUE_AT, TC_FIRE_AT,
                                 TC_LAST_RUN_AT, TC_UPDATED_AT,
                                 TC_EVENT_AT,    TC_EVENT_FIRST_AT};
  int rc = check_enum(r, TC_STATUS, trigger_statuses, NULL, flags, st);
  for (size_t i = 0; i < 5 && rc == SQLITE_OK; i++) {
    rc = int_default(r, counters[i], 0, flags, st);
    if (rc == SQLITE_OK)
      rc = check_range(r, counters[i], 0, TRG_COUNT_MAX, flags, st);
  }
  /* the incarnation a run carries and compares (tick/lifecycle.c) */
  if (rc == SQLITE_OK) rc = int_default(r, TC_INCARNATION, 1, flags, st);
  if (rc == SQLITE_OK)
    rc = check_range(r, TC_INCARNATION, 1, TRG_COUNT_MAX, flags, st);
  for (size_t i = 0; i < 6 && rc == SQLITE_OK; i++) {
    rc = convert_instant(r, instants[i], NULL, flags, st);
  }
  if (rc == SQLITE_OK && !r->v[TC_NEXT_DUE_AT].null) {
    const char *status = r->v[TC_STATUS].t;
    if (strcmp(status, "scheduled") != 0) {
      rc = col_err(st, flags, TC_STATUS,
                   "'%s' but next_due_at is set (only a scheduled trigger "
                   "is due)",
                   status);
    } else if (r->v[TC_ENABLED].i != 1) {
      rc = col_err(st, flags, TC_ENABLED,
                   "%lld but the trigger is scheduled (0 means paused)",
                   (long long)r->v[TC_ENABLED].i);
    } else if (r->v[TC_FIRE_AT].null && r->v[TC_RUNNING].i == 0) {
      rc = col_err(st, flags, TC_FIRE_AT,
                   "NULL but no run is running (it holds a due trigger "
                   "only while one does)");
    }
  }
  return rc;
}

static int check_row(trg_ctx *c, store *s, trg_row *r, sched_spec *spec,
                     i64 now, int flags, trigger_status *st) {
  char why[UTF8_DESCRIBE_MAX];
  int bad;
  int rc = store_stored_texts_repair(r->v, TC_NCOL, &bad, why);
  if (rc != SQLITE_OK) return rc;
  if (bad >= 0 && r->v[bad].bad == TRG_BAD_TEXT)
    return col_err(st, flags, bad, "%s", why);
  if (bad >= 0) return bad_value(r, bad, flags, st);
  if (r->v[TC_INSTRUCTIONS].null) return not_null(st, flags, TC_INSTRUCTIONS);
  if (is_blank(r->v[TC_INSTRUCTIONS].t)) {
    return col_err(st, flags, TC_INSTRUCTIONS, "must not be empty");
  }
  if (r->v[TC_TRIGGER_TYPE].null) return not_null(st, flags, TC_TRIGGER_TYPE);
  sched_type t = sched_type_parse(r->v[TC_TRIGGER_TYPE].t);
  if (t == SCHED_INVALID) {
    char buf[STORED_SHOWN + 4];
    return col_err(st, flags, TC_TRIGGER_TYPE,
                   "'%s' is not one of 'interval', 'once', 'cron', "
                   "'event', 'rrule'",
                   store_stored_shown(r->v[TC_TRIGGER_TYPE].t, buf));
  }
  if ((rc = check_type_columns(r, t, flags, st)) != SQLITE_OK) return rc;
  if ((rc = check_event_columns(r, flags, st)) != SQLITE_OK) return rc;
  if ((rc = check_calendar(r, t, flags, st)) != SQLITE_OK) return rc;
  if ((flags & TRIGGER_STORED) && r->v[TC_TRIGGER_ID].null) {
    return not_null(st, flags, TC_TRIGGER_ID);
  }
  if (!r->v[TC_TRIGGER_ID].null && is_blank(r->v[TC_TRIGGER_ID].t)) {
    return col_err(st, flags, TC_TRIGGER_ID, "must not be empty");
  }
  if ((rc = text_default(r, TC_AGENT_ID, "", flags, st))) return rc;
  if ((rc = text_default(r, TC_SCOPE, "", flags, st))) return rc;
  if ((rc = text_default(r, TC_TIMEZONE, "UTC", flags, st))) return rc;
  if (r->v[TC_DISPLAY_NAME].null) {
    if (flags & TRIGGER_STORED) return not_null(st, flags, TC_DISPLAY_NAME);
    if ((rc = default_display_name(r)) != SQLITE_OK) return rc;
  }
  if ((rc = check_enum(r, TC_WAKE_MODE, wake_modes, "next_autonomy_cycle",
                       flags, st)))
    return rc;
  if ((rc = check_enum(r, TC_CREATED_BY, creators, "user", flags, st)))
    return rc;
  if ((rc = check_enum(r, TC_MISFIRE_POLICY, misfires, "coalesce", flags, st)))
    return rc;
  if ((rc = check_enum(r, TC_OVERLAP_POLICY, overlaps, "skip", flags, st)))
    return rc;
  if ((rc = int_default(r, TC_ENABLED, 1, flags, st))) return rc;
  if (r->v[TC_ENABLED].i != 0 && r->v[TC_ENABLED].i != 1) {
    return col_err(st, flags, TC_ENABLED, "must be 0 or 1, got %lld",
                   (long long)r->v[TC_ENABLED].i);
  }
  if ((rc = int_default(r, TC_MAX_ATTEMPTS, 1, flags, st))) return rc;
  if ((rc = int_default(r, TC_BACKOFF_MS, TRG_DEFAULT_BACKOFF_MS, flags, st)))
    return rc;
  if ((rc = int_default(r, TC_JITTER_MS, 0, flags, st))) return rc;
  if ((rc = check_duration(r, TC_INTERVAL_MS, TRG_MIN_INTERVAL_MS, flags, st)))
    return rc;
  if ((rc = check_min(r, TC_MAX_RUNS, 1, flags, st))) return rc;
  if ((rc = check_min(r, TC_MAX_ATTEMPTS, 1, flags, st))) return rc;
  if ((rc = check_duration(r, TC_BACKOFF_MS, 0, flags, st))) return rc;
  if ((rc = check_duration(r, TC_JITTER_MS, 0, flags, st))) return rc;
  if ((rc = check_duration(r, TC_WINDOW_MS, 1, flags, st))) return rc;
  if ((rc = check_min(r, TC_PAUSE_AFTER_FAILURES, 1, flags, st))) return rc;
  if ((rc = check_budget(r, flags, st))) return rc;
  if (!r->v[TC_METADATA].null && !(flags & TRIGGER_NO_JSON)) {
    int ok;
    if (store_json_is_object(s, r->v[TC_METADATA].t, &ok) != SQLITE_OK)
      return SQLITE_NOMEM;
    if (!ok) {
      /* trigger_json shows it as a string from now on */
      if (flags & TRIGGER_STORED) r->v[TC_METADATA].bad = TRG_BAD_JSON;
      return col_err(st, flags, TC_METADATA, "must be a JSON object");
    }
  }
  /* a pending signal's payload (its run's payload.event.payload): checked
  ** whatever TRIGGER_NO_JSON says, since only a signalled event trigger
  ** has one */
  if (!r->v[TC_EVENT_PAYLOAD].null && !r->v[TC_EVENT_PAYLOAD].bad) {
    int ok;
    if (store_json_is_object(s, r->v[TC_EVENT_PAYLOAD].t, &ok) != SQLITE_OK)
      return SQLITE_NOMEM;
    if (!ok)
      return col_err(st, flags, TC_EVENT_PAYLOAD, "must be a JSON object");
  }
  /* The zone first: local ISO instants are read in it. Written, it is
  ** stored in its canonical spelling ('europe/berlin' -> 'Europe/Berlin');
  ** a stored row has no ISO instants (spec_of reads its zone). */
  char msg[CRON_ERR_MAX + 64];
  const tz_zone *z = NULL;
  if (!(flags & TRIGGER_STORED)) {
    const char *canon;
    if (trg_zone_canon(c, r->v[TC_TIMEZONE].t, &z, &canon, msg, sizeof msg) !=
        0) {
      return col_err(st, flags, TC_TIMEZONE, "%s", msg);
    }
    if (strcmp(canon, r->v[TC_TIMEZONE].t) != 0 &&
        (rc = trg_val_set_text(&r->v[TC_TIMEZONE], canon)) != SQLITE_OK) {
      return rc;
    }
  }
  static const int instants[] = {TC_SCHEDULED_AT, TC_START_AT, TC_END_AT,
                                 TC_CREATED_AT};
  for (size_t i = 0; i < sizeof instants / sizeof instants[0]; i++) {
    if ((rc = convert_instant(r, instants[i], z, flags, st))) return rc;
  }
  if ((rc = int_default(r, TC_CREATED_AT, now, flags, st))) return rc;
  if (!r->v[TC_START_AT].null && !r->v[TC_END_AT].null &&
      r->v[TC_END_AT].i < r->v[TC_START_AT].i) {
    return col_err(st, flags, TC_END_AT, "%lld is before start_at %lld",
                   (long long)r->v[TC_END_AT].i,
                   (long long)r->v[TC_START_AT].i);
  }
  if ((flags & TRIGGER_STORED) && (rc = check_state(r, flags, st))) return rc;
  return spec_of(c, s, r, spec, flags, st);
}

int trigger_check_status(trg_ctx *c, store *s, trg_row *r, sched_spec *spec,
                         i64 now, int flags, trigger_status *st) {
  trigger_status_clear(st);
  return st->rc = check_row(c, s, r, spec, now, flags, st);
}

int trigger_check(trg_ctx *c, store *s, trg_row *r, sched_spec *spec, i64 now,
                  int flags, char **err) {
  trigger_status st = TRIGGER_STATUS_INIT;
  int rc = trigger_check_status(c, s, r, spec, now, flags, &st);
  *err = st.msg;
  return rc;
}

int trigger_validate(trg_ctx *c, store *s, trg_row *r, sched_spec *spec,
                     i64 now, char **err) {
  return trigger_check(c, s, r, spec, now, 0, err);
}

/* The room a schedule's canonical text needs: an rrule's may be long
** (RRULE_CANON_MAX); the others are short. */
static size_t canon_room(const sched_spec *spec) {
  return spec->type == SCHED_RRULE ? SCHED_CANON_MAX : CRON_CANON_MAX;
}

char *trigger_canonical(const sched_spec *spec) {
  size_t n = canon_room(spec);
  char *canon = sqlite3_malloc64(n);
  if (canon && sched_canonical(spec, canon, n) < 0) {
    sqlite3_free(canon);
    canon = NULL;
  }
  return canon;
}

/* The default trigger_id: "trg-" and 16 hex digits of SHA-256 over the
** row's identity (canon: its canonical schedule) and created_at, the
** first one not taken. */
static int default_id(store *s, trg_row *r, const char *canon) {
  for (int seq = 0; seq < 1000; seq++) {
    sha256_ctx h;
    unsigned char d[32];
    char num[48], hex[17];
    const char *parts[] = {trg_val_text(&r->v[TC_AGENT_ID]),
                           trg_val_text(&r->v[TC_SCOPE]),
                           trg_val_text(&r->v[TC_INSTRUCTIONS]),
                           trg_val_text(&r->v[TC_TRIGGER_TYPE]), canon};
    sha256_init(&h);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
      sha256_update(&h, parts[i], strlen(parts[i]) + 1);
    }
    snprintf(num, sizeof num, "%lld/%d", (long long)r->v[TC_CREATED_AT].i, seq);
    sha256_update(&h, num, strlen(num));
    sha256_final(&h, d);
    sha256_hex(d, 8, hex);
    char id[24];
    snprintf(id, sizeof id, "trg-%s", hex);
    int taken;
    int rc = store_trigger_exists(s, id, &taken);
    if (rc != SQLITE_OK) return rc;
    if (!taken) return trg_val_set_text(&r->v[TC_TRIGGER_ID], id);
  }
  return SQLITE_CONSTRAINT_UNIQUE;
}

int trigger_default_id(store *s, trg_row *r, const sched_spec *spec) {
  /* out of memory is an error, never an id of another text (the id must
  ** be the same on every run: docs/create-action.md#dedupe-keys) */
  size_t n = canon_room(spec);
  char *canon = sqlite3_malloc64(n);
  if (!canon) return SQLITE_NOMEM;
  if (sched_canonical(spec, canon, n) < 0) canon[0] = 0;
  int rc = default_id(s, r, canon);
  sqlite3_free(canon);
  return rc;
}

/* JSON object of the first n values, named by cols. */
static void vals_json(sqlite3_str *out, const store_coldef *cols,
                      const trg_val *v, int n) {
  /* The member names and integers are formatted here: sqlite3_str_appendf
  ** and snprintf cost more than the rest of trigger_run_finish's answer (a
  ** host reports every run). Column names are short ASCII constants. */
  char buf[96];
  for (int i = 0; i < n; i++) {
    const trg_val *x = &v[i];
    char kind = cols[i].kind;
    size_t len = strlen(cols[i].name), k = 0;
    if (NEVER(len > sizeof buf - 32)) len = sizeof buf - 32; /* names */
    buf[k++] = i ? ',' : '{';
    buf[k++] = '"';
    /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): not a string */
    memcpy(buf + k, cols[i].name, len);
    k += len;
    buf[k++] = '"';
    buf[k++] = ':';
    int plain_int = !x->null && !x->bad && (kind == 'I' || kind == 'S');
    if (plain_int) k += (size_t)json_int_digits(buf + k, (long long)x->i);
    sqlite3_str_append(out, buf, (int)k);
    if (plain_int) continue;
    if (x->null || x->bad == SQLITE_BLOB || (x->bad && !x->t)) {
      sqlite3_str_appendall(out, "null");
    } else if (kind == 'J' && !x->bad) {
      sqlite3_str_appendall(out, x->t);
    } else {
      /* text; a stored value that is not JSON, or an integer column's text
      ** as read: a string */
      json_str(out, x->t);
    }
  }
  /* n > 0 (TC_NPUBLIC, RC_NPUBLIC): the '{' came with the first member */
  sqlite3_str_appendchar(out, 1, '}');
}

void trigger_json(sqlite3_str *out, const trg_row *r) {
  vals_json(out, store_trigger_cols, r->v, TC_NPUBLIC);
}

void trigger_run_json(sqlite3_str *out, const trg_run *run) {
  vals_json(out, store_run_cols, run->v, RC_NPUBLIC);
}
