/*
** columns.h -- the layout of the shadow tables: each column of a trigger
** (store_trigger_cols) and of a run (store_run_cols) in row.h's order, and
** of an event (store_event_cols), with its kind and declared type; which of
** a trigger's two tables holds a column; and the pieces the store's
** statements are built from (column lists, the join of a trigger's two
** tables).
*/
#ifndef TRIGGERS_COLUMNS_H
#define TRIGGERS_COLUMNS_H

#include "base/triggers_int.h"

/* Column kinds: 'T' text, 'I' integer, 'S' instant (ms or ISO text),
** 'J' JSON object text. ro: computed, rejected on write. */
typedef struct store_coldef {
  const char *name;
  char kind;
  char ro;
  const char *decl; /* column type and constraint in the shadow table */
  /* A CHECK on the column's value (since version 6; NULL: none): what the
  ** tick's probes rely on, refused by SQLite at write time
  ** (docs/tables.md#changed-shadow-tables). */
  const char *check;
} store_coldef;
extern const store_coldef store_trigger_cols[TC_NCOL];
extern const store_coldef store_run_cols[RC_NCOL];
/* The columns of an event (docs/tables.md#the-trigger_events-table), all
** public. */
enum {
  EC_AT,
  EC_AGENT_ID,
  EC_SCOPE,
  EC_TRIGGER_ID,
  EC_KIND,
  EC_CODE,
  EC_DETAIL,
  EC_NCOL
};
extern const store_coldef store_event_cols[EC_NCOL];
/* The columns of a calendar's day (trigger_calendar_days,
** docs/calendar.md#holidays-and-business-days), all public. */
enum { CC_CALENDAR, CC_DAY, CC_NAME, CC_NCOL };
extern const store_coldef store_calendar_cols[CC_NCOL];

/* 1 when trigger column col is stored in triggers_state, 0 triggers_data. */
int store_col_in_state(int col);
/* The trigger columns of one table in column order: triggers_data's
** (state 0), or triggers_state's (state 1), which begin with its copies
** of trigger_id and agent_id. Returns how many. */
int store_table_cols(int state, int out[TC_NCOL + 2]);

/* ---- for the statements of ext/store/ (sqlite3_malloc'd; NULL: OOM) ---- */

/* "a<suffix>, b<suffix>, ..." of a column table. */
char *store_col_list(const store_coldef *defs, int n, const char *suffix);
/* "?1,?2,...,?n". */
char *store_param_list(int n);
/* "d.trigger_id, ..., s.next_due_at, ...": every trigger column, each
** from the table that holds it (aliases of STORE_TRIGGER_FROM). */
char *store_trigger_select_list(void);

/* A whole trigger is read from the join of its two tables, aliased d
** (triggers_data) and s (triggers_state); the tick's probes drive the
** join from the state table's time index. */
#define STORE_TRIGGER_FROM \
  "main.triggers_data AS d JOIN main.triggers_state AS s ON s.id = d.id"
#define STORE_TRIGGER_FROM_STATE(index)        \
  "main.triggers_state AS s INDEXED BY " index \
  " CROSS JOIN main.triggers_data AS d ON d.id = s.id"

#endif
