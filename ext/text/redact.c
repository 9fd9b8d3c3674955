/*
** redact.c -- secret redaction for the autonomous state summary
** (docs/summary.md#redaction). The rules are the table `rules` below, one
** row per rule: its name (docs/summary.md lists the same names), the
** matcher with its parameters (what it matches), and the label that
** replaces the secret.
**
** One left-to-right pass (`pass`) drives them. At each position the rows
** are tried in table order; the first match wins. A match is a range
** [i, ve) of the input whose tail [vs, ve) is the secret: the head [i, vs)
** (a key and its `=`, a URL's `://user:`, `Bearer `) goes through the
** rules again (it may hold a token itself) and the tail becomes the label.
** With no match one character is copied.
**
** Matchers read characters through `rd` (redact_scan.h), which normalizes:
** full-width forms (U+FF01..U+FF5E) read as their ASCII twins and U+3000 as
** a space, invisible characters (U+00AD, U+200B..U+200D, U+2060, U+FEFF)
** are skipped. So an obfuscated key matches like the plain one, while the
** ranges -- and the bytes redacted -- are those of the original text.
**
** Rules that start a token only fire at an edge judged on the output
** written so far (a label ends a word), which makes a second pass a no-op;
** so do the rules of a command's options (mysql -p, curl -u), which fire
** only after the output named the command on that line (rstate.cmd).
** Time is linear in the input: every failing scan either has a bounded
** length or ends where no later start of the same rule could succeed (the
** `skip` positions); `redact_probe` counts the characters read so the
** tests can hold that bound.
*/
#include "text/redact.h"
#include "text/coverage.h"
#include "text/redact_scan.h"

#include <stdint.h>
#include <string.h>

/* ---- PEM private key blocks ------------------------------------------- */

/* At i, word ("-----begin " / "-----end ", any case) then a label of
** letters, digits and spaces holding "PRIVATE KEY" (any case: a header
** typed or pasted in lower case is still a key), then "-----": the
** position after it, or 0. */
static size_t pem_line(const src *s, size_t i, const char *word) {
  size_t j, nx, e;
  int priv = 0, c;
  if (!lit_at(s, i, word, 1, &j)) return 0;
  while (is_alnum(c = rd(s, j, &nx)) || c == ' ') {
    if (to_lower(c) == 'p' && !priv) priv = lit_at(s, j, "private key", 1, &e);
    j = nx;
  }
  return priv && lit_at(s, j, "-----", 0, &e) ? e : 0;
}

/* The whole block to its END line (to the end of the text without one). */
static int m_pem(const rule *r, const src *s, size_t i, hit *h, size_t *skip) {
  (void)r;
  (void)skip;
  size_t j = pem_line(s, i, "-----begin "), nx, e;
  if (!j) return 0;
  int c;
  while ((c = rd(s, j, &nx)) >= 0) {
    if (c == '-' && (e = pem_line(s, j, "-----end ")) > 0) {
      nx = e;
      break;
    }
    j = nx;
  }
  h->vs = i;
  h->ve = nx;
  return 1;
}

/* ---- secrets on a command line ---------------------------------------- */

/* The commands whose options the command rules read: a rule fires only
** in its command (rstate.cmd, judged on the output, as edges are). */
enum { CMD_NONE, CMD_MYSQL, CMD_CURL };

/* Does c end a shell word (outside quotes; ; | & also end the command)? */
static int word_end(int c) {
  return c <= ' ' || c == ';' || c == '|' || c == '&';
}

/* A shell word at j: [*a, *b) is its text, inside the quotes it starts
** with (to the closing one or the line's end); *next is after it. */
static void word_at(const src *s, size_t j, size_t *a, size_t *b,
                    size_t *next) {
  size_t nx;
  int c = rd(s, j, &nx), q = c == '"' || c == '\'' ? c : 0;
  if (q) j = nx;
  *a = j;
  while ((c = rd(s, j, &nx)) >= 0 && (q ? c != q && c != '\n' : !word_end(c)))
    j = nx;
  *b = *next = j;
  if (q && c == q) *next = nx;
}

/* The secret [h->vs, h->ve) of an option's argument, the word [a, h->ve):
** none when it is empty (the password is asked for) or the word holds a
** marker (a rule fired there already). A failure skips the word (next:
** after it). */
static int option_secret(const src *s, size_t a, const hit *h, size_t next,
                         size_t *skip) {
  size_t nx;
  *skip = next;
  if (h->vs >= h->ve) return 0;
  for (; a < h->ve; a = nx) {
    if (rd(s, a, &nx) == '[' && lit_at(s, a, REDACT_MARKER, 0, &nx)) return 0;
  }
  return 1;
}

