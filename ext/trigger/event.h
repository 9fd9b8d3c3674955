/*
** event.h -- what a change of a trigger is called in the event log
** (docs/operations.md#the-event-log) and the event written for it: the kind
** of a status change, and one row appended for a trigger row.
*/
#ifndef TRIGGERS_EVENT_H
#define TRIGGERS_EVENT_H

#include "store/store.h"

/* The kind of a change of status before -> after: paused (auto_paused
** when not asked for by the application, by_app 0: failures, a row
** quarantined), resumed, completed, expired, cancelled (static text);
** NULL when the status did not change or the change has no event of its
** own. */
const char *trigger_event_kind(const char *before, const char *after,
                               int by_app);

/* Append an event of kind about trigger r at `at`; code and detail (JSON
** object text) may be NULL. */
int trigger_event_write(store *s, const trg_row *r, const char *kind,
                        const char *code, const char *detail, i64 at);

/* The event of r's change of status from `before`: *kind (NULL: none,
** trigger_event_kind) and *detail, sqlite3_malloc'd JSON or NULL:
** auto_paused and expired keep r's last_error as detail.reason. */
int trigger_event_of_change(const trg_row *r, const char *before, int by_app,
                            const char **kind, char **detail);

#endif
