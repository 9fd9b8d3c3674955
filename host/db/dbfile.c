/*
** dbfile.c -- the look at a database file before SQLite opens it (see
** dbfile.h): its size and its first 16 bytes, read with plain stdio.
*/
#include "db/dbfile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define HEADER_SIZE 100 /* SQLite's database header */

static const char magic[16] = "SQLite format 3"; /* and its NUL */

int dbfile_check(const char *path, int create, const char **why) {
  struct stat st;
  if (stat(path, &st) != 0) {
    if (errno == ENOENT) return 0; /* SQLite decides: created, or refused */
    *why = strerror(errno);
    return -1;
  }
  if (S_ISDIR(st.st_mode)) {
    *why = "a directory, not a database file";
    return -1;
  }
  if (st.st_size == 0) {
    if (create) return 0;
    *why = "an empty file (0 bytes), not a SQLite database (--create makes "
           "it one)";
    return -1;
  }
  if (!S_ISREG(st.st_mode)) return 0; /* a device or a FIFO: SQLite's */
  if (st.st_size < HEADER_SIZE) {
    *why = "not a SQLite database (shorter than SQLite's 100-byte header)";
    return -1;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    *why = strerror(errno);
    return -1;
  }
  char head[sizeof magic];
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (n != sizeof head || memcmp(head, magic, sizeof magic) != 0) {
    *why = "not a SQLite database (it does not start with SQLite's header, "
           "\"SQLite format 3\")";
    return -1;
  }
  return 0;
}
