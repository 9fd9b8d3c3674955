/*
** when_lex.c -- a time phrase cut into tokens (when_int.h, docs/when.md "How
** input is read"), and the word tables the grammar reads them with.
**
** Tokens: numbers (at most 4 digits), decimals ("1.5", "8.30"; "4½" is 4.5),
** words and the punctuation : / + - , (and '@', read as the word "at").
** Words are lower-cased; a dot after a word is dropped ("dec.", "a.m."),
** an apostrophe (' or ’) inside one too ("o'clock" is "oclock", "year's"
** "years"), or after its plural s ("days' time");
** shorthand and common typos become the word meant ("tmrw", "2moro",
** "tonite", "thrusday", "wendesday": when_canonical_word). The normalized
** phrase (what `matched` shows) is built on the way.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/when_int.h"

/* ---- word tables --------------------------------------------------------- */

const when_name when_weekdays[] = {
    {"sunday", 0},   {"sun", 0},   {"monday", 1},   {"mon", 1},
    {"tuesday", 2},  {"tue", 2},   {"tues", 2},     {"wednesday", 3},
    {"wed", 3},      {"weds", 3},  {"thursday", 4}, {"thu", 4},
    {"thur", 4},     {"thurs", 4}, {"friday", 5},   {"fri", 5},
    {"saturday", 6}, {"sat", 6}};
const int when_n_weekdays = WHEN_COUNT(when_weekdays);

const when_name when_months[] = {
    {"january", 1},   {"jan", 1},    {"february", 2},  {"feb", 2},
    {"march", 3},     {"mar", 3},    {"april", 4},     {"apr", 4},
    {"may", 5},       {"june", 6},   {"jun", 6},       {"july", 7},
    {"jul", 7},       {"august", 8}, {"aug", 8},       {"september", 9},
    {"sep", 9},       {"sept", 9},   {"october", 10},  {"oct", 10},
    {"november", 11}, {"nov", 11},   {"december", 12}, {"dec", 12}};
const int when_n_months = WHEN_COUNT(when_months);

const char *const when_month_full[] = {
    "",     "january", "february",  "march",   "april",    "may",     "june",
    "july", "august",  "september", "october", "november", "december"};

const when_name when_units[] = {
    {"s", U_SEC},
    {"sec", U_SEC},
    {"secs", U_SEC},
    {"second", U_SEC},
    {"seconds", U_SEC},
    {"m", U_MIN},
    {"min", U_MIN},
    {"mins", U_MIN},
    {"minute", U_MIN},
    {"minutes", U_MIN},
    {"h", U_HOUR},
    {"hr", U_HOUR},
    {"hrs", U_HOUR},
    {"hour", U_HOUR},
    {"hours", U_HOUR},
    {"day", U_DAY},
    {"days", U_DAY},
    {"week", U_WEEK},
    {"weeks", U_WEEK},
    {"wk", U_WEEK},
    {"wks", U_WEEK},
    {"fortnight", U_FORTNIGHT},
    {"fortnights", U_FORTNIGHT},
    {"month", U_MONTH},
    {"months", U_MONTH},
    {"year", U_YEAR},
    {"years", U_YEAR},
    {"yr", U_YEAR},
    {"yrs", U_YEAR},
};
const int when_n_units = WHEN_COUNT(when_units);

const int64_t when_unit_ms[] = {1000LL,
                                WHEN_MIN_MS,
                                WHEN_HOUR_MS,
                                WHEN_DAY_MS,
                                7 * WHEN_DAY_MS,
                                14 * WHEN_DAY_MS,
                                0,
                                0};

const when_name when_numbers[] = {
    {"a", 1},         {"an", 1},       {"one", 1},        {"two", 2},
    {"three", 3},     {"four", 4},     {"five", 5},       {"six", 6},
    {"seven", 7},     {"eight", 8},    {"nine", 9},       {"ten", 10},
    {"eleven", 11},   {"twelve", 12},  {"thirteen", 13},  {"fourteen", 14},
    {"fifteen", 15},  {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18},
    {"nineteen", 19}, {"twenty", 20},  {"thirty", 30},    {"forty", 40},
    {"fifty", 50},    {"sixty", 60},   {"ninety", 90}};
const int when_n_numbers = WHEN_COUNT(when_numbers);

/* ---- shorthand and typos --------------------------------------------------- */

