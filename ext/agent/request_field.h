/*
** request_field.h -- the names of a create request's fields
** (docs/create-action.md#untidy-replies-normalization-and-ignored), one
** lookup for the JSON keys of trigger_create and the XML elements of
** trigger_create_xml: a `triggers` column by its name, "when", "when_text",
** and "scheduled_at_iso" (the contract's <scheduledAtIso>) for
** scheduled_at, each in any spelling (spelling.h: "maxRuns", "MaxRuns",
** "max-runs" are max_runs). A name that is none of them is not dropped: the
** action lists it in its result as "ignored".
*/
#ifndef TRIGGERS_REQUEST_FIELD_H
#define TRIGGERS_REQUEST_FIELD_H

#include "base/triggers_int.h"

#define RF_WHEN TC_NPUBLIC            /* "when": a time phrase */
#define RF_WHEN_TEXT (TC_NPUBLIC + 1) /* "when_text": a message */
/* "source_text": the person's message, for the time-claim check */
#define RF_SOURCE_TEXT (TC_NPUBLIC + 2)

/* The column (below TC_NPUBLIC), RF_WHEN, RF_WHEN_TEXT or RF_SOURCE_TEXT
** that name is, or -1. */
int agent_request_field(const char *name);

/* Add name to list, the members of a JSON array ("a","b"), unless it is
** there already. SQLITE_OK or SQLITE_NOMEM. */
int agent_request_ignore(sqlite3_str *list, const char *name);

#endif
