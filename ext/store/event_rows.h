/*
** event_rows.h -- the event log (triggers_events, read as trigger_events,
** docs/operations.md#the-event-log): one row appended per lifecycle change
** or create call, in the transaction of the change (pruned by prune.h).
*/
#ifndef TRIGGERS_STORE_EVENT_ROWS_H
#define TRIGGERS_STORE_EVENT_ROWS_H

#include "store/store.h"

typedef struct store_event {
  i64 at;
  const char *agent_id;   /* NULL: '' */
  const char *scope;      /* NULL: '' */
  const char *trigger_id; /* NULL when there is none (a refused create) */
  const char *kind;       /* created, duplicate, rejected, updated, ... */
  const char *code;       /* docs/create-action.md#error-codes, or NULL */
  const char *detail;     /* JSON object text, or NULL */
} store_event;

int store_event_append(store *s, const store_event *e);

#endif