/* At i, in a mysql command (mysqldump, mariadb, ...), "-p" glued to the
** password: -pS3cret, -p'a b'. "-p" alone asks for it. */
static int m_mysql(const rule *r, const src *s, size_t i, hit *h,
                   size_t *skip) {
  size_t at, nx, next;
  if (!lit_at(s, i, r->lit, 0, &at) || word_end(rd(s, at, &nx))) return 0;
  word_at(s, at, &h->vs, &h->ve, &next);
  return option_secret(s, h->vs, h, next, skip);
}

/* At i, in a curl command, -u or --user and user:password (glued, after
** spaces or '='): the password, after the first ':'. The user is a plain
** name (no quote, '=' or '['), so what comes before the password is no
** key=value of its own. */
static int m_curl(const rule *r, const src *s, size_t i, hit *h, size_t *skip) {
  size_t at, nx = 0, next, a, u;
  int c = 0;
  if (!lit_at(s, i, r->lit, 0, &at)) return 0;
  at = skip_spaces(s, at);
  if (rd(s, at, &nx) == '=') at = nx;
  word_at(s, at, &a, &h->ve, &next);
  for (u = a; u < h->ve && (c = rd(s, u, &nx)) != ':'; u = nx) {
    if (c == '"' || c == '\'' || c == '=' || c == '[') break;
  }
  h->vs = u < h->ve && c == ':' ? nx : h->ve;
  return option_secret(s, a, h, next, skip);
}

/* ---- cookies ----------------------------------------------------------- */

/* At i, "Cookie:" or "Set-Cookie:" (any case, the name maybe a quoted
** JSON key) and a value that starts with name=: the whole value (to the
** closing quote, or to the end of the line), which is session state. */
static int m_cookie(const rule *r, const src *s, size_t i, hit *h,
                    size_t *skip) {
  (void)skip;
  size_t j, nx, e, esc = 0;
  int q = 0;
  int quoted, c;
  if (!lit_at(s, i, r->lit, 1, &j)) return 0;
  if (open_quote(s, j, &q, &esc, &e)) j = e;
  j = skip_spaces(s, j);
  if (rd(s, j, &nx) != ':') return 0;
  j = skip_spaces(s, nx);
  if ((quoted = open_quote(s, j, &q, &esc, &e)) != 0) j = e;
  /* name= first: a scan to the value's end only for a cookie */
  for (e = j; key_char(rd(s, e, &nx));) e = nx;
  if (e == j || rd(s, e, &nx) != '=') return 0;
  h->vs = j;
  if (quoted) {
    h->ve = close_quote(s, j, q, esc);
  } else {
    while ((c = rd(s, e, &nx)) >= 0 && c != '\n' && c != '\r') e = nx;
    h->ve = e;
  }
  return h->ve > h->vs;
}

/* ---- user:password@ in URLs ------------------------------------------- */

static int url_stop(int c) {
  return c <= ' ' || c == '/' || c == '?' || c == '#' || c == '"' ||
         c == '\'' || c == '<' || c == '>';
}

/* At i, "://user:password@host": the password runs from the first ':' to
** the last '@' of the authority, so "p@ss" and an empty user are fine. */
static int m_userinfo(const rule *r, const src *s, size_t i, hit *h,
                      size_t *skip) {
  (void)skip;
  size_t j, nx, colon = 0, at = 0;
  int c;
  if (!lit_at(s, i, r->lit, 0, &j)) return 0;
  while (!url_stop(c = rd(s, j, &nx))) {
    if (c == ':' && !colon) colon = nx;
    if (c == '@') at = j;
    j = nx;
  }
  if (!colon || colon >= at) return 0;
  /* A marker inside means a rule already fired there (a value that held
  ** a '/' ended the authority before): leave it, for a stable result. */
  for (j = colon; j < at; j = nx) {
    if (rd(s, j, &nx) == '[' && lit_at(s, j, REDACT_MARKER, 0, &nx)) return 0;
  }
  h->vs = colon;
  h->ve = at;
  return 1;
}

/* ---- Authorization schemes -------------------------------------------- */

