/*
** fn_ical.c -- trigger_ical([options]): the schedule as an iCalendar
** (RFC 5545) text a calendar app subscribes to (docs/ical.md).
**
**   SELECT trigger_ical();                       -- now .. now + 60 days
**   SELECT trigger_ical('{"agents":["ops"],"scope":"room-1",
**                         "from":"2026-03-01T00:00:00Z",
**                         "to":"2026-04-01T00:00:00Z","runs":true}');
**
** One VEVENT per active (scheduled) trigger with an occurrence in the
** range [from, to), in trigger_id order (time/ical_event.h says its
** form), a VTIMEZONE per zone a DTSTART names, and with "runs":true one
** VEVENT per run finished in the range (its status, result or error in
** the DESCRIPTION). UIDs are `<trigger_id>@sqlite-triggers` and
** `<run_id>@sqlite-triggers`, the same in every call; DTSTAMP is the
** trigger's updated_at (a run's finished_at), so a call over the same
** rows and range returns the same bytes. Options are checked first:
** an unknown key, a value of the wrong type, `to` not after `from` or a
** range past ICAL_RANGE_MAX_MS is an error naming it.
*/
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "store/ical.h"
#include "store/json.h"
#include "store/schema.h"
#include "text/ical_write.h"
#include "time/describe.h"
#include "time/ical_event.h"
#include "time/ical_zone.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

#define DAY_MS 86400000LL
#define ICAL_RANGE_DEFAULT_MS (60 * DAY_MS)
#define ICAL_RANGE_MAX_MS (366 * DAY_MS)
#define ICAL_RUNS_MAX 10000    /* runs in one feed, the oldest first */
#define ICAL_RUN_TEXT_MAX 1000 /* bytes of a run's result or error shown */

typedef struct ical_opts {
  char *agents, *scope; /* sqlite3_malloc'd; NULL: any */
  i64 from, to;
  int runs;
} ical_opts;

/* ---- options ------------------------------------------------------------ */

/* One member of the options object into o: SQLITE_OK, or an error with
** *err naming it. *have_from / *have_to note the instants given. */
static int ical_option(const store_json_member *m, ical_opts *o, int *have_from,
                       int *have_to, char **err) {
  const char *k = m->key, *t = m->type;
  char buf[TRG_ECHO_MAX];
  if (strcmp(k, "agents") == 0 && strcmp(t, "array") == 0) {
    sqlite3_free(o->agents);
    o->agents = sqlite3_mprintf("%s", m->json);
    return o->agents ? SQLITE_OK : SQLITE_NOMEM;
  }
  if (strcmp(k, "scope") == 0 && strcmp(t, "text") == 0) {
    sqlite3_free(o->scope);
    o->scope = sqlite3_mprintf("%s", m->text);
    return o->scope ? SQLITE_OK : SQLITE_NOMEM;
  }
  if (strcmp(k, "runs") == 0 &&
      (strcmp(t, "true") == 0 || strcmp(t, "false") == 0)) {
    o->runs = t[0] == 't';
    return SQLITE_OK;
  }
  int is_from = strcmp(k, "from") == 0;
  if ((is_from || strcmp(k, "to") == 0) &&
      (strcmp(t, "text") == 0 || strcmp(t, "integer") == 0)) {
    *(is_from ? have_from : have_to) = 1;
    return trg_instant_of(m->value, 0, is_from ? "options.from" : "options.to",
                          is_from ? &o->from : &o->to, err);
  }
  return trg_errf(err,
                  "argument 1 (options): %s: unknown key or wrong type "
                  "(known: agents, an array of agent ids; scope, text; "
                  "from and to, instants; runs, true or false)",
                  trg_echo(k, buf));
}

/* The options object (NULL: none) into o, with the range's defaults:
** from now, to 60 days after from. */
static int ical_options(store *s, sqlite3_value *arg, ical_opts *o,
                        char **err) {
  int have_from = 0, have_to = 0;
  if (arg && sqlite3_value_type(arg) != SQLITE_NULL) {
    const char *json;
    int ob = 0;
    int rc = trg_value_text(arg, 1, "argument 1 (options)", &json, err);
    if (rc != SQLITE_OK) return rc;
    rc = json ? store_json_is_object(s, json, &ob) : SQLITE_OK;
    if (rc != SQLITE_OK) return rc;
    if (!ob) return trg_errf(err, "argument 1 (options) must be a JSON object");
    store_json_each it;
    rc = store_json_each_open(s, json, &it);
    while (rc == SQLITE_OK && (rc = store_json_each_next(&it)) == SQLITE_ROW) {
      rc = ical_option(&it.m, o, &have_from, &have_to, err);
    }
    store_json_each_close(&it);
    if (rc != SQLITE_DONE) return rc;
  }
  if (!have_from) o->from = trg_wall_clock_ms();
  if (!have_to) o->to = o->from + ICAL_RANGE_DEFAULT_MS;
  if (o->to <= o->from)
    return trg_errf(err, "argument 1 (options): to must be after from");
  if (o->to - o->from > ICAL_RANGE_MAX_MS)
    return trg_errf(err, "argument 1 (options): the range from .. to is "
                         "longer than 366 days");
  return SQLITE_OK;
}

