/*
** fn_schedule.c -- instants of a schedule, computed without a table:
**
**   SELECT trigger_next_due('0 7 * * MON-FRI', '2026-03-27T00:00:00Z',
**                           'Europe/Berlin');   -- ms of the next 07:00
**   SELECT trigger_iso(1767225600000, 'Europe/Berlin');
**   -- 2026-01-01T01:00:00+01:00
**
** trigger_next_due(spec, after [, tz]) takes a spec as trigger_preview
** does (spec_arg.c: cron text or a JSON schedule) and returns the first
** occurrence strictly after `after`, or NULL when there is none;
** trigger_iso(ms [, tz]) formats an instant in a zone (UTC by default).
** Both are pure: INNOCUOUS, their result depends on the arguments and the
** zone database alone.
*/
#include "base/args.h"
#include "base/register.h"
#include "sql/spec_arg.h"
#include "time/civil.h"

SQLITE_EXTENSION_INIT3

static void fn_next_due(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_next_due";
  i64 after, next;
  sched_spec spec;
  if (trg_arg_instant(ctx, fname, argc, argv, 1, "after", 0, &after) != 0)
    return;
  char *err;
  int rc = sql_spec_arg_values(
      sqlite3_context_db_handle(ctx), sqlite3_user_data(ctx), argv[0],
      argc > 2 ? argv[2] : NULL, 3, after, &spec, &err);
  if (rc != SQLITE_OK) {
    trg_result_error(ctx, rc, fname, "%s", err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    return;
  }
  if (sched_next(&spec, after, &next)) {
    sqlite3_result_int64(ctx, next);
  } else {
    sqlite3_result_null(ctx);
  }
}

static void fn_iso(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_iso";
  i64 ms;
  const tz_zone *z;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  if (trg_arg_instant(ctx, fname, argc, argv, 0, "ms", 0, &ms) != 0) return;
  if (trg_arg_zone(ctx, fname, argc, argv, 1, "UTC", &z, NULL) != 0) return;
  char buf[CIVIL_ISO_MAX];
  int32_t off = tz_offset_at(z, civil_floor_div(ms, 1000));
  int is_utc = z == tz_utc();
  civil_format_iso(ms, off, is_utc, buf);
  sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

int sql_fn_schedule_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_next_due", 2, 3, TRG_FN_PURE, fn_next_due},
      {"trigger_iso", 1, 2, TRG_FN_PURE, fn_iso},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