/* At i, the scheme r->lit (any case) and at least one space: *cred is
** where the credentials start. */
static int scheme_at(const rule *r, const src *s, size_t i, size_t *cred) {
  size_t j, nx;
  if (!lit_at(s, i, r->lit, 1, &j) || !is_space(rd(s, j, &nx))) return 0;
  *cred = skip_spaces(s, j);
  return 1;
}

/* At i, "Bearer <token>" (any case); the token needs a digit or symbol,
** or 20+ characters. */
static int m_bearer(const rule *r, const src *s, size_t i, hit *h,
                    size_t *skip) {
  (void)skip;
  size_t j, nx, e;
  if (!scheme_at(r, s, i, &j)) return 0;
  size_t k = span(s, j, CS_TOKEN68, SIZE_MAX, &e), letters = 0;
  for (size_t m = j; m < e; m = nx) letters += ascii_is_alpha(rd(s, m, &nx));
  if (k < 8 || (letters == k && k < 20)) return 0;
  h->vs = j;
  h->ve = e;
  return 1;
}

/* At i, "Basic <base64>" (any case) whose decoding is "user:password":
** printable, with a ':'. */
static int m_basic(const rule *r, const src *s, size_t i, hit *h,
                   size_t *skip) {
  (void)skip;
  size_t j, nx, e;
  if (!scheme_at(r, s, i, &j)) return 0;
  size_t k = span(s, j, CS_B64, SIZE_MAX, &e);
  if (k < 4 || k % 4 == 1) return 0;
  b64_info d = b64_scan(s, j, e);
  if (!d.colons || d.controls) return 0;
  for (int pad = 0; pad < 2 && rd(s, e, &nx) == '='; pad++) e = nx;
  h->vs = j;
  h->ve = e;
  return 1;
}

/* ---- tokens by prefix -------------------------------------------------- */

/* At i, lit then seg[0] characters of cls. A bounded body must not be
** followed by a letter or digit. *end is set after the body. */
static int token_at(const rule *r, const src *s, size_t i, int cls, seglen len,
                    size_t *end) {
  size_t j, nx;
  if (!lit_at(s, i, r->lit, 0, &j)) return 0;
  size_t k = span(s, j, cls, len.max ? (size_t)len.max + 1 : SIZE_MAX, end);
  if (k < len.min || (len.max && k > len.max)) return 0;
  return !len.max || !is_alnum(rd(s, *end, &nx));
}

static int m_token(const rule *r, const src *s, size_t i, hit *h,
                   size_t *skip) {
  (void)skip;
  if (!token_at(r, s, i, r->cls, r->seg[0], &h->ve)) return 0;
  h->vs = i;
  return 1;
}

/* lit kept, then a path of cls (a webhook's secret part). */
static int m_after(const rule *r, const src *s, size_t i, hit *h,
                   size_t *skip) {
  (void)skip;
  if (!lit_at(s, i, r->lit, 0, &h->vs)) return 0;
  size_t k = span(s, h->vs, r->cls, SIZE_MAX, &h->ve);
  return k >= r->seg[0].min;
}

static int pair_sep(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' ||
         c == ':' || c == ';' || c == '|' || c == '=' || c == '"' || c == '\'';
}

#define PAIR_SEP_MAX 16

/* At i, an id (lit + seg[0] of cls), 1..PAIR_SEP_MAX separators, then its
** secret (exactly seg[1] of cls2; with R_MIXED holding upper and lower
** case and a digit or symbol). The id goes through the rules, the secret
** is replaced. */
static int m_pair(const rule *r, const src *s, size_t i, hit *h, size_t *skip) {
  (void)skip;
  size_t j, k = 0, nx, e;
  if (!token_at(r, s, i, r->cls, r->seg[0], &j)) return 0;
  while (k < PAIR_SEP_MAX && pair_sep(rd(s, j, &nx))) {
    j = nx;
    k++;
  }
  if (!k) return 0;
  size_t len = span(s, j, r->cls2, (size_t)r->seg[1].max + 1, &e);
  int after = rd(s, e, &nx);
  if (len != r->seg[1].max || is_alnum(after) || after == '=') return 0;
  if (r->flags & R_MIXED) {
    int up = 0, low = 0, other = 0;
    for (size_t m = j; m < e; m = nx) {
      int c = rd(s, m, &nx);
      up |= ascii_is_upper(c);
      low |= ascii_is_lower(c);
      other |= !ascii_is_alpha(c);
    }
    if (!(up && low && other)) return 0;
  }
  h->vs = j;
  h->ve = e;
  return 1;
}

