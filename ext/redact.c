/*
** redact.c -- secret redaction for the autonomous state summary. See
** redact.h for the list of rules.
**
** One left-to-right pass. At each position the matchers are tried in a
** fixed order (PEM block, URL credentials, key=value, prefixed API key,
** JWT, bearer token); a matcher returns how many input bytes it consumed
** and what to write instead, otherwise one byte is copied. Matchers that
** start a token only fire at a word boundary, so "task-list" never looks
** like an "sk-" key; the boundary is judged on the output written so far
** (a marker ends a word), which is what makes a second pass a no-op. The
** key of a key=value and the user of URL credentials go through the same
** rules (one level of recursion: they hold no value themselves). Linear
** in the input.
*/
#include "redact.h"

#include <string.h>

/* Output with snprintf semantics: len counts everything, out gets what
** fits in cap - 1 bytes. */
typedef struct rbuf {
  char *out;
  size_t cap, len;
  int last; /* the last byte written, -1 before the first */
} rbuf;

static void put(rbuf *b, const char *s, size_t n) {
  if (b->cap && b->len < b->cap - 1) {
    size_t room = b->cap - 1 - b->len;
    memcpy(b->out + b->len, s, n < room ? n : room);
  }
  if (n) b->last = (unsigned char)s[n - 1];
  b->len += n;
}

static void put_marker(rbuf *b) {
  put(b, REDACT_MARKER, sizeof REDACT_MARKER - 1);
}

/* ---- character classes ------------------------------------------------ */

enum {
  CS_ALNUM,
  CS_WORD,
  CS_URLSAFE,
  CS_ALNUM_DASH,
  CS_UPPER_DIGIT,
  CS_TOKEN68
};

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(int c) { return c >= 'a' && c <= 'z'; }
static int is_alpha(int c) { return is_upper(c) || is_lower(c); }
static int is_alnum(int c) { return is_alpha(c) || is_digit(c); }
static int to_lower(int c) { return is_upper(c) ? c + ('a' - 'A') : c; }
static int is_space(int c) { return c == ' ' || c == '\t'; }

static int in_class(int cs, int c) {
  switch (cs) {
    case CS_ALNUM: return is_alnum(c);
    case CS_WORD: return is_alnum(c) || c == '_';
    case CS_URLSAFE: return is_alnum(c) || c == '_' || c == '-';
    case CS_ALNUM_DASH: return is_alnum(c) || c == '-';
    case CS_UPPER_DIGIT: return is_upper(c) || is_digit(c);
    case CS_TOKEN68:
      return is_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
             c == '+' || c == '/' || c == '=';
    default: return 0;
  }
}

/* Length of the run of class cs starting at i. */
static size_t span(const char *in, size_t n, size_t i, int cs) {
  size_t j = i;
  while (j < n && in_class(cs, (unsigned char)in[j])) j++;
  return j - i;
}

static int key_char(int c) {
  return is_alnum(c) || c == '_' || c == '.' || c == '-';
}

static int has_prefix(const char *in, size_t n, size_t i, const char *p) {
  size_t k = strlen(p);
  return n - i >= k && memcmp(in + i, p, k) == 0;
}

static int has_prefix_nocase(const char *in, size_t n, size_t i,
                             const char *p) {
  size_t k = strlen(p);
  if (n - i < k) return 0;
  for (size_t j = 0; j < k; j++) {
    if (to_lower((unsigned char)in[i + j]) != p[j]) return 0;
  }
  return 1;
}

/* ---- PEM private key blocks ------------------------------------------- */

/* At i, "-----<word> <LABEL>PRIVATE KEY-----": the header's length. */
static size_t pem_line(const char *in, size_t n, size_t i, const char *word) {
  if (!has_prefix(in, n, i, "-----") || !has_prefix(in, n, i + 5, word))
    return 0;
  size_t j = i + 5 + strlen(word);
  while (j < n && (is_upper((unsigned char)in[j]) ||
                   is_digit((unsigned char)in[j]) || in[j] == ' ')) {
    if (has_prefix(in, n, j, "PRIVATE KEY-----")) return j + 16 - i;
    j++;
  }
  return 0;
}

static size_t match_pem(const char *in, size_t n, size_t i) {
  size_t h = pem_line(in, n, i, "BEGIN ");
  if (!h) return 0;
  for (size_t j = i + h; j < n; j++) {
    size_t e = in[j] == '-' ? pem_line(in, n, j, "END ") : 0;
    if (e) return j + e - i;
  }
  return n - i; /* no END line: the rest is key material */
}

/* ---- user:password@ in URLs ------------------------------------------- */

static int url_stop(int c) {
  return c <= ' ' || c == '/' || c == '@' || c == '?' || c == '#' || c == '[';
}

/* At i, "://user:pass@": sets the password's range. */
static int match_userinfo(const char *in, size_t n, size_t i, size_t *vs,
                          size_t *ve) {
  if (!has_prefix(in, n, i, "://")) return 0;
  size_t j = i + 3;
  while (j < n && !url_stop((unsigned char)in[j]) && in[j] != ':') j++;
  if (j == i + 3 || j >= n || in[j] != ':') return 0;
  *vs = ++j;
  while (j < n && !url_stop((unsigned char)in[j])) j++;
  if (j == *vs || j >= n || in[j] != '@') return 0;
  *ve = j;
  return 1;
}

