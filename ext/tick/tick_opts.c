/*
** tick_opts.c -- see tick_opts.h: parsing the options object (json_each,
** unknown keys and bad values refused with the key named), the parse kept
** on the connection (trg_ctx.last_opts) for a host that passes the same
** text every tick, and the agents filter.
*/
#include "tick/tick_opts.h"
#include "base/args.h"
#include "base/json_out.h"
#include "store/json.h"

#include <string.h>

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
static int opts_read_json(store *s, const char *json, tick_opts *o,
                          char **err) {
  o->limit = -1;
  o->lease_ms = TRG_DEFAULT_LEASE_MS;
  o->ack = 1;
  if (!json) return SQLITE_OK;
  int ok;
  int rc = store_json_is_object(s, json, &ok);
  if (rc != SQLITE_OK) return rc; /* out of memory: not the caller's fault */
  if (!ok) {
    *err = sqlite3_mprintf("argument 2 (options) must be a JSON object");
    return SQLITE_ERROR;
  }
  store_json_each it;
  rc = store_json_each_open(s, json, &it);
  while (rc == SQLITE_OK && (rc = store_json_each_next(&it)) == SQLITE_ROW) {
    const char *k = it.m.key, *t = it.m.type, *tv = it.m.text;
    const char *raw = it.m.json;
    i64 iv = 0;
    rc = SQLITE_OK;
    /* numbers, and integer-valued strings ("limit":"10") as in a column */
    int is_int = 0;
    if ((strcmp(t, "integer") == 0 || strcmp(t, "real") == 0 ||
         strcmp(t, "text") == 0) &&
        trg_int_of(it.m.value, &iv, &is_int) != SQLITE_OK) {
      rc = SQLITE_NOMEM;
      break;
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
               /* t is "text": tv != NULL (store_json_each_next) */
               /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
               (strcmp(tv, "inject_now") == 0 ||
                strcmp(tv, "next_autonomy_cycle") == 0)) {
      sqlite3_free(o->wake_mode);
      if (!(o->wake_mode = sqlite3_mprintf("%s", tv))) rc = SQLITE_NOMEM;
    } else if (strcmp(k, "ack") == 0 &&
               (strcmp(t, "true") == 0 || strcmp(t, "false") == 0)) {
      o->ack = strcmp(t, "true") == 0;
    } else if (strcmp(k, "sql") == 0 &&
               (strcmp(t, "true") == 0 || strcmp(t, "false") == 0)) {
      o->sql = strcmp(t, "true") == 0;
    } else if (strcmp(k, "agents") == 0 && strcmp(t, "array") == 0) {
      sqlite3_free(o->agents);
      if (!(o->agents = sqlite3_mprintf("%s", raw))) rc = SQLITE_NOMEM;
      else o->agents_empty = strcmp(o->agents, "[]") == 0;
    } else {
      static const char *const known[] = {
          "limit", "lease_ms", "owner", "wake_mode", "ack", "agents", "sql", 0};
      int is_known = 0;
      for (int i = 0; known[i]; i++) is_known |= strcmp(k, known[i]) == 0;
      *err =
          is_known
              ? sqlite3_mprintf(
                    "options.%s: bad value %s (want %s)", k, raw,
                    strcmp(k, "limit") == 0 ? "an integer >= 0"
                    : strcmp(k, "lease_ms") == 0
                        ? "an integer 1..315537897599999"
                    : strcmp(k, "wake_mode") == 0
                        ? "\"inject_now\" or \"next_autonomy_cycle\""
                    : strcmp(k, "ack") == 0 || strcmp(k, "sql") == 0
                        ? "true or false"
                    : strcmp(k, "agents") == 0 ? "an array of agent ids"
                                               : "text")
              : sqlite3_mprintf("options: unknown key '%s' (known: limit, "
                                "owner, lease_ms, agents, wake_mode, ack, sql)",
                                k);
      store_json_each_close(&it);
      return *err ? SQLITE_ERROR : SQLITE_NOMEM;
    }
  }
  store_json_each_close(&it);
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

/* 1 when the quoted JSON string q (n bytes) is an element of the array
** text a (valid JSON: json() made it); a string nested in an element
** (["x",["a"]]) is none. q ends in its closing quote: a prefix match at
** a string's opening quote is the whole string. */
static int array_has(const char *a, const char *q, size_t n) {
  int depth = 0;
  for (const char *p = a; *p; p++) {
    if (*p == '"') {
      if (depth == 1 && strncmp(p, q, n) == 0) return 1;
      for (p++; *p != '"'; p++) p += *p == '\\'; /* skip its escapes */
    } else if (*p == '[' || *p == '{') {
      depth++;
    } else if (*p == ']' || *p == '}') {
      depth--;
    }
  }
  return 0;
}

int tick_opts_allow_agent(const tick_opts *o, const char *agent_id) {
  if (!o->agents) return 1;
  /* The array is small (one host's agents): a text search of the
  ** JSON-quoted id is exact because json() normalized the array ("[]"
  ** holds none). agent_id is never NULL (trg_val_text). */
  sqlite3_str *s = sqlite3_str_new(NULL);
  json_str(s, agent_id);
  char *q = sqlite3_str_finish(s);
  int found = q && array_has(o->agents, q, strlen(q));
  sqlite3_free(q);
  return found;
}

int tick_opts_allow_trigger(const tick_opts *o, const trg_row *r) {
  /* a SQL job only for a claim that asks for them (docs/sql-jobs.md) */
  if (o->sql == r->v[TC_ACTION_SQL].null) return 0;
  return !o->wake_mode ||
         strcmp(o->wake_mode, trg_val_text(&r->v[TC_WAKE_MODE])) == 0;
}