/* At i, lit then nseg '.'-separated base64url segments with the lengths
** of seg[] (a last segment of min 0 may be empty). When the first segment
** was measured whole, a start inside it ends it at the same place and so
** fails the same way: *skip moves past it (else "eyJa-eyJa-..." would be
** quadratic). *seg0 is set after the first segment. */
static int segments_at(const rule *r, const src *s, size_t i, size_t *end,
                       size_t *seg0, size_t *skip) {
  size_t j, nx;
  if (!lit_at(s, i, r->lit, 0, &j)) return 0;
  *seg0 = j;
  for (size_t k = 0; k < r->nseg; k++) {
    seglen len = r->seg[k];
    if (k > 0 && rd(s, j, &nx) != '.') return 0;
    if (k > 0) j = nx;
    size_t got =
        span(s, j, CS_URLSAFE, len.max ? (size_t)len.max + 1 : SIZE_MAX, &j);
    if (k == 0) {
      *seg0 = j;
      if (!len.max || got <= len.max) *skip = j;
    }
    if (got < len.min || (len.max && got > len.max)) return 0;
  }
  *end = j;
  return 1;
}

static int m_segments(const rule *r, const src *s, size_t i, hit *h,
                      size_t *skip) {
  size_t seg0;
  h->vs = i;
  return segments_at(r, s, i, &h->ve, &seg0, skip);
}

/* A Discord bot token: its first segment is a user id in base64, which
** decodes to 17+ digits. */
static int m_discord(const rule *r, const src *s, size_t i, hit *h,
                     size_t *skip) {
  size_t seg0, no_skip = 0;
  (void)skip; /* the digit check depends on the start */
  h->vs = i;
  if (!segments_at(r, s, i, &h->ve, &seg0, &no_skip)) return 0;
  /* lit and 22+ characters: 17+ bytes */
  return b64_scan(s, i, seg0).nondigits == 0;
}

#define L REDACT_MARKER

/* Tried in this order at every position; the first match wins. The pair
** rules come before the single-token rule of the same prefix. */
static const rule rules[] = {
    {.name = "pem-private-key",
     .match = m_pem,
     .flags = R_NOCASE,
     .lit = "-----begin ",
     .label = L},
    {.name = "key-value", .match = redact_m_kv, .edge = EDGE_KEY, .label = L},
    {.name = "mysql-password",
     .match = m_mysql,
     .edge = EDGE_SPACE,
     .cmd = CMD_MYSQL,
     .lit = "-p",
     .label = L},
    {.name = "curl-user",
     .match = m_curl,
     .edge = EDGE_SPACE,
     .cmd = CMD_CURL,
     .lit = "-u|--user",
     .label = L},
    {.name = "cookie-header",
     .match = m_cookie,
     .edge = EDGE_WORD,
     .flags = R_NOCASE,
     .lit = "cookie",
     .label = L},
    {.name = "url-credentials", .match = m_userinfo, .lit = "://", .label = L},
    {.name = "slack-webhook",
     .match = m_after,
     .edge = EDGE_ALNUM,
     .lit = "hooks.slack.com/services/|hooks.slack.com/workflows/|"
            "hooks.slack.com/triggers/",
     .cls = CS_PATH,
     .seg = {{8, 0}},
     .label = L},
    {.name = "discord-webhook",
     .match = m_after,
     .edge = EDGE_ALNUM,
     .lit = "discord.com/api/webhooks/|discordapp.com/api/webhooks/",
     .cls = CS_PATH,
     .seg = {{8, 0}},
     .label = L},
    {.name = "basic-auth",
     .match = m_basic,
     .edge = EDGE_WORD,
     .flags = R_NOCASE,
     .lit = "basic",
     .label = L},
    {.name = "bearer-token",
     .match = m_bearer,
     .edge = EDGE_WORD,
     .flags = R_NOCASE,
     .lit = "bearer",
     .label = L},
    {.name = "aws-secret-key",
     .match = m_pair,
     .edge = EDGE_ALNUM,
     .flags = R_MIXED,
     .lit = "AKIA|ASIA",
     .cls = CS_UPPER_DIGIT,
     .cls2 = CS_B64,
     .seg = {{16, 16}, {40, 40}},
     .label = L},
    {.name = "twilio-auth-token",
     .match = m_pair,
     .edge = EDGE_ALNUM,
     .lit = "AC",
     .cls = CS_HEX,
     .cls2 = CS_HEX,
     .seg = {{32, 32}, {32, 32}},
     .label = L},
    {.name = "openai-key",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "sk-",
     .cls = CS_URLSAFE,
     .seg = {{20, 0}},
     .label = L},
    {.name = "stripe-key",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "sk_live_|sk_test_|rk_live_|rk_test_",
     .cls = CS_ALNUM,
     .seg = {{10, 0}},
     .label = L},
    {.name = "github-token",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "ghp_|gho_|ghs_|ghu_|ghr_",
     .cls = CS_ALNUM,
     .seg = {{20, 0}},
     .label = L},
    {.name = "github-pat",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "github_pat_",
     .cls = CS_WORD,
     .seg = {{20, 0}},
     .label = L},
    {.name = "gitlab-token",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "glpat-",
     .cls = CS_URLSAFE,
     .seg = {{20, 0}},
     .label = L},
    {.name = "slack-token",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "xoxa-|xoxb-|xoxe-|xoxo-|xoxp-|xoxr-|xoxs-|xapp-",
     .cls = CS_ALNUM_DASH,
     .seg = {{10, 0}},
     .label = L},
    {.name = "google-api-key",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "AIza",
     .cls = CS_URLSAFE,
     .seg = {{30, 0}},
     .label = L},
    {.name = "aws-access-key-id",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "AKIA|ASIA",
     .cls = CS_UPPER_DIGIT,
     .seg = {{16, 16}},
     .label = L},
    {.name = "huggingface-token",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "hf_",
     .cls = CS_ALNUM,
     .seg = {{30, 0}},
     .label = L},
    {.name = "npm-token",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "npm_",
     .cls = CS_ALNUM,
     .seg = {{36, 0}},
     .label = L},
    {.name = "twilio-api-key",
     .match = m_token,
     .edge = EDGE_ALNUM,
     .lit = "SK",
     .cls = CS_HEX,
     .seg = {{32, 32}},
     .label = L},
    {.name = "sendgrid-key",
     .match = m_segments,
     .edge = EDGE_ALNUM,
     .lit = "SG.",
     .nseg = 2,
     .seg = {{16, 32}, {32, 64}},
     .label = L},
    {.name = "jwt",
     .match = m_segments,
     .edge = EDGE_ALNUM,
     .lit = "eyJ",
     .nseg = 3,
     .seg = {{7, 0}, {2, 0}, {0, 0}},
     .label = L},
    {.name = "discord-bot-token",
     .match = m_discord,
     .edge = EDGE_ALNUM,
     .lit = "M|N|O",
     .nseg = 3,
     .seg = {{22, 27}, {6, 7}, {27, 40}},
     .label = L},
};

