/*
** rezone.c -- stored link zone names rewritten as their zones (rezone.h;
** trigger_install, in its transaction, after rekey.c). A row written
** before link names were canonical may hold "US/Eastern", "Asia/Calcutta"
** or "Zulu"; each distinct stored name whose canonical spelling
** (tzdb_lookup) differs is rewritten on every row that holds it, and the
** row's dedupe key computed again from its columns (rekey.c), since a
** zone is part of a cron trigger's key.
**
** A rewritten key may now equal another active trigger's of the same
** agent (a "US/Eastern" and an "America/New_York" copy of one task): the
** older one (created_at, then id) keeps its status and key; the newer one
** is paused, its dedupe key NULL (so the unique index of active keys
** holds) and next_due_at NULL, with a last_error and an auto_paused event
** naming the older one. No row is deleted; resuming the newer one is
** refused as a duplicate while the older one is active.
**
** Done once: triggers_config holds zone_names = 'canonical' afterwards,
** and later installs read that one row. Without the system's tzdata.zi
** (no link table) nothing is marked, so an install on a machine that has
** it does the pass. Names that are no zone are left to the tick's
** quarantine.
*/
#include "store/rezone.h"

#include <string.h>

#include "store/rekey.h"
#include "text/dedupe.h"

SQLITE_EXTENSION_INIT3

/* One stored name and its canonical spelling. */
typedef struct rename_pair {
  char *from, *to;
} rename_pair;

typedef struct rezone {
  sqlite3 *db;
  i64 now;
  sqlite3_stmt *row, *dup, *set, *pause, *stop, *event;
} rezone;

static void pairs_free(rename_pair *v, int n) {
  for (int i = 0; i < n; i++) {
    sqlite3_free(v[i].from);
    sqlite3_free(v[i].to);
  }
  sqlite3_free(v);
}

/* The stored names whose canonical spelling differs: *out (n of them). */
static int renames(sqlite3 *db, tzdb *zones, rename_pair **out, int *n) {
  sqlite3_stmt *st = NULL;
  rename_pair *v = NULL;
  int cap = 0, rc = sqlite3_prepare_v2(
                   db, "SELECT DISTINCT timezone FROM main.triggers_data", -1,
                   &st, NULL);
  *n = 0;
  while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *name = (const char *)sqlite3_column_text(st, 0), *canon;
    const tz_zone *z;
    rc = SQLITE_OK;
    if (!name || tzdb_lookup(zones, name, &z, &canon, NULL, 0) != 0 ||
        strcmp(canon, name) == 0)
      continue;
    if (*n == cap) {
      rename_pair *w =
          sqlite3_realloc64(v, (cap = cap ? cap * 2 : 8) * sizeof *v);
      if (!w) rc = SQLITE_NOMEM;
      else v = w;
    }
    if (rc == SQLITE_OK) {
      v[*n].from = sqlite3_mprintf("%s", name);
      v[*n].to = sqlite3_mprintf("%s", canon);
      rc = v[*n].from && v[*n].to ? SQLITE_OK : SQLITE_NOMEM;
      (*n)++;
    }
  }
  sqlite3_finalize(st);
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc != SQLITE_OK) {
    pairs_free(v, *n);
    v = NULL;
    *n = 0;
  }
  *out = v;
  return rc;
}

/* The ids of the rows holding name, oldest first: *ids (n of them). */
static int rows_of(sqlite3 *db, const char *name, i64 **ids, int *n) {
  sqlite3_stmt *st = NULL;
  i64 *v = NULL;
  int cap = 0, rc = sqlite3_prepare_v2(
                   db,
                   "SELECT id FROM main.triggers_data WHERE timezone = ?1"
                   " ORDER BY created_at, id",
                   -1, &st, NULL);
  *n = 0;
  if (rc == SQLITE_OK) sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    rc = SQLITE_OK;
    if (*n == cap) {
      i64 *w = sqlite3_realloc64(v, (cap = cap ? cap * 2 : 64) * sizeof *v);
      if (!w) {
        rc = SQLITE_NOMEM;
        break;
      }
      v = w;
    }
    v[(*n)++] = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc != SQLITE_OK) {
    sqlite3_free(v);
    v = NULL;
    *n = 0;
  }
  *ids = v;
  return rc;
}

