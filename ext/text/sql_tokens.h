/*
** sql_tokens.h -- the tokens of an SQL text, as SQLite's tokenizer
** (tokenize.c) splits them, read without SQLite: what the check of a
** configured preload needs to know before the text is prepared
** (store/preload_sql.c). Preparing a PRAGMA already acts (it sets
** query_only, busy_timeout, the heap limit... while it is compiled), so
** whether a text is a query must be known without preparing it.
**
** White space and comments (-- to the end of the line, / * to * / or to
** the end) are skipped. A token is a word (a keyword or a bare
** identifier: a letter, '_' or a byte >= 0x80, then those, digits and
** '$'), a quoted identifier ("x", `x`, [x]), a string ('x'), a parameter
** (?NNN, :name, @name, $name with TCL's ::name and (...) suffixes), a
** number, ';', '(', or any other one character. A quoted text without
** its closing quote runs to the end of the text (SQLite refuses it when
** it prepares the text).
**
** Pure: no SQLite, no allocation.
*/
#ifndef TRIGGERS_SQL_TOKENS_H
#define TRIGGERS_SQL_TOKENS_H

#include <stddef.h>

typedef enum sqltok_kind {
  SQLTOK_END = 0, /* no token left */
  SQLTOK_WORD,    /* a keyword or a bare identifier */
  SQLTOK_QUOTED,  /* a quoted identifier */
  SQLTOK_STRING,  /* a string literal */
  SQLTOK_PARAM,   /* a parameter */
  SQLTOK_NUMBER,
  SQLTOK_SEMI,   /* ; */
  SQLTOK_LPAREN, /* ( */
  SQLTOK_OTHER   /* any other character (an operator, a comma...) */
} sqltok_kind;

typedef struct sqltok {
  sqltok_kind kind;
  const char *p; /* its text: a quoted one's or a string's between the
                    quotes (a doubled quote inside stays doubled) */
  size_t n;
} sqltok;

/* The token of text[0..len) at *pos, white space and comments skipped;
** *pos moves past it. SQLTOK_END at the end. */
sqltok sqltok_next(const char *text, size_t len, size_t *pos);

/* 1 when p[0..n) reads as one bare identifier (n > 0), else 0. */
int sqltok_is_identifier(const char *p, size_t n);

/* 1 when tok is the word w (ASCII, any case), else 0. */
int sqltok_is_word(const sqltok *tok, const char *w);

#endif
