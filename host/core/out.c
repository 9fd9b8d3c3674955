/*
** out.c -- trigger-host's output text in a sqlite3_str (see out.h). The
** JSON literal is ext/text/json_write.c's literal of any bytes; a line of
** text takes the same pieces, with '"' and '\\' as themselves and other
** control characters as \xNN.
*/
#include "core/out.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "text/json_write.h"

/* s[0..n) cut where json_write cuts a literal of any bytes: each run of
** characters that stand as themselves appended, each other character
** handed to esc (with the escape JSON would write for it). */
typedef void (*out_esc)(sqlite3_str *b, unsigned char c, const char *json,
                        const char *buf);

static void put_pieces(sqlite3_str *b, const char *s, out_esc esc) {
  size_t n = strlen(s);
  while (n > 0) {
    size_t run = json_any_span(s, n), used = 0;
    sqlite3_str_append(b, s, (int)run);
    s += run;
    n -= run;
    if (n == 0) break;
    char buf[8];
    esc(b, (unsigned char)*s, json_any_escape(s, n, &used, buf), buf);
    s += used;
    n -= used;
  }
}

static void esc_json(sqlite3_str *b, unsigned char c, const char *json,
                     const char *buf) {
  (void)c;
  (void)buf;
  sqlite3_str_appendall(b, json);
}

/* On one line '"' and '\\' stand as themselves, and a control character
** that JSON writes \u00XX (formatted into buf) is \xNN. */
static void esc_line(sqlite3_str *b, unsigned char c, const char *json,
                     const char *buf) {
  if (c == '"' || c == '\\') sqlite3_str_appendchar(b, 1, (char)c);
  else if (json == buf) sqlite3_str_appendf(b, "\\x%02x", c);
  else sqlite3_str_appendall(b, json); /* \n, \t, \r, U+FFFD */
}

void out_line(sqlite3_str *b, const char *s) {
  put_pieces(b, s ? s : "", esc_line);
}

char *out_line_dup(const char *s) {
  sqlite3_str *b = sqlite3_str_new(NULL);
  out_line(b, s);
  char *text = out_finish(b);
  char *copy = xstrdup(text ? text : "");
  sqlite3_free(text);
  return copy;
}

static void comma_key(sqlite3_str *b, const char *key) {
  int n = sqlite3_str_length(b);
  const char *text = sqlite3_str_value(b);
  char last = n > 0 && text ? text[n - 1] : '{';
  if (last != '{' && last != '[') sqlite3_str_appendchar(b, 1, ',');
  if (!key) return;
  sqlite3_str_appendchar(b, 1, '"');
  put_pieces(b, key, esc_json);
  sqlite3_str_appendall(b, "\":");
}

void out_json_str(sqlite3_str *b, const char *key, const char *val) {
  comma_key(b, key);
  if (!val) {
    sqlite3_str_appendall(b, "null");
    return;
  }
  sqlite3_str_appendchar(b, 1, '"');
  put_pieces(b, val, esc_json);
  sqlite3_str_appendchar(b, 1, '"');
}

void out_json_int(sqlite3_str *b, const char *key, long long val) {
  comma_key(b, key);
  sqlite3_str_appendf(b, "%lld", val);
}

void out_json_null(sqlite3_str *b, const char *key) {
  comma_key(b, key);
  sqlite3_str_appendall(b, "null");
}

void out_json_open(sqlite3_str *b, const char *key, char brace) {
  comma_key(b, key);
  sqlite3_str_appendchar(b, 1, brace);
}

void out_json_raw(sqlite3_str *b, const char *key, const char *json, size_t n) {
  comma_key(b, key);
  sqlite3_str_append(b, json, (int)n);
}

void out_json_close(sqlite3_str *b, char brace) {
  sqlite3_str_appendchar(b, 1, brace);
}

char *out_finish(sqlite3_str *b) {
  int failed = sqlite3_str_errcode(b) != SQLITE_OK;
  char *text = sqlite3_str_finish(b);
  if (failed) out_of_memory();
  return text;
}
