// The power-loss VFS itself: SQLite's "unix" VFS wrapped, each write, sync, truncation and
// deletion of a tracked file fed to the model (PowerLossModel.c) as an event.
#include "PowerLossModel.h"
#include "PowerLossVFS.h"

typedef struct File {
  sqlite3_file base;
  Tracked *tracked;  // NULL when passed through
  sqlite3_file *real;
} File;

static sqlite3_vfs *unixVFS;
static sqlite3_vfs vfs;
static sqlite3_io_methods methods;

// MARK: I/O methods

static int xClose(sqlite3_file *f) {
  File *p = (File *)f;
  int rc = p->real->pMethods ? p->real->pMethods->xClose(p->real) : SQLITE_OK;
  return rc;
}

static int xRead(sqlite3_file *f, void *buffer, int amount, sqlite3_int64 offset) {
  File *p = (File *)f;
  return p->real->pMethods->xRead(p->real, buffer, amount, offset);
}

static int xWrite(sqlite3_file *f, const void *buffer, int amount, sqlite3_int64 offset) {
  File *p = (File *)f;
  if (!p->tracked) return p->real->pMethods->xWrite(p->real, buffer, amount, offset);
  pthread_mutex_lock(&pl_lock);
  if (pl_event() == 1) {
    // The write at the cut was in flight: it may be torn, like the last unsynced one.
    pl_addOperation(p->tracked, 0, offset, buffer, amount);
    pthread_mutex_unlock(&pl_lock);
    return SQLITE_IOERR_WRITE;
  } else if (pl_isLost) {
    pthread_mutex_unlock(&pl_lock);
    return SQLITE_IOERR_WRITE;
  }
  pl_addOperation(p->tracked, 0, offset, buffer, amount);
  pthread_mutex_unlock(&pl_lock);
  return p->real->pMethods->xWrite(p->real, buffer, amount, offset);
}

static int xTruncate(sqlite3_file *f, sqlite3_int64 size) {
  File *p = (File *)f;
  if (!p->tracked) return p->real->pMethods->xTruncate(p->real, size);
  pthread_mutex_lock(&pl_lock);
  if (pl_event()) {
    pthread_mutex_unlock(&pl_lock);
    return SQLITE_IOERR_TRUNCATE;
  }
  pl_addOperation(p->tracked, 1, size, NULL, 0);
  pthread_mutex_unlock(&pl_lock);
  return p->real->pMethods->xTruncate(p->real, size);
}

static int xSync(sqlite3_file *f, int flags) {
  File *p = (File *)f;
  (void)flags;
  if (!p->tracked) return SQLITE_OK;
  pthread_mutex_lock(&pl_lock);
  if (pl_event()) {
    pthread_mutex_unlock(&pl_lock);
    return SQLITE_IOERR_FSYNC;
  }
  pl_syncFile(p->tracked);
  if (p->tracked->isMainDatabase || p->tracked->isWAL) pl_dataSyncs++;
  pthread_mutex_unlock(&pl_lock);
  return SQLITE_OK;
}