static int step_done(sqlite3_stmt *st) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Pause trigger `id` as the newer of two duplicates: its key NULL, the
** reason in last_error and an auto_paused event. */
static int pause_newer(rezone *z, i64 id, const char *why) {
  int rc;
  sqlite3_bind_int64(z->pause, 1, id);
  if ((rc = step_done(z->pause)) != SQLITE_OK) return rc;
  sqlite3_bind_int64(z->stop, 1, id);
  sqlite3_bind_text(z->stop, 2, why, -1, SQLITE_STATIC);
  if ((rc = step_done(z->stop)) != SQLITE_OK) return rc;
  sqlite3_bind_int64(z->event, 1, id);
  sqlite3_bind_int64(z->event, 2, z->now);
  sqlite3_bind_text(z->event, 3, why, -1, SQLITE_STATIC);
  return step_done(z->event);
}

/* Row `id` rewritten from p->from to p->to, its key computed again. */
static int rewrite_row(rezone *z, const rename_pair *p, i64 id) {
  char key[DEDUPE_KEY_LEN + 1];
  sqlite3_bind_int64(z->row, 1, id);
  sqlite3_bind_text(z->row, 2, p->to, -1, SQLITE_STATIC);
  int rc = sqlite3_step(z->row);
  if (rc != SQLITE_ROW) {
    sqlite3_reset(z->row);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  /* columns 1..7 for store_rekey_row; 8 agent_id, 9 active, 10 created_at,
  ** 11 trigger_id, 12 the stored key */
  int keyed = store_rekey_row(z->row, key) == 0;
  int active = sqlite3_column_int(z->row, 9);
  i64 created = sqlite3_column_int64(z->row, 10);
  char *agent = sqlite3_mprintf("%s", sqlite3_column_text(z->row, 8));
  char *self = sqlite3_mprintf("%s", sqlite3_column_text(z->row, 11));
  sqlite3_reset(z->row);
  if (!agent || !self) rc = SQLITE_NOMEM;
  else rc = SQLITE_OK;
  i64 other = 0, other_created = 0;
  char *other_id = NULL;
  if (rc == SQLITE_OK && keyed && active) {
    sqlite3_bind_text(z->dup, 1, agent, -1, SQLITE_STATIC);
    sqlite3_bind_text(z->dup, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(z->dup, 3, id);
    if ((rc = sqlite3_step(z->dup)) == SQLITE_ROW) {
      other = sqlite3_column_int64(z->dup, 0);
      other_created = sqlite3_column_int64(z->dup, 1);
      other_id = sqlite3_mprintf("%s", sqlite3_column_text(z->dup, 2));
      rc = other_id ? SQLITE_OK : SQLITE_NOMEM;
    } else if (rc == SQLITE_DONE) {
      rc = SQLITE_OK;
    }
    sqlite3_reset(z->dup);
  }
  /* the older of two duplicates stays as it is (docs/time.md#link-names) */
  int self_newer = other && (other_created < created ||
                             (other_created == created && other < id));
  if (rc == SQLITE_OK && other) {
    char *why = sqlite3_mprintf(
        "paused by trigger_install: time zone '%s' is stored as its zone "
        "'%s' now, which makes this trigger a duplicate of the older "
        "active trigger '%s' of agent '%s' (same instructions, type, "
        "schedule and scope)",
        p->from, p->to, self_newer ? other_id : self, agent);
    rc = why ? pause_newer(z, self_newer ? id : other, why) : SQLITE_NOMEM;
    sqlite3_free(why);
  }
  if (rc == SQLITE_OK) {
    sqlite3_bind_int64(z->set, 1, id);
    sqlite3_bind_text(z->set, 2, p->to, -1, SQLITE_STATIC);
    if (keyed && !self_newer)
      sqlite3_bind_text(z->set, 3, key, -1, SQLITE_STATIC);
    sqlite3_bind_int(z->set, 4, keyed && !self_newer);
    rc = step_done(z->set);
  }
  sqlite3_free(agent);
  sqlite3_free(self);
  sqlite3_free(other_id);
  return rc;
}

static const char *const rezone_sql[6] = {
    /* row: columns 1..7 as store_rekey_row reads them, the zone as ?2 */
    "SELECT id, instructions, trigger_type, interval_ms, scheduled_at,"
    " cron_expression, ?2, scope, agent_id,"
    " status IN ('scheduled', 'paused'), created_at, trigger_id, dedupe_key"
    " FROM main.triggers_data WHERE id = ?1",
    /* dup: another active trigger of the agent with the key */
    "SELECT id, created_at, trigger_id FROM main.triggers_data"
    " WHERE agent_id = ?1 AND dedupe_key = ?2 AND id <> ?3"
    " AND status IN ('scheduled', 'paused')",
    /* set: the zone, and the key when ?4 (else the key stays) */
    "UPDATE main.triggers_data SET timezone = ?2,"
    " dedupe_key = CASE WHEN ?4 THEN ?3 ELSE dedupe_key END WHERE id = ?1",
    /* pause: the newer duplicate */
    "UPDATE main.triggers_data SET enabled = 0, status = 'paused',"
    " dedupe_key = NULL WHERE id = ?1",
    /* stop: out of the tick's reach, with the reason */
    "UPDATE main.triggers_state SET next_due_at = NULL, fire_at = NULL,"
    " last_error = ?2 WHERE id = ?1",
    /* event: auto_paused, as the tick writes it */
    "INSERT INTO main.triggers_events(at, agent_id, scope, trigger_id, kind,"
    " code, detail) SELECT ?2, agent_id, scope, trigger_id, 'auto_paused',"
    " NULL, json_object('reason', ?3) FROM main.triggers_data WHERE id = ?1",
};

static int rename_all(rezone *z, const rename_pair *v, int n) {
  sqlite3_stmt **st[6] = {&z->row,   &z->dup,  &z->set,
                          &z->pause, &z->stop, &z->event};
  int rc = SQLITE_OK;
  for (int i = 0; i < 6 && rc == SQLITE_OK; i++)
    rc = sqlite3_prepare_v2(z->db, rezone_sql[i], -1, st[i], NULL);
  for (int k = 0; k < n && rc == SQLITE_OK; k++) {
    i64 *ids;
    int nid;
    if ((rc = rows_of(z->db, v[k].from, &ids, &nid)) != SQLITE_OK) break;
    for (int i = 0; i < nid && rc == SQLITE_OK; i++)
      rc = rewrite_row(z, &v[k], ids[i]);
    sqlite3_free(ids);
  }
  return rc;
}

/* The pass itself: the renames found, then made. */
static int rezone_all(sqlite3 *db, tzdb *zones, i64 now, char **err) {
  rename_pair *v;
  int n;
  int rc = renames(db, zones, &v, &n);
  if (rc != SQLITE_OK) {
    if (rc != SQLITE_NOMEM) *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    return rc;
  }
  rezone z = {db, now, NULL, NULL, NULL, NULL, NULL, NULL};
  rc = rename_all(&z, v, n);
  pairs_free(v, n);
  /* the message now: finalizing the statements resets it */
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  sqlite3_stmt *st[6] = {z.row, z.dup, z.set, z.pause, z.stop, z.event};
  for (int i = 0; i < 6; i++) sqlite3_finalize(st[i]);
  return rc;
}

int store_rezone(sqlite3 *db, tzdb *zones, i64 now, char **err) {
  int done;
  int rc = store_pass_done(db, "zone_names", "canonical", &done);
  if (rc != SQLITE_OK) {
    if (rc != SQLITE_NOMEM) *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    return rc;
  }
  if (done || !tzdb_has_links(zones)) return SQLITE_OK;
  if ((rc = rezone_all(db, zones, now, err)) != SQLITE_OK) return rc;
  return sqlite3_exec(db,
                      "INSERT OR REPLACE INTO main.triggers_config(key, value)"
                      " VALUES('zone_names', 'canonical')",
                      0, 0, err);
}
