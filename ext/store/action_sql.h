/*
** action_sql.h -- a SQL job's statements (a trigger's action_sql,
** docs/sql-jobs.md) checked when written, without running them.
*/
#ifndef TRIGGERS_ACTION_SQL_H
#define TRIGGERS_ACTION_SQL_H

#include "store/store.h"

/* sql (one or more statements) compiled against s's current schema, each
** finalized unstepped: SQLITE_OK; SQLITE_CONSTRAINT_CHECK with *err
** ("triggers.action_sql: statement 2 (DELETE FROM nope ...): no such
** table: nope") for a statement that does not compile, one a job may not
** hold (text/sql_job_rules.h: ATTACH, VACUUM, BEGIN, a PRAGMA that sets ...), a
** parameter a host does not bind, or no statement at all; another code
** (out of memory, a locked schema) as SQLite gave it. */
int store_action_sql_check(store *s, const char *sql, char **err);

#endif
