/*
** trigger.c -- the meaning of one `triggers` row: value checks, defaults,
** the schedule spec, lifecycle transitions and JSON. See trigger.h.
*/
#include "trigger.h"

#include <stdio.h>
#include <string.h>

#include "args.h"
#include "civil.h"
#include "dedupe.h"
#include "sha256.h"

SQLITE_EXTENSION_INIT3

#define ERR(...)                                                   \
  ((*err = sqlite3_mprintf(__VA_ARGS__)) ? SQLITE_CONSTRAINT_CHECK \
                                         : SQLITE_NOMEM)

static const char *const wake_modes[] = {"inject_now", "next_autonomy_cycle",
                                         0};
static const char *const creators[] = {"user", "agent", "system", 0};
static const char *const misfires[] = {"coalesce", "all", "skip", 0};
static const char *const overlaps[] = {"skip", "allow", "queue", 0};

static int in_set(const char *v, const char *const *set) {
  for (int i = 0; set[i]; i++) {
    if (strcmp(v, set[i]) == 0) return 1;
  }
  return 0;
}

static const char *type_word(int t) {
  switch (t) {
    case SQLITE_INTEGER: return "an integer";
    case SQLITE_FLOAT: return "a real";
    case SQLITE_TEXT: return "text";
    case SQLITE_BLOB: return "a blob";
    default: return "NULL";
  }
}

/* One SQL value into a column, by the column's kind. Integer columns
** take integer-valued text as SQLite's INTEGER affinity does ('300000'),
** instant columns too (ms); other text in an instant column is ISO-8601,
** converted in the row's zone by trg_validate. */
int trg_read_value(int col, sqlite3_value *v, trg_val *out, char **err) {
  const trg_coldef *d = &trg_cols[col];
  int t = sqlite3_value_type(v);
  if (t == SQLITE_NULL) {
    val_set_null(out);
    return SQLITE_OK;
  }
  if (d->kind == 'I' || d->kind == 'S') {
    i64 i;
    int num = trg_int_of(v, &i);
    if (num < 0) return SQLITE_NOMEM;
    if (num) {
      val_set_int(out, i);
      return SQLITE_OK;
    }
    if (d->kind == 'I' && (t == SQLITE_TEXT || t == SQLITE_FLOAT)) {
      char buf[TRG_ECHO_MAX];
      const char *text = (const char *)sqlite3_value_text(v);
      if (!text) return SQLITE_NOMEM;
      return ERR("triggers.%s: %s%s%s is not an integer%s", d->name,
                 t == SQLITE_TEXT ? "'" : "", trg_echo(text, buf),
                 t == SQLITE_TEXT ? "'" : "", trg_int_unit(d->name));
    }
    if (t != SQLITE_TEXT) {
      return ERR("triggers.%s: must be an integer%s, got %s", d->name,
                 d->kind == 'S' ? " (ms) or ISO-8601 text" : "", type_word(t));
    }
  } else if (t != SQLITE_TEXT) {
    return ERR("triggers.%s: must be text, got %s", d->name, type_word(t));
  }
  const char *text;
  char what[48];
  sqlite3_snprintf(sizeof what, what, "triggers.%s", d->name);
  int rc = value_text(v, d->kind == 'J', what, &text, err);
  if (rc == SQLITE_ERROR) return SQLITE_CONSTRAINT_CHECK;
  return rc == SQLITE_OK ? val_set_text(out, text) : rc;
}

int trg_read_values(trg_row *r, sqlite3_value **vals, int only_changed,
                    uint64_t *changed, char **err) {
  for (int i = 0; i < TC_NPUBLIC; i++) {
    if (only_changed && sqlite3_value_nochange(vals[i])) continue;
    if (trg_cols[i].ro) {
      if (!only_changed && sqlite3_value_type(vals[i]) == SQLITE_NULL) continue;
      return ERR("triggers.%s: is computed and cannot be written",
                 trg_cols[i].name);
    }
    int rc = trg_read_value(i, vals[i], &r->v[i], err);
    if (rc != SQLITE_OK) return rc;
    if (changed) *changed |= (uint64_t)1 << i;
  }
  return SQLITE_OK;
}

/* ---- validation ------------------------------------------------------ */

