/*
** plain_sqlite.c -- a program that links the system libsqlite3 and never
** loads an extension: it opens DB with sqlite3_open_v2 and runs each SQL
** argument, printing every row as `col|col|...`. Under
** LD_PRELOAD=build/triggers-preload.so it has the extension's functions
** and tables all the same (tests/py/test_preload.py).
**
**   build/plain-sqlite DB "SELECT trigger_version()" ...
**
** Exit status: 0, or 1 with SQLite's message on stderr at the first
** failing statement.
*/
#include <sqlite3.h>
#include <stdio.h>

static int print_row(void *unused, int n, char **vals, char **names) {
  (void)unused;
  (void)names;
  for (int i = 0; i < n; i++)
    printf("%s%s", i ? "|" : "", vals[i] ? vals[i] : "");
  putchar('\n');
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DB [SQL]...\n", argv[0]);
    return 2;
  }
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2(argv[1], &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  for (int i = 2; rc == SQLITE_OK && i < argc; i++) {
    char *err = NULL;
    rc = sqlite3_exec(db, argv[i], print_row, NULL, &err);
    if (rc != SQLITE_OK) fprintf(stderr, "%s: %s\n", argv[i], err);
    sqlite3_free(err);
  }
  if (rc != SQLITE_OK && !db) fprintf(stderr, "%s: cannot open\n", argv[1]);
  sqlite3_close(db);
  return rc == SQLITE_OK ? 0 : 1;
}
