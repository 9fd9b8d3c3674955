/*
** test_utf8.c -- ext/text/utf8.c: the table of valid and invalid sequences
** (overlongs, surrogates U+D800..DFFF encoded in UTF-8, values above
** U+10FFFF, truncated sequences, stray continuation bytes, NUL) with the
** problem, its offset and length and the repaired text; every 1-, 2- and
** 3-byte string and every code point against a reference decoder; repair
** properties; JSON escapes (\u0000, lone and paired surrogates, escaped
** backslashes) with the member they are in; and the messages.
**   make build/unit/test_utf8 && build/unit/test_utf8
*/
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#include "text/utf8.h"

#define FFFD "\xEF\xBF\xBD"

typedef struct text_case {
  const char *what;
  const char *in;
  size_t n;          /* bytes of in (it may hold NULs) */
  utf8_problem want; /* UTF8_OK when valid */
  size_t at, len;    /* of the first problem */
  const char *repaired;
} text_case;

#define T(what, lit, want, at, len, rep) \
  { what, lit, sizeof(lit) - 1, want, at, len, rep }

static const text_case texts[] = {
    T("empty", "", UTF8_OK, 0, 0, ""),
    T("ascii", "Ping the team", UTF8_OK, 0, 0, "Ping the team"),
    T("U+0080", "\xC2\x80", UTF8_OK, 0, 0, "\xC2\x80"),
    T("U+07FF", "\xDF\xBF", UTF8_OK, 0, 0, "\xDF\xBF"),
    T("U+0800", "\xE0\xA0\x80", UTF8_OK, 0, 0, "\xE0\xA0\x80"),
    T("U+D7FF", "\xED\x9F\xBF", UTF8_OK, 0, 0, "\xED\x9F\xBF"),
    T("U+E000", "\xEE\x80\x80", UTF8_OK, 0, 0, "\xEE\x80\x80"),
    T("U+FFFD", FFFD, UTF8_OK, 0, 0, FFFD),
    T("U+10000", "\xF0\x90\x80\x80", UTF8_OK, 0, 0, "\xF0\x90\x80\x80"),
    T("U+10FFFF", "\xF4\x8F\xBF\xBF", UTF8_OK, 0, 0, "\xF4\x8F\xBF\xBF"),
    T("euro and emoji", "\xE2\x82\xAC \xF0\x9F\x98\x80", UTF8_OK, 0, 0,
      "\xE2\x82\xAC \xF0\x9F\x98\x80"),
    /* NUL */
    T("NUL", "a\0b", UTF8_NUL, 1, 1, "a" FFFD "b"),
    T("NUL first", "\0", UTF8_NUL, 0, 1, FFFD),
    /* overlong encodings */
    T("overlong NUL C0 80", "\xC0\x80", UTF8_OVERLONG, 0, 1, FFFD FFFD),
    T("overlong '/' C0 AF", "\xC0\xAF", UTF8_OVERLONG, 0, 1, FFFD FFFD),
    T("overlong C1 BF", "x\xC1\xBF", UTF8_OVERLONG, 1, 1, "x" FFFD FFFD),
    T("overlong E0 80 80", "\xE0\x80\x80", UTF8_OVERLONG, 0, 1, FFFD FFFD FFFD),
    T("overlong E0 9F BF", "\xE0\x9F\xBF", UTF8_OVERLONG, 0, 1, FFFD FFFD FFFD),
    T("overlong F0 80 80 80", "\xF0\x80\x80\x80", UTF8_OVERLONG, 0, 1,
      FFFD FFFD FFFD FFFD),
    T("overlong F0 8F BF BF", "\xF0\x8F\xBF\xBF", UTF8_OVERLONG, 0, 1,
      FFFD FFFD FFFD FFFD),
    /* surrogates encoded in UTF-8 (CESU-8, or SQLite's char(0xD800)) */
    T("U+D800", "\xED\xA0\x80", UTF8_SURROGATE, 0, 1, FFFD FFFD FFFD),
    T("U+DC80", "Ping \xED\xB2\x80", UTF8_SURROGATE, 5, 1,
      "Ping " FFFD FFFD FFFD),
    T("U+DFFF", "\xED\xBF\xBF", UTF8_SURROGATE, 0, 1, FFFD FFFD FFFD),
    T("surrogate pair as CESU-8", "\xED\xA0\xBD\xED\xB8\x80", UTF8_SURROGATE, 0,
      1, FFFD FFFD FFFD FFFD FFFD FFFD),
    /* above U+10FFFF */
    T("U+110000", "\xF4\x90\x80\x80", UTF8_TOO_BIG, 0, 1, FFFD FFFD FFFD FFFD),
    T("F5", "\xF5\x80\x80\x80", UTF8_TOO_BIG, 0, 1, FFFD FFFD FFFD FFFD),
    T("F7", "\xF7\xBF\xBF\xBF", UTF8_TOO_BIG, 0, 1, FFFD FFFD FFFD FFFD),
    T("5-byte form F8", "\xF8\x88\x80\x80\x80", UTF8_NEVER, 0, 1,
      FFFD FFFD FFFD FFFD FFFD),
    T("FE FF", "\xFE\xFF", UTF8_NEVER, 0, 1, FFFD FFFD),
    /* truncated sequences: one U+FFFD for the lead and what it had */
    T("C2 at the end", "ab\xC2", UTF8_TRUNCATED, 2, 1, "ab" FFFD),
    T("E2 82 at the end", "ab\xE2\x82", UTF8_TRUNCATED, 2, 2, "ab" FFFD),
    T("F0 9F 98 at the end", "\xF0\x9F\x98", UTF8_TRUNCATED, 0, 3, FFFD),
    T("E2 82 then ASCII",
      "\xE2\x82"
      "A",
      UTF8_TRUNCATED, 0, 2, FFFD "A"),
    T("F0 9F then euro", "\xF0\x9F\xE2\x82\xAC", UTF8_TRUNCATED, 0, 2,
      FFFD "\xE2\x82\xAC"),
    T("lead then lead", "\xC3\xC3\xA9", UTF8_TRUNCATED, 0, 1, FFFD "\xC3\xA9"),
    /* continuation bytes without a lead */
    T("stray 80", "\x80", UTF8_CONTINUATION, 0, 1, FFFD),
    T("stray BF BF", "a\xBF\xBF", UTF8_CONTINUATION, 1, 1, "a" FFFD FFFD),
    T("extra continuation", "\xC3\xA9\xA9", UTF8_CONTINUATION, 2, 1,
      "\xC3\xA9" FFFD),
    T("host stderr FF FE", "\xFF\xFE", UTF8_NEVER, 0, 1, FFFD FFFD),
};