static int text_default(trg_row *r, int col, const char *def) {
  if (r->v[col].null) return val_set_text(&r->v[col], def);
  return SQLITE_OK;
}

static void int_default(trg_row *r, int col, i64 def) {
  if (r->v[col].null) val_set_int(&r->v[col], def);
}

static int check_enum(trg_row *r, int col, const char *const *set,
                      const char *def, char **err) {
  int rc = text_default(r, col, def);
  if (rc != SQLITE_OK) return rc;
  if (!in_set(r->v[col].t, set)) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    for (int i = 0; set[i]; i++)
      sqlite3_str_appendf(s, "%s'%s'", i ? ", " : "", set[i]);
    char *list = sqlite3_str_finish(s);
    *err = sqlite3_mprintf("triggers.%s: '%s' is not one of %s",
                           trg_cols[col].name, r->v[col].t, list ? list : "");
    sqlite3_free(list);
    return SQLITE_CONSTRAINT_CHECK;
  }
  return SQLITE_OK;
}

static int check_min(trg_row *r, int col, i64 min, char **err) {
  if (!r->v[col].null && r->v[col].i < min) {
    return ERR("triggers.%s: must be >= %lld, got %lld", trg_cols[col].name,
               (long long)min, (long long)r->v[col].i);
  }
  return SQLITE_OK;
}

/* A duration column: at least min, at most the span of the instant range
** (so that adding it to an instant cannot overflow). */
static int check_duration(trg_row *r, int col, i64 min, char **err) {
  int rc = check_min(r, col, min, err);
  if (rc == SQLITE_OK && !r->v[col].null && r->v[col].i > SCHED_SPAN_MAX) {
    return ERR("triggers.%s: must be <= %lld (10,000 years), got %lld",
               trg_cols[col].name, (long long)SCHED_SPAN_MAX,
               (long long)r->v[col].i);
  }
  return rc;
}

/* ISO text in an instant column -> ms in the row's zone. */
static int convert_instant(trg_row *r, int col, const tz_zone *z, char **err) {
  trg_val *v = &r->v[col];
  if (v->null) return SQLITE_OK;
  char msg[SCHED_ERR_MAX];
  i64 ms;
  if (v->t && sched_parse_instant(v->t, z, &ms, msg, sizeof msg) != 0) {
    return ERR("triggers.%s: cannot read '%s' as an instant: %s",
               trg_cols[col].name, v->t, msg);
  }
  if (!v->t) ms = v->i;
  if (sched_instant_check(ms, msg, sizeof msg) != 0) {
    return ERR("triggers.%s: %s", trg_cols[col].name, msg);
  }
  val_set_int(v, ms);
  return SQLITE_OK;
}

/* First words of the instructions, at most 6 words / 60 bytes. */
static int default_display_name(trg_row *r) {
  const char *s = r->v[TC_INSTRUCTIONS].t;
  char buf[64];
  size_t n = 0;
  int words = 0;
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  while (*s && n < 60) {
    int blank = (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r');
    if (blank) {
      if (++words == 6) break;
      while (s[1] == ' ' || s[1] == '\t' || s[1] == '\n' || s[1] == '\r') s++;
      buf[n++] = ' ';
    } else {
      buf[n++] = *s;
    }
    s++;
  }
  /* Do not cut a UTF-8 sequence in half. */
  /* cppcheck-suppress uninitvar ; buf[0..n-1] were all written above */
  while (n > 0 && ((unsigned char)buf[n - 1] & 0xC0) == 0x80) n--;
  if (n > 0 && ((unsigned char)buf[n - 1] & 0xC0) == 0xC0) n--;
  while (n > 0 && buf[n - 1] == ' ') n--;
  buf[n] = 0;
  return val_set_text(&r->v[TC_DISPLAY_NAME], buf);
}

static int is_blank(const char *s) {
  for (; s && *s; s++) {
    if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') return 0;
  }
  return 1;
}

/* Columns that belong to one schedule type only. */
static int check_type_columns(trg_row *r, sched_type t, char **err) {
  static const struct {
    int col;
    sched_type type;
  } own[] = {{TC_INTERVAL_MS, SCHED_INTERVAL},
             {TC_SCHEDULED_AT, SCHED_ONCE},
             {TC_CRON_EXPRESSION, SCHED_CRON}};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
    int given = !r->v[own[i].col].null;
    if (own[i].type == t && !given) {
      return ERR("triggers.%s: required for trigger_type '%s'",
                 trg_cols[own[i].col].name, sched_type_name(t));
    }
    if (own[i].type != t && given) {
      return ERR("triggers.%s: only allowed for trigger_type '%s' (this "
                 "trigger is '%s')",
                 trg_cols[own[i].col].name, sched_type_name(own[i].type),
                 sched_type_name(t));
    }
  }
  return SQLITE_OK;
}

