/*
** events.c -- a tick call's events (events.h). A busy tick that
** completes many triggers writes as many events; written one by one as
** the triggers are processed (in due order, trigger ids at random) each
** would land on another leaf of the event log's trigger_id index, and on
** a freshly loaded, full index each would split one (bench/events_tick.c:
** 0.85x of the tick without events at 10k completions). Kept and written
** at the end of the call in trigger_id order, consecutive events share
** leaves: 10k events cost 74 ms instead of 110 ms on the bench data set.
*/
#include "tick/events.h"

#include <stdlib.h>
#include <string.h>

#include "store/event_rows.h"
#include "trigger/event.h"

SQLITE_EXTENSION_INIT3

typedef struct kept_event {
  store_event e;
  char *texts; /* one allocation: trigger_id, agent_id, scope */
  char *detail;
  int seq; /* kept order: ties keep it */
} kept_event;

struct tick_events {
  kept_event *v;
  int n, cap;
};

int tick_event_keep(tick *t, const trg_row *r, const char *before) {
  const char *kind;
  char *detail;
  int rc = trigger_event_of_change(r, before, t->by_app, &kind, &detail);
  if (rc != SQLITE_OK || !kind) return rc;
  tick_events *ev = t->events;
  if (!ev) {
    if (!(ev = t->events = sqlite3_malloc(sizeof *ev))) goto nomem;
    memset(ev, 0, sizeof *ev);
  }
  if (ev->n == ev->cap) {
    int cap = ev->cap ? 2 * ev->cap : 16;
    kept_event *v = sqlite3_realloc64(ev->v, (sqlite3_uint64)cap * sizeof *v);
    if (!v) goto nomem;
    ev->v = v;
    ev->cap = cap;
  }
  const char *tid = trg_val_text(&r->v[TC_TRIGGER_ID]);
  const char *agent = trg_val_text(&r->v[TC_AGENT_ID]);
  const char *scope = trg_val_text(&r->v[TC_SCOPE]);
  size_t a = strlen(tid) + 1, b = strlen(agent) + 1, c = strlen(scope) + 1;
  char *texts = sqlite3_malloc64(a + b + c);
  if (!texts) goto nomem;
  memcpy(texts, tid, a);
  memcpy(texts + a, agent, b);
  memcpy(texts + a + b, scope, c);
  kept_event *k = &ev->v[ev->n++];
  k->texts = texts;
  k->detail = detail;
  k->seq = ev->n;
  k->e = (store_event){t->now, texts + a, texts + a + b, texts,
                       kind,   NULL,      detail};
  return SQLITE_OK;
nomem:
  sqlite3_free(detail);
  return SQLITE_NOMEM;
}

static int by_trigger_id(const void *x, const void *y) {
  const kept_event *a = x, *b = y;
  int c = strcmp(a->e.trigger_id, b->e.trigger_id);
  return c ? c : a->seq - b->seq;
}

int tick_events_write(tick *t) {
  tick_events *ev = t->events;
  int rc = SQLITE_OK;
  if (!ev || !ev->n) return rc;
  qsort(ev->v, (size_t)ev->n, sizeof *ev->v, by_trigger_id);
  for (int i = 0; i < ev->n && rc == SQLITE_OK; i++)
    rc = store_event_append(t->call.st, &ev->v[i].e);
  tick_events_free(t);
  return rc;
}

void tick_events_free(tick *t) {
  tick_events *ev = t->events;
  if (!ev) return;
  for (int i = 0; i < ev->n; i++) {
    sqlite3_free(ev->v[i].texts);
    sqlite3_free(ev->v[i].detail);
  }
  sqlite3_free(ev->v);
  sqlite3_free(ev);
  t->events = NULL;
}
