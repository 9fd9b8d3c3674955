/*
** fn_when.c -- trigger_parse_when(phrase [, now [, tz]]): an English time
** phrase read by the when module (ext/time/when.h, docs/when.md), as the
** JSON of docs/when.md#calling-it; trigger_find_when(text [, now [, tz]]):
** the same for the phrase found inside a message, plus "phrase", "span"
** (code points) and "rest".
**
**   SELECT trigger_parse_when('tomorrow at 9am', '2025-03-08T15:00:00Z',
**                             'America/New_York');
**   -- {"kind":"once","due_at":1741525200000,
**   --  "due_at_iso":"2025-03-09T09:00:00-04:00","interval_ms":null,
**   --  "cron":null,"tz":"America/New_York","confidence":0.95,"implied":[],
**   --  "flags":[],"matched":"tomorrow at 9am","reason":null}
**
** now: INTEGER ms or ISO-8601 text; NULL or absent reads the wall clock
** (so the function is not DETERMINISTIC). tz: an IANA name, default UTC.
** A phrase that is vague, past or not understood is not an SQL error: it
** gives kind null, confidence 0 and a reason. A NULL phrase gives NULL.
** Argument errors are SQL errors naming the argument.
*/
#include "base/args.h"
#include "base/json_out.h"
#include "base/register.h"
#include "store/config.h"
#include "time/civil.h"
#include "time/when.h"

SQLITE_EXTENSION_INIT3

static void json_tags(sqlite3_str *out, const char *key,
                      const char *const *tags, int n) {
  sqlite3_str_appendf(out, ",\"%s\":[", key);
  for (int i = 0; i < n; i++) {
    if (i) sqlite3_str_appendchar(out, 1, ',');
    json_str(out, tags[i]);
  }
  sqlite3_str_appendchar(out, 1, ']');
}

static void json_i64_or_null(sqlite3_str *out, const char *key, int has,
                             i64 v) {
  if (has) sqlite3_str_appendf(out, ",\"%s\":%lld", key, (long long)v);
  else sqlite3_str_appendf(out, ",\"%s\":null", key);
}

/* A rule that excepts holidays names config default_calendar's calendar
** (docs/when.md#calendar-rules): *cal (sqlite3_free it), or, with none
** set, the reading refused: a schedule that runs on holidays would be a
** confident wrong answer. */
static void when_calendar(sqlite3 *db, when_result *r, char **cal) {
  *cal = NULL;
  if (r->kind != WHEN_RRULE || !r->holidays) return;
  store s;
  store_init(&s, db);
  *cal = store_config_get(&s, "default_calendar");
  store_close(&s);
  if (*cal && **cal) return;
  sqlite3_free(*cal);
  *cal = NULL;
  sqlite3_snprintf(sizeof r->reason, r->reason,
                   "'%s' excepts holidays, and no holiday calendar is set: "
                   "set config default_calendar",
                   r->matched);
  r->kind = WHEN_NONE;
  r->confidence = 0;
  r->n_implied = r->n_flags = 0;
}

/* docs/when.md#calling-it: every key present, null where it does not
** apply. The object is left open for trigger_find_when's keys. */
static void when_json(sqlite3_str *out, const when_result *r, const tz_zone *z,
                      const char *cal) {
  int ok = r->kind != WHEN_NONE;
  sqlite3_str_appendall(out, "{\"kind\":");
  json_str(out, when_kind_name(r->kind));
  json_i64_or_null(out, "due_at", ok, r->due_at);
  sqlite3_str_appendall(out, ",\"due_at_iso\":");
  if (ok) {
    char iso[CIVIL_ISO_MAX];
    i64 s = civil_floor_div(r->due_at, 1000);
    civil_format_iso(r->due_at, tz_offset_at(z, s), z == tz_utc(), iso);
    json_str(out, iso);
  } else {
    sqlite3_str_appendall(out, "null");
  }
  json_i64_or_null(out, "interval_ms", r->kind == WHEN_INTERVAL,
                   r->interval_ms);
  sqlite3_str_appendall(out, ",\"cron\":");
  json_str(out, r->kind == WHEN_CRON ? r->cron : NULL);
  int rule = r->kind == WHEN_RRULE;
  sqlite3_str_appendall(out, ",\"rrule\":");
  json_str(out, rule ? r->rrule : NULL);
  json_i64_or_null(out, "start_at", rule, r->start_at);
  sqlite3_str_appendall(out, ",\"calendar\":");
  json_str(out, rule ? cal : NULL);
  sqlite3_str_appendall(out, ",\"tz\":");
  json_str(out, r->tz);
  sqlite3_str_appendf(out, ",\"confidence\":%.2f", r->confidence);
  json_tags(out, "implied", r->implied, r->n_implied);
  json_tags(out, "flags", r->flags, r->n_flags);
  sqlite3_str_appendall(out, ",\"matched\":");
  json_str(out, ok ? r->matched : NULL);
  sqlite3_str_appendall(out, ",\"reason\":");
  json_str(out, ok ? NULL : r->reason);
}