int trg_spec(trg_ctx *c, const trg_row *r, sched_spec *spec, char **err) {
  char msg[CRON_ERR_MAX + 64];
  memset(spec, 0, sizeof *spec);
  spec->type = sched_type_parse(r->v[TC_TRIGGER_TYPE].t);
  spec->start_at = r->v[TC_START_AT].null ? SCHED_NONE : r->v[TC_START_AT].i;
  spec->end_at = r->v[TC_END_AT].null ? SCHED_NONE : r->v[TC_END_AT].i;
  spec->created_at = r->v[TC_CREATED_AT].i;
  spec->interval_ms = r->v[TC_INTERVAL_MS].i;
  spec->scheduled_at = r->v[TC_SCHEDULED_AT].i;
  if (trg_zone(c, val_text(&r->v[TC_TIMEZONE]), &spec->zone, msg, sizeof msg) !=
      0) {
    return ERR("triggers.timezone: %s", msg);
  }
  if (spec->type == SCHED_CRON &&
      cron_parse(val_text(&r->v[TC_CRON_EXPRESSION]), &spec->cron, msg,
                 sizeof msg) != 0) {
    return ERR("triggers.cron_expression: %s", msg);
  }
  return SQLITE_OK;
}

int trg_validate(trg_ctx *c, store *s, trg_row *r, sched_spec *spec, i64 now,
                 char **err) {
  int rc;
  (void)s;
  if (r->v[TC_INSTRUCTIONS].null) {
    *err = sqlite3_mprintf("NOT NULL constraint failed: triggers.instructions");
    return SQLITE_CONSTRAINT_NOTNULL;
  }
  if (is_blank(r->v[TC_INSTRUCTIONS].t)) {
    return ERR("triggers.instructions: must not be empty");
  }
  if (r->v[TC_TRIGGER_TYPE].null) {
    *err = sqlite3_mprintf("NOT NULL constraint failed: triggers.trigger_type");
    return SQLITE_CONSTRAINT_NOTNULL;
  }
  sched_type t = sched_type_parse(r->v[TC_TRIGGER_TYPE].t);
  if (t == SCHED_INVALID) {
    return ERR("triggers.trigger_type: '%s' is not one of 'interval', "
               "'once', 'cron'",
               r->v[TC_TRIGGER_TYPE].t);
  }
  if ((rc = check_type_columns(r, t, err)) != SQLITE_OK) return rc;
  if (!r->v[TC_TRIGGER_ID].null && is_blank(r->v[TC_TRIGGER_ID].t)) {
    return ERR("triggers.trigger_id: must not be empty");
  }
  if ((rc = text_default(r, TC_AGENT_ID, "")) != SQLITE_OK) return rc;
  if ((rc = text_default(r, TC_SCOPE, "")) != SQLITE_OK) return rc;
  if ((rc = text_default(r, TC_TIMEZONE, "UTC")) != SQLITE_OK) return rc;
  if (r->v[TC_DISPLAY_NAME].null &&
      (rc = default_display_name(r)) != SQLITE_OK) {
    return rc;
  }
  if ((rc =
           check_enum(r, TC_WAKE_MODE, wake_modes, "next_autonomy_cycle", err)))
    return rc;
  if ((rc = check_enum(r, TC_CREATED_BY, creators, "user", err))) return rc;
  if ((rc = check_enum(r, TC_MISFIRE_POLICY, misfires, "coalesce", err)))
    return rc;
  if ((rc = check_enum(r, TC_OVERLAP_POLICY, overlaps, "skip", err))) return rc;
  int_default(r, TC_ENABLED, 1);
  if (r->v[TC_ENABLED].i != 0 && r->v[TC_ENABLED].i != 1) {
    return ERR("triggers.enabled: must be 0 or 1, got %lld",
               (long long)r->v[TC_ENABLED].i);
  }
  int_default(r, TC_MAX_ATTEMPTS, 1);
  int_default(r, TC_BACKOFF_MS, TRG_DEFAULT_BACKOFF_MS);
  int_default(r, TC_JITTER_MS, 0);
  if ((rc = check_duration(r, TC_INTERVAL_MS, TRG_MIN_INTERVAL_MS, err)))
    return rc;
  if ((rc = check_min(r, TC_MAX_RUNS, 1, err))) return rc;
  if ((rc = check_min(r, TC_MAX_ATTEMPTS, 1, err))) return rc;
  if ((rc = check_duration(r, TC_BACKOFF_MS, 0, err))) return rc;
  if ((rc = check_duration(r, TC_JITTER_MS, 0, err))) return rc;
  if ((rc = check_duration(r, TC_WINDOW_MS, 1, err))) return rc;
  if ((rc = check_min(r, TC_PAUSE_AFTER_FAILURES, 1, err))) return rc;
  if (!r->v[TC_METADATA].null) {
    int ok = store_json_is_object(s->db, r->v[TC_METADATA].t);
    if (ok < 0) return SQLITE_NOMEM;
    if (!ok) return ERR("triggers.metadata: must be a JSON object");
  }
  /* The zone first: local ISO instants are read in it. Stored in its
  ** canonical spelling ('europe/berlin' -> 'Europe/Berlin'). */
  char msg[CRON_ERR_MAX + 64];
  const tz_zone *z;
  const char *canon;
  if (trg_zone_canon(c, r->v[TC_TIMEZONE].t, &z, &canon, msg, sizeof msg) !=
      0) {
    return ERR("triggers.timezone: %s", msg);
  }
  if (strcmp(canon, r->v[TC_TIMEZONE].t) != 0 &&
      (rc = val_set_text(&r->v[TC_TIMEZONE], canon)) != SQLITE_OK) {
    return rc;
  }
  static const int instants[] = {TC_SCHEDULED_AT, TC_START_AT, TC_END_AT,
                                 TC_CREATED_AT};
  for (size_t i = 0; i < sizeof instants / sizeof instants[0]; i++) {
    if ((rc = convert_instant(r, instants[i], z, err))) return rc;
  }
  int_default(r, TC_CREATED_AT, now);
  if (!r->v[TC_START_AT].null && !r->v[TC_END_AT].null &&
      r->v[TC_END_AT].i < r->v[TC_START_AT].i) {
    return ERR("triggers.end_at: %lld is before start_at %lld",
               (long long)r->v[TC_END_AT].i, (long long)r->v[TC_START_AT].i);
  }
  return trg_spec(c, r, spec, err);
}

