/*
** preload_sql.c -- the configured preload query: its text checked before
** it is prepared (nothing runs), prepared once per connection (once per
** call when it reads a virtual table: see preload_end), bound and
** stepped under a step bound and a value bound, with the extension's
** functions with side effects refusing meanwhile (preload_sql.h).
*/
#include "store/preload_sql.h"

#include <string.h>

#include "base/args.h"
#include "store/config.h"
#include "text/coverage.h"
#include "text/sql_tokens.h"

SQLITE_EXTENSION_INIT3

/* The values a claim binds, in the order of store_preload_args. */
enum { P_SCOPE, P_TRIGGER_ID, P_AGENT_ID, P_NOW, P_N };
static const char *const param_names[P_N] = {"scope", "trigger_id", "agent_id",
                                             "now"};

struct store_preload {
  trg_ctx *ctx;        /* the connection's, while a run steps (armed) */
  char *sql;           /* the configured text st was prepared from */
  sqlite3_stmt *st;    /* NULL: sql did not check (prepared again next call) */
  unsigned char *uses; /* uses[i]: the value of parameter i (1..nparam) */
  char *bad;           /* why sql did not prepare in this call (tried once) */
  int loaded;          /* the config was read in this call */
  int on;              /* a preload is configured */
  i64 max_bytes;
  int checks;     /* progress handler calls while the current run steps */
  int stopped;    /* the handler stopped it (PRELOAD_MAX_STEPS) */
  int armed;      /* open: the handler is installed, st started */
  int length_was; /* SQLITE_LIMIT_LENGTH before open lowered it (else -1) */
  int reads_vtab; /* st opens a virtual table: finalized after each call */
};

/* The value a parameter name stands for (-1: none of them). */
static int param_of(const char *name) {
  if (!name || !strchr(":@$", name[0])) return -1;
  for (int i = 0; i < P_N; i++) {
    if (strcmp(name + 1, param_names[i]) == 0) return i;
  }
  return -1;
}

