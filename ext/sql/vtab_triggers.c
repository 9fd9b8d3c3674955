/*
** vtab_triggers.c -- the `triggers` virtual table: one row per trigger.
**
**   CREATE VIRTUAL TABLE triggers USING triggers;   -- done by install.sql
**   INSERT INTO triggers(agent_id, instructions, trigger_type, interval_ms)
**     VALUES ('a1', 'Check the build', 'interval', 900000);
**   SELECT * FROM triggers WHERE agent_id = 'a1';   -- index probe
**
** Rows live in the shadow tables triggers_data and triggers_state (a
** trigger is one row of each, see store/schema.c). Reads go through
** vtab_scan.c: constraints on trigger_id, agent_id, status and
** next_due_at are answered from indexes. Writes (xUpdate) are validated
** completely before anything is written, so a rejected row changes
** nothing; SQLITE_VTAB_CONSTRAINT_SUPPORT makes OR IGNORE / OR ABORT /
** OR ROLLBACK behave as for ordinary tables, and OR REPLACE of an existing
** trigger_id updates that trigger in place, keeping its run history.
** A trigger inserted under the id of a deleted one is a new incarnation
** (store_next_incarnation): its runs get ids of their own (fire_json.h).
**
** Writes use the wall clock as "now" (for the first next_due_at of an
** INSERT, created_at is used when given, so inserts are deterministic).
**
** The table is SQLITE_VTAB_INNOCUOUS: views and SQL triggers may read and
** write it whatever PRAGMA trusted_schema says (an application's AFTER
** INSERT trigger creating a trigger: the outbox pattern). A write is
** validated like any INSERT and has no effect outside the database.
*/
#include <string.h>

#include "base/register.h"
#include "sql/vtab_scan.h"
#include "store/run_rows.h"
#include "store/schema.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

static const scan_key trigger_keys[] = {
    {TC_TRIGGER_ID, 1, 1.0},
    {TC_AGENT_ID, 0, 10.0},
    {TC_NEXT_DUE_AT, 0, 20.0},
    {TC_STATUS, 0, 100.0},
};

static const scan_desc triggers_desc = {
    "triggers",   STORE_VTAB_TRIGGERS,
    trg_cols,     TC_NPUBLIC,
    trigger_keys, sizeof trigger_keys / sizeof trigger_keys[0]};

static int triggers_open(sqlite3 *db, void *aux, int argc,
                         const char *const *argv, sqlite3_vtab **out,
                         char **err, int create) {
  trg_ctx *ctx = aux;
  if (strcmp(argv[1], "main") != 0 || strcmp(argv[2], "triggers") != 0 ||
      argc > 3) {
    *err = sqlite3_mprintf("triggers: create it as main.triggers with no "
                           "arguments (got %s.%s)",
                           argv[1], argv[2]);
    return SQLITE_ERROR;
  }
  int rc = create ? store_create(db, err) : store_check(db, err);
  if (rc == SQLITE_OK && create) rc = store_check(db, err);
  if (rc == SQLITE_OK) rc = scan_declare(db, &triggers_desc);
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  scan_tab *t = scan_tab_new(db, ctx, &triggers_desc);
  if (!t) return SQLITE_NOMEM;
  trg_ctx_retain(ctx);
  trg_ctx_table_connect(ctx); /* the tick's statements: context.h */
  *out = &t->base;
  return SQLITE_OK;
}

static int triggers_create(sqlite3 *db, void *aux, int argc,
                           const char *const *argv, sqlite3_vtab **out,
                           char **err) {
  return triggers_open(db, aux, argc, argv, out, err, 1);
}

static int triggers_connect(sqlite3 *db, void *aux, int argc,
                            const char *const *argv, sqlite3_vtab **out,
                            char **err) {
  return triggers_open(db, aux, argc, argv, out, err, 0);
}