/* ---- lifecycle ------------------------------------------------------- */

i64 trg_jitter(const char *trigger_id, i64 occurrence, i64 jitter_ms) {
  if (jitter_ms <= 1) return 0;
  char buf[32];
  unsigned char d[32];
  sha256_ctx h;
  sha256_init(&h);
  sha256_update(&h, trigger_id, strlen(trigger_id) + 1);
  snprintf(buf, sizeof buf, "%lld", (long long)occurrence);
  sha256_update(&h, buf, strlen(buf));
  sha256_final(&h, d);
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x = (x << 8) | d[i];
  return (i64)(x % (uint64_t)jitter_ms);
}

void trg_set_next(trg_row *r, int has_next, i64 next) {
  if (!has_next) {
    val_set_null(&r->v[TC_NEXT_DUE_AT]);
    val_set_null(&r->v[TC_FIRE_AT]);
    return;
  }
  val_set_int(&r->v[TC_NEXT_DUE_AT], next);
  i64 j = r->v[TC_JITTER_MS].null ? 0 : r->v[TC_JITTER_MS].i;
  val_set_int(&r->v[TC_FIRE_AT],
              next + trg_jitter(val_text(&r->v[TC_TRIGGER_ID]), next, j));
}

static void set_status(trg_row *r, const char *st) {
  val_set_text(&r->v[TC_STATUS], st);
}

int trg_is_active(const trg_row *r) {
  const char *st = val_text(&r->v[TC_STATUS]);
  return strcmp(st, "scheduled") == 0 || strcmp(st, "paused") == 0;
}

