/*
** fn_describe.c -- trigger_describe(spec [, tz]): a schedule in plain
** English (describe.c has the wording).
**
**   SELECT trigger_describe('0 7 * * MON-FRI', 'Europe/Berlin');
**   -- At 07:00, Monday through Friday (Europe/Berlin)
**   SELECT trigger_describe('{"interval_ms":900000}');   -- Every 15 minutes
**   SELECT trigger_id, trigger_describe(trigger_id) FROM triggers;
**
** spec is cron text, a JSON spec (as for trigger_next_due) or a trigger_id
** (spec_arg.c: a valid cron expression wins); NULL gives NULL. INNOCUOUS,
** not DETERMINISTIC: a trigger_id reads the table. A trigger that is a SQL
** job (docs/sql-jobs.md) adds ". Runs SQL: " and its first statement's
** first line, cut:
**   Every day at 03:00 (UTC). Runs SQL: DELETE FROM sessions WHERE ...
*/
#include "base/args.h"
#include "base/register.h"
#include "sql/spec_arg.h"
#include "text/sql_job_rules.h"
#include "time/describe.h"

#include <string.h>

SQLITE_EXTENSION_INIT3

static void fn_describe(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_describe";
  sched_spec spec;
  char *err = NULL, *job = NULL;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  int rc = sql_spec_arg_values_or_id(
      sqlite3_context_db_handle(ctx), sqlite3_user_data(ctx), argv[0],
      argc > 1 ? argv[1] : NULL, 2, 0, &spec, &job, &err);
  if (rc != SQLITE_OK) {
    trg_result_error(ctx, rc, fname, "%s", err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    return;
  }
  char *out = sqlite3_malloc(DESCRIBE_MAX);
  if (!out) {
    sqlite3_free(job);
    sqlite3_result_error_nomem(ctx);
    return;
  }
  if (describe_schedule(&spec, out, DESCRIBE_MAX) < 0) {
    sqlite3_free(out); /* cannot happen: DESCRIBE_MAX is the bound */
    sqlite3_free(job);
    trg_result_error(ctx, SQLITE_ERROR, fname, "description too long");
    return;
  }
  if (job) {
    size_t len = strlen(job);
    size_t at = sqljob_next_statement(job, len, 0);
    size_t end = sqljob_simple_end(job, len, at); /* its first statement */
    int more;
    size_t n = sqljob_shown(job + at, end - at, &more);
    more |= sqljob_next_statement(job, len, end) < len;
    char *with = sqlite3_mprintf("%s. Runs SQL: %.*s%s", out, (int)n, job + at,
                                 more ? " ..." : "");
    sqlite3_free(out);
    sqlite3_free(job);
    if (!with) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    out = with;
  }
  sqlite3_result_text(ctx, out, -1, sqlite3_free);
}

int sql_fn_describe_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_describe", 1, 2, TRG_FN_PURE, fn_describe},
  };
  return trg_fn_register(db, ctx, fns, 1);
}
