/*
** test_rrule_corpus.c -- the RRULE conformance corpus (tests/corpus/rrule,
** or $RRULE_CORPUS_DIR) run against ext/time/rrule*.c.
**
** Each *.jsonl line is a case written by make_corpus.py (README.md there):
** the set `rrule` with DTSTART `dtstart` (floating) in zone `tz`; the
** first `n` occurrences strictly after `after` must be the instants of
** `next`, and with `exhausted` there must be none after them; a `never`
** case must fail rrule_check with "rrule never occurs". Every case also
** checks the canonical text: it compiles, prints itself again, and gives
** the same first occurrence. One CHECK per case; the pass rate is printed
** per file and in total. A missing corpus is a failure: it is part of the
** repository (run from its root, or set RRULE_CORPUS_DIR).
**
** The corpus lines are flat and written by json.dumps with its default
** separators, so a key is found as the text `"key": ` and its value read
** in place (strings with \n, \", \\ escapes; arrays of strings; true).
*/
#include "time/civil.h"
#include "time/rrule.h"
#include "time/tzdb.h"

#include <dirent.h>
#include <stdlib.h>

#include "check.h"

#include "zones.h"

#define MAX_NEXT 200
#define TEXT_MAX 8192

/* ---- Reading a corpus line -------------------------------------------- */

/* The value of "key" in line, or NULL. */
static const char *field(const char *line, const char *key) {
  char pat[64];
  const char *p;
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  p = strstr(line, pat);
  return p ? p + strlen(pat) : NULL;
}

/* A JSON string at p into out; returns the text after it, or NULL. */
static const char *read_string(const char *p, char *out, size_t cap) {
  size_t n = 0;
  if (!p || *p != '"') return NULL;
  for (p++; *p && *p != '"'; p++) {
    char ch = *p;
    if (ch == '\\') {
      p++;
      ch = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
      if (!ch) return NULL;
    }
    if (n + 1 < cap) out[n++] = ch;
  }
  out[n] = 0;
  return *p == '"' ? p + 1 : NULL;
}

static int get_string(const char *line, const char *key, char *out,
                      size_t cap) {
  return read_string(field(line, key), out, cap) != NULL;
}

/* An array of ISO strings at key -> instants (ms); returns the count or
** -1. */
static int get_instants(const char *line, const char *key, int64_t *out,
                        int max) {
  const char *p = field(line, key);
  int n = 0;
  if (!p || *p++ != '[') return -1;
  while (*p == ' ') p++;
  while (*p == '"') {
    char s[64], err[100];
    civil_time t;
    int has_off;
    int32_t off;
    p = read_string(p, s, sizeof s);
    if (!p || n == max ||
        civil_parse_iso(s, strlen(s), &t, &has_off, &off, err, sizeof err))
      return -1;
    out[n++] = civil_to_ms(&t) - (int64_t)off * 1000;
    while (*p == ',' || *p == ' ') p++;
  }
  return *p == ']' ? n : -1;
}

static int get_true(const char *line, const char *key) {
  const char *p = field(line, key);
  return p && strncmp(p, "true", 4) == 0;
}

/* ---- Running a case --------------------------------------------------- */

typedef struct tally {
  int cases, passed;
} tally;

static void fmt(const tz_zone *z, int64_t ms, char *buf) {
  civil_format_iso(ms, tz_offset_at(z, civil_floor_div(ms, 1000)), 0, buf);
}