static void test_table(void) {
  char buf[64];
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    const text_case *c = &texts[i];
    utf8_err e;
    int ok = utf8_check(c->in, c->n, &e);
    CHECK(ok == (c->want == UTF8_OK), "%s: valid %d", c->what, ok);
    CHECK_EQ_I64(e.what, c->want, c->what);
    if (c->want != UTF8_OK) {
      CHECK_EQ_I64(e.at, c->at, c->what);
      CHECK_EQ_I64(e.len, c->len, c->what);
    }
    size_t n = utf8_repair(c->in, c->n, NULL);
    CHECK(n < sizeof buf, "%s: repaired length %zu", c->what, n);
    if (n >= sizeof buf) continue;
    size_t m = utf8_repair(c->in, c->n, buf);
    CHECK_EQ_I64(m, n, c->what);
    buf[m] = 0;
    CHECK(m == strlen(c->repaired) && memcmp(buf, c->repaired, m) == 0,
          "%s: repaired wrongly", c->what);
    CHECK(utf8_check(buf, m, NULL), "%s: repair is not valid", c->what);
  }
}

/* The reference: decode the sequence at s by the definition (the value
** from the bits, then shortest form, range and surrogates). Returns its
** length when valid, else 0. */
static size_t ref_char(const unsigned char *s, size_t n) {
  unsigned c = s[0], need, cp;
  if (c == 0) return 0;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) need = 1, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) need = 2, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) need = 3, cp = c & 0x07;
  else return 0;
  if (n < need + 1) return 0;
  for (unsigned k = 1; k <= need; k++) {
    if ((s[k] & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (s[k] & 0x3F);
  }
  static const unsigned min[] = {0, 0x80, 0x800, 0x10000};
  if (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return need + 1;
}

static int ref_valid(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t k = ref_char(s + i, n - i);
    if (!k) return 0;
    i += k;
  }
  return 1;
}

/* Every string of 1-3 bytes, and 4-byte strings led by F0-F7 with varied
** continuation bytes: the checker agrees with the reference, and repair
** keeps valid text and always yields valid text. */
static void test_exhaustive(void) {
  long disagree = 0, bad_repair = 0, tried = 0;
  unsigned char s[4];
  char out[16];
  for (unsigned len = 1; len <= 3; len++) {
    unsigned long total = 1UL << (8 * len);
    for (unsigned long v = 0; v < total; v++) {
      for (unsigned k = 0; k < len; k++) s[k] = (unsigned char)(v >> (8 * k));
      int got = utf8_check((const char *)s, len, NULL);
      if (got != ref_valid(s, len)) disagree++;
      size_t m = utf8_repair((const char *)s, len, out);
      if (!utf8_check(out, m, NULL) || m > 3 * len ||
          (got && (m != len || memcmp(out, s, len) != 0)))
        bad_repair++;
      tried++;
    }
  }
  static const unsigned char conts[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90,
                                        0x9F, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF};
  size_t nc = sizeof conts;
  for (unsigned lead = 0xF0; lead <= 0xF7; lead++) {
    for (size_t a = 0; a < nc; a++) {
      for (size_t b = 0; b < nc; b++) {
        for (size_t c = 0; c < nc; c++) {
          s[0] = (unsigned char)lead, s[1] = conts[a], s[2] = conts[b];
          s[3] = conts[c];
          int got = utf8_check((const char *)s, 4, NULL);
          if (got != ref_valid(s, 4)) disagree++;
          size_t m = utf8_repair((const char *)s, 4, out);
          if (!utf8_check(out, m, NULL)) bad_repair++;
          tried++;
        }
      }
    }
  }
  CHECK(disagree == 0, "%ld of %ld strings disagree with the reference",
        disagree, tried);
  CHECK(bad_repair == 0, "%ld of %ld repairs are wrong", bad_repair, tried);
}

/* Every code point encoded by the plain bit pattern: valid exactly when it
** is not NUL and not a surrogate. */
static void test_code_points(void) {
  long wrong = 0;
  for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
    unsigned char s[4];
    size_t n;
    if (cp < 0x80) s[0] = (unsigned char)cp, n = 1;
    else if (cp < 0x800)
      s[0] = (unsigned char)(0xC0 | cp >> 6), s[1] = 0x80 | (cp & 0x3F), n = 2;
    else if (cp < 0x10000)
      s[0] = (unsigned char)(0xE0 | cp >> 12), s[1] = 0x80 | ((cp >> 6) & 0x3F),
      s[2] = 0x80 | (cp & 0x3F), n = 3;
    else
      s[0] = (unsigned char)(0xF0 | cp >> 18),
      s[1] = 0x80 | ((cp >> 12) & 0x3F), s[2] = 0x80 | ((cp >> 6) & 0x3F),
      s[3] = 0x80 | (cp & 0x3F), n = 4;
    int want = cp != 0 && !(cp >= 0xD800 && cp <= 0xDFFF);
    utf8_err e;
    if (utf8_check((const char *)s, n, &e) != want) wrong++;
    if (!want && cp && e.what != UTF8_SURROGATE) wrong++;
  }
  CHECK(wrong == 0, "%ld code points judged wrongly", wrong);
}

