/*
** args.h -- argument checking for the SQL functions: arity, types and
** instants, with sqlean-style messages that name the function, the
** argument's position and its name ("trigger_iso: argument 2 (tz) must be
** text"). One helper formats, then sets the error code.
*/
#ifndef TRIGGERS_ARGS_H
#define TRIGGERS_ARGS_H

#include "triggers_int.h"

/* Instant argument: INTEGER ms or ISO-8601 text (no offset = UTC), NULL
** or absent -> the wall clock when allow_default. 0 ok, -1 error set. */
int arg_instant(sqlite3_context *ctx, const char *fname, int argc,
                sqlite3_value **argv, int pos, const char *name,
                int allow_default, i64 *out);
/* The same check without a context: NULL, or a message to free. */
char *instant_from_value(sqlite3_value *v, int pos, const char *name,
                         i64 *out);
/* A schedule argument: cron text or a JSON object of triggers columns,
** with an optional zone value (may be NULL). NULL or a message to free. */
char *spec_from_values(sqlite3 *db, trg_ctx *c, sqlite3_value *spec,
                       sqlite3_value *tz, i64 after, sched_spec *out);
/* Required non-NULL text argument. NULL on error (already reported). */
const char *arg_text(sqlite3_context *ctx, const char *fname,
                     sqlite3_value **argv, int pos, const char *name);
/* Finish a JSON result: text, or the OOM error. */
void result_str(sqlite3_context *ctx, sqlite3_str *s);

#endif