/* No occurrence left: completed once nothing is in flight. */
static void set_exhausted(trg_row *r) {
  trg_set_next(r, 0, 0);
  set_status(r, "completed");
}

void trg_arm(trg_row *r, const sched_spec *spec, i64 now) {
  if (!r->v[TC_ENABLED].i) {
    trg_pause(r);
    return;
  }
  i64 next;
  if (!r->v[TC_MAX_RUNS].null && r->v[TC_CLAIMS].i >= r->v[TC_MAX_RUNS].i) {
    set_exhausted(r);
  } else if (sched_first(spec, now, &next)) {
    set_status(r, "scheduled");
    trg_set_next(r, 1, next);
  } else {
    set_exhausted(r);
  }
}

void trg_pause(trg_row *r) {
  val_set_int(&r->v[TC_ENABLED], 0);
  set_status(r, "paused");
  trg_set_next(r, 0, 0);
}

void trg_resume(trg_row *r, const sched_spec *spec, i64 now) {
  val_set_int(&r->v[TC_ENABLED], 1);
  i64 next;
  if (!r->v[TC_MAX_RUNS].null && r->v[TC_CLAIMS].i >= r->v[TC_MAX_RUNS].i) {
    set_exhausted(r);
  } else if (sched_next(spec, now, &next)) {
    set_status(r, "scheduled");
    trg_set_next(r, 1, next);
  } else if (spec->type == SCHED_ONCE && r->v[TC_CLAIMS].i == 0) {
    /* Its instant passed while paused: it will never run. */
    trg_set_next(r, 0, 0);
    set_status(r, "expired");
  } else {
    set_exhausted(r);
  }
}

int trg_dedupe(trg_row *r, const sched_spec *spec) {
  char canon[CRON_CANON_MAX], key[DEDUPE_KEY_LEN + 1];
  if (sched_canonical(spec, canon, sizeof canon) < 0) return SQLITE_ERROR;
  dedupe_key(val_text(&r->v[TC_INSTRUCTIONS]), val_text(&r->v[TC_TRIGGER_TYPE]),
             canon, val_text(&r->v[TC_SCOPE]), key);
  return val_set_text(&r->v[TC_DEDUPE_KEY], key);
}

int trg_find_duplicate(store *s, const trg_row *r, char **existing) {
  *existing = NULL;
  if (!trg_is_active(r) || r->v[TC_DEDUPE_KEY].null) return SQLITE_OK;
  sqlite3_stmt *st = store_stmt(s, ST_TRIG_DUPLICATE);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, val_text(&r->v[TC_AGENT_ID]), -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, val_text(&r->v[TC_DEDUPE_KEY]), -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, r->id);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *existing = sqlite3_mprintf("%s", sqlite3_column_text(st, 0));
    rc = *existing ? SQLITE_OK : SQLITE_NOMEM;
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  }
  sqlite3_reset(st);
  return rc;
}

/* ---- ids and JSON ---------------------------------------------------- */

int trg_default_id(store *s, trg_row *r, const sched_spec *spec) {
  char canon[CRON_CANON_MAX];
  if (sched_canonical(spec, canon, sizeof canon) < 0) canon[0] = 0;
  for (int seq = 0; seq < 1000; seq++) {
    sha256_ctx h;
    unsigned char d[32];
    char num[48], hex[17];
    const char *parts[] = {val_text(&r->v[TC_AGENT_ID]),
                           val_text(&r->v[TC_SCOPE]),
                           val_text(&r->v[TC_INSTRUCTIONS]),
                           val_text(&r->v[TC_TRIGGER_TYPE]), canon};
    sha256_init(&h);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
      sha256_update(&h, parts[i], strlen(parts[i]) + 1);
    }
    snprintf(num, sizeof num, "%lld/%d", (long long)r->v[TC_CREATED_AT].i, seq);
    sha256_update(&h, num, strlen(num));
    sha256_final(&h, d);
    sha256_hex(d, 8, hex);
    char id[24];
    snprintf(id, sizeof id, "trg-%s", hex);
    sqlite3_stmt *st = store_stmt(s, ST_TRIG_EXISTS);
    if (!st) return store_err(s);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) return val_set_text(&r->v[TC_TRIGGER_ID], id);
    if (rc != SQLITE_ROW) return rc;
  }
  return SQLITE_CONSTRAINT_UNIQUE;
}