static int triggers_disconnect(sqlite3_vtab *tab) {
  trg_ctx_table_disconnect(((scan_tab *)tab)->ctx);
  return scan_disconnect(tab);
}

static int triggers_destroy(sqlite3_vtab *tab) {
  scan_tab *t = (scan_tab *)tab;
  trg_ctx_stmts_drop(t->ctx); /* they read the tables dropped here */
  store_close(&t->st);
  int rc = store_drop(t->db);
  if (rc == SQLITE_OK) triggers_disconnect(tab);
  return rc;
}

static int triggers_shadow_name(const char *suffix) {
  return strcmp(suffix, "data") == 0 || strcmp(suffix, "state") == 0 ||
         strcmp(suffix, "rundata") == 0 || strcmp(suffix, "config") == 0;
}

/* Columns whose change reschedules the trigger. */
static const uint64_t schedule_cols =
    (1ull << TC_TRIGGER_TYPE) | (1ull << TC_INTERVAL_MS) |
    (1ull << TC_SCHEDULED_AT) | (1ull << TC_CRON_EXPRESSION) |
    (1ull << TC_TIMEZONE) | (1ull << TC_START_AT) | (1ull << TC_END_AT) |
    (1ull << TC_MAX_RUNS) | (1ull << TC_JITTER_MS);

/* dedupe_key, and the UNIQUE rule among an agent's active triggers. */
static int check_duplicate(scan_tab *t, trg_row *r, const sched_spec *spec,
                           char **err) {
  char *existing = NULL;
  int rc = trg_dedupe(r, spec);
  if (rc == SQLITE_OK) rc = trg_find_duplicate(&t->st, r, &existing);
  if (rc == SQLITE_OK && existing) {
    *err = sqlite3_mprintf("UNIQUE constraint failed: triggers.dedupe_key "
                           "(active trigger '%s' of agent '%s' has the same "
                           "instructions, type, schedule and scope)",
                           existing, val_text(&r->v[TC_AGENT_ID]));
    rc = SQLITE_CONSTRAINT_UNIQUE;
  }
  sqlite3_free(existing);
  return rc;
}

/* Apply a write to an existing row `old` (UPDATE, or INSERT OR REPLACE). */
static int update_existing(scan_tab *t, trg_row *old, trg_row *next,
                           uint64_t changed, i64 now, int now_is_created,
                           char **err) {
  sched_spec spec;
  if (strcmp(val_text(&old->v[TC_TRIGGER_ID]),
             val_text(&next->v[TC_TRIGGER_ID])) != 0) {
    *err = sqlite3_mprintf("triggers.trigger_id: cannot be changed (it "
                           "names the trigger's runs); insert a new trigger");
    return SQLITE_CONSTRAINT_CHECK;
  }
  int rc = trg_validate(t->ctx, &t->st, next, &spec, now, err);
  if (rc != SQLITE_OK) return rc;
  if (now_is_created) now = next->v[TC_CREATED_AT].i;
  int was_enabled = (int)old->v[TC_ENABLED].i;
  int enabled = (int)next->v[TC_ENABLED].i;
  const char *status = val_text(&old->v[TC_STATUS]);
  if (strcmp(status, "cancelled") == 0 &&
      (changed & (schedule_cols | (1ull << TC_ENABLED)))) {
    *err = sqlite3_mprintf("triggers: trigger '%s' is cancelled and cannot "
                           "be rescheduled or resumed",
                           val_text(&old->v[TC_TRIGGER_ID]));
    return SQLITE_CONSTRAINT_CHECK;
  }
  if (!enabled) {
    if (trg_is_active(next)) trg_pause(next);
  } else if (!was_enabled && (changed & (1ull << TC_ENABLED))) {
    trg_resume(next, &spec, now);
    val_set_int(&next->v[TC_FAIL_STREAK], 0); /* as trigger_resume does */
  } else if (changed & schedule_cols) {
    trg_arm(next, &spec, now);
  }
  val_set_int(&next->v[TC_UPDATED_AT], now);
  next->id = old->id;
  if ((rc = check_duplicate(t, next, &spec, err)) != SQLITE_OK) return rc;
  return store_trigger_save(&t->st, next);
}