#undef L

#define NRULES (sizeof rules / sizeof rules[0])

/* ---- the pass ---------------------------------------------------------- */

/* One redaction: the output (snprintf semantics: len counts everything,
** out gets what fits in cap - 1 bytes), the last character written, and
** for each ASCII character the rules that can start with it (bit r). */
typedef struct rstate {
  char *out;
  size_t cap, len;
  int last;        /* the last visible character written (normalized), -1 */
  int cmd;         /* CMD_*: the command the output's line is in */
  char word[8];    /* the start of the word being written, */
  size_t wlen;     /* and its length (for cmd) */
  const char *hit; /* the first rule that fired, for redact_probe */
  const uint32_t *starts; /* redact_index.starts */
} rstate;

_Static_assert(NRULES <= 32, "redact_index.starts holds a bit per rule");

/* A word written whole: the command it names (mysql..., mariadb...,
** curl), if any, is the line's from now on. */
static void word_done(rstate *b) {
  /* word holds the first sizeof word (8) characters */
  if (b->wlen >= 5 && memcmp(b->word, "mysql", 5) == 0) b->cmd = CMD_MYSQL;
  if (b->wlen >= 7 && memcmp(b->word, "mariadb", 7) == 0) b->cmd = CMD_MYSQL;
  if (b->wlen == 4 && memcmp(b->word, "curl", 4) == 0) b->cmd = CMD_CURL;
  b->wlen = 0;
}

/* The command of the output's line after s[0..n) is written: set by a
** word that names one, ended by a line break or ; | & */
static void track_command(rstate *b, const char *s, size_t n) {
  for (size_t k = 0; k < n; k++) {
    int c = (unsigned char)s[k];
    if (in_class(CS_WORD, c)) {
      if (b->wlen < sizeof b->word) b->word[b->wlen] = (char)c;
      b->wlen++;
      continue;
    }
    if (b->wlen) word_done(b);
    if (c == '\n' || c == '\r' || c == ';' || c == '|' || c == '&')
      b->cmd = CMD_NONE;
  }
}

