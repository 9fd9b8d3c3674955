/*
** json_reply.h -- a JSON request in a model's reply
** (docs/create-action.md#untidy-replies-normalization-and-ignored): where
** an object that opens with '{' ends, reading strings and their escapes,
** so that the request is found inside a code fence or after prose
** ("Sure: {...}"). Pure: no SQLite; whether the span is valid JSON is the
** caller's question.
*/
#ifndef TRIGGERS_JSON_REPLY_H
#define TRIGGERS_JSON_REPLY_H

#include <stddef.h>

/* s[open] is '{': the offset after the '}' that closes it (braces inside
** strings are text), or 0 when the input ends first; then *string is the
** offset of a string still open at the end, or n when none is. */
size_t agent_json_object_end(const char *s, size_t n, size_t open,
                             size_t *string);

#endif