static int copy_row(trg_row *dst, const trg_row *src) {
  row_clear(dst);
  dst->id = src->id;
  for (int i = 0; i < TC_NCOL; i++) {
    dst->v[i] = src->v[i];
    dst->v[i].t = NULL;
    if (src->v[i].t && val_set_text(&dst->v[i], src->v[i].t) != SQLITE_OK) {
      return SQLITE_NOMEM;
    }
    dst->v[i].bad = src->v[i].bad; /* still refused unless written anew */
  }
  return SQLITE_OK;
}

static int do_insert(scan_tab *t, sqlite3_value **vals, sqlite3_int64 *rowid,
                     char **err) {
  trg_row r, old;
  row_init(&r);
  row_init(&old);
  sched_spec spec;
  i64 now = trg_wall_clock_ms();
  int rc = trg_read_values(&r, vals, 0, NULL, err);
  int created_given = !r.v[TC_CREATED_AT].null;
  if (rc != SQLITE_OK) goto done;
  if (!r.v[TC_TRIGGER_ID].null) {
    rc = store_trigger_load(&t->st, val_text(&r.v[TC_TRIGGER_ID]), &old);
    if (rc == SQLITE_ROW) {
      if (sqlite3_vtab_on_conflict(t->db) != SQLITE_REPLACE) {
        *err = sqlite3_mprintf("UNIQUE constraint failed: triggers.trigger_id");
        rc = SQLITE_CONSTRAINT_UNIQUE;
        goto done;
      }
      /* OR REPLACE: the new definition, the old identity and history. */
      static const int kept[] = {TC_STATUS,      TC_RUN_COUNT,   TC_NEXT_DUE_AT,
                                 TC_LAST_RUN_AT, TC_LAST_STATUS, TC_LAST_ERROR,
                                 TC_FIRE_AT,     TC_CLAIMS,      TC_RUNNING,
                                 TC_FAIL_STREAK, TC_INCARNATION, TC_CREATED_AT};
      for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        int k = kept[i];
        if (k == TC_CREATED_AT && !r.v[k].null) continue;
        r.v[k] = old.v[k];
        r.v[k].t = NULL;
        if (old.v[k].t && (rc = val_set_text(&r.v[k], old.v[k].t))) goto done;
        r.v[k].bad = old.v[k].bad;
      }
      val_set_int(&old.v[TC_ENABLED],
                  1); /* resume only if asked (enabled=0 -> pause) */
      rc = update_existing(t, &old, &r, ~0ull & ~(1ull << TC_ENABLED), now,
                           created_given, err);
      *rowid = old.id;
      goto done;
    }
    if (rc != SQLITE_DONE) goto done;
  }
  rc = trg_validate(t->ctx, &t->st, &r, &spec, now, err);
  if (rc != SQLITE_OK) goto done;
  /* Determinism: created_at (given, or the clock's default) is "now". */
  now = r.v[TC_CREATED_AT].i;
  if (r.v[TC_TRIGGER_ID].null && (rc = trg_default_id(&t->st, &r, &spec)))
    goto done;
  /* A new trigger, perhaps under the id of a deleted one: its own
  ** incarnation, so its run ids never meet the old history's. */
  i64 inc;
  rc = store_next_incarnation(&t->st, val_text(&r.v[TC_TRIGGER_ID]), &inc);
  if (rc != SQLITE_OK) goto done;
  val_set_int(&r.v[TC_INCARNATION], inc);
  val_set_int(&r.v[TC_CLAIMS], 0);
  val_set_int(&r.v[TC_RUNNING], 0);
  val_set_int(&r.v[TC_FAIL_STREAK], 0);
  val_set_int(&r.v[TC_RUN_COUNT], 0);
  trg_arm(&r, &spec, now);
  val_set_int(&r.v[TC_UPDATED_AT], now);
  if ((rc = check_duplicate(t, &r, &spec, err)) != SQLITE_OK) goto done;
  rc = store_trigger_insert(&t->st, &r);
  *rowid = r.id;
