/*
** spec_arg.c -- a schedule argument (spec_arg.h): what trigger_next_due,
** trigger_preview and trigger_describe take as `spec`, with its zone
** argument.
**
**   SELECT trigger_next_due('0 7 * * MON-FRI', 0, 'Europe/Berlin');
**   SELECT trigger_next_due('{"interval_ms":900000}', 0);
**   SELECT * FROM trigger_preview('standup', 0) LIMIT 3;   -- its schedule
**
** Cron text, rule text (an rrule: text with '=' or ':', which no cron
** expression has; its DTSTART is `after`'s wall clock, docs/calendar.md),
** or a JSON object of `triggers` columns (keys that are not columns are
** errors; instants may be ms or ISO text, local in the spec's zone), read
** and checked as an INSERT reads them. Where a
** trigger_id may stand too (sql_spec_arg_values_or_id):
** precedence: a JSON object is a spec; text that parses as a cron
** expression is that expression, whatever the table holds (so a valid
** expression never changes meaning with the data); any other text is
** looked up as a trigger_id, and that trigger's schedule is used with its
** zone, start_at, end_at and interval anchor (its status and max_runs do
** not matter). A `tz` argument overrides the trigger's zone, as it does a
** JSON spec's. Text that is neither is an error: the cron parser's alone
** when the text has blanks or starts with '@' (a cron expression with a
** mistake), else one that names both readings.
*/
#include "sql/spec_arg.h"

#include <string.h>

#include "store/json.h"
#include "store/schema.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/* A schedule given as a JSON object of `triggers` columns. */
static int spec_from_json(sqlite3 *db, trg_ctx *c, const char *json,
                          const char *tz_arg, i64 after, sched_spec *spec,
                          char **err) {
  trg_row r;
  store s;
  store_json_each it;
  trg_row_init(&r);
  store_init(&s, db);
  *err = NULL;
  int ob;
  int rc = store_json_is_object(&s, json, &ob);
  if (rc == SQLITE_OK) {
    rc = ob ? store_json_each_open(&s, json, &it)
            : trg_errf(err, "argument 1 (spec): not a JSON object");
  } else {
    ob = 0;
  }
  int step = SQLITE_DONE;
  while (ob && rc == SQLITE_OK &&
         (step = store_json_each_next(&it)) == SQLITE_ROW) {
    const char *k = it.m.key;
    int col = -1;
    for (int i = 0; i < TC_NPUBLIC; i++) {
      if (strcmp(store_trigger_cols[i].name, k) == 0) col = i;
    }
    if (col < 0 || store_trigger_cols[col].ro) {
      rc = trg_errf(err, "argument 1 (spec): unknown key '%s'", k);
    } else {
      /* As an INSERT reads it: integer-valued text for integer columns. */
      char *verr = NULL;
      rc = trigger_read_value(col, it.m.value, &r.v[col], &verr);
      if (verr) {
        rc = trg_errf(err, "argument 1 (spec): %s", verr);
        sqlite3_free(verr);
      }
    }
  }
  if (ob) store_json_each_close(&it);
  /* A failed step: the row is incomplete. */
  if (rc == SQLITE_OK && step != SQLITE_DONE) {
    rc =
        step == SQLITE_NOMEM ? step : trg_errf(err, "%s", trg_errmsg(db, step));
  }
  if (rc == SQLITE_OK && tz_arg)
    rc = trg_val_set_text(&r.v[TC_TIMEZONE], tz_arg);
  if (rc == SQLITE_OK && r.v[TC_TRIGGER_TYPE].null) {
    rc = trg_val_set_text(&r.v[TC_TRIGGER_TYPE],
                          !r.v[TC_CRON_EXPRESSION].null ? "cron"
                          : !r.v[TC_RRULE].null         ? "rrule"
                          : !r.v[TC_SCHEDULED_AT].null  ? "once"
                                                        : "interval");
  }
  if (rc == SQLITE_OK) rc = trg_val_set_text(&r.v[TC_INSTRUCTIONS], "-");
  int no_anchor = r.v[TC_START_AT].null && r.v[TC_CREATED_AT].null;
  if (rc == SQLITE_OK) {
    char *verr = NULL;
    rc = trigger_validate(c, &s, &r, spec, after, &verr);
    if (verr) {
      rc = trg_errf(err, "argument 1 (spec): %s", verr);
      sqlite3_free(verr);
    } else if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
      rc = trg_errf(err, "%s", sqlite3_errstr(rc));
    }
    /* Interval without start_at/created_at: the grid starts at `after`. */
    if (rc == SQLITE_OK && spec->type == SCHED_INTERVAL && no_anchor) {
      spec->created_at = after;
    }
    /* An rrule's DTSTART without start_at/created_at is `after`'s. */
    if (rc == SQLITE_OK && spec->type == SCHED_RRULE && no_anchor)
      spec->dtstart_implied = 1;
  }
  store_close(&s);
  trg_row_clear(&r);
  return rc;
}

