/*
** run_key.h -- a run's key read back from its run_id: the run_id is
** derived from (trigger_id, incarnation, scheduled_for, attempt)
** (docs/tables.md#the-trigger_runs-table), so a lookup by run_id parses it
** and seeks the key's UNIQUE index; the run_id itself has no index.
*/
#ifndef TRIGGERS_RUN_KEY_H
#define TRIGGERS_RUN_KEY_H

#include "base/triggers_int.h"

typedef struct store_run_key {
  const char *trigger_id; /* into the run_id: trigger_id_len bytes */
  int trigger_id_len;
  i64 incarnation; /* 1 when the run_id has no "~<n>" */
  i64 scheduled_for;
  i64 attempt;
} store_run_key;

/* 1 and *k when run_id has the form "<trigger_id>@<scheduled_for>#<attempt>"
** with an optional "~<incarnation>"; 0 when it does not (such a run_id
** names no run). Whether it is the canonical spelling is left to the
** lookup, which compares the stored run_id too. */
int store_run_key_parse(const char *run_id, store_run_key *k);
/* Bind k to parameters first.. first+3 of st: trigger_id, incarnation,
** scheduled_for, attempt (the key's order). */
int store_run_key_bind(sqlite3_stmt *st, int first, const store_run_key *k);

#endif
