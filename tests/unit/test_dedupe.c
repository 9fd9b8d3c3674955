/*
** test_dedupe.c -- the dedupe key format is pinned: the canonical text of
** dedupe.h and a table of keys, the ones docs/create-action.md shows. A
** change to any pinned key fails here (a new format needs a new prefix:
** tdk2 added a cron's time zone to tdk1).
*/
#include "check.h"
#include "text/dedupe.h"
#include "time/cron.h"

static void canon_cron(const char *expr, char *out) {
  cron_expr c;
  char err[CRON_ERR_MAX];
  if (cron_parse(expr, &c, err, sizeof err) != 0 ||
      cron_canonical(&c, out, CRON_CANON_MAX) < 0) {
    strcpy(out, "?");
  }
}

static void key_cron(const char *ins, const char *expr, const char *tz,
                     const char *scope, char *key) {
  char canon[CRON_CANON_MAX];
  canon_cron(expr, canon);
  dedupe_key(ins, "cron", canon, tz, scope, key);
}

int main(void) {
  char buf[256], k1[DEDUPE_KEY_LEN + 1], k2[DEDUPE_KEY_LEN + 1];

  /* Normalization of instructions. */
  dedupe_normalize("  Check\tTHE \n build  ", buf, sizeof buf);
  CHECK_STR(buf, "check the build", "whitespace and ASCII case");
  dedupe_normalize("Ärger ÜBER Straße", buf, sizeof buf);
  CHECK_STR(buf, "Ärger Über straße", "Unicode kept, only ASCII lowered");
  /* exactly A..Z are lowered: the ends, and their neighbours kept */
  dedupe_normalize("AZ az @[`{", buf, sizeof buf);
  CHECK_STR(buf, "az az @[`{", "A and Z lowered, @ [ ` { kept");

  /* The canonical text. */
  dedupe_canonical_text(" Say \"hi\"\n", "once", "1767225600000", NULL,
                        "room-1", buf, sizeof buf);
  CHECK_STR(
      buf,
      "[\"tdk2\",\"say \\\"hi\\\"\",\"once\",\"1767225600000\",\"room-1\"]",
      "canonical text");
  /* fields other than the instructions are kept as given, escaped */
  dedupe_canonical_text("x", "once", "1", NULL, "a\tb\rc\nd", buf, sizeof buf);
  CHECK_STR(buf, "[\"tdk2\",\"x\",\"once\",\"1\",\"a\\tb\\rc\\nd\"]",
            "control characters escaped in the scope");
  /* every byte below 0x20 is \u-escaped (0x1f the last), 0x20 and 0x7f
  ** are kept as they are */
  dedupe_canonical_text("x", "once", "1", NULL, "\x01|\x1f|\x20|\x7f", buf,
                        sizeof buf);
  CHECK_STR(buf, "[\"tdk2\",\"x\",\"once\",\"1\",\"\\u0001|\\u001f| |\x7f\"]",
            "control bytes escaped up to 0x1f");
  /* every ASCII white space (\v and \f too) folds, at either end too */
  dedupe_normalize("\v\fa\r\v\fb\f", buf, sizeof buf);
  CHECK_STR(buf, "a b", "\\v \\f \\r are white space");
  /* NULL fields read as empty; a short buffer gets a cut, terminated text
  ** and the full length (snprintf's rule); none at all, just the length */
  size_t n =
      dedupe_canonical_text(NULL, NULL, NULL, NULL, NULL, buf, sizeof buf);
  CHECK_STR(buf, "[\"tdk2\",\"\",\"\",\"\",\"\"]", "NULL fields");
  CHECK_EQ_I64(n, strlen(buf), "NULL fields: length");
  char small[8];
  n = dedupe_canonical_text("Hello", "once", "1", NULL, "", small,
                            sizeof small);
  CHECK(n == strlen("[\"tdk2\",\"hello\",\"once\",\"1\",\"\"]") &&
            strcmp(small, "[\"tdk2\"") == 0,
        "cut canonical text: %zu '%s'", n, small);
  CHECK_EQ_I64(dedupe_canonical_text("Hello", "once", "1", NULL, "", NULL, 0),
               n, "no buffer: the length");
  CHECK_EQ_I64(dedupe_normalize(" A  b ", small, 3), 3,
               "cut normalize: length");
  CHECK_STR(small, "a ", "cut normalize: text");
  CHECK_EQ_I64(dedupe_normalize("A b", NULL, 0), 3, "normalize: no buffer");
  /* white space only normalizes to nothing; backslashes are escaped in
  ** the instructions and in the other fields */
  CHECK_EQ_I64(dedupe_normalize(" \t\n ", buf, sizeof buf), 0, "blank: length");
  CHECK_STR(buf, "", "blank normalizes to empty");
  dedupe_canonical_text("A\\B", "once", "1", NULL, "c\\d\"", buf, sizeof buf);
  CHECK_STR(buf, "[\"tdk2\",\"a\\\\b\",\"once\",\"1\",\"c\\\\d\\\"\"]",
            "backslashes escaped");
  /* a text longer than the writer's 256-byte chunk, cut mid-field */
  {
    char lng[700], want[800], got[800];
    memset(lng, 'a', 600);
    lng[600] = 0;
    snprintf(want, sizeof want, "[\"tdk2\",\"%s\",\"once\",\"1\",\"\"]", lng);
    lng[0] = 'A';
    lng[300] = 'A';
    n = dedupe_canonical_text(lng, "once", "1", NULL, "", got, sizeof got);
    CHECK_EQ_I64(n, strlen(want), "long text: length");
    CHECK_STR(got, want, "long text");
  }
  canon_cron("0 9 * * MON-FRI", buf);
  CHECK_STR(buf, "0 0 9 * * 1-5", "cron canonical");

  /* Pinned keys: these exact values are the format. */
  /* (the table of docs/create-action.md#dedupe-keys, row by row) */
  static const struct {
    const char *ins, *type, *sched, *tz, *scope, *key;
  } pinned[] = {
      {"Check the build", "interval", "900000", "UTC", "",
       "tdk2:98920f2992feb9dff792b007c4e41593"},
      {"Summarize overnight market moves", "cron", "0 0 7 * * 1-5", "UTC", "",
       "tdk2:f143fcc1a4ce8fde852da79f968306a0"},
      {"Summarize overnight market moves", "cron", "0 0 7 * * 1-5",
       "Europe/Berlin", "", "tdk2:2f1231f97e4e2f4b33101ead5d55316d"},
      {"Send the report", "cron", "0 0 9 * * *", "America/New_York", "",
       "tdk2:50b808eebea7fbd387d1b859834348ed"},
      {"Send the report", "cron", "0 0 9 * * *", "Asia/Tokyo", "",
       "tdk2:a5b1bc2e3d76a91a8200a199560b172a"},
      {"Say hi", "once", "1767225600000", "UTC", "room-1",
       "tdk2:9c31679155d151f18caa4db8dfa72abd"},
  };
  for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
    dedupe_key(pinned[i].ins, pinned[i].type, pinned[i].sched, pinned[i].tz,
               pinned[i].scope, k1);
    CHECK_STR(k1, pinned[i].key, pinned[i].ins);
  }

  /* The zone: part of a cron's schedule (none: UTC), left out of the
  ** others (an interval's anchor and a once instant in UTC need none). */
  dedupe_canonical_text("R", "cron", "0 0 9 * * *", "Asia/Tokyo", "", buf,
                        sizeof buf);
  CHECK_STR(buf, "[\"tdk2\",\"r\",\"cron\",\"0 0 9 * * * Asia/Tokyo\",\"\"]",
            "cron: schedule and zone");
  dedupe_canonical_text("R", "cron", "0 0 9 * * *", NULL, "", buf, sizeof buf);
  CHECK_STR(buf, "[\"tdk2\",\"r\",\"cron\",\"0 0 9 * * * UTC\",\"\"]",
            "cron: no zone is UTC");
  key_cron("x", "0 9 * * *", "", "", k1);
  key_cron("x", "0 9 * * *", "UTC", "", k2);
  CHECK_STR(k1, k2, "cron: empty zone is UTC");
  key_cron("x", "0 9 * * *", "America/New_York", "", k1);
  key_cron("x", "0 9 * * *", "Asia/Tokyo", "", k2);
  CHECK(strcmp(k1, k2) != 0, "cron: two zones, two keys");
  dedupe_key("x", "interval", "60000", "Asia/Tokyo", "", k1);
  dedupe_key("x", "interval", "60000", "UTC", "", k2);
  CHECK_STR(k1, k2, "interval: no zone");
  dedupe_key("x", "once", "60000", "Asia/Tokyo", "", k1);
  dedupe_key("x", "once", "60000", NULL, "", k2);
  CHECK_STR(k1, k2, "once: no zone");

  /* Equivalent spellings give one key. */
  static const char *const same[][2] = {
      {"0 9 * * MON-FRI", "0 9 * * 1-5"},
      {"@daily", "0 0 * * *"},
      {"@midnight", "0 0 * * ?"},
      {"0 0 * * 7", "0 0 * * 0"},
      {"0 0 * * SUN", "0 0 * * 7"},
      {"0 9 * * 5,1,3", "0 9 * * MON,WED,FRI"},
      {"0 0 9 * * *", "0 9 * * *"},
  };
  for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
    key_cron("x", same[i][0], NULL, "", k1);
    key_cron("x", same[i][1], NULL, "", k2);
    CHECK_STR(k1, k2, same[i][0]);
  }
  dedupe_key("Check the build", "interval", "900000", NULL, "", k1);
  dedupe_key("  check   THE build\n", "interval", "900000", NULL, "", k2);
  CHECK_STR(k1, k2, "instruction variants");
  /* the key lowers exactly A..Z too (its own pass over the text) */
  dedupe_key("AZ", "interval", "900000", NULL, "", k1);
  dedupe_key("az", "interval", "900000", NULL, "", k2);
  CHECK_STR(k1, k2, "A and Z lowered in the key");
  dedupe_key("@", "interval", "900000", NULL, "", k1);
  dedupe_key("`", "interval", "900000", NULL, "", k2);
  CHECK(strcmp(k1, k2) != 0, "@ (before A) is kept");
  dedupe_key("[", "interval", "900000", NULL, "", k1);
  dedupe_key("{", "interval", "900000", NULL, "", k2);
  CHECK(strcmp(k1, k2) != 0, "[ (after Z) is kept");
  dedupe_key("Check the build", "interval", "900000", NULL, "", k1);

  /* Different scope, schedule, type or text give another key. */
  dedupe_key("Check the build", "interval", "900000", NULL, "room", k2);
  CHECK(strcmp(k1, k2) != 0, "scope changes the key");
  dedupe_key("Check the build", "interval", "900001", NULL, "", k2);
  CHECK(strcmp(k1, k2) != 0, "schedule changes the key");
  dedupe_key("Check the build", "once", "900000", NULL, "", k2);
  CHECK(strcmp(k1, k2) != 0, "type changes the key");
  dedupe_key("Check the builds", "interval", "900000", NULL, "", k2);
  CHECK(strcmp(k1, k2) != 0, "text changes the key");
  key_cron("x", "0 9 * * 1-5", NULL, "", k1);
  key_cron("x", "0 9 * * 1-6", NULL, "", k2);
  CHECK(strcmp(k1, k2) != 0, "other cron days");
  /* Field boundaries cannot be shifted: ("a b","c") != ("a","b c"). */
  dedupe_key("a", "interval", "1", NULL, "b", k1);
  dedupe_key("a\",\"interval", "1", "b", NULL, "", k2);
  CHECK(strcmp(k1, k2) != 0, "escaping keeps fields apart");
  CHECK_EQ_I64(strlen(k1), DEDUPE_KEY_LEN, "key length");
  return check_report("dedupe");
}
