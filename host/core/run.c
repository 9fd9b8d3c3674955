/*
** run.c -- a claimed run freed (see run.h).
*/
#include "core/run.h"

#include <stdlib.h>

void run_free(host_run *r) {
  if (!r) return;
  free(r->run_id);
  free(r->trigger_id);
  free(r->agent_id);
  free(r->wake_mode);
  free(r->element);
  free(r->payload);
  free(r->action_sql);
  free(r->usage);
  free(r);
}

void runs_free(host_run **runs, int n) {
  for (int i = 0; i < n; i++) run_free(runs[i]);
  free(runs);
}
