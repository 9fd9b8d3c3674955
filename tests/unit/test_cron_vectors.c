/*
** test_cron_vectors.c -- the cron conformance vectors (tests/vectors,
** or $VECTORS_DIR) run against ext/time/cron.c.
**
** Each *.jsonl line carries `cronmd` (see tests/vectors/README.md):
**   expect  -- asserted: schedule lines iterate next() from `start` and
**              compare every non-null entry of `next` (the instant, or the
**              wall-clock fields in `tz` when compare is "local"), then
**              `exhausted` means next() returns nothing; validity lines
**              assert parse success iff `valid`.
**   differs -- docs/cron.md's answer is read from `cronmd_note` and asserted:
**              "CRON.md accepts it" / "CRON.md rejects it", or
**              "CRON.md: <instant>, <instant>, ... (reason)". A note that
**              cannot be read is listed with its reason instead.
**   out     -- counted, not run.
** Prints one line per file and ends with check_report("cron_vectors").
** A vectors directory that is missing or holds no *.jsonl file is a
** failure: the vectors are part of the repository.
**
** The JSON reader is a small scanner for these flat lines: it walks the
** top-level object, keeps the raw text of the keys it needs and skips
** nested values (peers_got, options) by bracket depth.
*/
#include "time/civil.h"
#include "time/cron.h"
#include "time/tzdb.h"

#include <dirent.h>
#include <stddef.h>
#include <stdlib.h>

#include "check.h"

#define LINE_MAX_BYTES (1 << 20)
#define MAX_NEXT 64

/* ---- A minimal JSON scanner ------------------------------------------- */

typedef struct jspan {
  const char *s; /* raw value text, NULL when the key is absent */
  size_t n;
} jspan;

typedef struct vec_line {
  jspan expr, expr_sf, tz, start, next, exhausted, compare, valid, cronmd, note,
      source;
} vec_line;

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
  return p;
}

/* End of a JSON string starting at the opening quote; NULL if unclosed. */
static const char *string_end(const char *p) {
  for (p++; *p; p++) {
    if (*p == '\\' && p[1]) p++;
    else if (*p == '"') return p + 1;
  }
  return NULL;
}

/* End of any JSON value starting at p. */
static const char *value_end(const char *p) {
  int depth = 0;
  if (*p == '"') return string_end(p);
  if (*p != '[' && *p != '{') {
    while (*p && *p != ',' && *p != '}' && *p != ']') p++;
    return p;
  }
  for (; *p; p++) {
    if (*p == '"') {
      p = string_end(p);
      if (!p) return NULL;
      p--;
    } else if (*p == '[' || *p == '{') {
      depth++;
    } else if (*p == ']' || *p == '}') {
      if (--depth == 0) return p + 1;
    }
  }
  return NULL;
}

static jspan *slot(vec_line *v, const char *key, size_t n) {
  static const struct {
    const char *name;
    size_t off;
  } keys[] = {
      {"expr", offsetof(vec_line, expr)},
      {"expr_seconds_first", offsetof(vec_line, expr_sf)},
      {"tz", offsetof(vec_line, tz)},
      {"start", offsetof(vec_line, start)},
      {"next", offsetof(vec_line, next)},
      {"exhausted", offsetof(vec_line, exhausted)},
      {"compare", offsetof(vec_line, compare)},
      {"valid", offsetof(vec_line, valid)},
      {"cronmd", offsetof(vec_line, cronmd)},
      {"cronmd_note", offsetof(vec_line, note)},
      {"source", offsetof(vec_line, source)},
  };
  size_t i;
  for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (strlen(keys[i].name) == n && memcmp(keys[i].name, key, n) == 0)
      return (jspan *)((char *)v + keys[i].off);
  return NULL;
}

/* Fill v from one line; returns 0, or -1 if the line is not an object. */
static int scan_line(const char *p, vec_line *v) {
  memset(v, 0, sizeof *v);
  p = skip_ws(p);
  if (*p++ != '{') return -1;
  for (;;) {
    const char *k, *ke, *ve;
    jspan *dst;
    p = skip_ws(p);
    if (*p == '}') return 0;
    if (*p != '"') return -1;
    k = p + 1;
    ke = string_end(p);
    if (!ke) return -1;
    p = skip_ws(ke);
    if (*p++ != ':') return -1;
    p = skip_ws(p);
    ve = value_end(p);
    if (!ve) return -1;
    dst = slot(v, k, (size_t)(ke - 1 - k));
    if (dst) {
      dst->s = p;
      dst->n = (size_t)(ve - p);
    }
    p = skip_ws(ve);
    if (*p == ',') p++;
  }
}

