/*
** fn_summary.h -- the autonomous state summary (docs/summary.md):
** trigger_state_summary(agent_id [, now [, options]]) -> TEXT and
** trigger_state_payload(agent_id [, now [, options]]) -> JSON. The
** contents, caps, truncation order and confidence rule are documented in
** fn_summary.c's header comment and docs/summary.md.
*/
#ifndef TRIGGERS_SUMMARY_H
#define TRIGGERS_SUMMARY_H

#include "base/triggers_int.h"

/* Caps in bytes of UTF-8: the defaults are also the hard limits (options
** may lower them, a larger value is clamped to these). */
#define SUM_MAX_TOTAL 1500
#define SUM_MAX_ADMIN 900
#define SUM_MAX_LOOP 400
#define SUM_MAX_FOOTER 200

/* Rows read per call (each through an index, with LIMIT). */
#define SUM_SUCCESSES 3 /* latest successful runs */
#define SUM_PENDING 5   /* next pending triggers */

/* Per-piece limits before the segment caps apply. */
#define SUM_ITEM_MAX 280  /* one admin item's text */
#define SUM_NAME_MAX 60   /* a trigger's objective (display name) */
#define SUM_ID_MAX 48     /* a trigger_id */
#define SUM_ERROR_MAX 160 /* a failure's error, a success's note */
#define SUM_TOPIC_MAX 32  /* "topic:" prefix of a directive */

/* Returned instead of an error on any failure inside the functions. */
#define SUM_FALLBACK \
  "Admin context temporarily unavailable; continue with latest autonomous objective."
#define SUM_FALLBACK_PAYLOAD                                        \
  "{\"mode\":\"autonomous\",\"adminSummary\":\"" SUM_FALLBACK "\"," \
  "\"loopSummary\":\"\",\"pendingItems\":[],\"hints\":[],"          \
  "\"confidence\":\"low\"}"

#endif
