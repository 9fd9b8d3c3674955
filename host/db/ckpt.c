/*
** ckpt.c -- the background checkpointer (see ckpt.h). The loop's thread
** only flags a slot and signals; the checkpointer's thread owns its
** connections. One mutex guards the flags and the stop request.
*/
#include "db/ckpt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/log.h"
#include "core/util.h"

struct ckpt_slot {
  ckpt *owner;
  hostdb *db;    /* read by the thread only for its path (never changes) */
  sqlite3 *conn; /* the thread's */
  int want;      /* a commit found the WAL long: checkpoint (mutex) */
  int64_t last;  /* monotonic ms of the last checkpoint (thread) */
};

struct ckpt {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int stop; /* mutex */
  ckpt_slot *slots;
  int n;
};

/* sqlite3_wal_hook of the host's connections: count frames, and wake the
** checkpointer when there are enough (replaces SQLite's automatic one).
** Past CKPT_LOOP_PAGES the thread's checkpoints have not caught up with
** the writer: one runs here, on the loop, between its transactions. */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames) {
  if (strcmp(name, "main") != 0) return SQLITE_OK;
  if (frames < CKPT_LOOP_PAGES) {
    ckpt_notify(arg, frames);
    return SQLITE_OK;
  }
  int log = 0, done = 0;
  int rc = sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE,
                                     &log, &done);
  log_debug("%s: checkpoint on the loop (WAL of %d frames): %s, %d of %d "
            "written back",
            ((ckpt_slot *)arg)->db->path, frames,
            rc == SQLITE_OK ? "ok" : sqlite3_errstr(rc), done, log);
  return SQLITE_OK;
}

void ckpt_notify(ckpt_slot *s, int frames) {
  if (frames < CKPT_PAGES) return;
  ckpt *c = s->owner;
  pthread_mutex_lock(&c->mu);
  if (!s->want) {
    s->want = 1;
    pthread_cond_signal(&c->cv);
  }
  pthread_mutex_unlock(&c->mu);
}

/* The thread's connection to s's database, opened on first use; it reads
** the database once, so that it knows the database is in WAL mode. */
static sqlite3 *conn_of(ckpt_slot *s) {
  if (s->conn) return s->conn;
  const char *path = s->db->path;
  int rc = sqlite3_open_v2(path, &s->conn, SQLITE_OPEN_READWRITE, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(s->conn, 1000);
    rc = sqlite3_exec(s->conn, "PRAGMA schema_version", NULL, NULL, NULL);
  }
  if (rc == SQLITE_OK) return s->conn;
  log_warn("%s: checkpointer: open: %s", path,
           s->conn ? sqlite3_errmsg(s->conn) : sqlite3_errstr(rc));
  sqlite3_close(s->conn);
  s->conn = NULL;
  return NULL;
}

static void checkpoint(ckpt_slot *s) {
  const char *path = s->db->path;
  if (!conn_of(s)) return;
  int log = 0, done = 0;
  int rc = sqlite3_wal_checkpoint_v2(s->conn, "main", SQLITE_CHECKPOINT_PASSIVE,
                                     &log, &done);
  if (rc != SQLITE_OK && rc != SQLITE_BUSY)
    log_warn("%s: checkpoint: %s", path, sqlite3_errmsg(s->conn));
  else
    log_debug("%s: checkpoint: %d of %d WAL frames written back", path, done,
              log);
}

static void *run(void *arg) {
  ckpt *c = arg;
  pthread_mutex_lock(&c->mu);
  while (!c->stop) {
    ckpt_slot *next = NULL;
    int64_t now = mono_ms(), wait_until = INT64_MAX;
    for (int i = 0; i < c->n && !next; i++) {
      ckpt_slot *s = &c->slots[i];
      if (!s->want) continue;
      if (now - s->last >= CKPT_GAP_MS) next = s;
      else if (s->last + CKPT_GAP_MS < wait_until)
        wait_until = s->last + CKPT_GAP_MS;
    }
    if (next) {
      next->want = 0;
      pthread_mutex_unlock(&c->mu);
      checkpoint(next);
      next->last = mono_ms();
      pthread_mutex_lock(&c->mu);
    } else if (wait_until == INT64_MAX) {
      pthread_cond_wait(&c->cv, &c->mu);
    } else { /* a gap to wait out; ckpt_stop's signal ends it at once */
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      long long ns = (long long)ts.tv_nsec + (wait_until - now) * 1000000LL;
      ts.tv_sec += (time_t)(ns / 1000000000LL);
      ts.tv_nsec = (long)(ns % 1000000000LL);
      pthread_cond_timedwait(&c->cv, &c->mu, &ts);
    }
  }
  pthread_mutex_unlock(&c->mu);
  return NULL;
}

ckpt *ckpt_start(hostdb *dbs, int ndbs) {
  int local = 0;
  for (int i = 0; i < ndbs; i++) local += !dbs[i].via;
  if (!local) return NULL;
  ckpt *c = xmalloc(sizeof *c);
  memset(c, 0, sizeof *c);
  c->slots = xmalloc(sizeof *c->slots * (size_t)ndbs);
  memset(c->slots, 0, sizeof *c->slots * (size_t)ndbs);
  c->n = ndbs;
  for (int i = 0; i < ndbs; i++) {
    c->slots[i].owner = c;
    c->slots[i].db = &dbs[i];
    c->slots[i].last = INT64_MIN / 2;
  }
  pthread_mutex_init(&c->mu, NULL);
  /* the gap's timed wait is on the monotonic clock, as mono_ms() */
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&c->cv, &ca);
  pthread_condattr_destroy(&ca);
  if (thread_start(&c->thread, run, c) != 0) {
    log_warn("cannot start the checkpointer thread: SQLite checkpoints "
             "inside commits");
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->cv);
    free(c->slots);
    free(c);
    return NULL;
  }
  for (int i = 0; i < ndbs; i++) /* replaces the automatic checkpoint */
    if (!dbs[i].via) sqlite3_wal_hook(dbs[i].db, wal_hook, &c->slots[i]);
  return c;
}

void ckpt_stop(ckpt *c) {
  if (!c) return;
  for (int i = 0; i < c->n; i++) { /* back to SQLite's own */
    hostdb *h = c->slots[i].db;
    if (!h->via && h->db) sqlite3_wal_autocheckpoint(h->db, CKPT_PAGES);
  }
  pthread_mutex_lock(&c->mu);
  c->stop = 1;
  pthread_cond_signal(&c->cv);
  pthread_mutex_unlock(&c->mu);
  pthread_join(c->thread, NULL);
  for (int i = 0; i < c->n; i++) sqlite3_close(c->slots[i].conn);
  pthread_mutex_destroy(&c->mu);
  pthread_cond_destroy(&c->cv);
  free(c->slots);
  free(c);
}