/* Decode a JSON string value into buf (\uXXXX -> UTF-8). */
static int jstring(jspan j, char *buf, size_t n) {
  size_t i, k = 0;
  if (!j.s || j.n < 2 || j.s[0] != '"') return -1;
  for (i = 1; i + 1 < j.n && k + 4 < n; i++) {
    char ch = j.s[i];
    if (ch == '\\' && i + 2 < j.n) {
      ch = j.s[++i];
      if (ch == 'n') ch = '\n';
      else if (ch == 't') ch = '\t';
      else if (ch == 'r') ch = '\r';
      else if (ch == 'u' && i + 4 < j.n) {
        unsigned cp = (unsigned)strtoul(
            (char[]){j.s[i + 1], j.s[i + 2], j.s[i + 3], j.s[i + 4], 0}, NULL,
            16);
        i += 4;
        if (cp < 0x80) {
          buf[k++] = (char)cp;
        } else if (cp < 0x800) {
          buf[k++] = (char)(0xC0 | (cp >> 6));
          buf[k++] = (char)(0x80 | (cp & 0x3F));
        } else {
          buf[k++] = (char)(0xE0 | (cp >> 12));
          buf[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
          buf[k++] = (char)(0x80 | (cp & 0x3F));
        }
        continue;
      }
    }
    buf[k++] = ch;
  }
  buf[k] = 0;
  return 0;
}

static int jtrue(jspan j) {
  return j.s && j.n == 4 && memcmp(j.s, "true", 4) == 0;
}

static int jis(jspan j, const char *lit) {
  char buf[64];
  return jstring(j, buf, sizeof buf) == 0 && strcmp(buf, lit) == 0;
}

/* Array of strings/nulls -> items (NULL for null). Returns the count. */
static int jarray(jspan j, char items[][64], int *is_null, int max) {
  const char *p, *end;
  int n = 0;
  if (!j.s || j.s[0] != '[') return -1;
  p = j.s + 1;
  end = j.s + j.n - 1;
  for (;;) {
    const char *ve;
    p = skip_ws(p);
    if (p >= end || *p == ']') return n;
    ve = value_end(p);
    if (!ve || n >= max) return -1;
    if (*p == '"') {
      jspan e = {p, (size_t)(ve - p)};
      jstring(e, items[n], 64);
      is_null[n] = 0;
    } else {
      items[n][0] = 0;
      is_null[n] = 1;
    }
    n++;
    p = skip_ws(ve);
    if (*p == ',') p++;
  }
}

/* ---- Running one line ------------------------------------------------- */

static tzdb *db;

static int is_digit_ch(char ch) { return ch >= '0' && ch <= '9'; }

static int parse_instant(const char *s, int64_t *ms, civil_time *local) {
  civil_time t;
  int has_off;
  int32_t off;
  char err[200];
  if (civil_parse_iso(s, strlen(s), &t, &has_off, &off, err, sizeof err))
    return -1;
  if (local) *local = t;
  *ms = civil_to_ms(&t) - (int64_t)off * 1000;
  return 0;
}

static const char *line_expr(const vec_line *v, char *buf, size_t n) {
  if (v->expr_sf.s && jstring(v->expr_sf, buf, n) == 0) return buf;
  if (jstring(v->expr, buf, n) == 0) return buf;
  return NULL;
}

typedef struct schedule_case {
  const char *expr, *tz;
  int64_t start;
  int count;
  char want[MAX_NEXT][64];
  int is_null[MAX_NEXT];
  int exhausted, local;
} schedule_case;

/* Returns 1 if every listed value (and exhaustion) holds; *why on failure. */
static int run_schedule(const schedule_case *k, char *why, size_t n) {
  cron_expr c;
  char err[CRON_ERR_MAX];
  const tz_zone *z = tz_utc();
  int64_t t = k->start, out;
  int i;
  if (strcmp(k->tz, "UTC") != 0 && tzdb_get(db, k->tz, &z, err, sizeof err)) {
    snprintf(why, n, "zone: %s", err);
    return 0;
  }
  if (cron_parse(k->expr, &c, err, sizeof err)) {
    snprintf(why, n, "parse: %s", err);
    return 0;
  }
  for (i = 0; i < k->count; i++) {
    int64_t want;
    civil_time wl, gl;
    if (!cron_next(&c, z, t, &out)) {
      snprintf(why, n, "#%d: no next time, want %s", i, k->want[i]);
      return 0;
    }
    if (!k->is_null[i]) {
      if (parse_instant(k->want[i], &want, &wl)) {
        snprintf(why, n, "#%d: unreadable '%s'", i, k->want[i]);
        return 0;
      }
      if (k->local) {
        civil_from_ms(out + (int64_t)tz_offset_at(z, out / 1000) * 1000, &gl);
        if (gl.year != wl.year || gl.month != wl.month || gl.day != wl.day ||
            gl.hour != wl.hour || gl.minute != wl.minute ||
            gl.second != wl.second) {
          char g[CIVIL_ISO_MAX];
          civil_format_iso(out, tz_offset_at(z, out / 1000), 0, g);
          snprintf(why, n, "#%d: local %s, want %s", i, g, k->want[i]);
          return 0;
        }
      } else if (out != want) {
        char g[CIVIL_ISO_MAX];
        civil_format_iso(out, tz_offset_at(z, out / 1000), 0, g);
        snprintf(why, n, "#%d: got %s, want %s", i, g, k->want[i]);
        return 0;
      }
    }
    t = out;
  }
  if (k->exhausted && cron_next(&c, z, t, &out)) {
    char g[CIVIL_ISO_MAX];
    civil_format_iso(out, 0, 1, g);
    snprintf(why, n, "want no further time, got %s", g);
    return 0;
  }
  return 1;
}

static int run_validity(const char *expr, int valid, char *why, size_t n) {
  cron_expr c;
  char err[CRON_ERR_MAX];
  int ok = cron_parse(expr, &c, err, sizeof err) == 0;
  if (ok == valid) return 1;
  snprintf(why, n, valid ? "rejected: %s" : "accepted", err);
  return 0;
}

/* "YYYY-" opens an instant in a note. */
static int is_iso_start(const char *p) {
  return is_digit_ch(p[0]) && is_digit_ch(p[1]) && is_digit_ch(p[2]) &&
         is_digit_ch(p[3]) && p[4] == '-';
}

/*
** docs/cron.md's answer from a differs note (the notes call it "CRON.md").
** Returns 1 asserted-and-passed, 0 asserted-and-failed, -1 not readable
** (listed).
*/
static int run_differs(const vec_line *v, const char *expr, const char *note,
                       char *why, size_t n) {
  if (strncmp(note, "CRON.md accepts it", 18) == 0)
    return run_validity(expr, 1, why, n);
  if (strncmp(note, "CRON.md rejects it", 18) == 0)
    return run_validity(expr, 0, why, n);
  if (strncmp(note, "CRON.md: ", 9) == 0 && v->start.s && v->tz.s) {
    schedule_case k;
    char tz[64], start[64];
    const char *p = note + 9;
    memset(&k, 0, sizeof k);
    if (jstring(v->tz, tz, sizeof tz) ||
        jstring(v->start, start, sizeof start) ||
        parse_instant(start, &k.start, NULL))
      return -1;
    /* "iso, iso, iso[, …] (reason)" */
    while (*p && *p != '(' && k.count < MAX_NEXT) {
      size_t len = strcspn(p, ", (");
      if (len >= 19 && is_iso_start(p)) {
        memcpy(k.want[k.count], p, len);
        k.want[k.count][len] = 0;
        k.count++;
      } else if (len > 0 && (unsigned char)*p < 0x80) {
        return -1; /* something other than instants and an ellipsis */
      }
      p += len;
      while (*p == ',' || *p == ' ') p++;
      if ((unsigned char)*p >= 0x80) /* the ellipsis */
        while (*p && *p != ',' && *p != ' ' && *p != '(') p++;
    }
    if (k.count == 0) return -1;
    k.expr = expr;
    k.tz = tz;
    return run_schedule(&k, why, n);
  }
  return -1;
}

/* ---- Files ------------------------------------------------------------ */

typedef struct file_counts {
  int expect_pass, expect_fail, differs, asserted, listed, out, bad;
} file_counts;

static void run_expect(const vec_line *v, const char *expr, const char *src,
                       const char *file, file_counts *fc) {
  char why[300] = "";
  int ok;
  if (v->valid.s) {
    ok = run_validity(expr, jtrue(v->valid), why, sizeof why);
  } else {
    schedule_case k;
    char tz[64] = "UTC", start[64];
    memset(&k, 0, sizeof k);
    k.count = jarray(v->next, k.want, k.is_null, MAX_NEXT);
    if (k.count < 0 || (v->tz.s && jstring(v->tz, tz, sizeof tz)) ||
        jstring(v->start, start, sizeof start) ||
        parse_instant(start, &k.start, NULL)) {
      fc->bad++;
      CHECK(0, "%s: unreadable expect line %s", file, src);
      return;
    }
    k.expr = expr;
    k.tz = tz;
    k.exhausted = jtrue(v->exhausted);
    k.local = jis(v->compare, "local");
    ok = run_schedule(&k, why, sizeof why);
  }
  if (ok) fc->expect_pass++;
  else fc->expect_fail++;
  CHECK(ok, "%s: expect '%s' (%s): %s", file, expr, src, why);
}

static void run_line(const char *line, const char *file, file_counts *fc) {
  vec_line v;
  char expr[512], src[512], note[1024], why[300] = "";
  if (scan_line(line, &v) || !line_expr(&v, expr, sizeof expr)) {
    fc->bad++;
    CHECK(0, "%s: unreadable line '%.60s'", file, line);
    return;
  }
  if (jstring(v.source, src, sizeof src)) strcpy(src, "?");
  if (jis(v.cronmd, "out")) {
    fc->out++;
  } else if (jis(v.cronmd, "expect")) {
    run_expect(&v, expr, src, file, fc);
  } else if (jis(v.cronmd, "differs")) {
    int r;
    fc->differs++;
    if (jstring(v.note, note, sizeof note)) note[0] = 0;
    r = run_differs(&v, expr, note, why, sizeof why);
    if (r < 0) {
      fc->listed++;
      printf("  differs (docs/cron.md decides): %s: '%s': %s\n", src, expr,
             note);
    } else {
      fc->asserted++;
      CHECK(r == 1, "%s: differs '%s' (%s): docs/cron.md's answer not met: %s",
            file, expr, src, why);
    }
  } else {
    fc->bad++;
    CHECK(0, "%s: line without a cronmd status: %s", file, src);
  }
}

static void run_file(const char *dir, const char *name) {
  char path[1024];
  FILE *f;
  char *line = NULL;
  size_t cap = 0;
  file_counts fc;
  memset(&fc, 0, sizeof fc);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "r");
  if (!f) {
    CHECK(0, "cannot open %s", path);
    return;
  }
  while (getline(&line, &cap, f) > 0) {
    if (skip_ws(line)[0] == 0) continue;
    run_line(line, name, &fc);
  }
  free(line);
  fclose(f);
  printf("%s: %d expect passed, %d failed, %d differs (%d asserted, %d "
         "listed), %d out%s\n",
         name, fc.expect_pass, fc.expect_fail, fc.differs, fc.asserted,
         fc.listed, fc.out, fc.bad ? " (unreadable lines!)" : "");
}

static int is_jsonl(const struct dirent *e) {
  size_t n = strlen(e->d_name);
  return n > 6 && strcmp(e->d_name + n - 6, ".jsonl") == 0;
}

int main(void) {
  const char *dir = getenv("VECTORS_DIR");
  struct dirent **names;
  int n, i;
  if (!dir || !*dir) dir = "tests/vectors";
  n = scandir(dir, &names, is_jsonl, alphasort);
  if (n <= 0) {
    if (n == 0) free(names);
    CHECK(0,
          "no *.jsonl vectors at %s (run from the repository root, or set "
          "VECTORS_DIR)",
          dir);
    return check_report("cron_vectors");
  }
  db = tzdb_new(NULL);
  if (!db) return 1;
  for (i = 0; i < n; i++) {
    run_file(dir, names[i]->d_name);
    free(names[i]);
  }
  free(names);
  tzdb_free(db);
  return check_report("cron_vectors");
}