/* Repair of random bytes: valid, idempotent, at most 3x. */
static void test_repair_properties(void) {
  uint32_t x = 14;
  long wrong = 0;
  char in[64], a[200], b[200];
  for (int round = 0; round < 20000; round++) {
    size_t n = 0, len = (x = x * 1103515245u + 12345u) >> 26;
    for (; n < len; n++) in[n] = (char)((x = x * 1103515245u + 12345u) >> 24);
    size_t m = utf8_repair(in, n, a);
    size_t m2 = utf8_repair(a, m, b);
    if (!utf8_check(a, m, NULL) || m > 3 * n || m2 != m || memcmp(a, b, m) != 0)
      wrong++;
  }
  CHECK(wrong == 0, "%ld random repairs are wrong", wrong);
}

typedef struct json_case {
  const char *what, *in;
  utf8_problem want;
  size_t at;
  const char *key; /* the top-level member ("" none), then "(key)" when the
                    ** problem is in a key */
  const char *repaired;
} json_case;

static const json_case jsons[] = {
    {"plain", "{\"a\":\"x\",\"b\":[1,{\"c\":null}]}", UTF8_OK, 0, "",
     "{\"a\":\"x\",\"b\":[1,{\"c\":null}]}"},
    {"escapes", "{\"a\":\"\\n\\\"\\\\\\u00e9\\u20AC\"}", UTF8_OK, 0, "",
     "{\"a\":\"\\n\\\"\\\\\\u00e9\\u20AC\"}"},
    {"a pair", "{\"a\":\"\\ud83d\\ude00\"}", UTF8_OK, 0, "",
     "{\"a\":\"\\ud83d\\ude00\"}"},
    {"an escaped backslash before u0000", "{\"a\":\"\\\\u0000\"}", UTF8_OK, 0,
     "", "{\"a\":\"\\\\u0000\"}"},
    {"lone low", "{\"a\":\"\\udc80\"}", UTF8_ESC_SURROGATE, 6, "a",
     "{\"a\":\"\\ufffd\"}"},
    {"lone high at the end", "{\"a\":\"Ping \\ud800\"}", UTF8_ESC_SURROGATE, 11,
     "a", "{\"a\":\"Ping \\ufffd\"}"},
    {"high then not low", "{\"a\":\"\\uD83D\\u0041\"}", UTF8_ESC_SURROGATE, 6,
     "a", "{\"a\":\"\\ufffd\\u0041\"}"},
    {"high then high", "{\"a\":\"\\ud83d\\ud83d\\ude00\"}", UTF8_ESC_SURROGATE,
     6, "a", "{\"a\":\"\\ufffd\\ud83d\\ude00\"}"},
    {"low then high", "{\"a\":\"\\ude00\\ud83d\"}", UTF8_ESC_SURROGATE, 6, "a",
     "{\"a\":\"\\ufffd\\ufffd\"}"},
    {"u0000", "{\"owner\":\"a\\u0000b\"}", UTF8_ESC_NUL, 11, "owner",
     "{\"owner\":\"a\\ufffdb\"}"},
    {"second member", "{\"a\":1,\"bb\":\"\\u0000\"}", UTF8_ESC_NUL, 13, "bb",
     "{\"a\":1,\"bb\":\"\\ufffd\"}"},
    {"nested", "{\"a\":1,\"m\":{\"k\":[\"x\",\"\\udfff\"]}}",
     UTF8_ESC_SURROGATE, 22, "m",
     "{\"a\":1,\"m\":{\"k\":[\"x\",\"\\ufffd\"]}}"},
    {"nested key is not a top key", "{\"m\":{\"\\udfff\":1}}",
     UTF8_ESC_SURROGATE, 7, "m(key)", "{\"m\":{\"\\ufffd\":1}}"},
    /* a value inside the nested object, an array's string, a key past an
    ** array in an object: keys are told from values at every depth */
    {"nested value", "{\"m\":{\"k\":\"\\udfff\"}}", UTF8_ESC_SURROGATE, 11, "m",
     "{\"m\":{\"k\":\"\\ufffd\"}}"},
    {"array string", "{\"m\":[\"\\udfff\"]}", UTF8_ESC_SURROGATE, 7, "m",
     "{\"m\":[\"\\ufffd\"]}"},
    {"key after an array", "{\"m\":{\"a\":[1,2],\"\\udfff\":1}}",
     UTF8_ESC_SURROGATE, 17, "m(key)", "{\"m\":{\"a\":[1,2],\"\\ufffd\":1}}"},
    {"array of objects", "{\"m\":[{\"\\udfff\":1}]}", UTF8_ESC_SURROGATE, 8,
     "m(key)", "{\"m\":[{\"\\ufffd\":1}]}"},
    {"in a key", "{\"a\":1,\"k\\udc80\":1}", UTF8_ESC_SURROGATE, 9, "(key)",
     "{\"a\":1,\"k\\ufffd\":1}"},
    {"top-level array", "[\"\\udc80\"]", UTF8_ESC_SURROGATE, 2, "",
     "[\"\\ufffd\"]"},
    {"raw bytes in a value", "{\"a\":\"\xFF\"}", UTF8_NEVER, 6, "a",
     "{\"a\":\"" FFFD "\"}"},
    {"raw surrogate in a value", "{\"t\":\"\xED\xB2\x80\"}", UTF8_SURROGATE, 6,
     "t", "{\"t\":\"" FFFD FFFD FFFD "\"}"},
    {"raw byte in a key", "{\"\xC0\":1}", UTF8_OVERLONG, 2, "(key)",
     "{\"" FFFD "\":1}"},
    {"a short escape is the parser's", "{\"a\":\"\\u12\"}", UTF8_OK, 0, "",
     "{\"a\":\"\\u12\"}"},
    /* the walk's other corners: a close bracket at depth 0, a comma in a
    ** top-level array, escapes in either case or with a bad hex digit, a
    ** backslash before a non-ASCII byte or at the very end, a high
    ** surrogate followed by no escape, or by a short one */
    {"close at depth 0", "]\"\xFF\"", UTF8_NEVER, 2, "", "]\"" FFFD "\""},
    {"comma in an array", "[1,\"\\u0000\"]", UTF8_ESC_NUL, 4, "",
     "[1,\"\\ufffd\"]"},
    {"hex in both cases", "{\"a\":\"\\uDcFf\"}", UTF8_ESC_SURROGATE, 6, "a",
     "{\"a\":\"\\ufffd\"}"},
    {"a bad hex digit is the parser's", "{\"a\":\"\\u00g0\"}", UTF8_OK, 0, "",
     "{\"a\":\"\\u00g0\"}"},
    {"backslash before a raw byte", "{\"a\":\"\\\xC3\xA9\"}", UTF8_OK, 0, "",
     "{\"a\":\"\\\xC3\xA9\"}"},
    {"backslash at the end", "{\"a\":\"\\", UTF8_OK, 0, "", "{\"a\":\"\\"},
    {"high then text", "{\"a\":\"\\ud83dxxxxxx\"}", UTF8_ESC_SURROGATE, 6, "a",
     "{\"a\":\"\\ufffdxxxxxx\"}"},
    {"high then a cut escape", "{\"a\":\"\\ud83d\\u", UTF8_ESC_SURROGATE, 6,
     "a", "{\"a\":\"\\ufffd\\u"},
    {"high before a short escape", "{\"a\":\"\\ud83d\\ude0\"}",
     UTF8_ESC_SURROGATE, 6, "a", "{\"a\":\"\\ufffd\\ude0\"}"},
    {"not in a string", "{\"a\":1}\\u0000", UTF8_OK, 0, "", "{\"a\":1}\\u0000"},
    /* a high surrogate followed by an escape that is not \u, by one
    ** above the low surrogates, by one with a bad hex digit; a pair */
    {"high then \\n", "{\"a\":\"\\ud83d\\nxxxx\"}", UTF8_ESC_SURROGATE, 6, "a",
     "{\"a\":\"\\ufffd\\nxxxx\"}"},
    {"high then above low", "{\"a\":\"\\ud83d\\ue000\"}", UTF8_ESC_SURROGATE, 6,
     "a", "{\"a\":\"\\ufffd\\ue000\"}"},
    {"high then a bad hex digit", "{\"a\":\"\\ud83d\\udx00\"}",
     UTF8_ESC_SURROGATE, 6, "a", "{\"a\":\"\\ufffd\\udx00\"}"},
    {"a pair", "{\"a\":\"\\ud83d\\ude00\"}", UTF8_OK, 0, "",
     "{\"a\":\"\\ud83d\\ude00\"}"},
    /* a pair whose low half ends the text (a request cut short): still a
    ** pair, and what is missing after it is the JSON parser's to say */
    {"a pair at the very end", "{\"a\":\"\\ud83d\\ude00", UTF8_OK, 0, "",
     "{\"a\":\"\\ud83d\\ude00"},
};

