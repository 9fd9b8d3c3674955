/*
** run_text.h -- a run's texts as a host reports them (the detail of
** trigger_run_finish: a failure's error, any other run's result): made
** valid UTF-8 and bounded, never refused, so a report is never lost.
** Pure: no SQLite, no allocation.
*/
#ifndef TRG_RUN_TEXT_H
#define TRG_RUN_TEXT_H

#include <stddef.h>

/*
** Copy the n bytes at in to out as valid UTF-8 of at most max bytes: each
** maximal ill-formed subsequence (a stray byte, an overlong form, a
** surrogate, a sequence cut short) becomes U+FFFD, as Unicode recommends
** and Python's errors="replace" does (utf8.c decides), and so does a NUL. The copy stops
** before the first character that would pass max, so it is cut on a
** character boundary. out has room for max + 1 bytes; it is
** NUL-terminated. Returns its length.
*/
size_t run_text_clean(const char *in, size_t n, size_t max, char *out);

#endif
