/*
** usage_file.c -- a run's $TRIGGER_USAGE_FILE (usage_file.h): made before
** the command starts, read and removed after it ended, its JSON checked
** the way trigger_run_finish checks a usage, so that a usage the extension
** would refuse never costs the run its report: SQLite's json1 on an
** in-memory connection of the host's own, opened when first needed.
*/
#include "dispatch/usage_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/util.h"
#include "text/utf8.h"

char *usage_file_new(void) {
  const char *dir = getenv("TMPDIR");
  char *path = xprintf("%s/trigger-usage-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path); /* 0600, O_EXCL: no one else's file */
  if (fd < 0) {
    log_warn("cannot make the usage file %s: %s", path, strerror(errno));
    free(path);
    return NULL;
  }
  close(fd);
  return path;
}

/* The usage check: a JSON object; cost, when given, a number >= 0; tokens
** an integer >= 0 (ext/store/json.c's ST_JSON_USAGE, in one answer). */
#define USAGE_CHECK                                                       \
  "SELECT json_type(?1) = 'object'"                                       \
  " AND (json_type(?1, '$.cost') IS NULL OR (json_type(?1, '$.cost')"     \
  " IN ('integer', 'real') AND json_extract(?1, '$.cost') >= 0))"         \
  " AND (json_type(?1, '$.tokens') IS NULL OR (json_type(?1, '$.tokens')" \
  " = 'integer' AND json_extract(?1, '$.tokens') >= 0)),"                 \
  " json_extract(?1, '$.cost')"

/* 1 when text is a usage the extension takes; its cost (NULL: none). */
static int usage_ok(const char *text, double *cost, int *has_cost) {
  static sqlite3 *db; /* kept for the host's life */
  if (!db && sqlite3_open(":memory:", &db) != SQLITE_OK) {
    sqlite3_close(db);
    db = NULL;
    return 0;
  }
  sqlite3_stmt *st = NULL;
  int ok = sqlite3_prepare_v2(db, USAGE_CHECK, -1, &st, NULL) == SQLITE_OK &&
           sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC) == SQLITE_OK &&
           sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
  *has_cost = ok && sqlite3_column_type(st, 1) != SQLITE_NULL;
  *cost = *has_cost ? sqlite3_column_double(st, 1) : 0;
  sqlite3_finalize(st); /* malformed JSON: json_type's error, not ok */
  return ok;
}

/* Whether text is only white space. */
static int blank(const char *text) {
  return text[strspn(text, " \t\r\n")] == 0;
}

char *usage_file_take(const char *path, const char *run_id, double *cost,
                      int *has_cost) {
  *cost = 0;
  *has_cost = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  unlink(path);
  if (fd < 0) return NULL; /* the command removed it: nothing reported */
  char *buf = xmalloc(USAGE_FILE_MAX + 2);
  size_t n = 0;
  ssize_t r;
  while (n < USAGE_FILE_MAX + 1 &&
         ((r = read(fd, buf + n, USAGE_FILE_MAX + 1 - n)) > 0 ||
          (r < 0 && errno == EINTR)))
    if (r > 0) n += (size_t)r;
  close(fd);
  buf[n] = 0;
  const char *why =
      n > USAGE_FILE_MAX               ? "more than 4096 bytes"
      : !utf8_check(buf, n, NULL)      ? "not valid UTF-8 (or holds a NUL)"
      : blank(buf)                     ? NULL
      : !usage_ok(buf, cost, has_cost) ? "not a JSON object with cost a number"
                                         " >= 0 and tokens an integer >= 0"
                                       : NULL;
  if (why || blank(buf)) {
    if (why) log_warn("%s: usage file dropped: %s", run_id, why);
    free(buf);
    return NULL;
  }
  return buf;
}