static void test_json(void) {
  char buf[128];
  for (size_t i = 0; i < sizeof jsons / sizeof jsons[0]; i++) {
    const json_case *c = &jsons[i];
    size_t n = strlen(c->in);
    utf8_err e;
    int ok = utf8_json_check(c->in, n, &e);
    CHECK(ok == (c->want == UTF8_OK), "%s: valid %d", c->what, ok);
    CHECK_EQ_I64(e.what, c->want, c->what);
    if (c->want != UTF8_OK) {
      CHECK_EQ_I64(e.at, c->at, c->what);
      char key[32];
      /* the top-level member, and "(key)" when the problem is in a key */
      snprintf(key, sizeof key, "%.*s%s", (int)e.key_len, c->in + e.key_at,
               e.in_key ? "(key)" : "");
      CHECK_STR(key, c->key, c->what);
    }
    size_t m = utf8_json_repair(c->in, n, buf);
    CHECK(m < sizeof buf, "%s: too long", c->what);
    buf[m < sizeof buf ? m : 0] = 0;
    CHECK_STR(buf, c->repaired, c->what);
    CHECK(utf8_json_check(buf, m, NULL), "%s: repair not valid", c->what);
  }
  /* a backslash before a NUL byte: the escape is the backslash alone */
  utf8_err e;
  CHECK(!utf8_json_check("{\"a\":\"\\\0\"}", 10, &e) && e.what == UTF8_NUL &&
            e.at == 7,
        "backslash then NUL");
  /* A NUL byte in JSON text is a problem of the text itself. */
  CHECK(!utf8_json_check("{\"a\":\"x\0\"}", 9, &e) && e.what == UTF8_NUL &&
            e.at == 7,
        "raw NUL in JSON");
}