/* ---- the calendar --------------------------------------------------------- */

/* The writer's sink: a sqlite3_str (0, or its error code). */
static int str_sink(void *arg, const char *bytes, size_t n) {
  sqlite3_str_append(arg, bytes, (int)n);
  return sqlite3_str_errcode(arg);
}

/* The zones named by TZID, each once. */
typedef struct zone_item {
  const tz_zone *zone;
  i64 from; /* the earliest instant a TZID value names */
} zone_item;
typedef struct zone_list {
  zone_item *z;
  int n, cap;
} zone_list;

static int zone_note(zone_list *l, const tz_zone *z, i64 from) {
  for (int i = 0; i < l->n; i++) {
    if (l->z[i].zone != z) continue;
    if (from < l->z[i].from) l->z[i].from = from;
    return SQLITE_OK;
  }
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 8;
    zone_item *g = sqlite3_realloc64(l->z, (sqlite3_uint64)cap * sizeof *g);
    if (!g) return SQLITE_NOMEM;
    l->z = g;
    l->cap = cap;
  }
  l->z[l->n].zone = z;
  l->z[l->n++].from = from;
  return SQLITE_OK;
}

/* A trigger's DESCRIPTION: the schedule in words, its agent and scope. */
static char *trigger_description(const trg_row *r, const sched_spec *spec) {
  char words[DESCRIBE_MAX];
  if (describe_schedule(spec, words, sizeof words) < 0) words[0] = 0;
  const char *agent = trg_val_text(&r->v[TC_AGENT_ID]);
  const char *scope = trg_val_text(&r->v[TC_SCOPE]);
  return sqlite3_mprintf(
      "%s\ntrigger: %s%s%s%s%s", words, trg_val_text(&r->v[TC_TRIGGER_ID]),
      *agent ? "\nagent: " : "", agent, *scope ? "\nscope: " : "", scope);
}

/* One trigger's VEVENT, when its row reads as a schedule (a row changed
** outside the extension into one that does not is left out, as the
** tick leaves it). */
static int trigger_event(trg_ctx *c, store *s, trg_row *r, const ical_opts *o,
                         rrule_set *scratch, ical_writer *w, zone_list *zones) {
  sched_spec spec;
  char *verr = NULL;
  int rc =
      trigger_check(c, s, r, &spec, 0, TRIGGER_STORED | TRIGGER_NO_JSON, &verr);
  sqlite3_free(verr);
  if (rc != SQLITE_OK) return rc == SQLITE_NOMEM ? rc : SQLITE_OK;
  char *desc = trigger_description(r, &spec);
  if (!desc) return SQLITE_NOMEM;
  const char *name = trg_val_text(&r->v[TC_DISPLAY_NAME]);
  const trg_val *stamp = &r->v[TC_UPDATED_AT];
  ical_event e = {trg_val_text(&r->v[TC_TRIGGER_ID]),
                  *name ? name : trg_val_text(&r->v[TC_TRIGGER_ID]),
                  desc,
                  stamp->null ? r->v[TC_CREATED_AT].i : stamp->i,
                  &spec,
                  o->from,
                  o->to,
                  scratch};
  i64 zoned_from = INT64_MAX;
  ical_event_write(w, &e, &zoned_from);
  sqlite3_free(desc);
  return zoned_from != INT64_MAX ? zone_note(zones, spec.zone, zoned_from)
                                 : SQLITE_OK;
}

