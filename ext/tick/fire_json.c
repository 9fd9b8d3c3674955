/*
** fire_json.c -- see fire_json.h. A fire's texts were a tenth of its cost
** when each was built by sqlite3_str with its own allocations and every
** string escaped again for each text (bench/README.md): here the row's
** strings are quoted once (row_json, cached on the row), and each text is
** measured, then copied piece by piece into one arena allocation.
*/
#include "tick/fire_json.h"

#include <string.h>

#include "text/json_write.h"

SQLITE_EXTENSION_INIT3

/* The row's texts that the run texts quote. */
enum {
  Q_TRIGGER_ID,
  Q_AGENT_ID,
  Q_INSTRUCTIONS,
  Q_WAKE_MODE,
  Q_NAME,
  Q_SCOPE,
  Q_ACTION_SQL,
  Q_N
};
static const int quoted_col[Q_N] = {
    TC_TRIGGER_ID,   TC_AGENT_ID, TC_INSTRUCTIONS, TC_WAKE_MODE,
    TC_DISPLAY_NAME, TC_SCOPE,    TC_ACTION_SQL};

typedef struct piece {
  const char *p;
  size_t n;
} piece;

struct row_json {
  piece q[Q_N]; /* JSON string literals of quoted_col (NULL is "") */
};

/* s as a JSON string literal in a. A text with nothing to escape (the
** common case) is scanned once and copied, not measured then quoted. */
static int quote(arena *a, const char *s, piece *out) {
  size_t plain = json_plain_span(s);
  if (!s[plain]) {
    char *p = trg_arena_alloc(a, plain + 2);
    if (!p) return SQLITE_NOMEM;
    p[0] = '"';
    memcpy(p + 1, s, plain);
    p[plain + 1] = '"';
    out->p = p;
    out->n = plain + 2;
    return SQLITE_OK;
  }
  size_t n = json_quoted_len(s);
  char *p = trg_arena_alloc(a, n);
  if (!p) return SQLITE_NOMEM;
  json_quote_to(p, s);
  out->p = p;
  out->n = n;
  return SQLITE_OK;
}

static const struct row_json *row_json_of(arena *a, trg_row *r) {
  if (r->json) return r->json;
  struct row_json *j = trg_arena_alloc(a, sizeof *j);
  for (int i = 0; j && i < Q_N; i++) {
    if (quote(a, trg_val_text(&r->v[quoted_col[i]]), &j->q[i]) != SQLITE_OK)
      j = NULL;
  }
  return r->json = j;
}

static piece lit(const char *s) {
  piece p = {s, strlen(s)};
  return p;
}

/* Decimal digits of v into buf[24]. */
static piece num(i64 v, char *buf) {
  piece p = {buf, (size_t)json_int_digits(buf, (long long)v)};
  return p;
}

/* The pieces joined, NUL-terminated, in a. */
static char *join(arena *a, const piece *ps, int n) {
  size_t total = 1;
  for (int i = 0; i < n; i++) total += ps[i].n;
  char *out = trg_arena_alloc(a, total), *p = out;
  if (!out) return NULL;
  for (int i = 0; i < n; i++) {
    memcpy(p, ps[i].p, ps[i].n);
    p += ps[i].n;
  }
  *p = 0;
  return out;
}

char *tick_fire_run_id(arena *a, const char *trigger_id, i64 incarnation,
                       i64 sched, i64 attempt) {
  char b1[24], b2[24], b3[24];
  const piece ps[] = {lit(trigger_id),  lit("@"), num(sched, b1),      lit("#"),
                      num(attempt, b2), lit("~"), num(incarnation, b3)};
  /* Incarnation 1 (every trigger whose id was never re-created) leaves
  ** out the suffix: the ids of version 3 and before stay valid. */
  int n = (int)(sizeof ps / sizeof ps[0]) - (incarnation > 1 ? 0 : 2);
  return join(a, ps, n);
}

/* An event trigger's "event" member (docs/reactive.md), with its leading
** comma, into *out: the pending signals ({"key","payload","at","count"}),
** or {"timeout":true} for the occurrence at its timeout; none (empty)
** otherwise (a run-now of a trigger not signalled). */
static int event_member(arena *a, const trg_row *r, i64 sched, piece *out) {
  out->p = "";
  out->n = 0;
  if (strcmp(trg_val_text(&r->v[TC_TRIGGER_TYPE]), "event") != 0)
    return SQLITE_OK;
  i64 count = r->v[TC_EVENT_COUNT].i;
  if (count <= 0) {
    const trg_val *timeout = &r->v[TC_SCHEDULED_AT];
    if (!timeout->null && timeout->i == sched)
      *out = lit(",\"event\":{\"timeout\":true}");
    return SQLITE_OK;
  }
  piece key;
  if (quote(a, trg_val_text(&r->v[TC_EVENT_KEY]), &key) != SQLITE_OK)
    return SQLITE_NOMEM;
  const trg_val *pl = &r->v[TC_EVENT_PAYLOAD];
  char b1[24], b2[24];
  const piece ps[] = {lit(",\"event\":{\"key\":"),
                      key,
                      lit(",\"payload\":"),
                      lit(pl->null ? "null" : pl->t),
                      lit(",\"at\":"),
                      num(r->v[TC_EVENT_AT].i, b1),
                      lit(",\"count\":"),
                      num(count, b2),
                      lit("}")};
  char *p = join(a, ps, (int)(sizeof ps / sizeof ps[0]));
  if (!p) return SQLITE_NOMEM;
  *out = lit(p);
  return SQLITE_OK;
}

