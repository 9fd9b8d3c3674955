/*
** tick_opts.c -- see tick_opts.h: parsing the options object (json_each,
** unknown keys and bad values refused with the key named), the parse kept
** on the connection (trg_ctx.last_opts) for a host that passes the same
** text every tick, and the agents filter.
*/
#include "tick/tick_opts.h"

#include <string.h>

#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

void tick_opts_free(tick_opts *o) {
  sqlite3_free(o->owner);
  sqlite3_free(o->agents);
  sqlite3_free(o->wake_mode);
  memset(o, 0, sizeof *o);
}

/* A deep copy of parsed options; SQLITE_NOMEM leaves dst freed. */
static int opts_copy(tick_opts *dst, const tick_opts *src) {
  *dst = *src;
  dst->owner = src->owner ? sqlite3_mprintf("%s", src->owner) : NULL;
  dst->agents = src->agents ? sqlite3_mprintf("%s", src->agents) : NULL;
  dst->wake_mode =
      src->wake_mode ? sqlite3_mprintf("%s", src->wake_mode) : NULL;
  if ((src->owner && !dst->owner) || (src->agents && !dst->agents) ||
      (src->wake_mode && !dst->wake_mode)) {
    tick_opts_free(dst);
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

static void opts_destroy(void *p) {
  tick_opts_free(p);
  sqlite3_free(p);
}

/* Parse the options object through json_each; unknown keys are errors. */
static int opts_read_json(store *s, const char *json, tick_opts *o, char **err) {
  o->limit = -1;
  o->lease_ms = TRG_DEFAULT_LEASE_MS;
  o->ack = 1;
  if (!json) return SQLITE_OK;
  sqlite3_stmt *st = store_stmt(s, ST_OPTS_TYPE);
  if (!st) return store_err(s);
  int rc;
  sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
  rc = sqlite3_step(st);
  const char *ty =
      rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
  int is_obj = ty && strcmp(ty, "object") == 0;
  if (!ty) rc = rc == SQLITE_ROW ? SQLITE_NOMEM : sqlite3_errcode(s->db);
  sqlite3_reset(st);
  if (!ty) return rc; /* out of memory: not the caller's fault */
  if (!is_obj) {
    *err = sqlite3_mprintf("argument 2 (options) must be a JSON object");
    return SQLITE_ERROR;
  }
  st = store_stmt(s, ST_OPTS_EACH);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *k = (const char *)sqlite3_column_text(st, 0);
    const char *t = (const char *)sqlite3_column_text(st, 1);
    i64 iv = 0;
    const char *tv = (const char *)sqlite3_column_text(st, 2);
    const char *raw = (const char *)sqlite3_column_text(st, 3);
    /* numbers, and integer-valued strings ("limit":"10") as in a column */
    int is_int = t && (strcmp(t, "integer") == 0 || strcmp(t, "real") == 0 ||
                       strcmp(t, "text") == 0)
                     ? trg_int_of(sqlite3_column_value(st, 2), &iv)
                     : 0;
    if (!k || !t || !raw || is_int < 0 ||
        (!tv && sqlite3_column_type(st, 2) != SQLITE_NULL)) {
      sqlite3_reset(st);
      return SQLITE_NOMEM;
    }
    if (strcmp(k, "limit") == 0 && is_int && iv >= 0) {
      o->limit = iv;
    } else if (strcmp(k, "lease_ms") == 0 && is_int && iv > 0 &&
               iv <= SCHED_SPAN_MAX) {
      o->lease_ms = iv;
    } else if (strcmp(k, "owner") == 0 && strcmp(t, "text") == 0) {
      sqlite3_free(o->owner); /* a repeated key: the last one wins */
      if (!(o->owner = sqlite3_mprintf("%s", tv))) rc = SQLITE_NOMEM;
    } else if (strcmp(k, "wake_mode") == 0 && strcmp(t, "text") == 0 &&
               /* t is "text": tv != NULL (checked above) */
               /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
               (strcmp(tv, "inject_now") == 0 ||
                strcmp(tv, "next_autonomy_cycle") == 0)) {
      sqlite3_free(o->wake_mode);
      if (!(o->wake_mode = sqlite3_mprintf("%s", tv))) rc = SQLITE_NOMEM;
    } else if (strcmp(k, "ack") == 0 &&
               (strcmp(t, "true") == 0 || strcmp(t, "false") == 0)) {
      o->ack = strcmp(t, "true") == 0;
    } else if (strcmp(k, "agents") == 0 && strcmp(t, "array") == 0) {
      sqlite3_free(o->agents);
      if (!(o->agents = sqlite3_mprintf("%s", raw))) rc = SQLITE_NOMEM;
      else o->agents_empty = strcmp(o->agents, "[]") == 0;
    } else {
      static const char *const known[] = {
          "limit", "lease_ms", "owner", "wake_mode", "ack", "agents", 0};
      int is_known = 0;
      for (int i = 0; known[i]; i++) is_known |= strcmp(k, known[i]) == 0;
      *err = is_known
                 ? sqlite3_mprintf(
                       "options.%s: bad value %s (want %s)", k, raw,
                       strcmp(k, "limit") == 0 ? "an integer >= 0"
                       : strcmp(k, "lease_ms") == 0
                           ? "an integer 1..315537897599999"
                       : strcmp(k, "wake_mode") == 0
                           ? "\"inject_now\" or \"next_autonomy_cycle\""
                       : strcmp(k, "ack") == 0    ? "true or false"
                       : strcmp(k, "agents") == 0 ? "an array of agent ids"
                                                  : "text")
                 : sqlite3_mprintf("options: unknown key '%s' (known: limit, "
                                   "owner, lease_ms, agents, wake_mode, ack)",
                                   k);
      sqlite3_reset(st);
      return *err ? SQLITE_ERROR : SQLITE_NOMEM;
    }
    if (rc == SQLITE_NOMEM) break;
  }
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int tick_opts_read(store *s, trg_ctx *c, const char *json, tick_opts *o,
                   char **err) {
  int rc;
  if (json && c->last_opts.parsed && strcmp(json, c->last_opts.json) == 0) {
    rc = opts_copy(o, c->last_opts.parsed);
  } else {
    rc = opts_read_json(s, json, o, err);
    tick_opts *keep =
        rc == SQLITE_OK && json ? sqlite3_malloc(sizeof *keep) : NULL;
    char *text = keep ? sqlite3_mprintf("%s", json) : NULL;
    if (text && opts_copy(keep, o) == SQLITE_OK) {
      if (c->last_opts.destroy) c->last_opts.destroy(c->last_opts.parsed);
      sqlite3_free(c->last_opts.json);
      c->last_opts.parsed = keep;
      c->last_opts.json = text;
      c->last_opts.destroy = opts_destroy;
    } else {
      sqlite3_free(keep);
      sqlite3_free(text);
    }
  }
  return rc;
}

int tick_opts_allow_agent(const tick_opts *o, const char *agent_id) {
  if (!o->agents) return 1;
  if (o->agents_empty) return 0;
  /* The array is small (one host's agents): a text search of the
  ** JSON-quoted id is exact because json() normalized the array. */
  sqlite3_str *s = sqlite3_str_new(NULL);
  json_str(s, agent_id ? agent_id : "");
  char *q = sqlite3_str_finish(s);
  int found = 0;
  if (q) {
    size_t n = strlen(q);
    for (const char *p = strstr(o->agents, q); p && !found;
         p = strstr(p + 1, q)) {
      found = (p[-1] == '[' || p[-1] == ',') && (p[n] == ']' || p[n] == ',');
    }
  }
  sqlite3_free(q);
  return found;
}
