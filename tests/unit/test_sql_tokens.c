/*
** test_sql_tokens.c -- sql_tokens.h: the tokens of an SQL text as
** SQLite's tokenizer splits them (comments and white space skipped,
** quoted names and strings whole, parameters with TCL's forms, the end of
** an unterminated quote or comment), which the preload check reads
** before it prepares anything (store/preload_sql.c).
*/
#include "../../ext/text/sql_tokens.h"

#include "check.h"

/* The tokens of text as "kind:text " pairs (kinds: W word, Q quoted,
** S string, P parameter, N number, ; ( and O other). */
static const char *tokens(const char *text, char *out, size_t cap) {
  static const char kinds[] = {'.', 'W', 'Q', 'S', 'P', 'N', ';', '(', 'O'};
  size_t pos = 0, len = strlen(text), k = 0;
  out[0] = 0;
  for (;;) {
    sqltok t = sqltok_next(text, len, &pos);
    if (t.kind == SQLTOK_END) break;
    int n =
        snprintf(out + k, cap - k, "%c:%.*s ", kinds[t.kind], (int)t.n, t.p);
    if (n < 0 || (size_t)n >= cap - k) break;
    k += (size_t)n;
  }
  if (k) out[k - 1] = 0;
  CHECK(pos == len, "'%s': ends at %zu of %zu", text, pos, len);
  return out;
}

static void splits(const char *text, const char *want) {
  char buf[512];
  CHECK_STR(tokens(text, buf, sizeof buf), want, text);
}

int main(void) {
  splits("", "");
  splits("  \t\r\n\f ", "");
  splits("SELECT 1", "W:SELECT N:1");
  splits("select x,y from t;", "W:select W:x O:, W:y W:from W:t ;:;");
  /* comments: to the end of the line, to the close or the end */
  splits("-- PRAGMA x\nSELECT", "W:SELECT");
  splits("/* PRAGMA x */ SELECT /**/1", "W:SELECT N:1");
  splits("SELECT 1 /* open", "W:SELECT N:1");
  splits("SELECT 1 -- open", "W:SELECT N:1");
  splits("a-b a/b a- -b", "W:a O:- W:b W:a O:/ W:b W:a O:- O:- W:b");
  /* quoted names and strings, doubled quotes inside, unterminated ones */
  splits("\"trigger_run_due\"(1)", "Q:trigger_run_due (:( N:1 O:)");
  splits("[a b](x) `c``d`", "Q:a b (:( W:x O:) Q:c``d");
  splits("'it''s' 'pragma_x'", "S:it''s S:pragma_x");
  splits("'; PRAGMA query_only=1'", "S:; PRAGMA query_only=1");
  splits("SELECT 'open", "W:SELECT S:open");
  splits("[open", "Q:open");
  /* parameters: ?NNN, :name, @name, $name, $a::b, $a(b c) */
  splits("?1 ? :scope @now $id $a::b::c $arr(x)(",
         "P:?1 P:? P::scope P:@now P:$id P:$a::b::c P:$arr(x) (:(");
  splits(":a(1)", "P::a (:( N:1 O:)");
  /* words: '$' inside, bytes >= 0x80, digits after the start */
  splits("a$b _x9 \xc3\xa9t\xc3\xa9", "W:a$b W:_x9 W:\xc3\xa9t\xc3\xa9");
  /* numbers, as loose as SQLite refuses the rest */
  splits("1.5e-3 .5 0x1F 1abs(", "N:1.5e-3 N:.5 N:0x1F N:1abs (:(");
  splits("x'00ff'", "W:x S:00ff");
  /* a keyword is a word of its own */
  sqltok t;
  size_t pos = 0;
  t = sqltok_next("SeLeCt*", 7, &pos);
  CHECK(sqltok_is_word(&t, "select"), "SeLeCt is select");
  CHECK(!sqltok_is_word(&t, "selec"), "not a prefix");
  pos = 0;
  t = sqltok_next("selects", 7, &pos);
  CHECK(!sqltok_is_word(&t, "select"), "selects is not select");
  pos = 0;
  t = sqltok_next("'select'", 8, &pos);
  CHECK(!sqltok_is_word(&t, "select"), "a string is no word");
  /* a length, not a NUL, ends the text */
  pos = 0;
  t = sqltok_next("ab\0cd", 5, &pos);
  CHECK(t.kind == SQLTOK_WORD && t.n == 2, "ab");
  t = sqltok_next("ab\0cd", 5, &pos);
  CHECK(t.kind == SQLTOK_OTHER && t.n == 1, "NUL is other");
  CHECK(sqltok_is_identifier("pragma_table_info", 17), "identifier");
  CHECK(!sqltok_is_identifier("pragma_%", 8), "not: a percent sign");
  CHECK(!sqltok_is_identifier("9a", 2), "not: a digit first");
  CHECK(!sqltok_is_identifier("", 0), "not: empty");
  return check_report("unit/sql_tokens");
}