/* ---- key = value ------------------------------------------------------ */

/* A longer run of key characters is not a key (and scanning stops). */
#define KEY_MAX 64

static const char *const secret_keys[] = {
    "password", "passwd", "passphrase", "secret",     "token",
    "api_key",  "apikey", "secret_key", "access_key", "private_key",
};

/* Does key[0..k) end with one of secret_keys ('-' read as '_')? */
static int secret_key_name(const char *key, size_t k) {
  for (size_t s = 0; s < sizeof secret_keys / sizeof secret_keys[0]; s++) {
    size_t w = strlen(secret_keys[s]);
    if (w > k) continue;
    const char *tail = key + k - w;
    size_t j = 0;
    for (; j < w; j++) {
      int c = to_lower((unsigned char)tail[j]);
      if ((c == '-' ? '_' : c) != secret_keys[s][j]) break;
    }
    if (j == w) return 1;
  }
  return 0;
}

static int value_stop(int c) {
  return c <= ' ' || c == ',' || c == ';' || c == '&' || c == ')' || c == '}' ||
         c == ']' || c == '"' || c == '\'' || c == '<' || c == '>';
}

/* A value after ':' that is one plain short word (maybe ending a
** sentence) is prose, not a secret. */
static int plain_word(const char *v, size_t k) {
  while (k > 0 && (v[k - 1] == '.' || v[k - 1] == '!' || v[k - 1] == '?')) k--;
  if (k == 0 || k >= 12) return 0;
  for (size_t j = 0; j < k; j++) {
    if (!is_alpha((unsigned char)v[j])) return 0;
  }
  return 1;
}

/* At i (a key boundary): a secret key, separator and value. Sets the
** value's range [vs, ve). */
static int match_kv(const char *in, size_t n, size_t i, size_t *vs,
                    size_t *ve) {
  size_t j = i;
  while (j < n && j - i <= KEY_MAX && key_char((unsigned char)in[j])) j++;
  if (j == i || j - i > KEY_MAX || !secret_key_name(in + i, j - i)) return 0;
  if (j < n && (in[j] == '"' || in[j] == '\'')) j++; /* "key": */
  while (j < n && is_space((unsigned char)in[j])) j++;
  if (j >= n || (in[j] != '=' && in[j] != ':')) return 0;
  char sep = in[j++];
  if (j < n && (in[j] == '=' || (sep == ':' && in[j] == ':'))) return 0;
  while (j < n && is_space((unsigned char)in[j])) j++;
  if (j >= n) return 0;
  if (in[j] == '"' || in[j] == '\'') {
    char q = in[j++];
    size_t e = j;
    while (e < n && in[e] != q && in[e] != '\n') e++;
    if (e == j) return 0;
    *vs = j;
    *ve = e;
  } else {
    size_t e = j;
    while (e < n && !value_stop((unsigned char)in[e])) e++;
    if (e == j) return 0;
    if (sep == ':' && plain_word(in + j, e - j)) return 0;
    if (e - j == 6 && has_prefix_nocase(in, e, j, "bearer")) return 0;
    *vs = j;
    *ve = e;
  }
  for (size_t m = *vs; m < *ve; m++) { /* already done */
    if (in[m] == '[' && has_prefix(in, n, m, REDACT_MARKER)) return 0;
  }
  return 1;
}

/* ---- API keys by prefix ----------------------------------------------- */

typedef struct prefix_rule {
  const char *prefix;
  int body;        /* character class of what follows */
  size_t min, max; /* body length; max 0 = unbounded */
} prefix_rule;

static const prefix_rule prefix_rules[] = {
    {"sk-", CS_URLSAFE, 20, 0},    /* OpenAI, Anthropic (sk-proj-, sk-ant-) */
    {"sk_live_", CS_ALNUM, 10, 0}, /* Stripe */
    {"sk_test_", CS_ALNUM, 10, 0},
    {"rk_live_", CS_ALNUM, 10, 0},
    {"rk_test_", CS_ALNUM, 10, 0},
    {"ghp_", CS_ALNUM, 20, 0}, /* GitHub */
    {"gho_", CS_ALNUM, 20, 0},
    {"ghs_", CS_ALNUM, 20, 0},
    {"ghu_", CS_ALNUM, 20, 0},
    {"ghr_", CS_ALNUM, 20, 0},
    {"github_pat_", CS_WORD, 20, 0},
    {"glpat-", CS_URLSAFE, 20, 0},   /* GitLab */
    {"xoxa-", CS_ALNUM_DASH, 10, 0}, /* Slack */
    {"xoxb-", CS_ALNUM_DASH, 10, 0},
    {"xoxe-", CS_ALNUM_DASH, 10, 0},
    {"xoxo-", CS_ALNUM_DASH, 10, 0},
    {"xoxp-", CS_ALNUM_DASH, 10, 0},
    {"xoxr-", CS_ALNUM_DASH, 10, 0},
    {"xoxs-", CS_ALNUM_DASH, 10, 0},
    {"AIza", CS_URLSAFE, 30, 0},      /* Google */
    {"AKIA", CS_UPPER_DIGIT, 16, 16}, /* AWS access key ids */
    {"ASIA", CS_UPPER_DIGIT, 16, 16},
    {"hf_", CS_ALNUM, 30, 0},  /* Hugging Face */
    {"npm_", CS_ALNUM, 36, 0}, /* npm */
};

