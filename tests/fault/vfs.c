/*
** tests/fault/vfs.c -- the failing disk and the refused locks of the
** fault harness's I/O modes (oom.c, --io and --busy): a VFS around the
** default one, registered as the default. With --io its file reads,
** writes, truncations, syncs and size reads ask fault_vfs_fails() first
** and, told to fail, return the error a real disk gives there (a write:
** SQLITE_FULL, the disk is full; the others: their SQLITE_IOERR_* code)
** without touching the file; with --busy, taking a lock on the database
** file answers SQLITE_BUSY, as when another connection holds it (the
** WAL's locks in shared memory are not refused: SQLite retries those for
** 10 s, then answers SQLITE_PROTOCOL, which says nothing of the calls).
** Unlocking, opening, the WAL's shared memory and everything else pass
** through: what is tested is how a call's statements, and the
** extension's handling of their failures, behave when the disk or
** another process refuses them.
*/
#include <stdlib.h>
#include <string.h>

#include "fault.h"

typedef struct faulty_file {
  sqlite3_file base;  /* pMethods = the faulty methods */
  sqlite3_file *real; /* the default VFS's file, allocated after this */
} faulty_file;

static sqlite3_vfs *real_vfs;
static sqlite3_io_methods faulty_methods;

static sqlite3_file *real_of(sqlite3_file *f) {
  return ((faulty_file *)f)->real;
}

static int f_close(sqlite3_file *f) {
  sqlite3_file *r = real_of(f);
  return r->pMethods ? r->pMethods->xClose(r) : SQLITE_OK;
}

static int f_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off) {
  if (fault_vfs_fails(FAULT_READ)) return SQLITE_IOERR_READ;
  sqlite3_file *r = real_of(f);
  return r->pMethods->xRead(r, buf, n, off);
}

static int f_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off) {
  if (fault_vfs_fails(FAULT_DISK)) return SQLITE_FULL;
  sqlite3_file *r = real_of(f);
  return r->pMethods->xWrite(r, buf, n, off);
}

static int f_truncate(sqlite3_file *f, sqlite3_int64 size) {
  if (fault_vfs_fails(FAULT_DISK)) return SQLITE_IOERR_TRUNCATE;
  sqlite3_file *r = real_of(f);
  return r->pMethods->xTruncate(r, size);
}

static int f_sync(sqlite3_file *f, int flags) {
  if (fault_vfs_fails(FAULT_DISK)) return SQLITE_IOERR_FSYNC;
  sqlite3_file *r = real_of(f);
  return r->pMethods->xSync(r, flags);
}

static int f_size(sqlite3_file *f, sqlite3_int64 *size) {
  if (fault_vfs_fails(FAULT_READ)) return SQLITE_IOERR_FSTAT;
  sqlite3_file *r = real_of(f);
  return r->pMethods->xFileSize(r, size);
}

static int f_lock(sqlite3_file *f, int lock) {
  if (fault_vfs_fails(FAULT_LOCK)) return SQLITE_BUSY;
  sqlite3_file *r = real_of(f);
  return r->pMethods->xLock(r, lock);
}

static int f_unlock(sqlite3_file *f, int lock) {
  sqlite3_file *r = real_of(f);
  return r->pMethods->xUnlock(r, lock);
}

static int f_reserved(sqlite3_file *f, int *out) {
  sqlite3_file *r = real_of(f);
  return r->pMethods->xCheckReservedLock(r, out);
}

static int f_control(sqlite3_file *f, int op, void *arg) {
  sqlite3_file *r = real_of(f);
  return r->pMethods->xFileControl(r, op, arg);
}

static int f_sector(sqlite3_file *f) {
  sqlite3_file *r = real_of(f);
  return r->pMethods->xSectorSize(r);
}

static int f_caps(sqlite3_file *f) {
  sqlite3_file *r = real_of(f);
  return r->pMethods->xDeviceCharacteristics(r);
}

static int f_shm_map(sqlite3_file *f, int pg, int sz, int extend,
                     void volatile **p) {
  sqlite3_file *r = real_of(f);
  return r->pMethods->xShmMap(r, pg, sz, extend, p);
}