typedef struct word_fix {
  const char *from, *to;
} word_fix;

static const word_fix fixes[] = {
    {"tmrw", "tomorrow"},      {"tmr", "tomorrow"},
    {"tmrow", "tomorrow"},     {"tmw", "tomorrow"},
    {"tmrrw", "tomorrow"},     {"tomoro", "tomorrow"},
    {"tomorro", "tomorrow"},   {"tommorow", "tomorrow"},
    {"tommorrow", "tomorrow"}, {"tomorow", "tomorrow"},
    {"tomorrw", "tomorrow"},   {"tmoro", "tomorrow"},
    {"2moro", "tomorrow"},     {"2morrow", "tomorrow"},
    {"2morow", "tomorrow"},    {"2mrw", "tomorrow"},
    {"2mro", "tomorrow"},      {"2mrrw", "tomorrow"},
    {"2day", "today"},         {"tdy", "today"},
    {"2nite", "tonight"},      {"2night", "tonight"},
    {"tonite", "tonight"},     {"tonigt", "tonight"},
    {"nxt", "next"},           {"evry", "every"},
    {"evrey", "every"},        {"evey", "every"},
    {"eveyr", "every"},        {"evrery", "every"},
    {"arvo", "afternoon"}, /* Australian */
    {"morn", "morning"},
};

/* Words a typo rule must not rewrite (they are words of their own). */
static const char *const real_words[] = {
    "moaning",   "sundae",   "mourning",   "evenings",   "mornings",
    "mondays",   "tuesdays", "wednesdays", "thursdays",  "fridays",
    "saturdays", "sundays",  "nights",     "afternoons", "minuet"};

/* Long time words a typo of one edit is taken for ("thrusday"). */
static const char *const fuzzy_targets[] = {
    "tomorrow", "tonight",   "monday",   "tuesday", "wednesday", "thursday",
    "friday",   "saturday",  "sunday",   "january", "february",  "september",
    "october",  "november",  "december", "morning", "afternoon", "evening",
    "midnight", "fortnight", "weekday",  "weekend"};

/* Optimal string alignment distance of a and b, at most 2 (3 = more). */
static int osa_distance(const char *a, size_t n, const char *b, size_t m) {
  int d[24][24];
  if (n > 22 || m > 22) return 3;
  if ((n > m ? n - m : m - n) > 2) return 3;
  for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    for (size_t j = 1; j <= m; j++) {
      int cost = a[i - 1] != b[j - 1];
      int v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
      if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  }
  return d[n][m] > 3 ? 3 : d[n][m];
}

static int is_listed(const char *w, size_t len, const char *const *list,
                     int n) {
  for (int k = 0; k < n; k++)
    if (strlen(list[k]) == len && memcmp(list[k], w, len) == 0) return 1;
  return 0;
}

const char *when_canonical_word(const char *w, size_t len) {
  for (int k = 0; k < WHEN_COUNT(fixes); k++)
    if (fixes[k].from[0] == w[0] && strlen(fixes[k].from) == len &&
        memcmp(fixes[k].from, w, len) == 0)
      return fixes[k].to;
  if (len < 6 || is_listed(w, len, real_words, WHEN_COUNT(real_words)))
    return NULL;
  for (int k = 0; k < WHEN_COUNT(fuzzy_targets); k++) {
    const char *t = fuzzy_targets[k];
    size_t m = strlen(t);
    if (m == len && memcmp(t, w, len) == 0) return NULL; /* the word itself */
    if (len == m + 1 && w[m] == 's' && memcmp(t, w, m) == 0) continue;
    if ((len > m ? len - m : m - len) > 2 ||
        (w[0] != t[0] && w[len - 1] != t[m - 1]))
      continue; /* cheap: typos keep one end of the word */
    int d = osa_distance(w, len, t, m);
    if (d == 1 || (d == 2 && m >= 8 && len >= 6 && w[0] == t[0] &&
                   w[len - 1] == t[m - 1]))
      return t; /* "wensday": two edits, in a long word */
  }
  return NULL;
}

/* ---- the tokenizer --------------------------------------------------------- */

int when_fail(when_parser *p, const char *fmt, ...) {
  if (p->fatal) return 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->reason, sizeof p->reason, fmt, ap);
  va_end(ap);
  p->fatal = 1;
  return 0;
}

int when_is_blank(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' ||
         ch == '\v';
}