/* The refusal of a text read without preparing it, into *why. */
static int refuse(char **why, char *msg) {
  *why = msg;
  return msg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* A token's text for a message: its copy, and that cut on a character
** (trg_echo, which may answer the copy itself: both live in the caller). */
typedef struct shown_buf {
  char copy[TRG_ECHO_MAX + 4];
  char echo[TRG_ECHO_MAX];
} shown_buf;

static const char *shown(const sqltok *t, shown_buf *b) {
  size_t n = t->n < sizeof b->copy - 1 ? t->n : sizeof b->copy - 1;
  memcpy(b->copy, t->p, n);
  b->copy[n] = 0;
  return trg_echo(b->copy, b->echo);
}

/* 1 when t names a PRAGMA's table (pragma_table_info, also quoted, or
** as a string, which SQLite reads as a name where one is expected). */
static int names_pragma(const sqltok *t) {
  if (t->kind != SQLTOK_WORD && t->kind != SQLTOK_QUOTED &&
      t->kind != SQLTOK_STRING)
    return 0;
  if (t->n < 7 || sqlite3_strnicmp(t->p, "pragma_", 7) != 0) return 0;
  /* a string that is not a name ('pragma_%') is a text */
  return t->kind != SQLTOK_STRING || sqltok_is_identifier(t->p, t->n);
}

/*
** The text read without preparing it (text/sql_tokens.h), since preparing
** a PRAGMA already acts: it must start as a query does (SELECT, VALUES or
** WITH: no other statement, no EXPLAIN), hold one statement (then only
** semicolons, comments, white space), use no PRAGMA table, and call no
** function of the extension with side effects (by name: SQLite refuses
** them in a view, so no view hides one; an application function that
** calls one is refused when it does, trg_ctx.in_preload). SQLITE_OK, or
** SQLITE_ERROR with *why, or SQLITE_NOMEM.
*/
static int check_text(const trg_ctx *c, const char *sql, char **why) {
  size_t len = strlen(sql), pos = 0;
  shown_buf buf;
  sqltok t = sqltok_next(sql, len, &pos), prev;
  if (t.kind == SQLTOK_END) {
    return refuse(why, sqlite3_mprintf("preload_sql holds no statement "
                                       "(NULL or '' clears it)"));
  }
  if (sqltok_is_word(&t, "pragma")) {
    sqltok name = sqltok_next(sql, len, &pos);
    return refuse(why, sqlite3_mprintf("preload_sql uses PRAGMA %s; a "
                                       "preload is one read-only query of "
                                       "the application's tables, and no "
                                       "PRAGMA",
                                       shown(&name, &buf)));
  }
  if (!sqltok_is_word(&t, "select") && !sqltok_is_word(&t, "values") &&
      !sqltok_is_word(&t, "with")) {
    return refuse(why, sqlite3_mprintf("preload_sql is not a query (it "
                                       "starts with '%s'); a preload is one "
                                       "read-only query (SELECT, VALUES, "
                                       "WITH ... SELECT)",
                                       shown(&t, &buf)));
  }
  for (int ended = 0; t.kind != SQLTOK_END;) {
    if (ended && t.kind != SQLTOK_SEMI) {
      return refuse(why, sqlite3_mprintf("preload_sql holds more than one "
                                         "statement; a preload is one "
                                         "read-only query"));
    }
    if (names_pragma(&t)) {
      return refuse(why, sqlite3_mprintf("preload_sql reads %s, a PRAGMA; "
                                         "a preload is one read-only query "
                                         "of the application's tables, and "
                                         "no PRAGMA",
                                         shown(&t, &buf)));
    }
    ended |= t.kind == SQLTOK_SEMI;
    prev = t;
    t = sqltok_next(sql, len, &pos);
    if (t.kind == SQLTOK_LPAREN &&
        (prev.kind == SQLTOK_WORD || prev.kind == SQLTOK_QUOTED) &&
        trg_ctx_is_side(c, prev.p, prev.n)) {
      return refuse(why, sqlite3_mprintf("preload_sql calls %s(), a "
                                         "function of sqlite-triggers with "
                                         "side effects; a preload may not "
                                         "call one",
                                         shown(&prev, &buf)));
    }
  }
  return SQLITE_OK;
}

/* Prepare sql and check it (see store_preload_check); on success *out and
** *uses (sqlite3_free) are set. */
static int prepare_checked(const trg_ctx *c, sqlite3 *db, const char *sql,
                           unsigned int flags, sqlite3_stmt **out,
                           unsigned char **uses, char **why) {
  sqlite3_stmt *st = NULL;
  *out = NULL;
  *uses = NULL;
  *why = NULL;
  int rc = check_text(c, sql, why);
  if (rc != SQLITE_OK) return rc;
  /* one query, checked to be one: what follows it is not prepared */
  rc = sqlite3_prepare_v3(db, sql, -1, flags, &st, NULL);
  if (rc != SQLITE_OK) {
    if (rc == SQLITE_NOMEM) return rc;
    *why =
        sqlite3_mprintf("preload_sql does not prepare: %s", sqlite3_errmsg(db));
    return *why ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (NEVER(!st)) { /* check_text found a statement */
    *why = sqlite3_mprintf(
        "preload_sql holds no statement (NULL or '' clears it)");
    return *why ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  /* refused: set with its message, which may fail to allocate (then the
  ** refusal stands and the error is SQLITE_NOMEM) */
  int refused = 1;
  if (!sqlite3_stmt_readonly(st)) {
    *why = sqlite3_mprintf("preload_sql is not read-only (it would change "
                           "the database); a preload is one read-only query");
  } else if (NEVER(sqlite3_column_count(st) == 0)) { /* a query has rows */
    *why = sqlite3_mprintf("preload_sql returns no rows; a preload is one "
                           "read-only query (SELECT, VALUES, WITH ... SELECT)");
  } else {
    refused = 0;
  }
  int n = sqlite3_bind_parameter_count(st);
  unsigned char *u = refused ? NULL : sqlite3_malloc(n + 1);
  for (int i = 1; u && i <= n && !refused; i++) {
    const char *name = sqlite3_bind_parameter_name(st, i);
    int p = param_of(name);
    if (p < 0) {
      refused = 1;
      *why = name ? sqlite3_mprintf(
                        "preload_sql names the parameter %s; it may name "
                        ":scope, :trigger_id, :agent_id, :now",
                        name)
                  : sqlite3_mprintf(
                        "preload_sql has a parameter without a name (?); it "
                        "may name :scope, :trigger_id, "
                        ":agent_id, :now");
      if (!*why) rc = SQLITE_NOMEM;
    }
    u[i] = (unsigned char)(p < 0 ? 0 : p);
  }
  if (refused || rc != SQLITE_OK || !u) {
    sqlite3_free(u);
    sqlite3_finalize(st);
    return *why ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  *out = st;
  *uses = u;
  return SQLITE_OK;
}

int store_preload_check(const trg_ctx *c, sqlite3 *db, const char *sql,
                        char **why) {
  sqlite3_stmt *st;
  unsigned char *uses;
  int rc = prepare_checked(c, db, sql, 0, &st, &uses, why);
  sqlite3_finalize(st);
  sqlite3_free(uses);
  return rc;
}

/* Forget the prepared statement and its text. */
static void forget(struct store_preload *p) {
  sqlite3_finalize(p->st);
  p->st = NULL;
  sqlite3_free(p->uses);
  p->uses = NULL;
  sqlite3_free(p->sql);
  p->sql = NULL;
  p->reads_vtab = 0;
}

/* The end of a call (drop: of the connection). A statement that opens a
** virtual table is finalized at the end of every call, not kept with the
** others: one that reads `triggers` or `trigger_runs` holds them
** connected, so SQLite would not disconnect them at close, the kept
** statements (freed by that disconnect) would never be finalized, and
** sqlite3_close would fail
** (docs/lifecycle.md#fire-time-preload-preload_sql). */
static void preload_end(store *s, int drop) {
  if (drop) {
    store_preload_free(s);
    return;
  }
  store_preload_close(s);
  if (s->preload && s->preload->reads_vtab) forget(s->preload);
}

/* The error of a failed config read (NOMEM when none was kept). */
static int read_failed(store *s) { return s->err ? s->err : SQLITE_NOMEM; }

int store_preload_ready(store *s, i64 *max_bytes, int *on) {
  struct store_preload *p = s->preload;
  *on = 0;
  if (!p) {
    p = s->preload = sqlite3_malloc(sizeof *p);
    if (!p) {
      if (!s->err) s->err = SQLITE_NOMEM;
      return s->err;
    }
    memset(p, 0, sizeof *p);
    s->preload_end = preload_end;
  }
  if (!p->loaded) {
    sqlite3_free(p->bad);
    p->bad = NULL;
    char *sql = store_config_get(s, "preload_sql");
    if (s->err) {
      sqlite3_free(sql);
      return read_failed(s);
    }
    p->on = sql && *sql;
    if (!p->on || !p->sql || strcmp(sql, p->sql) != 0 || !p->st) {
      forget(p); /* a text changed since: prepared again at open */
      p->sql = p->on ? sql : NULL;
    }
    if (p->sql != sql) sqlite3_free(sql);
    p->max_bytes = p->on ? store_config_int(s, "preload_max_bytes") : 0;
    if (s->err) return read_failed(s);
    p->loaded = 1;
  }
  *max_bytes = p->max_bytes;
  *on = p->on;
  return SQLITE_OK;
}

void store_preload_stale(store *s) {
  if (s->preload) s->preload->loaded = 0;
}

static int on_progress(void *arg) {
  struct store_preload *p = arg;
  if (++p->checks < PRELOAD_MAX_STEPS / PRELOAD_STEP_CHECK) return 0;
  p->stopped = 1;
  return 1;
}

/* Whether the checked query sql opens a virtual table, directly or
** through a view: its program has a VOpen (read from EXPLAIN, once per
** prepare). SQLITE_OK or the error of EXPLAIN (NOMEM, I/O). */
static int opens_vtab(sqlite3 *db, const char *sql, int *yes) {
  *yes = 0;
  char *text = sqlite3_mprintf("EXPLAIN %s", sql);
  if (!text) return SQLITE_NOMEM;
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, text, -1, &st, NULL);
  sqlite3_free(text);
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      const unsigned char *op = sqlite3_column_text(st, 1);
      if (op && strcmp((const char *)op, "VOpen") == 0) *yes = 1;
    }
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
  }
  sqlite3_finalize(st);
  return rc;
}

/* Prepare the configured text (checked) unless it is prepared; once per
** call when it does not check (p->bad: the same answer for every run). */
static int prepare_kept(struct store_preload *p, const trg_ctx *c, sqlite3 *db,
                        char **why) {
  if (p->bad) {
    *why = sqlite3_mprintf("%s", p->bad);
    return *why ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (p->st) return SQLITE_OK;
  int rc = prepare_checked(c, db, p->sql, SQLITE_PREPARE_PERSISTENT, &p->st,
                           &p->uses, why);
  if (rc == SQLITE_ERROR) p->bad = sqlite3_mprintf("%s", *why);
  if (rc == SQLITE_OK) rc = opens_vtab(db, p->sql, &p->reads_vtab);
  if (rc != SQLITE_OK && p->st) { /* not known: prepared again next time */
    sqlite3_finalize(p->st);
    p->st = NULL;
  }
  return rc;
}

/* Bind the run's values to the names the query uses. */
static int bind_args(struct store_preload *p, const store_preload_args *a) {
  int n = sqlite3_bind_parameter_count(p->st);
  const char *text[P_N] = {a->scope, a->trigger_id, a->agent_id, NULL};
  for (int i = 1; i <= n; i++) {
    int rc = p->uses[i] == P_NOW ? sqlite3_bind_int64(p->st, i, a->now)
                                 : sqlite3_bind_text(p->st, i, text[p->uses[i]],
                                                     -1, SQLITE_STATIC);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

int store_preload_open(store *s, const store_preload_args *a, char **why) {
  struct store_preload *p = s->preload;
  *why = NULL;
  int rc = prepare_kept(p, a->ctx, s->db, why);
  if (rc == SQLITE_OK) rc = bind_args(p, a);
  if (rc != SQLITE_OK) return rc;
  p->checks = p->stopped = 0;
  p->armed = 1;
  p->ctx = a->ctx;
  p->ctx->in_preload++; /* the functions with side effects refuse */
  sqlite3_progress_handler(s->db, PRELOAD_STEP_CHECK, on_progress, p);
  /* no value longer than any preload may be is made at all */
  p->length_was = sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH, -1);
  if (p->length_was > PRELOAD_VALUE_MAX)
    sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH, PRELOAD_VALUE_MAX);
  else p->length_was = -1;
  return SQLITE_OK;
}

/* An error no read-only query should survive: the database cannot be
** read (the transaction may be gone), or the application interrupted
** the call. */
static int fatal(int rc) {
  switch (rc & 0xff) {
    case SQLITE_NOMEM:
    case SQLITE_IOERR:
    case SQLITE_CORRUPT:
    case SQLITE_FULL:
    case SQLITE_NOTADB:
    case SQLITE_INTERRUPT: return 1;
    default: return 0;
  }
}

int store_preload_step(store *s, char **why) {
  struct store_preload *p = s->preload;
  *why = NULL;
  int rc = sqlite3_step(p->st);
  if (rc == SQLITE_ROW || rc == SQLITE_DONE) return rc;
  if (p->stopped) {
    *why = sqlite3_mprintf("preload_sql stopped after %d steps (a preload may "
                           "take at most that many)",
                           PRELOAD_MAX_STEPS);
  } else if ((rc & 0xff) == SQLITE_TOOBIG) { /* the bound set by open */
    *why = sqlite3_mprintf("preload_sql failed: %s (a preload's values are "
                           "at most %d bytes)",
                           sqlite3_errmsg(s->db),
                           sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH, -1));
  } else if (!fatal(rc)) {
    *why = sqlite3_mprintf("preload_sql failed: %s", sqlite3_errmsg(s->db));
  } else {
    return rc;
  }
  return *why ? SQLITE_ERROR : SQLITE_NOMEM;
}

int store_preload_ncol(store *s) {
  return sqlite3_column_count(s->preload->st);
}

int store_preload_col(store *s, int i, store_preload_val *v) {
  sqlite3_stmt *st = s->preload->st;
  memset(v, 0, sizeof *v);
  v->name = sqlite3_column_name(st, i);
  v->type = sqlite3_column_type(st, i);
  switch (v->type) {
    case SQLITE_INTEGER: v->i = sqlite3_column_int64(st, i); break;
    case SQLITE_FLOAT: v->r = sqlite3_column_double(st, i); break;
    case SQLITE_TEXT:
      v->p = (const char *)sqlite3_column_text(st, i);
      v->n = sqlite3_column_bytes(st, i);
      break;
    case SQLITE_BLOB:
      v->p = sqlite3_column_blob(st, i);
      v->n = sqlite3_column_bytes(st, i);
      break;
    default: break;
  }
  /* Out of memory while converting (a NULL text, or no name). */
  if (!v->name || (v->type == SQLITE_TEXT && !v->p) ||
      (v->type == SQLITE_BLOB && !v->p && v->n))
    return SQLITE_NOMEM;
  return SQLITE_OK;
}

void store_preload_close(store *s) {
  struct store_preload *p = s->preload;
  if (!p || !p->armed) return; /* never touch a handler it did not set */
  sqlite3_progress_handler(s->db, 0, NULL, NULL);
  if (p->length_was >= 0)
    sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH, p->length_was);
  p->ctx->in_preload--;
  p->armed = 0;
  p->ctx = NULL;
  sqlite3_reset(p->st);
  sqlite3_clear_bindings(p->st);
}

void store_preload_free(store *s) {
  if (!s->preload) return;
  store_preload_close(s);
  forget(s->preload);
  sqlite3_free(s->preload->bad);
  sqlite3_free(s->preload);
  s->preload = NULL;
}
