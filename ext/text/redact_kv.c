/*
** redact_kv.c -- the key = value rule of the redaction (redact.c's table,
** docs/summary.md#redaction): a key whose name says password, secret or
** token (in any case, with _ - . between words, its end naming it),
** then = or : (or a line break after a JSON-like key), then its value,
** quoted or bare; a value that reads as prose, or that was redacted
** already, is left.
*/
#include <string.h>

#include "text/coverage.h"
#include "text/redact.h"
#include "text/redact_scan.h"

/* ---- key = value ------------------------------------------------------ */

/* A key's name is read from its last KEY_MAX characters: a longer run of
** key characters is a key all the same (its end names it). */
#define KEY_MAX 64

enum { K_PASSWORD = 1, K_TOKEN };
enum { KW_WORD = 1, KW_COMPOUND = 2 };

/* Key names, matched at the end of a key in any case with _ - . ignored.
** KW_WORD: the name starts a word of the key (at its start, after _ - .,
** or at a camelCase hump); KW_COMPOUND: something comes before it. */
static const struct key_word {
  const char *word;
  unsigned char kind, flags;
} key_words[] = {
    {"password", K_PASSWORD, 0},   {"passwd", K_PASSWORD, 0},
    {"passphrase", K_PASSWORD, 0}, {"secret", K_PASSWORD, 0},
    {"pwd", K_PASSWORD, KW_WORD},  {"pass", K_PASSWORD, KW_WORD | KW_COMPOUND},
    {"token", K_TOKEN, 0},         {"apikey", K_TOKEN, 0},
    {"secretkey", K_TOKEN, 0},     {"accesskey", K_TOKEN, 0},
    {"privatekey", K_TOKEN, 0},    {"accountkey", K_TOKEN, 0},
};

static int key_sep(int c) { return c == '_' || c == '-' || c == '.'; }

/* The kind of secret key[0..k) names, or 0; cut: the key is the tail of
** a longer one (something comes before key[0], not a separator). */
static int key_kind(const char *key, size_t k, int cut) {
  for (size_t w = 0; w < sizeof key_words / sizeof key_words[0]; w++) {
    const struct key_word *kw = &key_words[w];
    size_t left = strlen(kw->word), p = k;
    while (left > 0 && p > 0) {
      int c = (unsigned char)key[p - 1];
      if (key_sep(c)) {
        p--;
        continue;
      }
      if (to_lower(c) != kw->word[left - 1]) break;
      p--;
      left--;
    }
    if (left > 0) continue;
    if ((kw->flags & KW_COMPOUND) && p == 0 && !cut) continue;
    if ((kw->flags & KW_WORD) && (p > 0 || cut) &&
        (p == 0 || (!key_sep((unsigned char)key[p - 1]) &&
                    !(ascii_is_upper((unsigned char)key[p]) &&
                      ascii_is_lower((unsigned char)key[p - 1])))))
      continue;
    return kw->kind;
  }
  return 0;
}

/* After a password-like key and ':', these single words are prose
** ("password: reset"), not the password; so is a word of these after a
** command-line flag ("use --password to log in"). All shorter than 12
** letters. */
static const char *const prose_words[] = {
    "expired",   "reset",     "required",    "missing",  "invalid", "incorrect",
    "wrong",     "changed",   "updated",     "rotated",  "revoked", "removed",
    "deleted",   "disabled",  "enabled",     "unknown",  "unset",   "empty",
    "none",      "null",      "hidden",      "redacted", "masked",  "omitted",
    "pending",   "sent",      "saved",       "stored",   "needed",  "optional",
    "protected", "encrypted", "unavailable", "see",      "ask",     "keep",
    "use",       "check",     "same",        "new",      "yes",     "no",
    "true",      "false",     "not",         "never",    "below",   "above",
    "set",       "ok",        "okay",        "default",  "the",     "a",
    "an",        "to",        "as",          "is",       "in",      "on",
    "or",        "and",       "for",         "from",     "with",    "if",
    "of",        "option",    "flag",
};

#define PLAIN_WORD_MAX 12

/* Is the value [a, b) prose? One plain word (letters only, shorter than
** PLAIN_WORD_MAX, maybe ending a sentence): for a token-like key any such
** word; for a password-like one only a prose_words entry. */
static int prose_value(const src *s, size_t a, size_t b, int kind) {
  char w[PLAIN_WORD_MAX + 4];
  size_t k = 0, nx;
  while (a < b) {
    int c = rd(s, a, &nx);
    if (k == sizeof w) return 0;
    w[k++] = (char)to_lower(c);
    a = nx;
  }
  while (k > 0 && (w[k - 1] == '.' || w[k - 1] == '!' || w[k - 1] == '?')) k--;
  if (k == 0 || k >= PLAIN_WORD_MAX) return 0;
  for (size_t j = 0; j < k; j++) {
    if (!ascii_is_lower((unsigned char)w[j])) return 0;
  }
  if (kind == K_TOKEN) return 1;
  for (size_t p = 0; p < sizeof prose_words / sizeof prose_words[0]; p++) {
    if (strlen(prose_words[p]) == k && memcmp(prose_words[p], w, k) == 0)
      return 1;
  }
  return 0;
}

static int value_stop(int c) {
  return c <= ' ' || c == ',' || c == ';' || c == '&' || c == ')' || c == '}' ||
         c == ']' || c == '"' || c == '\'' || c == '<' || c == '>';
}