char when_lower(char ch) {
  return ascii_is_upper(ch) ? (char)(ch - 'A' + 'a') : ch;
}

int when_word_is(const char *text, size_t n, const char *w) {
  size_t i = 0, j = 0;
  for (; i < n && w[j]; i++, j++) {
    if (w[j] == '\'' && when_apostrophe_len(text, n, i) == 3) {
      i += 2; /* "don’t" is "don't" */
      continue;
    }
    if (when_lower(text[i]) != w[j]) return 0;
  }
  return i == n && !w[j];
}

/* Only blanks left from s? (A '.' before them ends the sentence.) */
static int only_blanks(const char *s) {
  while (*s && when_is_blank(*s)) s++;
  return *s == 0;
}

static when_tok *new_token(when_parser *p, int kind, int o, int glued) {
  when_tok *t = &p->t[p->n++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->s = p->norm + o;
  t->glued = glued;
  return t;
}

static int put(when_parser *p, int *o, char ch) {
  if (*o >= WHEN_NORM_MAX) return -1;
  p->norm[(*o)++] = ch;
  return 0;
}

/* A vulgar fraction (UTF-8 C2 BC..BE): its value in hundredths, or 0. */
static int vulgar_fraction(const char *s) {
  if ((unsigned char)s[0] != 0xc2) return 0;
  switch ((unsigned char)s[1]) {
    case 0xbc: return 25;
    case 0xbd: return 50;
    case 0xbe: return 75;
    default: return 0;
  }
}

/* Digits[.digits] or digits followed by ½: one T_INT or T_DEC token.
** Returns the bytes read, or -1 (reason set). */
static int lex_number(when_parser *p, const char *s, int *o, int glued) {
  int k = 0, v = 0, start = *o;
  while (ascii_is_digit(s[k])) {
    if (k == 4) { /* quote its digits only: never part of a character */
      int n = 4;
      while (n < 12 && ascii_is_digit(s[n])) n++;
      return when_fail(p, "number '%.*s' is too long", n, s) - 1;
    }
    v = v * 10 + (s[k] - '0');
    if (put(p, o, s[k++]) != 0) return -1;
  }
  int half = vulgar_fraction(s + k);
  if (s[k] == '.' && ascii_is_digit(s[k + 1]) && k <= 2) {
    int f = 0, nd = 0;
    if (put(p, o, '.') != 0) return -1;
    k++;
    while (ascii_is_digit(s[k])) {
      if (nd == 2)
        return when_fail(p, "'%.*s' has too many decimals", k + 1, s) - 1;
      f = f * 10 + (s[k] - '0');
      nd++;
      if (put(p, o, s[k++]) != 0) return -1;
    }
    when_tok *t = new_token(p, T_DEC, start, glued);
    t->len = *o - start, t->value = v, t->frac = f, t->ndig = nd;
    return k;
  }
  if (half) { /* "4½" is 4.5 */
    char buf[4];
    snprintf(buf, sizeof buf, ".%d", half == 50 ? 5 : half);
    for (const char *b = buf; *b; b++)
      if (put(p, o, *b) != 0) return -1;
    when_tok *t = new_token(p, T_DEC, start, glued);
    t->len = *o - start, t->value = v;
    t->frac = half == 50 ? 5 : half, t->ndig = half == 50 ? 1 : 2;
    return k + 2;
  }
  when_tok *t = new_token(p, T_INT, start, glued);
  t->len = k, t->ndig = k, t->value = v;
  return k;
}

/* The bytes of an apostrophe at s[k] of a phrase (NUL-terminated: read
** no further than its NUL), or 0. */
static int apostrophe_at(const char *s, int k) {
  return (int)when_apostrophe_len(s, (size_t)k + strnlen(s + k, 3), (size_t)k);
}

/* Letters -> one lower-case T_WORD. A dot after letters is dropped
** ("dec." -> "dec"); after a single letter it may join the next letters
** of an initialism ("a.m." -> "am"). An apostrophe between letters, or
** after an s, is dropped ("o'clock", "o’clock", "days' time"). "2moro", "2nite": digit 2 + letters, one word. */
static int lex_word(when_parser *p, const char *s, int *o, int glued) {
  int k = 0, start = *o;
  if (s[0] == '2') { /* "2moro": the digit is part of the word */
    if (put(p, o, s[k++]) != 0) return -1;
  }
  for (;;) {
    int seg = k;
    for (;;) {
      int ap = k > 0 && ascii_is_alpha(s[k - 1]) ? apostrophe_at(s, k) : 0;
      if (ap && (ascii_is_alpha(s[k + ap]) || /* "o'clock", "days' time" */
                 (when_lower(s[k - 1]) == 's' && !ascii_is_digit(s[k + ap])))) {
        k += ap;
        continue;
      }
      if (!ascii_is_alpha(s[k])) break;
      if (put(p, o, when_lower(s[k])) != 0) return -1;
      k++;
    }
    if (s[k] != '.') break;
    if (ascii_is_digit(s[k + 1])) break;
    k++;
    if (k - 1 - seg != 1 || !ascii_is_alpha(s[k])) break;
  }
  const char *fix = when_canonical_word(p->norm + start, (size_t)(*o - start));
  if (fix) {
    size_t n = strlen(fix);
    if (start + (int)n > WHEN_NORM_MAX) return -1;
    memcpy(p->norm + start, fix, n);
    *o = start + (int)n;
  }
  when_tok *t = new_token(p, T_WORD, start, glued);
  t->len = *o - start;
  return k;
}

/* "2moro", "2nite", "2day": a 2 glued to letters that make a known word. */
static int digit_word(const char *s) {
  if (s[0] != '2' || !ascii_is_alpha(s[1])) return 0;
  char buf[16];
  int n = 0;
  buf[n++] = '2';
  while (n < 15 && ascii_is_alpha(s[n])) buf[n] = when_lower(s[n]), n++;
  if (ascii_is_alpha(s[n])) return 0;
  const char *fix = when_canonical_word(buf, (size_t)n);
  return fix != NULL;
}

static int is_unit_tok(const when_tok *t) {
  for (int k = 0; k < when_n_units; k++)
    if ((size_t)t->len == strlen(when_units[k].name) &&
        memcmp(t->s, when_units[k].name, (size_t)t->len) == 0)
      return 1;
  return 0;
}

/* am/pm, an ordinal suffix, a unit, "ish": words that may follow a number. */
static int is_suffix_word(const when_tok *t) {
  static const char *const sfx[] = {"am", "pm", "st", "nd", "rd", "th", "h"};
  for (int k = 0; k < WHEN_COUNT(sfx); k++)
    if ((size_t)t->len == strlen(sfx[k]) &&
        memcmp(t->s, sfx[k], (size_t)t->len) == 0)
      return 1;
  return is_unit_tok(t);
}

/* Glue without a blank is fine after a number for am/pm, an ordinal
** suffix or a unit ("9am", "3rd", "2h"), and for a number right after
** such a glued word ("1h30m", "1h30"); "at8", "mar3", "2mar" need a blank. */
static int check_glue(when_parser *p) {
  const when_tok *t = &p->t[p->n - 1], *prev = p->n > 1 ? t - 1 : NULL;
  if (!t->glued || !prev) return 0;
  int ok = 1;
  if (t->kind == T_WORD && (prev->kind == T_INT || prev->kind == T_DEC)) {
    ok = is_suffix_word(t);
  } else if ((t->kind == T_INT || t->kind == T_DEC) && prev->kind == T_WORD) {
    ok = prev->glued && prev > p->t &&
         (prev[-1].kind == T_INT || prev[-1].kind == T_DEC);
  }
  if (ok) return 0;
  return when_fail(p, "put a blank between '%.*s' and '%.*s'",
                   prev->len > 20 ? 20 : prev->len, prev->s,
                   t->len > 20 ? 20 : t->len, t->s) -
         1;
}

static int lex_one(when_parser *p, const char *s, int *o, int glued) {
  char ch = *s;
  if (ascii_is_digit(ch) && !digit_word(s)) return lex_number(p, s, o, glued);
  if (ascii_is_alpha(ch) || ascii_is_digit(ch)) return lex_word(p, s, o, glued);
  if (ch == '@') { /* "tomorrow @ 9am" */
    int start = *o;
    if (put(p, o, 'a') != 0 || put(p, o, 't') != 0) return -1;
    when_tok *t = new_token(p, T_WORD, start, glued);
    t->len = 2;
    return 1;
  }
  if (put(p, o, ch) != 0) return -1;
  when_tok *t = new_token(p, T_PUNCT, *o - 1, glued);
  t->len = 1;
  return 1;
}

int when_tokenize(when_parser *p, const char *phrase) {
  int o = 0, blank = 0;
  const char *s = phrase;
  while (*s) {
    char ch = *s;
    if (when_is_blank(ch)) {
      blank = 1;
      s++;
      continue;
    }
    if (ch == '.' && only_blanks(s + 1)) break; /* sentence end */
    int glued = !blank && p->n > 0;
    int frac = vulgar_fraction(s);
    if (frac && !(p->n > 0 && glued)) { /* "½ hour" */
      if (p->n == WHEN_TOKENS_MAX)
        return when_fail(p, "phrase has too many words") - 1;
      if (blank && o > 0 && put(p, &o, ' ') != 0) break;
      int start = o;
      char buf[8];
      snprintf(buf, sizeof buf, "0.%d", frac == 50 ? 5 : frac);
      for (const char *b = buf; *b; b++) put(p, &o, *b);
      when_tok *t = new_token(p, T_DEC, start, glued);
      t->len = o - start, t->frac = frac == 50 ? 5 : frac;
      t->ndig = frac == 50 ? 1 : 2;
      blank = 0;
      s += 2;
      continue;
    }
    if (!ascii_is_digit(ch) && !ascii_is_alpha(ch) && !strchr(":/+-,@", ch)) {
      unsigned char u = (unsigned char)ch;
      if (u >= 0x20 && u < 0x7f)
        return when_fail(p, "unexpected character '%c'", ch) - 1;
      return when_fail(p,
                       "unexpected byte 0x%02x: only English ASCII text is "
                       "understood",
                       u) -
             1;
    }
    if (p->n == WHEN_TOKENS_MAX)
      return when_fail(p, "phrase has too many words") - 1;
    if (blank && o > 0 && put(p, &o, ' ') != 0) break;
    blank = 0;
    int used = lex_one(p, s, &o, glued);
    if (used < 0) {
      if (!p->fatal) break;
      return -1;
    }
    s += used;
    if (check_glue(p) != 0) return -1;
  }
  if (*s && !p->fatal && !(*s == '.' && only_blanks(s + 1)))
    return when_fail(p, "phrase is too long once its words are spelled out") -
           1;
  p->norm[o] = 0;
  if (o > WHEN_PHRASE_MAX)
    return when_fail(p, "phrase is too long once its words are spelled out") -
           1;
  if (p->n == 0) return when_fail(p, "empty phrase") - 1;
  return 0;
}

/* ---- token tests --------------------------------------------------------- */

static void touch(when_parser *p) {
  if (p->pos > p->far) p->far = p->pos;
}

int when_tok_word(const when_parser *p, int i, const char *w) {
  if (i < 0 || i >= p->n || p->t[i].kind != T_WORD) return 0;
  const when_tok *t = &p->t[i]; /* first letters first: this is hot */
  return t->s[0] == w[0] && strncmp(t->s, w, (size_t)t->len) == 0 &&
         w[t->len] == 0;
}

int when_tok_punct(const when_parser *p, int i, char ch) {
  return i >= 0 && i < p->n && p->t[i].kind == T_PUNCT && p->t[i].s[0] == ch;
}

int when_tok_int(const when_parser *p, int i, int maxdig) {
  return i >= 0 && i < p->n && p->t[i].kind == T_INT && p->t[i].ndig <= maxdig;
}

int when_accept(when_parser *p, const char *w) {
  if (!when_tok_word(p, p->pos, w)) return 0;
  p->pos++;
  touch(p);
  return 1;
}

int when_accept_punct(when_parser *p, char ch) {
  if (!when_tok_punct(p, p->pos, ch)) return 0;
  p->pos++;
  touch(p);
  return 1;
}

void when_skip(when_parser *p, int k) {
  p->pos += k;
  touch(p);
}

int when_at_end(const when_parser *p) { return p->pos == p->n; }

int when_lookup(const when_parser *p, int i, const when_name *tab, int n,
                int *v) {
  for (int k = 0; k < n; k++) {
    if (when_tok_word(p, i, tab[k].name)) {
      *v = tab[k].v;
      return 1;
    }
  }
  return 0;
}

int when_accept_from(when_parser *p, const when_name *tab, int n, int *v) {
  if (!when_lookup(p, p->pos, tab, n, v)) return 0;
  when_skip(p, 1);
  return 1;
}
