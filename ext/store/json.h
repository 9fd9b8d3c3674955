/*
** json.h -- JSON read through SQLite's json1: whether a text is a JSON
** object, and the members of one.
*/
#ifndef TRIGGERS_JSON_H
#define TRIGGERS_JSON_H

#include "store/store.h"

/* *is: whether text is a JSON object (0 for other JSON and for text that
** is not JSON). SQLITE_OK or the error (out of memory). */
int store_json_is_object(store *s, const char *text, int *is);

/* The members of a JSON object (elements of an array) in order, or with
** tree every node of it, depth first (json_tree): open, then next until
** it returns SQLITE_DONE (SQLITE_ROW: the member in m, valid until the
** next call), then close. One at a time per store. */
typedef struct store_json_member {
  const char *key;      /* the key; an array element's index as text; NULL
                           for a tree's root */
  const char *type;     /* json_type: "text", "integer", "object", ... */
  sqlite3_value *value; /* the SQL value: NULL, text, number, JSON text
                           (tree: NULL for an object or array) */
  const char *text;     /* that value as text; NULL for null */
  const char *json;     /* the member as JSON text (each: members only;
                           tree: an object that is an object's member) */
  i64 id;               /* the node's id, and its parent's (tree only) */
  i64 parent;
  int top; /* the tree's root: no parent */
} store_json_member;
typedef struct store_json_each {
  store *s;
  sqlite3_stmt *st;
  int tree; /* json_tree: every node, with id and parent */
  store_json_member m;
} store_json_each;
/* metadata (NULL: {}; else a JSON object, which the caller checked) with
** member `member` ("when", "user_id") set to the JSON text json, into
** *out (sqlite3_malloc'd). */
int store_json_set(store *s, const char *metadata, const char *member,
                   const char *json, char **out);

/* The first key of a JSON object's top level given more than once (read
** as a parser reads it: escapes decoded), into *key (sqlite3_malloc'd);
** NULL when every key is given once. */
int store_json_duplicate_key(store *s, const char *object, char **key);
/* object without its top-level member `member` (matched with escapes
** decoded, however the text spells it), into *out (sqlite3_malloc'd);
** NULL when it has no such member. */
int store_json_remove(store *s, const char *object, const char *member,
                      char **out);

/* A run's usage as a finish reports it (docs/reactive.md#usage): a JSON
** object whose `cost`, when present, is a number >= 0 and `tokens` an
** integer >= 0 (other members kept as they are). *why: NULL, or what is
** wrong (sqlite3_malloc'd). SQLITE_OK or the error. */
int store_json_usage_check(store *s, const char *usage, char **why);

int store_json_each_open(store *s, const char *json, store_json_each *it);
int store_json_tree_open(store *s, const char *json, store_json_each *it);
int store_json_each_next(store_json_each *it);
void store_json_each_close(store_json_each *it);
/* The end of a function's walk over its options object: the walk closed;
** 0 when it ended (rc SQLITE_DONE) with nothing bad, else -1 with the
** error set on ctx (bad: the caller set it already; else rc's). */
int store_json_options_end(sqlite3_context *ctx, const char *fname,
                           store_json_each *it, int bad, int rc);

#endif
