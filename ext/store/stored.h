/*
** stored.h -- values read back from the shadow tables, which an application
** can change outside the extension (SQL with SQLITE_DBCONFIG_DEFENSIVE off;
** docs/tables.md#changed-shadow-tables): the messages that say what is
** wrong with a value (shared with the write path, so a stored value and a
** written one get the same words), and the check of a triggers_rundata row.
** A trigger row is checked by trigger.c's own validator (trigger_check with
** TRIGGER_STORED), the one INSERT uses.
*/
#ifndef TRIGGERS_STORED_H
#define TRIGGERS_STORED_H

#include "store/columns.h"
#include "store/store.h"

/* At most STORED_SHOWN bytes of text t for a message, cut on a character
** boundary, "..." when cut, each invalid UTF-8 sequence shown as U+FFFD
** (a message never quotes bytes that are not text); buf holds the copy. */
#define STORED_SHOWN 40
const char *store_stored_shown(const char *t, char buf[STORED_SHOWN + 4]);

/* A text read back that is not valid UTF-8 or holds a NUL (trg_val.bad
** TRG_BAD_TEXT, values.c): what is wrong into why (UTF8_DESCRIBE_MAX
** bytes, e.g. "not valid UTF-8 at byte 3 (0xff: ...)": bytes in hex,
** never themselves; why NULL: not wanted), and the value repaired in
** place, each problem U+FFFD, so nothing the call writes or returns of
** the row afterwards (an event, the trigger's JSON, a message) carries
** the stored bytes; it stays marked bad. Other values: nothing.
** SQLITE_OK or SQLITE_NOMEM. */
int store_stored_text_repair(trg_val *v, char *why);
/* The values v[0..n) of a row read back: each TRG_BAD_TEXT one repaired
** (store_stored_text_repair); *first the first with any problem (trg_val.bad;
** -1: none), and when that one is a text, why says what was wrong. */
int store_stored_texts_repair(trg_val *v, int n, int *first, char *why);
/* A value type as a message says it: "an integer", "a real", "text", "a
** blob", "NULL". */
const char *store_stored_type_word(int t);

/* "<table>.<column>: <printf message>" into *err: SQLITE_CONSTRAINT_CHECK,
** or SQLITE_NOMEM with *err NULL. */
int store_stored_err(char **err, const char *table, const char *column,
                     const char *fmt, ...);

/* A value of SQLite type `type` (its text, when it has one) that column d
** of `table` cannot hold: "must be an integer, got text 'soon'". stored:
** the column as stored (instants as ms only), else as written (ms or ISO
** text). */
int store_stored_type_error(char **err, const char *table,
                            const store_coldef *d, int type, const char *text,
                            int stored);

/* A run row as read back: every value of the type and range the tick
** writes (trg_val.bad: texts that are not valid UTF-8 repaired in place,
** store_stored_texts_repair; instants, attempt >= 1, status, counters,
** incarnation >= 1, lease_ms NULL or 1..SCHED_SPAN_MAX), the
** times a running run needs, payload a JSON object. SQLITE_OK, or
** SQLITE_CONSTRAINT_CHECK and "triggers_rundata.<column>: ..." in *err,
** or another error (out of memory) with *err NULL. */
int store_run_check(store *s, trg_run *run, char **err);
/* 1 when status is one of the run statuses ('running', 'success', ...). */
int store_run_status_known(const char *status);
/* Append the run statuses to s as SQL literals: "'running', 'success', ..." */
void store_run_statuses_sql(sqlite3_str *s);

#endif
