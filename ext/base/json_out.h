/*
** json_out.h -- JSON appended to a sqlite3_str: a string literal of the
** extension's text (valid UTF-8), written by the pure text/json_write.c.
** Every JSON answer of the extension is built with it.
*/
#ifndef TRIGGERS_JSON_OUT_H
#define TRIGGERS_JSON_OUT_H

#include "base/triggers_int.h"

/* JSON string literal of s (escaped), or null when s is NULL. */
void json_str(sqlite3_str *out, const char *s);

#endif