static int xFileSize(sqlite3_file *f, sqlite3_int64 *size) {
  File *p = (File *)f;
  return p->real->pMethods->xFileSize(p->real, size);
}
static int xLock(sqlite3_file *f, int level) {
  File *p = (File *)f;
  return p->real->pMethods->xLock(p->real, level);
}
static int xUnlock(sqlite3_file *f, int level) {
  File *p = (File *)f;
  return p->real->pMethods->xUnlock(p->real, level);
}
static int xCheckReservedLock(sqlite3_file *f, int *out) {
  File *p = (File *)f;
  return p->real->pMethods->xCheckReservedLock(p->real, out);
}
static int xFileControl(sqlite3_file *f, int op, void *arg) {
  File *p = (File *)f;
  return p->real->pMethods->xFileControl(p->real, op, arg);
}
static int xSectorSize(sqlite3_file *f) {
  File *p = (File *)f;
  return p->real->pMethods->xSectorSize(p->real);
}
static int xDeviceCharacteristics(sqlite3_file *f) {
  File *p = (File *)f;
  return p->real->pMethods->xDeviceCharacteristics(p->real);
}
static int xShmMap(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
  File *p = (File *)f;
  return p->real->pMethods->xShmMap(p->real, region, size, extend, out);
}
static int xShmLock(sqlite3_file *f, int offset, int n, int flags) {
  File *p = (File *)f;
  return p->real->pMethods->xShmLock(p->real, offset, n, flags);
}
static void xShmBarrier(sqlite3_file *f) {
  File *p = (File *)f;
  p->real->pMethods->xShmBarrier(p->real);
}
static int xShmUnmap(sqlite3_file *f, int deleteFlag) {
  File *p = (File *)f;
  return p->real->pMethods->xShmUnmap(p->real, deleteFlag);
}
// No memory-mapped reads: every page goes through xRead.
static int xFetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out) {
  (void)f;
  (void)offset;
  (void)amount;
  *out = NULL;
  return SQLITE_OK;
}
static int xUnfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
  (void)f;
  (void)offset;
  (void)page;
  return SQLITE_OK;
}

// MARK: VFS methods

static int vfsOpen(sqlite3_vfs *v, sqlite3_filename name, sqlite3_file *f, int flags,
                   int *outFlags) {
  (void)v;
  File *p = (File *)f;
  memset(p, 0, sizeof(File));
  p->real = (sqlite3_file *)(p + 1);
  int kind = flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL);
  int existed = name && access(name, F_OK) == 0;
  int rc = unixVFS->xOpen(unixVFS, name, p->real, flags, outFlags);
  if (rc != SQLITE_OK) {
    p->real->pMethods = NULL;
    return rc;
  }
  p->base.pMethods = &methods;
  if (kind && name) {
    pthread_mutex_lock(&pl_lock);
    if (kind == SQLITE_OPEN_MAIN_DB) pl_mainOpens++;
    Tracked *t = pl_find(name);
    if (!t) {
      t = calloc(1, sizeof(Tracked));
      t->path = strdup(name);
      t->isMainDatabase = kind == SQLITE_OPEN_MAIN_DB;
      t->isWAL = kind == SQLITE_OPEN_WAL;
      if (existed) {
        pl_readWhole(name, &t->durable, &t->durableSize, &t->durableExists);
        t->volatileExists = 1;
      } else {
        t->volatileExists = 1;
        t->recreated = 1;
        t->syncsDirectory = kind != SQLITE_OPEN_MAIN_DB;
      }
      t->next = pl_files;
      pl_files = t;
    } else if (!existed) {
      // Created anew after a deletion: pending operations of the old file are gone with it.
      pl_freeOperations(t);
      if (pl_lastWriteFile == t) pl_lastWriteFile = NULL;
      t->volatileExists = 1;
      t->recreated = 1;
      t->syncsDirectory = kind != SQLITE_OPEN_MAIN_DB;
    }
    p->tracked = t;
    pthread_mutex_unlock(&pl_lock);
  }
  return SQLITE_OK;
}

static int vfsDelete(sqlite3_vfs *v, const char *name, int syncDir) {
  (void)v;
  pthread_mutex_lock(&pl_lock);
  Tracked *t = pl_find(name);
  size_t length = strlen(name);
  int isLog = (length > 8 && strcmp(name + length - 8, "-journal") == 0) ||
              (length > 4 && strcmp(name + length - 4, "-wal") == 0);
  if (!t && isLog && access(name, F_OK) == 0) t = pl_track(name, 0);
  if (t) {
    if (pl_event()) {
      pthread_mutex_unlock(&pl_lock);
      return SQLITE_IOERR_DELETE;
    }
    pl_freeOperations(t);
    if (pl_lastWriteFile == t) pl_lastWriteFile = NULL;
    t->volatileExists = 0;
    t->recreated = 0;
    t->syncsDirectory = 0;
    if (syncDir || pl_unlinkDurable) {
      t->durableExists = 0;
      free(t->durable);
      t->durable = NULL;
      t->durableSize = 0;
    }
    if (syncDir) pl_syncDirectory();
  }
  pthread_mutex_unlock(&pl_lock);
  // The real unlink, without its directory sync (the model holds the durability).
  return unixVFS->xDelete(unixVFS, name, 0);
}

