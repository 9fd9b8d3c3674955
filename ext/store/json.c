/*
** json.c -- JSON read through SQLite's json1 (json.h): whether a text is
** a JSON object, the members of one in order, a key given twice, and a
** member set or removed.
*/
#include "store/json.h"

#include <string.h>

#include "base/args.h"
#include "text/json_shape.h"

SQLITE_EXTENSION_INIT3

/* The text of statement `which` (NULL: out of memory, or not one of this
** file's). */
static char *sql_text(store_sql which) {
  char *out = NULL;
  switch (which) {
    case ST_JSON_USAGE:
      return sqlite3_mprintf(
          "SELECT json_type(?1) = 'object', json_type(?1, '$.cost'),"
          " json_extract(?1, '$.cost'), json_type(?1, '$.tokens'),"
          " json_extract(?1, '$.tokens')");
    case ST_JSON_IS_OBJECT:
      /* Not json_valid(): it answers 0 when it runs out of memory.
      ** json_type() fails with SQLITE_ERROR on malformed JSON and
      ** SQLITE_NOMEM on that. */
      out = sqlite3_mprintf("SELECT json_type(?1) = 'object'");
      break;
    case ST_JSON_EACH:
      out = sqlite3_mprintf(
          "SELECT key, type, value, CASE WHEN type IN ('array', 'object')"
          " THEN value ELSE json_quote(value) END, id, parent"
          " FROM json_each(?1)");
      break;
    case ST_JSON_TREE:
      out = sqlite3_mprintf(
          "SELECT key, type, atom, CASE WHEN type = 'object' AND"
          " typeof(key) = 'text' THEN value END, id, parent FROM json_tree(?1)");
      break;
    case ST_JSON_SET:
      /* ?1 is NULL or an object (the caller checked): no json_valid(),
      ** which answers 0 when it runs out of memory (the object was then
      ** replaced by {}: tests/fault found it) */
      out = sqlite3_mprintf(
          "SELECT json_set(coalesce(?1, '{}'), '$.' || ?3, json(?2))");
      break;
    case ST_JSON_DUP_KEY:
      /* json_each's key is the decoded one: "user\u005fid" is user_id */
      out = sqlite3_mprintf("SELECT key FROM json_each(?1) GROUP BY key"
                            " HAVING count(*) > 1 ORDER BY min(id) LIMIT 1");
      break;
    case ST_JSON_REMOVE:
      /* fullkey spells the key as the text does, so a key written with
      ** escapes is found (a path '$.user_id' would not match it) */
      out = sqlite3_mprintf("SELECT json_remove(?1, fullkey) FROM"
                            " json_each(?1) WHERE key = ?2 LIMIT 1");
      break;
    default: break;
  }
  return out;
}

/* Statement which, bound to ?1 json and ?2 (when not NULL), stepped once:
** its first column as text into *out (NULL: no row). */
static int text_of(store *s, store_sql which, const char *json,
                   const char *arg2, char **out) {
  *out = NULL;
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
  if (arg2) sqlite3_bind_text(st, 2, arg2, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    *out = t ? sqlite3_mprintf("%s", t) : NULL;
    rc = *out ? SQLITE_OK : SQLITE_NOMEM;
  } else {
    rc = rc == SQLITE_DONE ? SQLITE_OK : store_err(s);
  }
  sqlite3_reset(st);
  return rc;
}

int store_json_duplicate_key(store *s, const char *object, char **key) {
  return text_of(s, ST_JSON_DUP_KEY, object, NULL, key);
}

int store_json_remove(store *s, const char *object, const char *member,
                      char **out) {
  return text_of(s, ST_JSON_REMOVE, object, member, out);
}

