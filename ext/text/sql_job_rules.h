/*
** sql_job_rules.h -- what a SQL job (a trigger's action_sql, docs/sql-jobs.md)
** may hold, read without SQLite: the statements refused because they would
** break the host's transaction or connection (ATTACH, DETACH, VACUUM,
** BEGIN / COMMIT / END / ROLLBACK / SAVEPOINT / RELEASE, a PRAGMA that sets
** a value), and the parameters a host binds. The extension checks a job
** with it when the job is written (store/action_sql.c), and again before it
** runs each statement (trigger-host, store/sql_job.c).
**
** Pure: no SQLite, no allocation.
*/
#ifndef TRIGGERS_SQL_JOB_RULES_H
#define TRIGGERS_SQL_JOB_RULES_H

#include <stddef.h>

#include "text/sql_tokens.h"

/* The parameters a host binds where a job names them. */
#define SQLJOB_PARAMS ":trigger_id", ":run_id", ":scheduled_for", ":now"
#define SQLJOB_PARAMS_TEXT ":trigger_id, :run_id, :scheduled_for, :now"

/* Why the statement of sql[0..len) that starts at pos is refused, or NULL
** when it may run. */
const char *sqljob_refused(const char *sql, size_t len, size_t pos);

/* How much of the statement at p[0..n) a message shows: its first line,
** trailing blanks and ';' left out, cut to SQLJOB_SHOWN bytes on a
** character boundary. *more: 1 when the statement goes on past it (a
** message then adds " ..."). */
#define SQLJOB_SHOWN 60
size_t sqljob_shown(const char *p, size_t n, int *more);

/* Where the next statement of sql[0..len) from pos starts: past blanks,
** comments and empty statements (';'); len when none is left. */
size_t sqljob_next_statement(const char *sql, size_t len, size_t pos);

/* The end of the statement at pos up to its first ';' (or len): where a
** refused statement ends, for its message (a refused statement holds no
** trigger body, whose ';' would not end it). */
size_t sqljob_simple_end(const char *sql, size_t len, size_t pos);

/* 1 when name (as sqlite3_bind_parameter_name gives it) is one of
** SQLJOB_PARAMS. */
int sqljob_param_known(const char *name);

#endif