/* A finished run's VEVENT: from its claim (or its due time) to its end. */
static int run_event(const store_ical_run *run, ical_writer *w) {
  i64 start = run->has_claimed ? run->claimed_at : run->scheduled_for;
  if (start > run->finished_at) start = run->finished_at;
  const char *detail = run->error ? run->error : run->result;
  char *summary = sqlite3_mprintf(
      "%s: %s", run->display_name ? run->display_name : run->trigger_id,
      run->status);
  char *desc = sqlite3_mprintf("status: %s\ntrigger: %s%s%.*s", run->status,
                               run->trigger_id,
                               !detail      ? ""
                               : run->error ? "\nerror: "
                                            : "\nresult: ",
                               ICAL_RUN_TEXT_MAX, detail ? detail : "");
  int rc = summary && desc ? SQLITE_OK : SQLITE_NOMEM;
  if (rc == SQLITE_OK) {
    ical_line(w, "BEGIN", "VEVENT");
    ical_uid_line(w, "UID", run->run_id);
    ical_utc_line(w, "DTSTAMP", run->finished_at);
    ical_utc_line(w, "DTSTART", start);
    if (run->finished_at / 1000 > start / 1000)
      ical_utc_line(w, "DTEND", run->finished_at);
    ical_line_text(w, "SUMMARY", summary);
    ical_line_text(w, "DESCRIPTION", desc);
    ical_uid_line(w, "RELATED-TO", run->trigger_id);
    ical_line(w, "END", "VEVENT");
  }
  sqlite3_free(summary);
  sqlite3_free(desc);
  return rc;
}

/* The events: the triggers', then the runs'. */
static int events(trg_ctx *c, store *s, const ical_opts *o, ical_writer *w,
                  zone_list *zones) {
  store_ical_filter f = {o->agents, o->scope};
  store_cursor cur;
  trg_row r;
  rrule_set *scratch = sqlite3_malloc(sizeof *scratch);
  if (!scratch) return SQLITE_NOMEM;
  trg_row_init(&r);
  int rc = store_ical_triggers(s, &f, &cur);
  while (rc == SQLITE_OK && !w->err &&
         (rc = store_ical_trigger_next(&cur, &r)) == SQLITE_ROW) {
    rc = trigger_event(c, s, &r, o, scratch, w, zones);
  }
  store_cursor_close(&cur);
  trg_row_clear(&r);
  sqlite3_free(scratch);
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc != SQLITE_OK || !o->runs) return rc;
  store_ical_run run;
  rc = store_ical_runs(s, &f, o->from, o->to, ICAL_RUNS_MAX, &cur);
  while (rc == SQLITE_OK && !w->err &&
         (rc = store_ical_run_next(&cur, &run)) == SQLITE_ROW) {
    rc = run_event(&run, w);
  }
  store_cursor_close(&cur);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The whole calendar: its header, the zones, the events. */
static int calendar(trg_ctx *c, store *s, const ical_opts *o,
                    sqlite3_str *out) {
  sqlite3_str *body = sqlite3_str_new(NULL);
  zone_list zones = {NULL, 0, 0};
  ical_writer w;
  ical_writer_init(&w, str_sink, body);
  int rc = events(c, s, o, &w, &zones);
  if (rc == SQLITE_OK) rc = w.err;
  ical_writer_init(&w, str_sink, out);
  ical_line(&w, "BEGIN", "VCALENDAR");
  ical_line(&w, "VERSION", "2.0");
  ical_line(&w, "PRODID",
            "-//sqlite-triggers//trigger_ical " TRIGGERS_VERSION "//EN");
  ical_line(&w, "CALSCALE", "GREGORIAN");
  for (int i = 0; rc == SQLITE_OK && i < zones.n; i++) {
    ical_vtimezone(&w, zones.z[i].zone, tz_name(zones.z[i].zone),
                   o->from / 1000, o->to / 1000 + 1);
  }
  if (rc == SQLITE_OK) rc = sqlite3_str_errcode(body);
  char *text = sqlite3_str_finish(body); /* NULL when empty */
  if (text) sqlite3_str_appendall(out, text);
  sqlite3_free(text);
  sqlite3_free(zones.z);
  ical_line(&w, "END", "VCALENDAR");
  return rc == SQLITE_OK ? w.err : rc;
}

static void fn_ical(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *fname = "trigger_ical";
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  if (store_require_installed(ctx, fname) != 0) return;
  store s;
  ical_opts o;
  char *err = NULL;
  memset(&o, 0, sizeof o);
  store_init(&s, db);
  int rc = ical_options(&s, argc > 0 ? argv[0] : NULL, &o, &err);
  sqlite3_str *out = sqlite3_str_new(db);
  if (rc == SQLITE_OK) rc = calendar(sqlite3_user_data(ctx), &s, &o, out);
  store_close(&s);
  sqlite3_free(o.agents);
  sqlite3_free(o.scope);
  if (rc != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(out));
    trg_result_error(ctx, rc, fname, "%s", err ? err : trg_errmsg(db, rc));
    sqlite3_free(err);
    return;
  }
  trg_result_str(ctx, out);
}

int sql_fn_ical_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_ical", 0, 1, TRG_FN_SIDE, fn_ical},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
