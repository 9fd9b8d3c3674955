/*
** arena.h -- a bump allocator for short-lived texts: many small
** allocations freed all at once (trg_arena_reset), none moved while the
** arena lives. The tick builds a fire's run_id and JSON texts in one
** instead of one sqlite3_malloc each (arena.c).
*/
#ifndef TRG_ARENA_H
#define TRG_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;

typedef struct arena {
  arena_block *head; /* the block being filled; older ones follow */
} arena;

/* n bytes, 8-byte aligned; NULL when out of memory. */
void *trg_arena_alloc(arena *a, size_t n);
/* Forget every allocation; keeps the newest block for reuse. */
void trg_arena_reset(arena *a);
/* Free everything; the arena is empty and reusable. */
void trg_arena_free(arena *a);

#endif
