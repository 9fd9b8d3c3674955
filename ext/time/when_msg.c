/*
** when_msg.c -- words, sentences and clauses of a message (when_msg.h), for
** the finder. Everything is found by scanning bytes around a position, so
** any text up to WHEN_FIND_TEXT_MAX is read without a table.
**
** Characters are read one by one with when_chars.c (inside the text's
** length; the apostrophe is ' or the typographic ’).
**
** Words: runs of ASCII letters and digits and of non-ASCII characters other
** than the punctuation blocks U+00A0..U+00BF, U+2000..U+206F and
** U+3000..U+303F; the joiners / - + ' between word bytes (and ’ between
** letters), ':' between digits and '.' between digits or after a single
** letter keep "12/25", "9am-5pm", "tomorrow's", "o’clock", "9:30", "2.5",
** "a.m." one word each.
*/
#include <string.h>

#include "text/ascii.h"
#include "time/when_msg.h"

size_t when_sep_len(const char *t, size_t len, size_t i) {
  unsigned char a = (unsigned char)t[i];
  unsigned char b = i + 1 < len ? (unsigned char)t[i + 1] : 0;
  if (a < 0x80)
    return ascii_is_digit((char)a) || ascii_is_alpha((char)a) ? 0 : 1;
  if (a == 0xc2 && b >= 0xa0 && b <= 0xbf && b != 0xbc && b != 0xbd &&
      b != 0xbe) /* not the fractions: "4½" is a word */
    return 2;
  if (i + 2 < len &&
      ((a == 0xe2 && (b == 0x80 || b == 0x81)) || (a == 0xe3 && b == 0x80)))
    return 3;
  return 0;
}

int when_word_byte(unsigned char ch) {
  return ch >= 0x80 || ascii_is_digit((char)ch) || ascii_is_alpha((char)ch);
}

/* Does a joiner at text[i] glue the word bytes around it into one chunk? */
static int joins(const char *t, size_t len, size_t i) {
  if (i == 0 || i + 1 >= len) return 0;
  if (when_apostrophe_len(t, len, i) == 3) /* o’clock */
    return i + 3 < len && ascii_is_alpha(t[i - 1]) && ascii_is_alpha(t[i + 3]);
  unsigned char a = (unsigned char)t[i - 1], b = (unsigned char)t[i + 1];
  if (!when_word_byte(a) || !when_word_byte(b)) return 0;
  switch (t[i]) {
    case '/':
    case '-':
    case '+':
    case '\'': return 1;
    case ':': /* "9:30", not "reminder:tomorrow" */
      return ascii_is_digit((char)a) && ascii_is_digit((char)b);
    case '.': /* decimals and versions; initialisms "a.m", "e.g" */
      return (ascii_is_digit((char)a) && ascii_is_digit((char)b)) ||
             (ascii_is_alpha((char)a) &&
              (i < 2 || !when_word_byte((unsigned char)t[i - 2])));
    default: return 0;
  }
}

size_t when_chunk_end(const char *t, size_t len, size_t i) {
  while (i < len && (when_sep_len(t, len, i) == 0 || joins(t, len, i))) i++;
  if (i >= 2 && i < len && t[i] == '.' && t[i - 2] == '.' &&
      ascii_is_alpha(t[i - 1]))
    i++; /* the final '.' of "p.m." */
  return i;
}

size_t when_chunk_next(const char *t, size_t len, size_t i) {
  size_t n;
  while (i < len && (n = when_sep_len(t, len, i)) > 0) i += n;
  return i;
}

/* The chunk that holds byte i (a word byte): its start. */
static size_t chunk_start(const char *t, size_t len, size_t i) {
  while (i > 0) {
    size_t j = i - 1;
    if (when_word_byte((unsigned char)t[j]) && when_sep_len(t, len, j) == 0) {
      i = j;
      continue;
    }
    if (joins(t, len, j)) {
      i = j;
      continue;
    }
    if (j >= 2 && t[j] == '.' && t[j - 2] == '.' && ascii_is_alpha(t[j - 1]) &&
        (j + 1 >= len || !when_word_byte((unsigned char)t[j + 1]))) {
      i = j; /* "p.m." */
      continue;
    }
    /* a separator of 2 or 3 bytes ends here? */
    break;
  }
  return i;
}

int when_next_word(const char *t, size_t len, size_t pos, size_t *a,
                   size_t *b) {
  size_t s = when_chunk_next(t, len, pos);
  if (s >= len) return 0;
  *a = s;
  *b = when_chunk_end(t, len, s);
  return 1;
}

int when_prev_word(const char *t, size_t len, size_t pos, size_t *a,
                   size_t *b) {
  size_t i = pos;
  while (i > 0) {
    unsigned char ch = (unsigned char)t[i - 1];
    if (when_word_byte(ch) && ch < 0x80) break;
    if (ch >= 0x80) { /* a multi-byte character: a word's or a separator's */
      size_t s = i - 1;
      while (s > 0 && ((unsigned char)t[s] & 0xc0) == 0x80) s--;
      if (when_sep_len(t, len, s) == 0) break;
      i = s;
      continue;
    }
    i--;
  }
  if (i == 0) return 0;
  *b = i;
  *a = chunk_start(t, len, i - 1);
  return 1;
}

