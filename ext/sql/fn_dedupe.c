/*
** fn_dedupe.c -- trigger_dedupe_key(instructions, trigger_type, schedule,
** scope [, tz]): the dedupe key a trigger with these values gets
** (docs/create-action.md#dedupe-keys, text/dedupe.h), computed without a
** table:
**
**   SELECT trigger_dedupe_key('Send the report', 'cron', '0 9 * * *', '',
**                             'Asia/Tokyo');   -- tdk2: + 32 hex digits
**
** schedule is the interval in ms (an integer, or its digits as text), a
** once trigger's instant (ms or ISO text) or a cron expression (its
** canonical form is keyed, so spellings of one schedule share a key); tz
** (default UTC) is part of a cron's key. An rrule's schedule is its rule
** text, or a JSON spec (docs/calendar.md#triggers). Pure: INNOCUOUS and
** DETERMINISTIC.
*/
#include "base/args.h"
#include "base/register.h"
#include "sql/spec_arg.h"
#include "text/dedupe.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/* An rrule's key: schedule is rule text (DTSTART left out, as for a
** trigger without start_at) or a JSON spec whose start_at is DTSTART
** (spec_arg.h); tz (argument 5) overrides the spec's zone. */
static void rrule_key(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                      const char *instructions, const char *scope) {
  const char *fname = "trigger_dedupe_key";
  sched_spec spec;
  char *err = NULL, key[DEDUPE_KEY_LEN + 1];
  if (sqlite3_value_type(argv[2]) != SQLITE_TEXT) {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "argument 3 (schedule): an rrule's schedule is its "
                     "rule text or a JSON spec");
    return;
  }
  int rc = sql_spec_arg_values(sqlite3_context_db_handle(ctx),
                               sqlite3_user_data(ctx), argv[2],
                               argc > 4 ? argv[4] : NULL, 5, 0, &spec, &err);
  if (rc == SQLITE_OK && spec.type != SCHED_RRULE) {
    rc = SQLITE_ERROR;
    err = sqlite3_mprintf("not an rrule schedule (it is %s)",
                          sched_type_name(spec.type));
  }
  if (rc != SQLITE_OK) {
    trg_result_error(ctx, rc, fname, "argument 3 (schedule): %s",
                     err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    return;
  }
  char *canon = trigger_canonical(&spec);
  if (!canon) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  dedupe_key(instructions, "rrule", canon, tz_name(spec.zone), scope, key);
  sqlite3_free(canon);
  sqlite3_result_text(ctx, key, -1, SQLITE_TRANSIENT);
}

static void fn_dedupe_key(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  const char *fname = "trigger_dedupe_key";
  const char *instructions = trg_arg_text(ctx, fname, argv, 0, "instructions");
  const char *type =
      instructions ? trg_arg_text(ctx, fname, argv, 1, "trigger_type") : NULL;
  if (!type) return;
  const char *scope = "";
  if (sqlite3_value_type(argv[3]) != SQLITE_NULL &&
      !(scope = trg_arg_text(ctx, fname, argv, 3, "scope"))) {
    return;
  }
  char canon[CRON_CANON_MAX];
  sched_type st = sched_type_parse(type);
  if (st == SCHED_RRULE) {
    rrule_key(ctx, argc, argv, instructions, scope);
    return;
  }
  if (st == SCHED_CRON) {
    const char *expr = trg_arg_text(ctx, fname, argv, 2, "schedule");
    cron_expr c;
    char msg[CRON_ERR_MAX];
    if (!expr) return;
    if (cron_parse(expr, &c, msg, sizeof msg) != 0) {
      trg_result_error(ctx, SQLITE_ERROR, fname, "argument 3 (schedule): %s",
                       msg);
      return;
    }
    cron_canonical(&c, canon, sizeof canon);
  } else if (st == SCHED_INTERVAL || st == SCHED_ONCE) {
    i64 v;
    int vt = sqlite3_value_type(argv[2]);
    int isint = 0;
    if (st == SCHED_INTERVAL && trg_int_of(argv[2], &v, &isint) != SQLITE_OK) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    if (st == SCHED_INTERVAL && !isint && vt != SQLITE_NULL) {
      /* "60000" as text is the same interval */
      const char *z = vt == SQLITE_TEXT
                          ? trg_arg_text(ctx, fname, argv, 2, "schedule")
                          : (const char *)sqlite3_value_text(argv[2]);
      if (vt == SQLITE_TEXT && !z) return; /* not UTF-8: reported */
      char buf[TRG_ECHO_MAX];
      trg_result_error(ctx, SQLITE_ERROR, fname,
                       "argument 3 (schedule): '%s' is not an integer number "
                       "of milliseconds",
                       z ? trg_echo(z, buf) : "");
      return;
    } else if (!isint && trg_arg_instant(ctx, fname, argc, argv, 2, "schedule",
                                         0, &v) != 0) {
      return;
    }
    sqlite3_snprintf(sizeof canon, canon, "%lld", (long long)v);
  } else {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "argument 2 (trigger_type): '%s' "
                     "is not one of 'interval', 'once', 'cron', 'rrule'",
                     type);
    return;
  }
  const tz_zone *z;
  const char *tz; /* a cron's zone, canonical ('asia/tokyo': Asia/Tokyo) */
  if (trg_arg_zone(ctx, fname, argc, argv, 4, "UTC", &z, &tz) != 0) return;
  char key[DEDUPE_KEY_LEN + 1];
  dedupe_key(instructions, sched_type_name(st), canon, tz, scope, key);
  sqlite3_result_text(ctx, key, -1, SQLITE_TRANSIENT);
}

int sql_fn_dedupe_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_dedupe_key", 4, 5, TRG_FN_PURE | SQLITE_DETERMINISTIC,
       fn_dedupe_key},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