int store_json_is_object(store *s, const char *text, int *is) {
  /* The texts the extension wrote (a run's payload read back with every
  ** run) answer without a statement; json1 decides the rest. */
  *is = json_shape_object(text);
  if (*is) return SQLITE_OK;
  sqlite3_stmt *st = store_stmt(s, ST_JSON_IS_OBJECT, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  *is = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
  sqlite3_reset(st);
  /* SQLITE_ERROR: json1 found no JSON at all, so no object */
  return rc == SQLITE_ROW || rc == SQLITE_ERROR ? SQLITE_OK : store_err(s);
}

int store_json_usage_check(store *s, const char *usage, char **why) {
  *why = NULL;
  sqlite3_stmt *st = store_stmt(s, ST_JSON_USAGE, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, usage, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  const char *msg = NULL;
  if (rc != SQLITE_ROW || !sqlite3_column_int(st, 0)) {
    msg = "must be a JSON object";
  } else {
    const char *ct = (const char *)sqlite3_column_text(st, 1);
    const char *tt = (const char *)sqlite3_column_text(st, 3);
    if (ct && ((strcmp(ct, "integer") != 0 && strcmp(ct, "real") != 0) ||
               sqlite3_column_double(st, 2) < 0))
      msg = "cost must be a number >= 0";
    else if (tt &&
             (strcmp(tt, "integer") != 0 || sqlite3_column_int64(st, 4) < 0))
      msg = "tokens must be an integer >= 0";
  }
  sqlite3_reset(st);
  if (rc != SQLITE_ROW && rc != SQLITE_ERROR) return store_err(s);
  if (msg && !(*why = sqlite3_mprintf("%s", msg))) return SQLITE_NOMEM;
  return SQLITE_OK;
}

int store_json_set(store *s, const char *metadata, const char *member,
                   const char *json, char **out) {
  *out = NULL;
  sqlite3_stmt *st = store_stmt(s, ST_JSON_SET, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, metadata, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, json, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, member, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    *out = t ? sqlite3_mprintf("%s", t) : NULL;
    rc = *out ? SQLITE_OK : SQLITE_NOMEM;
  } else {
    rc = store_err(s);
  }
  sqlite3_reset(st);
  return rc;
}

static int walk_open(store *s, store_sql which, const char *json,
                     store_json_each *it) {
  memset(it, 0, sizeof *it);
  it->s = s;
  it->tree = which == ST_JSON_TREE;
  it->st = store_stmt(s, which, sql_text);
  if (!it->st) return store_err(s);
  return sqlite3_bind_text(it->st, 1, json, -1, SQLITE_STATIC);
}

int store_json_each_open(store *s, const char *json, store_json_each *it) {
  return walk_open(s, ST_JSON_EACH, json, it);
}

int store_json_tree_open(store *s, const char *json, store_json_each *it) {
  return walk_open(s, ST_JSON_TREE, json, it);
}

int store_json_each_next(store_json_each *it) {
  sqlite3_stmt *st = it->st;
  int rc = st ? sqlite3_step(st) : SQLITE_MISUSE;
  if (rc != SQLITE_ROW) return rc;
  store_json_member *m = &it->m;
  m->key = (const char *)sqlite3_column_text(st, 0);
  m->type = (const char *)sqlite3_column_text(st, 1);
  m->value = sqlite3_column_value(st, 2);
  m->text = (const char *)sqlite3_column_text(st, 2);
  m->json = (const char *)sqlite3_column_text(st, 3);
  m->id = sqlite3_column_int64(st, 4);
  m->top = it->tree && sqlite3_column_type(st, 5) == SQLITE_NULL;
  m->parent = sqlite3_column_int64(st, 5);
  /* Every column but a null value (and a tree's root key, and its JSON
  ** text) has text: NULL is out of memory. */
  if ((!m->key && !m->top) || !m->type ||
      (!m->json && sqlite3_column_type(st, 3) != SQLITE_NULL) ||
      (!m->text && sqlite3_column_type(st, 2) != SQLITE_NULL)) {
    return SQLITE_NOMEM;
  }
  return SQLITE_ROW;
}

void store_json_each_close(store_json_each *it) {
  if (it->st) sqlite3_reset(it->st);
  it->st = NULL;
}

int store_json_options_end(sqlite3_context *ctx, const char *fname,
                           store_json_each *it, int bad, int rc) {
  store_json_each_close(it);
  if (bad) return -1;
  if (rc != SQLITE_DONE) {
    trg_result_error(ctx, rc, fname, "%s",
                     trg_errmsg(sqlite3_context_db_handle(ctx), rc));
    return -1;
  }
  return 0;
}