/* Arguments 2 and 3 (now, tz) of both functions. 0 or -1 (error set). */
static int when_args(sqlite3_context *ctx, const char *fname, int argc,
                     sqlite3_value **argv, i64 *now, const tz_zone **z) {
  if (trg_arg_instant(ctx, fname, argc, argv, 1, "now", 1, now) != 0) return -1;
  return trg_arg_zone(ctx, fname, argc, argv, 2, "UTC", z, NULL);
}

static void fn_parse_when(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  const char *fname = "trigger_parse_when";
  const tz_zone *z;
  i64 now;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  const char *phrase = trg_arg_text(ctx, fname, argv, 0, "phrase");
  if (!phrase) return;
  if (when_args(ctx, fname, argc, argv, &now, &z) != 0) return;
  when_result r;
  char *cal;
  when_parse(phrase, now, z, &r);
  when_calendar(sqlite3_context_db_handle(ctx), &r, &cal);
  sqlite3_str *out = sqlite3_str_new(sqlite3_context_db_handle(ctx));
  when_json(out, &r, z, cal);
  sqlite3_free(cal);
  sqlite3_str_appendchar(out, 1, '}');
  trg_result_str(ctx, out);
}

/* trigger_find_when(text [, now [, tz]]): trigger_parse_when's keys for the
** best phrase in text, plus "phrase" (as written in text), "span" ([start,
** end) in code points) and "rest" (text without it); all three null when
** no phrase was found. */
static void fn_find_when(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_find_when";
  const tz_zone *z;
  i64 now;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  const char *text = trg_arg_text(ctx, fname, argv, 0, "text");
  if (!text) return;
  size_t len = (size_t)sqlite3_value_bytes(argv[0]);
  if (when_args(ctx, fname, argc, argv, &now, &z) != 0) return;
  when_found f;
  char *rest = NULL;
  char *cal;
  int ok = when_find(text, len, now, z, &f) == 0;
  when_calendar(sqlite3_context_db_handle(ctx), &f.r, &cal);
  ok = ok && f.r.kind != WHEN_NONE;
  if (ok && !(rest = sqlite3_malloc64(len + 1))) {
    sqlite3_free(cal);
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_str *out = sqlite3_str_new(sqlite3_context_db_handle(ctx));
  when_json(out, &f.r, z, cal);
  sqlite3_free(cal);
  if (ok) {
    when_found_rest(text, len, &f, rest);
    sqlite3_str_appendf(out, ",\"phrase\":\"");
    sqlite3_str_append(out, text + f.start, (int)(f.end - f.start));
    sqlite3_str_appendf(out, "\",\"span\":[%lld,%lld],\"rest\":",
                        (long long)f.cp_start, (long long)f.cp_end);
    json_str(out, rest);
  } else {
    sqlite3_str_appendall(out, ",\"phrase\":null,\"span\":null,\"rest\":null");
  }
  sqlite3_str_appendchar(out, 1, '}');
  sqlite3_free(rest);
  trg_result_str(ctx, out);
}

int sql_fn_when_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_parse_when", 1, 3, TRG_FN_PURE, fn_parse_when},
      {"trigger_find_when", 1, 3, TRG_FN_PURE, fn_find_when},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
