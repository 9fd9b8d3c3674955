/*
** spec_arg.h -- a schedule argument of the SQL functions: cron text, a
** JSON object of `triggers` columns, or (where allowed) a trigger_id, with
** an optional zone argument. Each returns SQLITE_OK with *spec, or an
** error code with *err a message naming the argument (sqlite3_free it;
** NULL when out of memory).
*/
#ifndef TRIGGERS_SPEC_ARG_H
#define TRIGGERS_SPEC_ARG_H

#include "base/args.h"

/* 1 when a schedule text is an rrule (it has '=' or ':'), not cron. */
int sql_spec_is_rule(const char *text);

/* A zone argument's text: *tz NULL when absent or NULL; an error naming
** argument tz_pos when it is not text. */
int sql_spec_arg_tz(sqlite3_value *tzv, int tz_pos, const char **tz,
                    char **err);
/* Cron text, rule text or a JSON object, with an optional zone value (may be NULL)
** that is argument tz_pos (1-based, for messages); `after` anchors an
** interval without start_at. */
int sql_spec_arg_values(sqlite3 *db, trg_ctx *c, sqlite3_value *specv,
                        sqlite3_value *tzv, int tz_pos, i64 after,
                        sched_spec *spec, char **err);
/* The same, where text that is not a cron expression may also be a
** trigger_id: that trigger's schedule (spec_arg.c has the precedence);
** job (may be NULL): that trigger's action_sql (sqlite3_free), else NULL. */
int sql_spec_arg_values_or_id(sqlite3 *db, trg_ctx *c, sqlite3_value *specv,
                              sqlite3_value *tzv, int tz_pos, i64 after,
                              sched_spec *spec, char **job, char **err);

#endif