static void put(rstate *b, const char *s, size_t n) {
  if (b->cap && b->len < b->cap - 1) {
    size_t room = b->cap - 1 - b->len;
    memcpy(b->out + b->len, s, n < room ? n : room);
  }
  b->len += n;
  track_command(b, s, n);
}

static int edge_ok(int edge, int last) {
  if (last < 0) return 1;
  switch (edge) {
    case EDGE_ALNUM: return !is_alnum(last);
    case EDGE_WORD: return !in_class(CS_WORD, last);
    case EDGE_KEY: return !key_char(last);
    case EDGE_SPACE: return is_space(last);
    default: return 1;
  }
}

/* starts[]: a rule starts with the first character of an alternative of
** its literal (either case with R_NOCASE), key=value with any key
** character. */
void redact_index_init(redact_index *ix) {
  memset(ix->starts, 0, sizeof ix->starts);
  for (size_t r = 0; r < NRULES; r++) {
    const char *p = rules[r].lit;
    uint32_t bit = (uint32_t)1 << r;
    for (int c = 0; !p && c < 128; c++) {
      if (key_char(c)) ix->starts[c] |= bit;
    }
    while (p && *p) {
      int c = (unsigned char)*p;
      ix->starts[c] |= bit;
      if ((rules[r].flags & R_NOCASE) && ascii_is_lower(c))
        ix->starts[c - 32] |= bit;
      while (*p && *p != '|') p++;
      if (*p) p++;
    }
  }
}

/* Heads nest at most twice in practice (a key=value inside the user of
** URL credentials); past this depth a match is replaced whole, head
** included, so the recursion is bounded whatever the input. */
#define DEPTH_MAX 3

static void pass(rstate *b, const src *s, int depth) {
  size_t skip[NRULES] = {0};
  size_t i = 0;
  while (i < s->n) {
    size_t next, r = NRULES;
    hit h = {0, 0};
    size_t w = zero_width(s, i);
    if (w) { /* invisible: copied, starts nothing */
      (*s->steps)++;
      put(b, s->in + i, w);
      i += w;
      continue;
    }
    int c = decode(s, i, &next);
    uint32_t can = c < 128 ? b->starts[c] : 0;
    for (r = 0; can && r < NRULES; r++) {
      const rule *ru = &rules[r];
      if (!(can & (uint32_t)1 << r) || i < skip[r] ||
          !edge_ok(ru->edge, b->last) || (ru->cmd && ru->cmd != b->cmd))
        continue;
      if (ru->match(ru, s, i, &h, &skip[r]) &&
          ALWAYS(h.ve > i && h.vs <= h.ve && h.vs >= i))
        break;
    }
    if (!can || r == NRULES) {
      put(b, s->in + i, next - i);
      b->last = c;
      i = next;
      continue;
    }
    if (!b->hit) b->hit = rules[r].name;
    if (h.vs > i && depth < DEPTH_MAX) {
      src head = {s->in + i, h.vs - i, s->steps};
      pass(b, &head, depth + 1);
    }
    put(b, rules[r].label, strlen(rules[r].label));
    b->last = (unsigned char)rules[r].label[strlen(rules[r].label) - 1];
    i = h.ve;
  }
}

static size_t redact_run(const redact_index *ix, const char *in, size_t n,
                         char *out, size_t cap, const char **first,
                         size_t *steps) {
  rstate b = {.out = out, .cap = cap, .last = -1, .starts = ix->starts};
  src s = {in, n, steps};
  pass(&b, &s, 0);
  if (cap) out[b.len < cap ? b.len : cap - 1] = '\0';
  if (first) *first = b.hit;
  return b.len;
}

size_t redact_with(const redact_index *ix, const char *in, size_t n, char *out,
                   size_t cap) {
  size_t steps = 0;
  return redact_run(ix, in, n, out, cap, NULL, &steps);
}

size_t redact(const char *in, size_t n, char *out, size_t cap) {
  redact_index ix;
  redact_index_init(&ix);
  return redact_with(&ix, in, n, out, cap);
}

const char *redact_rule_name(size_t i) {
  return i < NRULES ? rules[i].name : NULL;
}

size_t redact_probe(const char *in, size_t n, const char **rule_name) {
  size_t steps = 0;
  redact_index ix;
  redact_index_init(&ix);
  redact_run(&ix, in, n, NULL, 0, rule_name, &steps);
  return steps;
}