/* Bytes that stand as themselves inside a JSON string. */
static int json_plain(unsigned char ch) {
  return ch >= 0x20 && ch != '"' && ch != '\\';
}

/* How byte ch is written inside a JSON string: NULL as itself, else its
** escape (\u00XX ones are formatted into buf). */
static const char *json_escape(unsigned char ch, char buf[8]) {
  if (json_plain(ch)) return NULL;
  switch (ch) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: {
      static const char hex[] = "0123456789abcdef";
      memcpy(buf, "\\u00", 4);
      buf[4] = hex[ch >> 4];
      buf[5] = hex[ch & 15];
      buf[6] = 0;
      return buf;
    }
  }
}

void json_str(sqlite3_str *out, const char *s) {
  if (!s) {
    sqlite3_str_appendall(out, "null");
    return;
  }
  sqlite3_str_appendchar(out, 1, '"');
  const char *run = s;
  char buf[8];
  for (; *s; s++) {
    if (json_plain((unsigned char)*s)) continue;
    const char *esc = json_escape((unsigned char)*s, buf);
    sqlite3_str_append(out, run, (int)(s - run));
    sqlite3_str_appendall(out, esc);
    run = s + 1;
  }
  sqlite3_str_append(out, run, (int)(s - run));
  sqlite3_str_appendchar(out, 1, '"');
}

size_t json_quoted_len(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  size_t n = 2;
  char buf[8];
  for (; *p; p++) n += json_plain(*p) ? 1 : strlen(json_escape(*p, buf));
  return n;
}

char *json_quote_to(char *dst, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  char buf[8];
  *dst++ = '"';
  while (*p) {
    const unsigned char *run = p;
    while (json_plain(*p)) p++;
    memcpy(dst, run, (size_t)(p - run));
    dst += p - run;
    if (!*p) break;
    const char *esc = json_escape(*p++, buf);
    size_t n = strlen(esc);
    /* not a C string: the quoted text has no NUL (see trigger.h) */
    memcpy(dst, esc, n); /* NOLINT(bugprone-not-null-terminated-result) */
    dst += n;
  }
  *dst++ = '"';
  return dst;
}

/* JSON object of the first n values, named by cols. */
/* The decimal digits of x into buf (no NUL); their count. */
static int fmt_int(char *buf, long long x) {
  char tmp[24];
  int n = 0, k = 0;
  unsigned long long u =
      x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (x < 0) buf[k++] = '-';
  while (n) buf[k++] = tmp[--n];
  return k;
}

static void vals_json(sqlite3_str *out, const trg_coldef *cols,
                      const trg_val *v, int n) {
  /* One append per member, formatted here: sqlite3_str_appendf and
  ** snprintf cost more than the rest of trigger_run_finish's answer (a
  ** host reports every run). Column names are short ASCII constants. */
  char buf[96];
  for (int i = 0; i < n; i++) {
    size_t len = strlen(cols[i].name), k = 0;
    if (len > sizeof buf - 32) len = sizeof buf - 32; /* never: names */
    buf[k++] = i ? ',' : '{';
    buf[k++] = '"';
    /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): not a string */
    memcpy(buf + k, cols[i].name, len);
    k += len;
    buf[k++] = '"';
    buf[k++] = ':';
    if (v[i].null) {
      /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): not a string */
      memcpy(buf + k, "null", 4);
      k += 4;
    } else if (cols[i].kind != 'J' && cols[i].kind != 'T') {
      k += (size_t)fmt_int(buf + k, (long long)v[i].i);
    }
    sqlite3_str_append(out, buf, (int)k);
    if (v[i].null) continue;
    if (cols[i].kind == 'J') sqlite3_str_appendall(out, v[i].t);
    else if (cols[i].kind == 'T') json_str(out, v[i].t);
  }
  sqlite3_str_appendchar(out, 1, n ? '}' : '{');
  if (!n) sqlite3_str_appendchar(out, 1, '}');
}

void trg_json(sqlite3_str *out, const trg_row *r) {
  vals_json(out, trg_cols, r->v, TC_NPUBLIC);
}

void run_json(sqlite3_str *out, const run_row *run) {
  vals_json(out, run_cols, run->v, RC_NPUBLIC);
}
