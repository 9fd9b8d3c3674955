/*
** create_request.h -- one create call's state (create_req: its request,
** context, row and outcome) and the reading of its request and context
** (docs/create-action.md#the-request): the context's agent, scope, user,
** role, autonomy, confirmation, dry run and now; the request's keys in any
** spelling (request_field.h; a key that is no field listed in "ignored",
** a field given twice or one the context owns refused), values read as an
** INSERT reads them, the metadata's own members (no key twice, its
** user_id dropped: the user is the context's), and a "when" phrase read
** into the schedule columns (docs/when.md) with metadata.when. A refusal
** sets q->code and q->reason (agent_create_fail).
*/
#ifndef TRIGGERS_CREATE_REQUEST_H
#define TRIGGERS_CREATE_REQUEST_H

#include "store/kept.h"

typedef struct create_req {
  store_call call; /* db, ctx, and st: the statements the call uses */
  i64 now;
  trg_row row;
  sched_spec spec;
  char *role;
  char *user;   /* context.user_id, if any (per-user quotas) */
  char *when;   /* the request's "when" phrase (or "when_text"), if any */
  char *source; /* the person's message: request source_text, else the
                   context's message (time_claim.h) */
  size_t metadata_bytes; /* the request's own metadata (create_policy.h) */
  int id_given;          /* the request named its trigger_id */
  int when_text;         /* when is a message to find the phrase in */
  int autonomy, confirmed;
  int dry_run;      /* context.dry_run: every check, nothing written */
  double when_conf; /* the phrase's confidence, once read (when_read) */
  int when_read;
  const char *pre_code; /* refused before the request was read (bad text,
                           XML): the context is read for the event only */
  const char *pre_reason;
  sqlite3_str *ignored; /* names that are no field (request_field.h) */
  /* a CONFIRMATION_REQUIRED refusal waits until no duplicate is found */
  const char *pending_code;
  char *pending_reason;
  /* outcome */
  const char *code;
  char *reason;
  char *trigger_id;
  char *existing;
  char *existing_status; /* the duplicate's status */
  char *schedule_text;   /* a success's "scheduleText" (time_claim.h) */
  /* a time-claim refusal: the message's phrase, what it and the request
  ** mean (kept in the event) */
  char *claim_phrase, *claim_said, *claim_asked;
  int created;
} create_req;

/* A refusal with its code and reason (taken); SQLITE_ERROR, or
** SQLITE_NOMEM when reason is NULL (out of memory). */
int agent_create_fail(create_req *q, const char *code, char *reason);
/* The code of a refusal (rc) about column col: INVALID_SCHEDULE for a
** bad value of a schedule column, INVALID_REQUEST for anything else. */
const char *agent_create_code_for_column(int rc, int col);
/* The context object (NULL: none) into q: defaults (role user, autonomy
** on, the wall clock), then its keys. A context refused still tells
** whether it asked for a dry run. */
int agent_create_read_context(create_req *q, const char *json);
/* The request object into q->row, with the context's agent, scope, user
** (metadata.user_id), created_by and created_at, and a "when" phrase
** read (q->when). */
int agent_create_read_request(create_req *q, const char *json);

#endif
