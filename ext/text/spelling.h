/*
** spelling.h -- one name or enum value however a model spells it
** (docs/create-action.md#untidy-replies-normalization-and-ignored). Two
** spellings are the same when they are equal once ASCII letters are
** lower-cased and the separators '-', '_' and ASCII white space are left
** out, so "INTERVAL", "Inject-Now", "injectNow", "InjectNow", "inject_now"
** and " inject now " are all "inject_now", and <maxRuns>, <MaxRuns>,
** <max_runs>, <max-runs> and <MAXRUNS> all name max_runs. Every other byte
** (digits, punctuation, UTF-8) must be equal. A set whose members are never
** the same as each other (trigger.c's enums, the request's fields) so finds
** at most one. Pure: no SQLite, no allocation.
*/
#ifndef TRIGGERS_SPELLING_H
#define TRIGGERS_SPELLING_H

#include <stddef.h>

/* The n bytes at a (n need not reach a NUL; a NUL ends a) are the same
** name as the NUL-terminated b. */
int spelling_same_n(const char *a, size_t n, const char *b);
/* The NUL-terminated a and b are the same name. */
int spelling_same(const char *a, const char *b);

/* Index of the member of the NULL-terminated set that s is the same as,
** or -1. */
int spelling_find(const char *s, const char *const *set);

#endif
