/*
** json_shape.h -- a quick answer to "is this text one JSON object?" for
** the texts the extension writes itself (a run's payload, checked each
** time a run is read back), without a trip through SQLite's json1.
**
** json_shape_object answers 1 only for a text that is certainly a JSON
** object that SQLite's json_type() calls 'object': strict RFC 8259
** (whitespace: space, tab, LF, CR; strings without control characters,
** with the standard escapes; integers; true, false, null) nested at most
** JSON_SHAPE_DEPTH deep. Anything else -- a number with a fraction or an
** exponent, a control character, deeper nesting, or text that is not an
** object -- answers 0: "not sure", and the caller asks json1
** (store/json.c), whose verdict stays the rule. Pure, no allocation.
*/
#ifndef TRIGGERS_JSON_SHAPE_H
#define TRIGGERS_JSON_SHAPE_H

#include <stddef.h>

#define JSON_SHAPE_DEPTH 32

int json_shape_object(const char *s);

/*
** A JSON array of flat objects whose members are strings or null, e.g.
** [{"run_id":"a","status":"success","detail":null}] (the reports of
** trigger_run_finish_many), walked in one pass: elem(arg) at each element,
** then member(arg, key, value) for each of its members, key and value
** decoded and NUL-terminated in buf (value NULL for null; both valid
** until the next call). Returns 1 when the whole text was such an array;
** 0 "not sure" (also after some calls: the caller discards what it got
** and reads the text with json1): another shape, a \u escape (json1
** decides how it decodes), a number, a nested value, text past the
** array, or a string longer than buf (cap bytes).
*/
typedef struct json_shape_walk {
  void (*elem)(void *arg);
  int (*member)(void *arg, const char *key, const char *value); /* 0 stop */
  void *arg;
  char *buf; /* scratch for the decoded strings */
  size_t cap;
} json_shape_walk;
int json_shape_flat_array(const char *s, const json_shape_walk *w);

#endif