/* The first letters of prefix_rules: most positions skip the table. */
static int prefix_start(int c) {
  return c == 's' || c == 'r' || c == 'g' || c == 'x' || c == 'A' || c == 'h' ||
         c == 'n';
}

static size_t match_prefix(const char *in, size_t n, size_t i) {
  if (!prefix_start((unsigned char)in[i])) return 0;
  for (size_t r = 0; r < sizeof prefix_rules / sizeof prefix_rules[0]; r++) {
    const prefix_rule *p = &prefix_rules[r];
    if (!has_prefix(in, n, i, p->prefix)) continue;
    size_t k = strlen(p->prefix);
    size_t body = span(in, n, i + k, p->body);
    if (body < p->min) continue;
    if (p->max) {
      size_t end = i + k + p->max;
      if (body > p->max || (end < n && is_alnum((unsigned char)in[end])))
        continue;
    }
    return k + body;
  }
  return 0;
}

/* ---- JWTs and bearer tokens ------------------------------------------- */

/* At i: a JWT's length, or 0. On a failure *stop is the end of the
** first segment's run: a JWT starting anywhere before it would fail the
** same way (its first segment ends there too), so the caller skips the
** rule until then -- otherwise "eyJa-eyJa-..." would be quadratic. */
static size_t match_jwt(const char *in, size_t n, size_t i, size_t *stop) {
  if (!has_prefix(in, n, i, "eyJ")) return 0;
  size_t a = span(in, n, i, CS_URLSAFE);
  *stop = i + a;
  if (a < 10 || i + a >= n || in[i + a] != '.') return 0;
  size_t b = span(in, n, i + a + 1, CS_URLSAFE);
  size_t at = i + a + 1 + b;
  if (b < 2 || at >= n || in[at] != '.') return 0;
  return a + 1 + b + 1 + span(in, n, at + 1, CS_URLSAFE);
}

/* At i, "Bearer <token>": sets the token's range. */
static int match_bearer(const char *in, size_t n, size_t i, size_t *vs,
                        size_t *ve) {
  if (!has_prefix_nocase(in, n, i, "bearer")) return 0;
  size_t j = i + 6;
  if (j >= n || !is_space((unsigned char)in[j])) return 0;
  while (j < n && is_space((unsigned char)in[j])) j++;
  size_t k = span(in, n, j, CS_TOKEN68);
  int marked = 0;
  for (size_t m = j; m < j + k; m++) marked |= !is_alpha((unsigned char)in[m]);
  if (k < 8 || (!marked && k < 20)) return 0;
  *vs = j;
  *ve = j + k;
  return 1;
}

/* ---- the pass ---------------------------------------------------------- */

static void pass(rbuf *b, const char *in, size_t n) {
  size_t i = 0, jwt_stop = 0;
  while (i < n) {
    size_t m, vs = 0, ve = 0;
    int c = (unsigned char)in[i];
    /* boundaries are judged on the output: a marker ends a word */
    int at_word = b->last < 0 || !in_class(CS_WORD, b->last);
    int at_key = b->last < 0 || !key_char(b->last);
    if (c == '-' && (m = match_pem(in, n, i)) > 0) {
      put_marker(b);
      i += m;
      continue;
    }
    if (at_key && key_char(c) && match_kv(in, n, i, &vs, &ve)) {
      /* The key and separator pass through the rules too (a key may hold
      ** a token); they hold no value, so this recursion is one level
      ** deep. The same for the user name of URL credentials below. */
      pass(b, in + i, vs - i);
      put_marker(b);
      i = ve;
      continue;
    }
    if (c == ':' && match_userinfo(in, n, i, &vs, &ve)) {
      put(b, in + i, 3); /* "://", then the user name through the rules */
      pass(b, in + i + 3, vs - i - 3);
      put_marker(b);
      i = ve;
      continue;
    }
    if (at_word && match_bearer(in, n, i, &vs, &ve)) {
      put(b, in + i, vs - i);
      put_marker(b);
      i = ve;
      continue;
    }
    if (at_word &&
        ((m = match_prefix(in, n, i)) > 0 ||
         (i >= jwt_stop && (m = match_jwt(in, n, i, &jwt_stop)) > 0))) {
      put_marker(b);
      i += m;
      continue;
    }
    put(b, in + i, 1);
    i++;
  }
}

size_t redact(const char *in, size_t n, char *out, size_t cap) {
  rbuf b = {out, cap, 0, -1};
  pass(&b, in, n);
  if (cap) out[b.len < cap ? b.len : cap - 1] = '\0';
  return b.len;
}