static int vfsAccess(sqlite3_vfs *v, const char *name, int flags, int *out) {
  (void)v;
  return unixVFS->xAccess(unixVFS, name, flags, out);
}
static int vfsFullPathname(sqlite3_vfs *v, const char *name, int size, char *out) {
  (void)v;
  return unixVFS->xFullPathname(unixVFS, name, size, out);
}
static void *vfsDlOpen(sqlite3_vfs *v, const char *name) {
  (void)v;
  return unixVFS->xDlOpen(unixVFS, name);
}
static void vfsDlError(sqlite3_vfs *v, int size, char *out) {
  (void)v;
  unixVFS->xDlError(unixVFS, size, out);
}
static void (*vfsDlSym(sqlite3_vfs *v, void *handle, const char *symbol))(void) {
  (void)v;
  return unixVFS->xDlSym(unixVFS, handle, symbol);
}
static void vfsDlClose(sqlite3_vfs *v, void *handle) {
  (void)v;
  unixVFS->xDlClose(unixVFS, handle);
}
static int vfsRandomness(sqlite3_vfs *v, int size, char *out) {
  (void)v;
  return unixVFS->xRandomness(unixVFS, size, out);
}
static int vfsSleep(sqlite3_vfs *v, int microseconds) {
  (void)v;
  return unixVFS->xSleep(unixVFS, microseconds);
}
static int vfsCurrentTime(sqlite3_vfs *v, double *out) {
  (void)v;
  return unixVFS->xCurrentTime(unixVFS, out);
}
static int vfsGetLastError(sqlite3_vfs *v, int size, char *out) {
  (void)v;
  return unixVFS->xGetLastError(unixVFS, size, out);
}
static int vfsCurrentTimeInt64(sqlite3_vfs *v, sqlite3_int64 *out) {
  (void)v;
  return unixVFS->xCurrentTimeInt64(unixVFS, out);
}

// MARK: Public functions

int powerloss_register(const char *name) {
  pthread_mutex_lock(&pl_lock);
  if (unixVFS) {
    pthread_mutex_unlock(&pl_lock);
    return SQLITE_OK;
  }
  unixVFS = sqlite3_vfs_find("unix");
  if (!unixVFS) {
    pthread_mutex_unlock(&pl_lock);
    return SQLITE_ERROR;
  }
  methods = (sqlite3_io_methods){
      3,           xClose,    xRead,     xWrite,      xTruncate,         xSync,
      xFileSize,   xLock,     xUnlock,   xCheckReservedLock,            xFileControl,
      xSectorSize, xDeviceCharacteristics, xShmMap, xShmLock, xShmBarrier, xShmUnmap,
      xFetch,      xUnfetch};
  vfs = (sqlite3_vfs){0};
  vfs.iVersion = 2;
  vfs.szOsFile = (int)sizeof(File) + unixVFS->szOsFile;
  vfs.mxPathname = unixVFS->mxPathname;
  vfs.zName = strdup(name);
  vfs.xOpen = vfsOpen;
  vfs.xDelete = vfsDelete;
  vfs.xAccess = vfsAccess;
  vfs.xFullPathname = vfsFullPathname;
  vfs.xDlOpen = vfsDlOpen;
  vfs.xDlError = vfsDlError;
  vfs.xDlSym = vfsDlSym;
  vfs.xDlClose = vfsDlClose;
  vfs.xRandomness = vfsRandomness;
  vfs.xSleep = vfsSleep;
  vfs.xCurrentTime = vfsCurrentTime;
  vfs.xGetLastError = vfsGetLastError;
  vfs.xCurrentTimeInt64 = vfsCurrentTimeInt64;
  pthread_mutex_unlock(&pl_lock);
  return sqlite3_vfs_register(&vfs, 0);
}
