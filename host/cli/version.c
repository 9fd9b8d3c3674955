/*
** version.c -- the versions of trigger-host and of its extension (see
** version.h).
*/
#include "cli/version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "db/via.h"

char *version_of_db(hostdb *h) {
  const char *sql = "SELECT trigger_version()";
  char *out = NULL, *err = NULL;
  if (h->via) {
    if (via_run(h->via, h->path, sql, &out, &err) != 0) {
      free(err);
      return NULL;
    }
    return out;
  }
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    out = xstrdup((const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  return out;
}

int version_print(const host_opts *o) {
  printf("trigger-host %s\n", TRIGGERS_VERSION);
  host_opts mem = *o;
  mem.via = NULL;
  hostdb h;
  char *err = NULL;
  if (hostdb_open(&h, ":memory:", &mem, &err) != 0) {
    printf("extension not loaded: %s\n", err ? err : "cannot open :memory:");
  } else {
    char *v = version_of_db(&h);
    printf("extension %s %s", o->extension, v ? v : "(no trigger_version())");
    if (v && strcmp(v, TRIGGERS_VERSION) != 0)
      printf(" (differs from trigger-host's %s)", TRIGGERS_VERSION);
    putchar('\n');
    free(v);
  }
  free(err);
  hostdb_close(&h);
  return 0;
}