char *tick_fire_payload(arena *a, trg_row *r, const char *run_id, i64 sched) {
  const struct row_json *j = row_json_of(a, r);
  piece id, event;
  if (!j || quote(a, run_id, &id) != SQLITE_OK ||
      event_member(a, r, sched, &event) != SQLITE_OK)
    return NULL;
  char b[24];
  piece ps[] = {lit("{\"text\":"),
                j->q[Q_INSTRUCTIONS],
                lit(",\"source\":\"trigger\",\"triggerId\":"),
                j->q[Q_TRIGGER_ID],
                lit(",\"triggerRunId\":"),
                id,
                lit(",\"wakeMode\":"),
                j->q[Q_WAKE_MODE],
                lit(",\"displayName\":"),
                j->q[Q_NAME],
                lit(",\"scope\":"),
                j->q[Q_SCOPE],
                lit(",\"scheduledFor\":"),
                num(sched, b),
                event,
                lit(",\"actionSql\":"),
                j->q[Q_ACTION_SQL],
                lit("}")};
  int n = (int)(sizeof ps / sizeof ps[0]);
  if (r->v[TC_ACTION_SQL].null) { /* actionSql: a SQL job's only */
    ps[n - 3] = ps[n - 1];
    n -= 2;
  }
  return join(a, ps, n);
}

/* The run's own text of column rc: the row's quote when the run borrows
** the row's very string (a run made by the tick), else quoted in a. */
static int run_quoted(arena *a, const trg_run *run, int rc,
                      const struct row_json *j, const trg_row *r, int q,
                      piece *out) {
  if (run->v[rc].t && run->v[rc].t == r->v[quoted_col[q]].t) {
    *out = j->q[q];
    return SQLITE_OK;
  }
  return quote(a, trg_val_text(&run->v[rc]), out);
}

int tick_fire_element(arena *a, sqlite3_str *out, const trg_run *run,
                      trg_row *r) {
  const struct row_json *j = row_json_of(a, r);
  piece id, tid, agent;
  if (!j || quote(a, trg_val_text(&run->v[RC_RUN_ID]), &id) != SQLITE_OK ||
      run_quoted(a, run, RC_TRIGGER_ID, j, r, Q_TRIGGER_ID, &tid) !=
          SQLITE_OK ||
      run_quoted(a, run, RC_AGENT_ID, j, r, Q_AGENT_ID, &agent) != SQLITE_OK)
    return SQLITE_NOMEM;
  char b1[24], b2[24];
  piece ps[] = {lit("{\"run_id\":"),
                id,
                lit(",\"trigger_id\":"),
                tid,
                lit(",\"agent_id\":"),
                agent,
                lit(",\"scheduled_for\":"),
                num(run->v[RC_SCHEDULED_FOR].i, b1),
                lit(",\"attempt\":"),
                num(run->v[RC_ATTEMPT].i, b2),
                lit(",\"wake_mode\":"),
                j->q[Q_WAKE_MODE],
                lit(",\"instructions\":"),
                j->q[Q_INSTRUCTIONS],
                lit(",\"payload\":"),
                lit(trg_val_text(&run->v[RC_PAYLOAD])),
                lit(",\"action_sql\":"),
                j->q[Q_ACTION_SQL],
                lit("}")};
  size_t n = sizeof ps / sizeof ps[0];
  if (r->v[TC_ACTION_SQL].null) { /* action_sql: a SQL job's only */
    ps[n - 3] = ps[n - 1];
    n -= 2;
  }
  /* joined on the stack first when short: one append, not one a piece */
  char buf[1024];
  size_t len = 0;
  for (size_t i = 0; i < n; i++) len += ps[i].n;
  if (len >= sizeof buf) {
    for (size_t i = 0; i < n; i++)
      sqlite3_str_append(out, ps[i].p, (int)ps[i].n);
    return SQLITE_OK;
  }
  char *p = buf;
  for (size_t i = 0; i < n; i++) {
    memcpy(p, ps[i].p, ps[i].n);
    p += ps[i].n;
  }
  sqlite3_str_append(out, buf, (int)len);
  return SQLITE_OK;
}