int when_word_eq(const char *t, size_t a, size_t b, const char *w) {
  return when_word_is(t + a, b - a, w);
}

int when_word_in(const char *t, size_t a, size_t b, const char *const *list,
                 int count) {
  for (int k = 0; k < count; k++)
    if (when_word_is(t + a, b - a, list[k])) return 1;
  return 0;
}

int when_sentence_end(const char *t, size_t len, size_t i) {
  char ch = t[i];
  if (ch == '\n' || ch == '!' || ch == '?' || ch == ';') return 1;
  if (ch != '.') { /* "…" */
    return (unsigned char)ch == 0xe2 && i + 2 < len &&
           (unsigned char)t[i + 1] == 0x80 && (unsigned char)t[i + 2] == 0xa6;
  }
  if (joins(t, len, i)) return 0;
  if (i >= 3 && t[i - 2] == '.' && ascii_is_alpha(t[i - 1]) &&
      ascii_is_alpha(t[i - 3]) &&
      (i < 4 || !when_word_byte((unsigned char)t[i - 4])))
    return 0; /* "a.m." */
  return 1;
}

static const char *const clause_words[] = {
    "but", "so", "because", "though", "although", "whereas", "however"};

int when_clause_end(const char *t, size_t len, size_t i) {
  if (when_sentence_end(t, len, i)) return 1;
  char ch = t[i];
  if (ch == ',' || ch == ':' || ch == '(' || ch == ')' || ch == '[' ||
      ch == ']')
    return !(ch == ':' && i > 0 && i + 1 < len && ascii_is_digit(t[i - 1]) &&
             ascii_is_digit(t[i + 1]));
  if (ch == '-' && i + 1 < len && (t[i + 1] == '-' || t[i + 1] == '>'))
    return 1;
  if (ch == '-' && i > 0 && i + 1 < len && when_is_blank(t[i - 1]) &&
      when_is_blank(t[i + 1]))
    return 1;
  if ((unsigned char)ch == 0xe2 && i + 2 < len &&
      (unsigned char)t[i + 1] == 0x80 &&
      ((unsigned char)t[i + 2] == 0x93 || (unsigned char)t[i + 2] == 0x94))
    return 1; /* en and em dashes */
  return 0;
}

/* Is the word at [a, b) a clause opener ("but", "so")? */
static int clause_word(const char *t, size_t a, size_t b) {
  return when_word_in(t, a, b, clause_words, WHEN_COUNT(clause_words));
}

void when_sentence(const char *t, size_t len, size_t pos, size_t *a,
                   size_t *b) {
  size_t i = pos;
  while (i > 0 && !when_sentence_end(t, len, i - 1)) i--;
  *a = i;
  i = pos;
  while (i < len && !when_sentence_end(t, len, i)) i++;
  *b = i;
}

void when_clause(const char *t, size_t len, size_t pos, size_t *a, size_t *b) {
  size_t i = pos, wa, wb, start, end;
  while (i > 0 && !when_clause_end(t, len, i - 1)) i--;
  start = i;
  for (size_t j = start; when_next_word(t, len, j, &wa, &wb) && wa < pos;
       j = wb)
    if (clause_word(t, wa, wb)) start = wa;
  i = pos;
  while (i < len && !when_clause_end(t, len, i)) i++;
  end = i;
  for (size_t j = pos; when_next_word(t, len, j, &wa, &wb) && wa < end; j = wb)
    if (wa > pos && clause_word(t, wa, wb)) {
      end = wa;
      break;
    }
  *a = start;
  *b = end;
}

size_t when_find_word(const char *t, size_t len, size_t a, size_t b, size_t xa,
                      size_t xb, const char *const *list, int count) {
  size_t wa, wb;
  for (size_t i = a; i < b && when_next_word(t, len, i, &wa, &wb) && wa < b;
       i = wb) {
    if (wa >= xa && wa < xb) continue;
    for (int k = 0; k < count; k++) {
      const char *w = list[k];
      size_t p = wa, q = wb;
      int ok = 1;
      for (;;) { /* word by word: "make sure" */
        const char *sp = strchr(w, ' ');
        size_t n = sp ? (size_t)(sp - w) : strlen(w);
        char buf[32];
        if (n >= sizeof buf) {
          ok = 0;
          break;
        }
        memcpy(buf, w, n);
        buf[n] = 0;
        if (!when_word_is(t + p, q - p, buf)) {
          ok = 0;
          break;
        }
        if (!sp) break;
        w = sp + 1;
        if (!when_next_word(t, len, q, &p, &q) || p >= b) {
          ok = 0;
          break;
        }
      }
      if (ok) return wa + 1;
    }
  }
  return 0;
}