/* utf8_json_mark: repair's twin with U+FFFE inside strings (a read of
** both tells which strings held a problem); a problem outside every
** string stops it, named in e. */
static void test_json_mark(void) {
  static const struct {
    const char *what, *in;
    size_t n; /* 0: strlen */
    utf8_problem stop;
    size_t at;
    const char *marked;
  } cases[] = {
      {"valid", "[{\"d\":\"\xC3\xA9\\u00e9\"}]", 0, UTF8_OK, 0,
       "[{\"d\":\"\xC3\xA9\\u00e9\"}]"},
      {"a byte in a value", "[{\"d\":\"x\xFFy\"}]", 0, UTF8_OK, 0,
       "[{\"d\":\"x\xEF\xBF\xBEy\"}]"},
      {"escapes and a key", "[{\"d\":\"\\u0000\\udc80\",\"k\xC0\":1}]", 0,
       UTF8_OK, 0, "[{\"d\":\"\\ufffe\\ufffe\",\"k\xEF\xBF\xBE\":1}]"},
      {"a NUL in a string", "[\"a\0b\"]", 7, UTF8_OK, 0,
       "[\"a\xEF\xBF\xBE\x62\"]"},
      {"a surrogate, three subparts", "[\"\xED\xA0\x80\"]", 0, UTF8_OK, 0,
       "[\"\xEF\xBF\xBE\xEF\xBF\xBE\xEF\xBF\xBE\"]"},
      {"a byte outside", "[\"x\xFF\",\xFF]", 0, UTF8_NEVER, 6, NULL},
      {"a NUL outside", "[1]\0", 4, UTF8_NUL, 3, NULL},
  };
  char buf[128];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t n = cases[i].n ? cases[i].n : strlen(cases[i].in);
    utf8_err e;
    size_t want = utf8_json_mark(cases[i].in, n, NULL, NULL);
    size_t m = utf8_json_mark(cases[i].in, n, buf, &e);
    CHECK_EQ_I64(m, want, cases[i].what);
    CHECK_EQ_I64(e.what, cases[i].stop, cases[i].what);
    if (cases[i].stop != UTF8_OK) {
      CHECK_EQ_I64(e.at, cases[i].at, cases[i].what);
      continue;
    }
    buf[m < sizeof buf ? m : 0] = 0;
    CHECK_STR(buf, cases[i].marked, cases[i].what);
    CHECK(utf8_json_check(buf, m, NULL), "%s: mark not valid", cases[i].what);
  }
}