static int f_shm_lock(sqlite3_file *f, int off, int n, int flags) {
  sqlite3_file *r = real_of(f);
  return r->pMethods->xShmLock(r, off, n, flags);
}

static void f_shm_barrier(sqlite3_file *f) {
  sqlite3_file *r = real_of(f);
  r->pMethods->xShmBarrier(r);
}

static int f_shm_unmap(sqlite3_file *f, int del) {
  sqlite3_file *r = real_of(f);
  return r->pMethods->xShmUnmap(r, del);
}

/* Memory-mapped reads would bypass xRead: not offered (version 2). */
static sqlite3_io_methods faulty_methods = {
    2,      f_close,   f_read,     f_write,       f_truncate,  f_sync,
    f_size, f_lock,    f_unlock,   f_reserved,    f_control,   f_sector,
    f_caps, f_shm_map, f_shm_lock, f_shm_barrier, f_shm_unmap, NULL,
    NULL};

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
                  int flags, int *out_flags) {
  (void)vfs;
  faulty_file *ff = (faulty_file *)f;
  ff->real = (sqlite3_file *)(ff + 1);
  memset(ff->real, 0, (size_t)real_vfs->szOsFile);
  int rc = real_vfs->xOpen(real_vfs, name, ff->real, flags, out_flags);
  /* xClose is called even when the open failed, if pMethods is set */
  f->pMethods = ff->real->pMethods ? &faulty_methods : NULL;
  return rc;
}

static int v_delete(sqlite3_vfs *vfs, const char *name, int sync) {
  (void)vfs;
  return real_vfs->xDelete(real_vfs, name, sync);
}

static int v_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
  (void)vfs;
  return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int v_full(sqlite3_vfs *vfs, const char *name, int n, char *out) {
  (void)vfs;
  return real_vfs->xFullPathname(real_vfs, name, n, out);
}

static void *v_dlopen(sqlite3_vfs *vfs, const char *name) {
  (void)vfs;
  return real_vfs->xDlOpen(real_vfs, name);
}

static void v_dlerror(sqlite3_vfs *vfs, int n, char *out) {
  (void)vfs;
  real_vfs->xDlError(real_vfs, n, out);
}

static void (*v_dlsym(sqlite3_vfs *vfs, void *h, const char *sym))(void) {
  (void)vfs;
  return real_vfs->xDlSym(real_vfs, h, sym);
}

static void v_dlclose(sqlite3_vfs *vfs, void *h) {
  (void)vfs;
  real_vfs->xDlClose(real_vfs, h);
}

static int v_random(sqlite3_vfs *vfs, int n, char *out) {
  (void)vfs;
  return real_vfs->xRandomness(real_vfs, n, out);
}

static int v_sleep(sqlite3_vfs *vfs, int us) {
  (void)vfs;
  return real_vfs->xSleep(real_vfs, us);
}

static int v_time(sqlite3_vfs *vfs, double *out) {
  (void)vfs;
  return real_vfs->xCurrentTime(real_vfs, out);
}

static int v_last_error(sqlite3_vfs *vfs, int n, char *out) {
  (void)vfs;
  return real_vfs->xGetLastError(real_vfs, n, out);
}

static int v_time64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
  (void)vfs;
  return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

static sqlite3_vfs faulty_vfs = {
    2,        0,         0,        NULL,    "faulty", NULL,
    v_open,   v_delete,  v_access, v_full,  v_dlopen, v_dlerror,
    v_dlsym,  v_dlclose, v_random, v_sleep, v_time,   v_last_error,
    v_time64, NULL,      NULL,     NULL};

int fault_vfs_install(void) {
  real_vfs = sqlite3_vfs_find(NULL);
  if (!real_vfs || real_vfs->iVersion < 2) return -1;
  faulty_vfs.szOsFile = (int)sizeof(faulty_file) + real_vfs->szOsFile;
  faulty_vfs.mxPathname = real_vfs->mxPathname;
  return sqlite3_vfs_register(&faulty_vfs, 1) == SQLITE_OK ? 0 : -1;
}
