/*
** json.h -- reading the claim's answer: a JSON array of run objects
** (trigger_run_due). A scanner, not a tree: it walks an array's elements
** and an object's members as spans of the text (never reading past its
** end, whatever the bytes), and decodes a string or an integer member
** when asked. The claim's array of 20,000 runs is read in one pass of a
** few instructions per byte, where json_each plus json_extract per field
** cost as much as the claim itself.
**
** It accepts what RFC 8259 allows between tokens (whitespace, any member
** order, escapes such as \/ or \u00e9 and surrogate pairs), so the answer
** of another engine (--via) reads the same. It checks the structure it
** walks (commas, colons, string tokens, where each value ends) but not all
** of JSON's grammar: a container is ended by depth, whichever bracket
** closes it, and a number or literal is any run of [-+.0-9A-Za-z].
** Whatever the bytes, every span it returns lies inside the text;
** malformed text ends the walk with -1 and the caller skips what it
** cannot read. A step of the walk returns 0 and says through *found
** whether it found an item (0: the container has ended), or -1.
*/
#ifndef HOST_JSON_H
#define HOST_JSON_H

#include <stddef.h>

typedef struct json_span {
  const char *p;
  size_t n;
} json_span;

typedef struct json_iter {
  const char *p, *end;
  int state; /* 0: before '[' / '{', 1: first item, 2: after an item, 3: done */
} json_iter;

/* Walk the array or object that is text (leading whitespace allowed). */
void json_iter_init(json_iter *it, json_span text);
/* The next array element: 0 with *found (1: *elem; 0: after the last),
** -1 malformed. */
int json_next_element(json_iter *it, json_span *elem, int *found);
/* The next object member: 0 with *found (1: *key, the string token with
** its quotes, and *val; 0: after the last), -1 malformed. */
int json_next_member(json_iter *it, json_span *key, json_span *val, int *found);
/* json_next_element, reading an object element's members on the way:
** member(arg, key, val) for each, in order (up to where the object is
** malformed, if it is), so the element is scanned once, not once to find
** its end and again for its members. */
typedef void (*json_member_fn)(void *arg, json_span key, json_span val);
int json_next_element_members(json_iter *it, json_span *elem,
                              json_member_fn member, void *arg, int *found);

/* 1 if the string token key decodes to name. */
int json_key_is(json_span key, const char *name);
/* A string token decoded to UTF-8, malloc'ed; NULL when v is not a valid
** string or decodes to a NUL (the extension never writes one). */
char *json_string(json_span v);
/* An integer token into *out: 0, or -1 when v is not one. */
int json_int64(json_span v, long long *out);

#endif
