/*
** arena.c -- the bump allocator of arena.h: blocks of at least
** ARENA_BLOCK bytes from sqlite3_malloc, filled front to back, every
** allocation aligned to 8 bytes (pointers, 64-bit integers).
*/
#include "base/arena.h"

#include <sqlite3ext.h>

SQLITE_EXTENSION_INIT3

#define ARENA_BLOCK 16384
#define ARENA_ALIGN 8

/* sqlite3_malloc aligns to 8 bytes, so does the arena: the header is
** three 8-byte words and every allocation a multiple of 8. */
struct arena_block {
  arena_block *next;
  size_t size, used; /* bytes of data[] */
  char data[];
};
_Static_assert(sizeof(arena_block) % ARENA_ALIGN == 0, "data[] is aligned");

void *trg_arena_alloc(arena *a, size_t n) {
  n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  arena_block *b = a->head;
  if (!b || b->size - b->used < n) {
    size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    b = sqlite3_malloc64(sizeof *b + size);
    if (!b) return NULL;
    b->size = size;
    b->used = 0;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

void trg_arena_reset(arena *a) {
  if (!a->head) return;
  arena_block *keep = a->head, *b = keep->next;
  while (b) {
    arena_block *next = b->next;
    sqlite3_free(b);
    b = next;
  }
  keep->next = NULL;
  keep->used = 0;
}

void trg_arena_free(arena *a) {
  trg_arena_reset(a);
  sqlite3_free(a->head);
  a->head = NULL;
}
