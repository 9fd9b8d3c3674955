/*
** sql_tokens.c -- the tokens of an SQL text (sql_tokens.h), by the rules
** of SQLite's tokenize.c.
*/
#include "text/sql_tokens.h"

#include "text/ascii.h"

/* SQLite's white space (tokenize.c's CC_SPACE). */
static int is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* A character that may start an identifier, and one that may follow. */
static int id_start(unsigned char c) {
  return ascii_is_alpha(c) || c == '_' || c >= 0x80;
}
static int id_char(unsigned char c) {
  return id_start(c) || ascii_is_digit(c) || c == '$';
}

/* Past white space and comments from i. */
static size_t skip_blank(const char *z, size_t len, size_t i) {
  for (;;) {
    while (i < len && is_space((unsigned char)z[i])) i++;
    if (i + 1 < len && z[i] == '-' && z[i + 1] == '-') {
      while (i < len && z[i] != '\n') i++;
    } else if (i + 1 < len && z[i] == '/' && z[i + 1] == '*') {
      i += 2;
      while (i < len && !(z[i] == '*' && i + 1 < len && z[i + 1] == '/')) i++;
      i = i < len ? i + 2 : len;
    } else {
      return i;
    }
  }
}

/* The end of a text quoted by q (closing quote close) whose content
** starts at i: a doubled close is part of it, except for ']'. */
static size_t quoted_end(const char *z, size_t len, size_t i, char close) {
  while (i < len) {
    if (z[i] != close) {
      i++;
    } else if (close != ']' && i + 1 < len && z[i + 1] == close) {
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

/* The end of a parameter whose name starts at i (after its sigil). */
static size_t param_end(const char *z, size_t len, size_t i, char sigil) {
  if (sigil == '?') {
    while (i < len && ascii_is_digit((unsigned char)z[i])) i++;
    return i;
  }
  for (;;) {
    while (i < len && id_char((unsigned char)z[i])) i++;
    if (sigil == '$' && i + 1 < len && z[i] == ':' && z[i + 1] == ':') {
      i += 2; /* TCL's namespace: $a::b */
    } else if (sigil == '$' && i < len && z[i] == '(') {
      while (i < len && z[i] != ')' && !is_space((unsigned char)z[i])) i++;
      return i < len && z[i] == ')' ? i + 1 : i; /* TCL's array: $a(b) */
    } else {
      return i;
    }
  }
}

/* The end of a number starting at i (loosely: SQLite refuses what is
** not one when it prepares the text). */
static size_t number_end(const char *z, size_t len, size_t i) {
  while (i < len) {
    unsigned char c = (unsigned char)z[i];
    int sign = (c == '+' || c == '-') && (z[i - 1] == 'e' || z[i - 1] == 'E');
    if (!(ascii_is_alpha(c) || ascii_is_digit(c) || c == '.' || c == '_' ||
          sign))
      break;
    i++;
  }
  return i;
}

sqltok sqltok_next(const char *z, size_t len, size_t *pos) {
  sqltok t = {SQLTOK_END, z + len, 0};
  size_t i = skip_blank(z, len, *pos), end;
  if (i >= len) {
    *pos = len;
    return t;
  }
  unsigned char c = (unsigned char)z[i];
  t.p = z + i;
  if (id_start(c)) {
    for (end = i + 1; end < len && id_char((unsigned char)z[end]);) end++;
    t.kind = SQLTOK_WORD;
  } else if (c == '"' || c == '`' || c == '[' || c == '\'') {
    char close = c == '[' ? ']' : (char)c;
    end = quoted_end(z, len, i + 1, close);
    t.kind = c == '\'' ? SQLTOK_STRING : SQLTOK_QUOTED;
    t.p = z + i + 1;
    t.n = end - (i + 1);
    *pos = end < len ? end + 1 : len;
    return t;
  } else if (c == '?' || c == ':' || c == '@' || c == '$') {
    end = param_end(z, len, i + 1, (char)c);
    t.kind = SQLTOK_PARAM;
  } else if (ascii_is_digit(c) || (c == '.' && i + 1 < len &&
                                   ascii_is_digit((unsigned char)z[i + 1]))) {
    end = number_end(z, len, i + 1);
    t.kind = SQLTOK_NUMBER;
  } else {
    end = i + 1;
    t.kind = c == ';' ? SQLTOK_SEMI : c == '(' ? SQLTOK_LPAREN : SQLTOK_OTHER;
  }
  t.n = end - i;
  *pos = end;
  return t;
}

int sqltok_is_identifier(const char *p, size_t n) {
  if (n == 0 || !id_start((unsigned char)p[0])) return 0;
  for (size_t i = 1; i < n; i++) {
    if (!id_char((unsigned char)p[i])) return 0;
  }
  return 1;
}

static int lower(int c) { return ascii_is_upper(c) ? c - 'A' + 'a' : c; }

int sqltok_is_word(const sqltok *tok, const char *w) {
  if (tok->kind != SQLTOK_WORD) return 0;
  size_t i = 0;
  for (; i < tok->n && w[i]; i++) {
    if (lower((unsigned char)tok->p[i]) != lower((unsigned char)w[i])) return 0;
  }
  return i == tok->n && !w[i];
}
