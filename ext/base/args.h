/*
** args.h -- what the SQL functions share about their arguments and
** results: values read as SQLite's affinity reads them, text checked as
** it enters the extension, arguments checked with sqlean-style messages
** that name the function, the argument's position and its name
** ("trigger_iso: argument 2 (tz) must be text"), and results. One helper
** formats, then sets the error code. Exported names are trg_ (values,
** text, results) or arg_ (one function argument).
*/
#ifndef TRIGGERS_ARGS_H
#define TRIGGERS_ARGS_H

#include "base/triggers_int.h"

/* ---- errors and results ------------------------------------------------ */

/* Error text for a function call: "fname: message", then the code (the
** order matters: a later sqlite3_result_error resets the code). */
void trg_result_error(sqlite3_context *ctx, int code, const char *fname,
                      const char *fmt, ...);
/* The message of a failure rc of a statement on db: the connection's,
** unless a later call (finalizing or resetting another statement, a
** rollback) left it stale ("not an error"): then SQLite's text for rc. */
const char *trg_errmsg(sqlite3 *db, int rc);
/* Finish a JSON result: text, or the OOM error. */
void trg_result_str(sqlite3_context *ctx, sqlite3_str *s);
/* For the function fname with side effects: 0, or -1 with the error set
** on ctx when it is called from the configured preload query while the
** tick steps it (docs/reliability.md: a preload is a read-only query, and
** a tick inside a tick would recurse until the stack ends). */
int trg_refuse_in_preload(sqlite3_context *ctx, const char *fname);
/* Helpers that return SQLITE_OK, or an error code with *err set to a
** message to free; SQLITE_NOMEM leaves *err NULL (the message itself
** could not be allocated), so a failure never reads as success. This one
** formats *err and returns SQLITE_ERROR (SQLITE_NOMEM). */
int trg_errf(char **err, const char *fmt, ...);

/* ---- values -------------------------------------------------------------- */

/*
** An integer-valued SQL value, as SQLite's INTEGER affinity reads one: an
** INTEGER, a REAL that is a whole number within the instant range, or
** TEXT that the affinity turns into either ('300000', ' 300000 ', '3e5';
** not '0x10', '5 min', '300000.5'): *is 1 and *out, or *is 0 when it is
** not one. SQLITE_OK, or SQLITE_NOMEM.
*/
int trg_int_of(sqlite3_value *v, i64 *out, int *is);
/* An instant: INTEGER ms (or integer-valued) or ISO-8601 text (no offset
** = UTC), checked against the instant range; v is argument pos (0-based)
** named name, for messages. */
int trg_instant_of(sqlite3_value *v, int pos, const char *name, i64 *out,
                   char **err);
/* What "not an integer" names for a column or key: " number of
** milliseconds" for names ending in _ms, else "". */
const char *trg_int_unit(const char *name);
/* A value's text for a message: at most 60 bytes, cut on a UTF-8
** boundary, "..." when cut. buf holds TRG_ECHO_MAX bytes. */
#define TRG_ECHO_MAX 72
const char *trg_echo(const char *text, char *buf);

/* ---- text entering the extension ------------------------------------------
** docs/reliability.md#guarantees: every TEXT stored or returned is valid
** UTF-8 without NUL. trg_text_check: SQLITE_OK, or SQLITE_ERROR with *err =
** "<what>: <problem>" ("<what>.<key>: ..." for a JSON text whose top-level
** member holds it; json also checks \u escapes), SQLITE_NOMEM. The message
** never quotes the bad bytes. */
int trg_text_check(const char *t, size_t n, int json, const char *what,
                   char **err);
/* The text of v (TEXT), checked as above: *out points into v. */
int trg_value_text(sqlite3_value *v, int json, const char *what,
                   const char **out, char **err);
/* Text from a host, kept whatever its bytes: each invalid sequence and NUL
** becomes U+FFFD (json: each bad escape \ufffd). sqlite3_malloc'd,
** NUL-terminated; NULL when out of memory. */
char *trg_text_repair(const char *t, size_t n, int json);

/* ---- one argument of a function call (0 ok, -1 error already set) ------ */

/* Instant argument (trg_instant_of); NULL or absent -> the wall clock
** when allow_default. */
int trg_arg_instant(sqlite3_context *ctx, const char *fname, int argc,
                    sqlite3_value **argv, int pos, const char *name,
                    int allow_default, i64 *out);
/* Required non-NULL text argument, valid UTF-8 without NUL (utf8.h).
** NULL on error (already reported, naming the argument). */
const char *trg_arg_text(sqlite3_context *ctx, const char *fname,
                         sqlite3_value **argv, int pos, const char *name);
/* Time zone argument at pos named "tz" (NULL or absent: def), through the
** connection's zone cache; *canon (when not NULL) is its canonical name
** ('asia/tokyo' -> 'Asia/Tokyo'), valid while the context lives. */
int trg_arg_zone(sqlite3_context *ctx, const char *fname, int argc,
                 sqlite3_value **argv, int pos, const char *def,
                 const tz_zone **z, const char **canon);

#endif
