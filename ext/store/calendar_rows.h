/*
** calendar_rows.h -- the days of the holiday calendars
** (docs/calendar.md#holidays-and-business-days): the rows of
** triggers_calendar that trigger_calendar_days shows and
** trigger_calendar_import fills, a calendar's days for a schedule, and
** the triggers that use a calendar.
*/
#ifndef TRIGGERS_CALENDAR_ROWS_H
#define TRIGGERS_CALENDAR_ROWS_H

#include "store/store.h"

/* Add a day ('YYYY-MM-DD') to a calendar; *added 0 when it already held
** that day (the row is kept as it was). *rowid: the new row's. */
int store_calendar_add(store *s, const char *calendar, const char *day,
                       const char *name, int *added, i64 *rowid);
/* The row `id`: SQLITE_ROW with its calendar, day and name copied
** (sqlite3_free them), SQLITE_DONE when there is none. */
int store_calendar_get(store *s, i64 id, char **calendar, char **day,
                       char **name);
int store_calendar_set(store *s, i64 id, const char *calendar, const char *day,
                       const char *name);
int store_calendar_remove(store *s, i64 id);
/* How many days the calendar holds. */
int store_calendar_count(store *s, const char *calendar, i64 *n);
/* Its first max days, ascending, as days since 1970-01-01; *n how many. */
int store_calendar_days(store *s, const char *calendar, int32_t *out, int max,
                        int *n);
/* The ids of the calendar's scheduled triggers: read with
** store_calendar_triggers_next (SQLITE_ROW with *id, then SQLITE_DONE). */
int store_calendar_triggers_open(store *s, const char *calendar,
                                 store_cursor *c);
int store_calendar_triggers_next(store_cursor *c, i64 *id);

#endif