static void test_describe(void) {
  static const struct {
    const char *in;
    size_t n;
    int json;
    const char *want;
  } cases[] = {
      {"a\0b", 3, 0, "a NUL byte at byte 1 (text may not contain NUL)"},
      {"x\xFF", 2, 0,
       "not valid UTF-8 at byte 1 (0xff: a byte that never appears in UTF-8)"},
      {"\xED\xA0\x80", 3, 0,
       "not valid UTF-8 at byte 0 (0xed: an encoded surrogate, "
       "U+D800..U+DFFF)"},
      {"ab\xE2\x82", 4, 0,
       "not valid UTF-8 at byte 2 (0xe2 0x82: a truncated sequence)"},
      {"\xC0\xAF", 2, 0,
       "not valid UTF-8 at byte 0 (0xc0: an overlong encoding)"},
      {"\xF4\x90\x80\x80", 4, 0,
       "not valid UTF-8 at byte 0 (0xf4: above U+10FFFF)"},
      {"\x80", 1, 0,
       "not valid UTF-8 at byte 0 (0x80: a continuation byte without a lead "
       "byte)"},
      {"{\"a\":\"\\udc80\"}", 14, 1,
       "the escape \\udc80 at byte 6 is a lone surrogate (only a high "
       "surrogate followed by a low one is a character)"},
      {"{\"a\":\"\\u0000\"}", 14, 1,
       "the escape \\u0000 at byte 6 is a NUL (text may not contain NUL)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    utf8_err e;
    char buf[UTF8_DESCRIBE_MAX];
    int ok = cases[i].json ? utf8_json_check(cases[i].in, cases[i].n, &e)
                           : utf8_check(cases[i].in, cases[i].n, &e);
    CHECK(!ok, "describe case %zu is valid", i);
    CHECK_STR(utf8_describe(&e, cases[i].in, buf, sizeof buf), cases[i].want,
              "describe");
    CHECK(utf8_check(buf, strlen(buf), NULL), "message %zu not valid", i);
  }
}

/* utf8_describe of a check that found nothing, and of a problem in the
** middle of a long sequence (four bytes shown at most). */
static void test_describe_edges(void) {
  utf8_err e;
  char buf[UTF8_DESCRIBE_MAX];
  CHECK(utf8_check("ok \xC3\xA9", 5, &e), "valid");
  CHECK_STR(utf8_describe(&e, "ok", buf, sizeof buf), "valid text", "OK");
  CHECK(!utf8_check("\xF0\x9F\x98", 3, &e), "truncated 4-byte");
  CHECK_STR(utf8_describe(&e, "\xF0\x9F\x98", buf, sizeof buf),
            "not valid UTF-8 at byte 0 (0xf0 0x9f 0x98: a truncated sequence)",
            "3 of 4 bytes");
}

static void test_cutting(void) {
  /* utf8_prefix: never ends inside a character */
  const char *s = "ab\xE2\x82\xAC\xF0\x9F\x98\x80z"; /* a b euro emoji z */
  size_t n = strlen(s);
  static const int want[] = {0, 1, 2, 2, 2, 5, 5, 5, 5, 9, 10, 10};
  for (size_t max = 0; max < sizeof want / sizeof want[0]; max++) {
    CHECK_EQ_I64(utf8_prefix(s, n, max), want[max], "utf8_prefix");
  }
  /* utf8_cut_tail: drops only an incomplete last character */
  static const struct {
    const char *in, *want;
  } tails[] = {
      {"abc", "abc"},
      {"ab\xE2\x82", "ab"},
      {"ab\xE2", "ab"},
      {"ab\xE2\x82\xAC", "ab\xE2\x82\xAC"},
      {"x\xF0\x9F\x98", "x"},
      {"x\xF0\x9F\x98\x80", "x\xF0\x9F\x98\x80"},
      {"\xC3", ""},
      {"", ""},
      {"a\xFF", "a\xFF"},       /* not a cut character: left to the checker */
      {"\x80\x80", "\x80\x80"}, /* continuation bytes alone: kept */
      {"a\x80\x80\x80\x80", "a\x80\x80\x80\x80"}, /* more than 3: kept */
  };
  for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
    char buf[16];
    snprintf(buf, sizeof buf, "%s", tails[i].in);
    utf8_cut_tail(buf);
    CHECK_STR(buf, tails[i].want, "utf8_cut_tail");
  }
}

int main(void) {
  test_table();
  test_exhaustive();
  test_describe_edges();
  test_code_points();
  test_repair_properties();
  test_json();
  test_json_mark();
  test_describe();
  test_cutting();
  return check_report("utf8");
}
