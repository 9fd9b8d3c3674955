/*
** out.h -- trigger-host's output text, built in a sqlite3_str: JSON
** members (the log's --log json lines, `status --json`, a batch of
** reports) and text on one line (the log's text lines, status's table).
** A string of any bytes comes out valid: its JSON literal is written by
** ext/text/json_write.c (whole UTF-8 characters kept, U+FFFD where the
** bytes are not UTF-8), and on one line control characters are escaped
** (\n, \t, \xNN), so a multi-line error stays on its line.
*/
#ifndef HOST_OUT_H
#define HOST_OUT_H

#include <sqlite3.h>
#include <stddef.h>

/* s on one line: control characters escaped (\n, \t, \xNN), bytes that
** are not UTF-8 as U+FFFD. */
void out_line(sqlite3_str *b, const char *s);
/* The same into a new string (free()). */
char *out_line_dup(const char *s);

/* JSON. Each of these writes ',' first unless it follows '{' or '[' (or
** nothing), then "key": unless key is NULL (an array element). A NULL
** string value is null. */
void out_json_str(sqlite3_str *b, const char *key, const char *val);
void out_json_int(sqlite3_str *b, const char *key, long long val);
void out_json_null(sqlite3_str *b, const char *key);
void out_json_open(sqlite3_str *b, const char *key, char brace); /* { [ */
/* A value already written as JSON (json[0..n), e.g. what json1 answered),
** as it is. */
void out_json_raw(sqlite3_str *b, const char *key, const char *json, size_t n);
void out_json_close(sqlite3_str *b, char brace); /* } ] */

/* The text built in b (b is freed): a string to free with sqlite3_free,
** NULL when nothing was written. Out of memory ends the host, as xmalloc
** does. */
char *out_finish(sqlite3_str *b);

#endif