/* Runs one case; returns 1 when it passes, else 0 with *why. */
static int run_case(const char *line, char *why, size_t wn) {
  char text[TEXT_MAX], ds[32], tzname[64], after_s[64], err[RRULE_ERR_MAX];
  static char canon[RRULE_CANON_MAX], again[RRULE_CANON_MAX];
  static rrule_set s, s2;
  int64_t want[MAX_NEXT], after, t, got, got2;
  int nwant, i, y, mo, d, h, mi, se;
  const tz_zone *z;
  civil_time ct;
  int has_off;
  int32_t off;
  if (!get_string(line, "rrule", text, sizeof text) ||
      !get_string(line, "dtstart", ds, sizeof ds) ||
      !get_string(line, "tz", tzname, sizeof tzname) ||
      !get_string(line, "after", after_s, sizeof after_s) ||
      (nwant = get_instants(line, "next", want, MAX_NEXT)) < 0 ||
      sscanf(ds, "%4d%2d%2dT%2d%2d%2d", &y, &mo, &d, &h, &mi, &se) != 6 ||
      civil_parse_iso(after_s, strlen(after_s), &ct, &has_off, &off, err,
                      sizeof err)) {
    snprintf(why, wn, "unreadable line");
    return 0;
  }
  z = zone(tzname);
  after = civil_to_ms(&ct) - (int64_t)off * 1000;
  if (rrule_compile(text, &s, err, sizeof err)) {
    snprintf(why, wn, "refused: %s", err);
    return 0;
  }
  {
    int64_t dtstart =
        civil_days_from_date(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
    if (get_true(line, "never")) {
      if (!rrule_check(&s, dtstart, z, err, sizeof err) ||
          strcmp(err, "rrule never occurs") != 0) {
        snprintf(why, wn, "expected never, check says '%s'", err);
        return 0;
      }
    } else if (rrule_check(&s, dtstart, z, err, sizeof err) != 0) {
      snprintf(why, wn, "check: %s", err);
      return 0;
    }
    for (t = after, i = 0; i < nwant; i++) {
      char a[CIVIL_ISO_MAX], b[CIVIL_ISO_MAX];
      if (rrule_next(&s, dtstart, z, t, &got) != 1) {
        fmt(z, want[i], b);
        snprintf(why, wn, "#%d: want %s, got none", i, b);
        return 0;
      }
      if (got != want[i]) {
        fmt(z, got, a);
        fmt(z, want[i], b);
        snprintf(why, wn, "#%d: want %s, got %s", i, b, a);
        return 0;
      }
      t = got;
    }
    if (get_true(line, "exhausted")) {
      char a[CIVIL_ISO_MAX];
      int rc = rrule_next(&s, dtstart, z, t, &got);
      if (rc != 0) {
        if (rc == 1) fmt(z, got, a);
        snprintf(why, wn, "want no more after #%d, got %s", nwant - 1,
                 rc == 1 ? a : "a search that gave up");
        return 0;
      }
    }
    /* the canonical text stands for the same set */
    if (rrule_canonical(&s, canon, sizeof canon) < 0 ||
        rrule_compile(canon, &s2, err, sizeof err) ||
        rrule_canonical(&s2, again, sizeof again) < 0 ||
        strcmp(canon, again) != 0) {
      snprintf(why, wn, "canonical text '%.80s' does not read back", canon);
      return 0;
    }
    if (rrule_next(&s, dtstart, z, after, &got) !=
            rrule_next(&s2, dtstart, z, after, &got2) ||
        (nwant && got != got2)) {
      snprintf(why, wn, "canonical text '%.80s' expands differently", canon);
      return 0;
    }
  }
  return 1;
}

static void run_file(const char *dir, const char *name, tally *all) {
  char path[1024], id[128], why[400];
  FILE *f;
  char *line = NULL;
  size_t cap = 0;
  tally t = {0, 0};
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "r");
  if (!f) {
    CHECK(0, "cannot open %s", path);
    return;
  }
  while (getline(&line, &cap, f) > 0) {
    int ok;
    if (line[0] != '{') continue;
    ok = run_case(line, why, sizeof why);
    if (!get_string(line, "id", id, sizeof id)) strcpy(id, "?");
    t.cases++;
    t.passed += ok;
    CHECK(ok, "%s: %s: %s", name, id, why);
  }
  free(line);
  fclose(f);
  printf("  %s: %d/%d cases pass\n", name, t.passed, t.cases);
  all->cases += t.cases;
  all->passed += t.passed;
}

static int is_jsonl(const struct dirent *e) {
  size_t n = strlen(e->d_name);
  return n > 6 && strcmp(e->d_name + n - 6, ".jsonl") == 0;
}

int main(void) {
  const char *dir = getenv("RRULE_CORPUS_DIR");
  struct dirent **names;
  tally all = {0, 0};
  int n, i;
  if (!dir || !*dir) dir = "tests/corpus/rrule";
  n = scandir(dir, &names, is_jsonl, alphasort);
  if (n <= 0) {
    if (n == 0) free(names);
    CHECK(0,
          "no *.jsonl corpus at %s (run from the repository root, or set "
          "RRULE_CORPUS_DIR)",
          dir);
    return check_report("rrule_corpus");
  }
  db = tzdb_new(NULL);
  if (!db) return 1;
  for (i = 0; i < n; i++) {
    run_file(dir, names[i]->d_name, &all);
    free(names[i]);
  }
  free(names);
  printf("  rrule corpus: %d/%d cases pass (%.2f%%)\n", all.passed, all.cases,
         all.cases ? 100.0 * all.passed / all.cases : 0.0);
  tzdb_free(db);
  return check_report("rrule_corpus");
}
