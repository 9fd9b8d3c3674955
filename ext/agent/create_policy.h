/*
** create_policy.h -- the policy of an agent's create
** (docs/create-action.md#policy-checks): its autonomy and role, the size
** of its request, for each field an agent may set through trigger_create
** / trigger_create_xml the trigger_config key that bounds it
** (docs/create-action.md#bounds-of-an-agents-create: max_agent_attempts,
** min_agent_backoff_ms, max_agent_instructions_bytes, ...), the
** schedule's bounds, the confirmation, the quotas and a trigger_id it
** names. They hold for the create action only: a direct INSERT is the
** application's, which is trusted.
*/
#ifndef TRIGGERS_CREATE_POLICY_H
#define TRIGGERS_CREATE_POLICY_H

#include "agent/create_request.h"
#include "trigger/write.h"

/* The largest request (JSON text, or the XML reply) and context of one
** create, in bytes: XML's bound (xml_request.h) for both forms. */
#define CREATE_INPUT_MAX_BYTES 65536

/* The longest text a create's event keeps of each text it logs (the
** reason, a "when" phrase, a rejected trigger_id): longer ones are cut
** on a character boundary and end in "...". */
#define CREATE_EVENT_TEXT_MAX 1024

/* Autonomy available and the context's role among creator_roles: SQLITE_OK,
** else a refusal (AUTONOMY_UNAVAILABLE, PERMISSION_DENIED:
** agent_create_fail). */
int agent_create_policy_allows(create_req *q);

/* The policy as hooks of the insert (trigger/write.h): after validation,
** the bounds of the fields and of the schedule (INVALID_REQUEST,
** INVALID_SCHEDULE) and the confirmation (CONFIRMATION_REQUIRED, which
** waits until no duplicate is found: a duplicate still answers with the
** existing trigger); before the write, the quotas
** (TRIGGER_QUOTA_EXCEEDED) and a trigger_id the request names
** (INVALID_REQUEST when another holds it). */
trigger_insert_hooks agent_create_policy_hooks(create_req *q);

#endif