done:
  row_clear(&r);
  row_clear(&old);
  return rc;
}

static int do_update(scan_tab *t, sqlite3_value *rowid, sqlite3_value **vals,
                     char **err) {
  trg_row old, next;
  row_init(&old);
  row_init(&next);
  uint64_t changed = 0;
  int rc = store_trigger_load_id(&t->st, sqlite3_value_int64(rowid), &old);
  if (rc == SQLITE_DONE) {
    rc = SQLITE_OK; /* row vanished: nothing to update */
    goto done;
  }
  if (rc != SQLITE_ROW) goto done;
  if ((rc = copy_row(&next, &old)) != SQLITE_OK) goto done;
  rc = trg_read_values(&next, vals, 1, &changed, err);
  if (rc == SQLITE_OK && changed) {
    rc = update_existing(t, &old, &next, changed, trg_wall_clock_ms(), 0, err);
  }
done:
  row_clear(&old);
  row_clear(&next);
  return rc;
}

static int triggers_update(sqlite3_vtab *tab, int argc, sqlite3_value **argv,
                           sqlite3_int64 *rowid) {
  scan_tab *t = (scan_tab *)tab;
  char *err = NULL;
  int rc;
  if (argc == 1) {
    rc = store_trigger_delete(&t->st, sqlite3_value_int64(argv[0]));
  } else if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    rc = do_insert(t, argv + 2, rowid, &err);
  } else if (sqlite3_value_int64(argv[0]) != sqlite3_value_int64(argv[1])) {
    err = sqlite3_mprintf("triggers: the rowid cannot be changed");
    rc = SQLITE_CONSTRAINT_CHECK;
  } else {
    rc = do_update(t, argv[0], argv + 2, &err);
  }
  if (rc != SQLITE_OK && !err && rc != SQLITE_NOMEM) {
    /* The connection's message, unless it is stale (our own failure). */
    int ec = sqlite3_errcode(t->db);
    err = sqlite3_mprintf("%s", ec == SQLITE_OK || ec == SQLITE_ROW ||
                                        ec == SQLITE_DONE
                                    ? sqlite3_errstr(rc)
                                    : sqlite3_errmsg(t->db));
  }
  if (err) scan_error(tab, rc, err);
  return rc;
}

static sqlite3_module triggers_module = {
    /* iVersion    */ 3,
    /* xCreate     */ triggers_create,
    /* xConnect    */ triggers_connect,
    /* xBestIndex  */ scan_best_index,
    /* xDisconnect */ triggers_disconnect,
    /* xDestroy    */ triggers_destroy,
    /* xOpen       */ scan_open,
    /* xClose      */ scan_close,
    /* xFilter     */ scan_filter,
    /* xNext       */ scan_next,
    /* xEof        */ scan_eof,
    /* xColumn     */ scan_column,
    /* xRowid      */ scan_rowid,
    /* xUpdate     */ triggers_update,
    /* xBegin      */ 0,
    /* xSync       */ 0,
    /* xCommit     */ 0,
    /* xRollback   */ 0,
    /* xFindMethod */ 0,
    /* xRename     */ scan_rename,
    /* xSavepoint  */ 0,
    /* xRelease    */ 0,
    /* xRollbackTo */ 0,
    /* xShadowName */ triggers_shadow_name,
};

int vtab_triggers_register(sqlite3 *db, trg_ctx *ctx) {
  trg_ctx_retain(ctx);
  return sqlite3_create_module_v2(db, "triggers", &triggers_module, ctx,
                                  trg_ctx_release);
}
