/*
** spec_id.c -- a schedule argument that may name a trigger: what
** trigger_preview and trigger_describe take as `spec`.
**
**   SELECT * FROM trigger_preview('standup', 0) LIMIT 3;   -- its schedule
**   SELECT trigger_describe('standup');
**
** Precedence: a JSON object is a spec; text that parses as a cron
** expression is that expression, whatever the table holds (so a valid
** expression never changes meaning with the data); any other text is
** looked up as a trigger_id, and that trigger's schedule is used with its
** zone, start_at, end_at and interval anchor (its status and max_runs do
** not matter). A `tz` argument overrides the trigger's zone, as it does a
** JSON spec's. Text that is neither is an error: the cron parser's alone
** when the text has blanks or starts with '@' (a cron expression with a
** mistake), else one that names both readings.
*/
#include <string.h>

#include "base/args.h"
#include "store/schema.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/* The schedule of trigger `id`: SQLITE_ROW with *spec set, SQLITE_DONE
** when there is no such trigger (or no triggers table), or an error. */
static int spec_of_trigger(sqlite3 *db, trg_ctx *c, const char *id,
                           const char *tz, int tz_pos, sched_spec *spec,
                           char **err) {
  trg_row r;
  store s;
  if (!store_installed(db)) return SQLITE_DONE;
  row_init(&r);
  store_init(&s, db);
  int rc = store_trigger_load(&s, id, &r);
  if (rc == SQLITE_ROW) {
    char *verr = NULL;
    /* the row as stored: checked as the tick checks it (a row changed
    ** outside the extension is an error here, never a crash) */
    int src = trg_check(c, &s, &r, spec, 0, TRG_STORED | TRG_NO_JSON, &verr);
    if (src != SQLITE_OK) {
      rc = verr ? trg_errf(err, "argument 1 (spec): trigger '%s': %s", id, verr)
                : src;
      sqlite3_free(verr);
    }
  } else if (rc != SQLITE_DONE) {
    rc = trg_errf(err, "%s", sqlite3_errmsg(db));
  }
  store_close(&s);
  row_clear(&r);
  char msg[CRON_ERR_MAX];
  if (rc == SQLITE_ROW && tz &&
      trg_zone(c, tz, &spec->zone, msg, sizeof msg) != 0) {
    return trg_errf(err, "argument %d (tz): %s", tz_pos, msg);
  }
  return rc;
}

int spec_from_values_or_id(sqlite3 *db, trg_ctx *c, sqlite3_value *specv,
                           sqlite3_value *tzv, int tz_pos, i64 after,
                           sched_spec *spec, char **err) {
  *err = NULL;
  if (sqlite3_value_type(specv) == SQLITE_TEXT) {
    const char *text, *p, *tz;
    cron_expr probe;
    char why[CRON_ERR_MAX];
    int vrc = value_text(specv, 1, "argument 1 (spec)", &text, err);
    if (vrc != SQLITE_OK) return vrc;
    p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (*p != '{' && cron_parse(text, &probe, why, sizeof why) != 0) {
      int rc = spec_tz_arg(tzv, tz_pos, &tz, err);
      if (rc == SQLITE_OK)
        rc = spec_of_trigger(db, c, text, tz, tz_pos, spec, err);
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
  return spec_from_values(db, c, specv, tzv, tz_pos, after, spec, err);
}
