/*
** create_bounds.h -- the bounds of an agent's create
** (docs/create-action.md#bounds-of-an-agents-create): the size of its
** request, and for each field an agent may set through trigger_create /
** trigger_create_xml the trigger_config key that bounds it
** (max_agent_attempts, min_agent_backoff_ms, max_agent_instructions_bytes,
** ...). They hold for the create action only: a direct INSERT is the
** application's, which is trusted.
*/
#ifndef TRIGGERS_CREATE_BOUNDS_H
#define TRIGGERS_CREATE_BOUNDS_H

#include "store/store.h"

/* The largest request (JSON text, or the XML reply) and context of one
** create, in bytes: XML's bound (xml_request.h) for both forms. */
#define CREATE_INPUT_MAX_BYTES 65536

/* The longest text a create's event keeps of each text it logs (the
** reason, a "when" phrase, a rejected trigger_id): longer ones are cut
** on a character boundary and end in "...". */
#define CREATE_EVENT_TEXT_MAX 1024

/*
** Row r (valid and normalized: defaults applied) against the bounds;
** metadata_bytes is the size of the request's own metadata (before the
** action adds metadata.when and metadata.user_id). SQLITE_OK when within
** them; SQLITE_ERROR with *reason naming the field, its value and the key
** ("max_attempts 1000000 is above max_agent_attempts 10"); SQLITE_NOMEM.
** A key that cannot be read sets s->err (config.h).
*/
int create_bounds_check(store *s, const trg_row *r, size_t metadata_bytes,
                        char **reason);

#endif
