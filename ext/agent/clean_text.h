/*
** clean_text.h -- the summary's texts from outside made safe to show
** (docs/summary.md#redaction): redacted, blanks collapsed, cut; and the
** connection's cache of the texts it cleaned (trg_ctx.clean_texts), since
** a summary shows the same trigger ids, names and errors call after call
** and redaction was most of a call's cost (docs/performance.md).
*/
#ifndef TRIGGERS_CLEAN_TEXT_H
#define TRIGGERS_CLEAN_TEXT_H

#include "base/context.h"
#include "text/redact.h"

typedef struct clean_cache clean_cache;

/* What one call cleans texts with: the rules indexed once, and the
** connection's cache (NULL: none, every text is cleaned). */
typedef struct text_cleaner {
  redact_index rx;
  clean_cache *cache;
} text_cleaner;

/* The rules indexed and the cache of connection c (made on first use; NULL
** when out of memory: then nothing is cached). */
void text_cleaner_init(text_cleaner *tc, trg_ctx *c);

/* raw redacted, control characters and runs of white space collapsed to
** one space, trimmed, cut to max bytes (ending in "..."); *cut set when it
** was cut. A new sqlite3_malloc'd text, NULL when out of memory. */
char *clean_text(const text_cleaner *tc, const char *raw, int max, int *cut);

#endif