/* p past JSON's white space (one set for both readers: a spec that is
** JSON after a carriage return is JSON to each). */
static const char *past_json_blanks(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

int sql_spec_is_rule(const char *text) {
  /* a cron expression has neither; every rule text has one */
  return strpbrk(text, "=:") != NULL;
}

/* Bare rule text: DTSTART is `after`'s wall clock in the zone (whole
** seconds); a rule that never occurs from there is an error. */
static int rule_spec(const char *text, i64 after, sched_spec *spec,
                     char **err) {
  char msg[RRULE_ERR_MAX];
  spec->created_at = after;
  spec->dtstart_implied = 1;
  if (rrule_compile(text, &spec->rrule, msg, sizeof msg) != 0)
    return trg_errf(err, "%s", msg);
  spec->dtstart = sched_rrule_dtstart(spec);
  if (rrule_check(&spec->rrule, spec->dtstart, spec->zone, msg, sizeof msg))
    return trg_errf(err, "%s", msg);
  return SQLITE_OK;
}

int sql_spec_arg_tz(sqlite3_value *tzv, int tz_pos, const char **tz,
                    char **err) {
  *tz = NULL;
  if (!tzv || sqlite3_value_type(tzv) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(tzv) != SQLITE_TEXT) {
    return trg_errf(err, "argument %d (tz) must be text", tz_pos);
  }
  char what[32];
  sqlite3_snprintf(sizeof what, what, "argument %d (tz)", tz_pos);
  return trg_value_text(tzv, 0, what, tz, err);
}

int sql_spec_arg_values(sqlite3 *db, trg_ctx *c, sqlite3_value *specv,
                        sqlite3_value *tzv, int tz_pos, i64 after,
                        sched_spec *spec, char **err) {
  *err = NULL;
  if (sqlite3_value_type(specv) != SQLITE_TEXT) {
    return trg_errf(err, "argument 1 (spec) must be text (a cron "
                         "expression or a JSON object)");
  }
  /* Cron text or JSON: checked as JSON (cron text has no strings). */
  const char *text;
  int rc = trg_value_text(specv, 1, "argument 1 (spec)", &text, err);
  if (rc != SQLITE_OK) return rc;
  const char *tz;
  rc = sql_spec_arg_tz(tzv, tz_pos, &tz, err);
  if (rc != SQLITE_OK) return rc;
  const char *p = past_json_blanks(text);
  if (*p == '{') return spec_from_json(db, c, text, tz, after, spec, err);
  sched_spec_clear(spec);
  spec->type = sql_spec_is_rule(text) ? SCHED_RRULE : SCHED_CRON;
  spec->start_at = spec->end_at = SCHED_NONE;
  char msg[RRULE_ERR_MAX];
  if (trg_zone(c, tz ? tz : "UTC", &spec->zone, msg, sizeof msg) != 0) {
    return trg_errf(err, "argument %d (tz): %s", tz_pos, msg);
  }
  if (spec->type == SCHED_RRULE) return rule_spec(text, after, spec, err);
  if (cron_parse(text, &spec->cron, msg, sizeof msg) != 0) {
    return trg_errf(err, "%s", msg);
  }
  return SQLITE_OK;
}

/* The schedule of trigger `id`: SQLITE_ROW with *spec set (and, when job
** is not NULL, *job a copy of its action_sql or NULL), SQLITE_DONE when
** there is no such trigger (or no triggers table), or an error. */
static int spec_of_trigger(sqlite3 *db, trg_ctx *c, const char *id,
                           const char *tz, int tz_pos, sched_spec *spec,
                           char **job, char **err) {
  trg_row r;
  store s;
  int ready; /* the tables, of this schema version */
  int rc = store_ready(c, db, &ready, err);
  if (rc != SQLITE_OK || !ready) return rc == SQLITE_OK ? SQLITE_DONE : rc;
  trg_row_init(&r);
  store_init(&s, db);
  rc = store_trigger_load(&s, id, &r);
  if (rc == SQLITE_ROW) {
    char *verr = NULL;
    /* the row as stored: checked as the tick checks it (a row changed
    ** outside the extension is an error here, never a crash) */
    int src = trigger_check(c, &s, &r, spec, 0,
                            TRIGGER_STORED | TRIGGER_NO_JSON, &verr);
    if (src != SQLITE_OK) {
      rc = verr ? trg_errf(err, "argument 1 (spec): trigger '%s': %s", id, verr)
                : src;
      sqlite3_free(verr);
    } else if (job && !r.v[TC_ACTION_SQL].null &&
               !(*job = sqlite3_mprintf("%s", r.v[TC_ACTION_SQL].t))) {
      rc = SQLITE_NOMEM;
    }
  } else if (rc != SQLITE_DONE) {
    rc = trg_errf(err, "%s", trg_errmsg(db, rc));
  }
  store_close(&s);
  trg_row_clear(&r);
  char msg[CRON_ERR_MAX];
  if (rc == SQLITE_ROW && tz &&
      trg_zone(c, tz, &spec->zone, msg, sizeof msg) != 0) {
    return trg_errf(err, "argument %d (tz): %s", tz_pos, msg);
  }
  return rc;
}

int sql_spec_arg_values_or_id(sqlite3 *db, trg_ctx *c, sqlite3_value *specv,
                              sqlite3_value *tzv, int tz_pos, i64 after,
                              sched_spec *spec, char **job, char **err) {
  *err = NULL;
  if (job) *job = NULL;
  if (sqlite3_value_type(specv) == SQLITE_TEXT) {
    const char *text, *p, *tz;
    cron_expr probe;
    char why[CRON_ERR_MAX];
    int vrc = trg_value_text(specv, 1, "argument 1 (spec)", &text, err);
    if (vrc != SQLITE_OK) return vrc;
    p = past_json_blanks(text);
    if (*p != '{' && !sql_spec_is_rule(text) &&
        cron_parse(text, &probe, why, sizeof why) != 0) {
      int rc = sql_spec_arg_tz(tzv, tz_pos, &tz, err);
      if (rc == SQLITE_OK)
        rc = spec_of_trigger(db, c, text, tz, tz_pos, spec, job, err);
      if (rc == SQLITE_ROW) return SQLITE_OK;
      if (rc != SQLITE_DONE) return rc;
      char buf[TRG_ECHO_MAX];
      /* several fields or a macro: a cron expression with a mistake */
      if (strpbrk(p, " \t") || *p == '@') return trg_errf(err, "%s", why);
      return trg_errf(err,
                      "argument 1 (spec): '%s' is not a trigger_id, nor a "
                      "cron expression: %s",
                      trg_echo(text, buf), why);
    }
  }
  return sql_spec_arg_values(db, c, specv, tzv, tz_pos, after, spec, err);
}