/* At i, backslashes that are no escaping level open_quote reads (more
** than ESC_MAX, or a count other than 2^L - 1) and a quote: *q the quote,
** *end after it. The value is then read as a quote of no escaping, so a
** secret behind an odd run of backslashes is hidden, not left after it. */
static int stray_quote(const src *s, size_t i, int *q, size_t *end) {
  size_t k = 0, nx;
  int c;
  while ((c = rd(s, i, &nx)) == '\\') {
    i = nx;
    k++;
  }
  if (!k || (c != '"' && c != '\'')) return 0;
  *q = c;
  *end = nx;
  return 1;
}

/* The value at j into h: inside its quotes (returns 1), or bare, up to a
** value_stop character (returns 0). */
static int kv_value(const src *s, size_t j, hit *h) {
  size_t e, nx, esc;
  int q;
  if (open_quote(s, j, &q, &esc, &e)) {
    h->vs = e;
    h->ve = close_quote(s, e, q, esc);
    return 1;
  }
  if (stray_quote(s, j, &q, &e)) {
    h->vs = e;
    h->ve = close_quote(s, e, q, 0);
    return 1;
  }
  h->vs = e = j;
  while (!value_stop(rd(s, e, &nx))) e = nx;
  h->ve = e;
  return 0;
}

/* A line break at j ("\n" or "\r\n"): *end after it. */
static int line_break(const src *s, size_t j, size_t *end) {
  size_t nx;
  int c = rd(s, j, &nx);
  if (c == '\r' && rd(s, nx, end) == '\n') return 1;
  *end = nx;
  return c == '\n';
}

/* Only spaces from j to the end of the line (or of the text). */
static int line_ends(const src *s, size_t j) {
  size_t nx;
  int c = rd(s, skip_spaces(s, j), &nx);
  return c < 0 || c == '\n' || c == '\r';
}

/* "password: changed to X": after one of these words, "to" and a value
** that is not prose itself: that value (h moved to it) is the secret. */
static int changed_to(const src *s, hit *h, int kind) {
  size_t j, e, nx;
  hit v;
  if (!lit_at(s, h->vs, "changed|updated|rotated|reset|set", 1, &e) ||
      e != h->ve)
    return 0;
  j = skip_spaces(s, h->ve);
  if (j == h->ve || !lit_at(s, j, "to", 1, &e) || !is_space(rd(s, e, &nx)))
    return 0;
  if (!kv_value(s, skip_spaces(s, e), &v) && prose_value(s, v.vs, v.ve, kind))
    return 0;
  *h = v;
  return 1;
}

/* The separator after a key at j: '=' (also "=>": Perl, Ruby, PHP) or
** ':' (sep), *j moved to the value: after ':' maybe on a later line
** (*own_line: then the value must stand alone on its line). A
** command-line flag ("--password X", flag set) takes a space instead
** (sep ' '). 0: no separator. */
static int kv_sep(const src *s, size_t *j, int flag, int *own_line) {
  size_t nx, e, at = skip_spaces(s, *j);
  int c = rd(s, at, &nx), sep = c;
  *own_line = 0;
  if (c != '=' && c != ':') {
    if (!flag || at == *j || c == '-' || c <= ' ') return 0;
    *j = at;
    return ' ';
  }
  c = rd(s, nx, &e);
  if (c == '=' || (sep == ':' && c == ':')) return 0; /* == and :: */
  if (sep == '=' && c == '>') nx = e;
  *j = skip_spaces(s, nx);
  while (sep == ':' && line_break(s, *j, &e)) { /* blank lines too */
    *j = skip_spaces(s, e);
    *own_line = 1;
  }
  return sep;
}

/* At i (a key edge): a secret key, its separator (kv_sep), its value. A
** start inside the key's run reads the same end of it, so a failure
** skips the run. */
int redact_m_kv(const rule *r, const src *s, size_t i, hit *h, size_t *skip) {
  (void)r;
  char ring[KEY_MAX], key[KEY_MAX];
  size_t k = 0, j = i, nx, e, esc;
  int c, q, kind, own_line;
  int flag = lit_at(s, i, "--", 0, &e);
  c = rd(s, j, &nx); /* a key character: the rule starts at one */
  do {
    ring[k % KEY_MAX] = (char)c;
    k++;
    j = nx;
  } while (key_char(c = rd(s, j, &nx)));
  *skip = j;
  /* the last KEY_MAX characters, in order: ring[k % KEY_MAX] is the
  ** oldest once the ring has filled */
  size_t n = k < KEY_MAX ? k : KEY_MAX, old = k < KEY_MAX ? 0 : k % KEY_MAX;
  memcpy(key, ring + old, n - old);
  memcpy(key + (n - old), ring, old);
  if (!(kind = key_kind(key, n, k > KEY_MAX))) return 0;
  if (open_quote(s, j, &q, &esc, &e)) j = e; /* "key": or \"key\": */
  int sep = kv_sep(s, &j, flag, &own_line);
  if (!sep) return 0;
  if (!kv_value(s, j, h)) {
    int prose = sep != '=' && prose_value(s, h->vs, h->ve, kind);
    if (lit_at(s, j, "bearer|basic", 1, &nx) && nx == h->ve) return 0;
    if (prose && (sep != ':' || !changed_to(s, h, kind))) return 0;
    if (own_line && !prose && !line_ends(s, h->ve)) return 0;
  }
  if (rd(s, h->vs, &nx) < 0 || h->vs >= h->ve) return 0;
  /* redacted already (one marker, or a head's and its own side by side) */
  for (e = h->vs; lit_at(s, e, REDACT_MARKER, 0, &nx); e = nx) {
    if (nx >= h->ve) return 0;
  }
  return 1;
}
