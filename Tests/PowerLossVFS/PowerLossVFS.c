// The power-loss VFS. The model it simulates, after https://sqlite.org/atomiccommit.html
// (section 2, "Hardware Assumptions") and the unix VFS's own syncs:
//
// - Tracked files are main databases, rollback journals and WALs. A `-shm` file is shared
//   memory (SQLite rebuilds it from the WAL when the first connection opens), so it is
//   passed through and removed at the power loss; temporary files are passed through.
// - Each tracked file has a durable image (what survives a power loss) and a list of
//   pending operations (writes and truncations since its last sync). The process reads
//   and writes the real file, which is the volatile image.
// - xSync makes the file's pending operations durable. The real fsync is skipped: the model
//   holds the durability, and the disk is not the bottleneck of the tests.
// - Directory entries: a file created by the process exists durably only after a directory
//   sync. As the unix VFS does, the first sync of a newly created journal or WAL syncs the
//   directory (it makes every creation and deletion so far durable), and so does an
//   xDelete with syncDir (the pager passes it at synchronous=EXTRA only). A deletion
//   without one is durable at once only when `powerloss_begin` says so: what FULL relies
//   on, since atomiccommit.html takes a deletion as atomic and the commit of a DELETE
//   journal is that deletion.
// - A rename(2) and a directory fsync made outside SQLite (a backup put in place) reach the
//   model when the code under test makes them through `powerloss_rename_event` and
//   `powerloss_sync_directory_event`: each is an event, so a cut can fall on it. A rename
//   happens on the real disk at once; in the model the new name holds the renamed inode
//   (its durable content and pending writes) while both names keep their durable entries
//   until a sync of their folder (a directory fsync, or the first sync of a new journal or
//   WAL there, as above). At the restore, a rename not yet durable is undone: the target
//   gets back what it durably held (or is removed), the source name the inode's content
//   when its own entry was durable.
// - Events are xWrite, xSync, xTruncate and xDelete on tracked files, counted from
//   `powerloss_begin`. The event at the cut does not happen (a write there is in flight and
//   may be torn); every later write, sync, truncation and deletion fails with SQLITE_IOERR
//   and changes nothing, as if the process had died with the machine.
// - At the restore, unsynced operations are dropped (or each kept with probability 1/2,
//   in order), and the last unsynced write may be torn: SQLite assumes a sector write is
//   not atomic but linear, and the unix VFS claims powersafe overwrite, so a torn write
//   changes its own range only, new data first.
// - Memory-mapped reads are off (xFetch hands out no page), so every read is an xRead.
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700  // realpath
#include "PowerLossVFS.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct Operation {
  int isTruncate;
  sqlite3_int64 offset;  // the size, for a truncation
  int length;
  unsigned char *data;
} Operation;

typedef struct Tracked {
  char *path;
  int isMainDatabase;
  int isWAL;
  unsigned char *durable;
  sqlite3_int64 durableSize;
  int durableExists;
  int volatileExists;
  // The volatile file was created anew after the durable image (another inode): its
  // pending operations start from an empty file.
  int recreated;
  // Its first sync also syncs the directory (a journal or WAL this process created).
  int syncsDirectory;
  Operation *operations;
  int operationCount, operationCapacity;
  // A rename onto this name whose directory entry is not durable yet: what the name
  // durably held before it, and the name the inode came from.
  int renamePending;
  unsigned char *priorDurable;
  sqlite3_int64 priorSize;
  int priorExists;
  struct Tracked *renamedFrom;
  // The name this one's inode was renamed to, while that rename is not durable.
  struct Tracked *movedTo;
  struct Tracked *next;
} Tracked;

typedef struct File {
  sqlite3_file base;
  Tracked *tracked;  // NULL when passed through
  sqlite3_file *real;
} File;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sqlite3_vfs *unixVFS;
static sqlite3_vfs vfs;
static sqlite3_io_methods methods;
static Tracked *files;
static int64_t eventCount, cutAt;
static int isLost, unlinkDurable, mainOpens, dataSyncs, renamesUndone;
// The write in flight at the cut, kept as the last pending write of its file.
static Tracked *lastWriteFile;

static void freeOperations(Tracked *t) {
  for (int i = 0; i < t->operationCount; i++) free(t->operations[i].data);
  t->operationCount = 0;
}

static Tracked *find(const char *path) {
  for (Tracked *t = files; t; t = t->next)
    if (strcmp(t->path, path) == 0) return t;
  return NULL;
}

static void readWhole(const char *path, unsigned char **data, sqlite3_int64 *size, int *exists) {
  *data = NULL;
  *size = 0;
  *exists = 0;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return;
  *exists = 1;
  struct stat st;
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    *data = malloc((size_t)st.st_size);
    sqlite3_int64 done = 0;
    while (done < st.st_size) {
      ssize_t n = pread(fd, *data + done, (size_t)(st.st_size - done), done);
      if (n <= 0) break;
      done += n;
    }
    *size = done;
  }
  close(fd);
}

static Tracked *track(const char *path, int isMainDatabase) {
  Tracked *t = find(path);
  if (t) return t;
  t = calloc(1, sizeof(Tracked));
  t->path = strdup(path);
  t->isMainDatabase = isMainDatabase;
  readWhole(path, &t->durable, &t->durableSize, &t->durableExists);
  t->volatileExists = t->durableExists;
  t->next = files;
  files = t;
  return t;
}

// Applies one operation to an image.
static void apply(unsigned char **image, sqlite3_int64 *size, const Operation *op, int length) {
  if (op->isTruncate) {
    if (op->offset < *size) *size = op->offset;
    return;
  }
  sqlite3_int64 end = op->offset + length;
  if (end > *size) {
    *image = realloc(*image, (size_t)end);
    // New space holds garbage before it is written (atomiccommit.html); zeros here.
    memset(*image + *size, 0, (size_t)(end - *size));
    *size = end;
  }
  memcpy(*image + op->offset, op->data, (size_t)length);
}

// Whether the file at `path` is in the folder `directory` (NULL: any folder).
static int isInDirectory(const char *path, const char *directory) {
  if (!directory) return 1;
  char *copy = strdup(path);
  char *slash = strrchr(copy, '/');
  if (slash) *slash = 0;
  char folder[4096], wanted[4096];
  int same = realpath(slash ? (copy[0] ? copy : "/") : ".", folder) &&
             realpath(directory, wanted) && strcmp(folder, wanted) == 0;
  free(copy);
  return same;
}

// Makes the directory entries of the files in `directory` (every folder for NULL) durable:
// creations, deletions and renames.
static void syncDirectoryOf(const char *directory) {
  for (Tracked *t = files; t; t = t->next) {
    if (!t->renamePending || !isInDirectory(t->path, directory)) continue;
    free(t->priorDurable);
    t->priorDurable = NULL;
    t->priorSize = 0;
    t->renamePending = 0;
    if (t->renamedFrom) t->renamedFrom->movedTo = NULL;
    t->renamedFrom = NULL;
  }
  for (Tracked *t = files; t; t = t->next) {
    if (t->durableExists == t->volatileExists || !isInDirectory(t->path, directory)) continue;
    t->durableExists = t->volatileExists;
    if (!t->durableExists) {
      free(t->durable);
      t->durable = NULL;
      t->durableSize = 0;
    } else if (t->recreated) {
      // Its entry is durable, its content only what was synced: nothing yet.
      free(t->durable);
      t->durable = NULL;
      t->durableSize = 0;
      // Pending operations now apply to this (empty) durable image.
      t->recreated = 0;
    }
  }
}

static void syncDirectory(void) { syncDirectoryOf(NULL); }

static void syncFile(Tracked *t) {
  if (t->recreated) {
    free(t->durable);
    t->durable = NULL;
    t->durableSize = 0;
    // Its entry becomes durable with the next directory sync, with this content.
    t->recreated = 0;
  }
  for (int i = 0; i < t->operationCount; i++)
    apply(&t->durable, &t->durableSize, &t->operations[i], t->operations[i].length);
  freeOperations(t);
  if (t == lastWriteFile) lastWriteFile = NULL;
  if (t->syncsDirectory) {
    t->syncsDirectory = 0;
    syncDirectory();
  }
}

// Counts an event: 0 when it may happen, 1 when the power goes off at it, 2 when it was
// already off.
static int event(void) {
  if (isLost) return 2;
  eventCount++;
  if (cutAt > 0 && eventCount >= cutAt) {
    isLost = 1;
    return 1;
  }
  return 0;
}

static void addOperation(Tracked *t, int isTruncate, sqlite3_int64 offset, const void *data,
                         int length) {
  if (t->operationCount == t->operationCapacity) {
    t->operationCapacity = t->operationCapacity ? t->operationCapacity * 2 : 16;
    t->operations = realloc(t->operations, sizeof(Operation) * (size_t)t->operationCapacity);
  }
  Operation *op = &t->operations[t->operationCount++];
  op->isTruncate = isTruncate;
  op->offset = offset;
  op->length = length;
  op->data = NULL;
  if (!isTruncate) {
    op->data = malloc((size_t)length);
    memcpy(op->data, data, (size_t)length);
    lastWriteFile = t;
  }
}

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
  pthread_mutex_lock(&lock);
  if (event() == 1) {
    // The write at the cut was in flight: it may be torn, like the last unsynced one.
    addOperation(p->tracked, 0, offset, buffer, amount);
    pthread_mutex_unlock(&lock);
    return SQLITE_IOERR_WRITE;
  } else if (isLost) {
    pthread_mutex_unlock(&lock);
    return SQLITE_IOERR_WRITE;
  }
  addOperation(p->tracked, 0, offset, buffer, amount);
  pthread_mutex_unlock(&lock);
  return p->real->pMethods->xWrite(p->real, buffer, amount, offset);
}

static int xTruncate(sqlite3_file *f, sqlite3_int64 size) {
  File *p = (File *)f;
  if (!p->tracked) return p->real->pMethods->xTruncate(p->real, size);
  pthread_mutex_lock(&lock);
  if (event()) {
    pthread_mutex_unlock(&lock);
    return SQLITE_IOERR_TRUNCATE;
  }
  addOperation(p->tracked, 1, size, NULL, 0);
  pthread_mutex_unlock(&lock);
  return p->real->pMethods->xTruncate(p->real, size);
}

static int xSync(sqlite3_file *f, int flags) {
  File *p = (File *)f;
  (void)flags;
  if (!p->tracked) return SQLITE_OK;
  pthread_mutex_lock(&lock);
  if (event()) {
    pthread_mutex_unlock(&lock);
    return SQLITE_IOERR_FSYNC;
  }
  syncFile(p->tracked);
  if (p->tracked->isMainDatabase || p->tracked->isWAL) dataSyncs++;
  pthread_mutex_unlock(&lock);
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
    pthread_mutex_lock(&lock);
    if (kind == SQLITE_OPEN_MAIN_DB) mainOpens++;
    Tracked *t = find(name);
    if (!t) {
      t = calloc(1, sizeof(Tracked));
      t->path = strdup(name);
      t->isMainDatabase = kind == SQLITE_OPEN_MAIN_DB;
      t->isWAL = kind == SQLITE_OPEN_WAL;
      if (existed) {
        readWhole(name, &t->durable, &t->durableSize, &t->durableExists);
        t->volatileExists = 1;
      } else {
        t->volatileExists = 1;
        t->recreated = 1;
        t->syncsDirectory = kind != SQLITE_OPEN_MAIN_DB;
      }
      t->next = files;
      files = t;
    } else if (!existed) {
      // Created anew after a deletion: pending operations of the old file are gone with it.
      freeOperations(t);
      if (lastWriteFile == t) lastWriteFile = NULL;
      t->volatileExists = 1;
      t->recreated = 1;
      t->syncsDirectory = kind != SQLITE_OPEN_MAIN_DB;
    }
    p->tracked = t;
    pthread_mutex_unlock(&lock);
  }
  return SQLITE_OK;
}

static int vfsDelete(sqlite3_vfs *v, const char *name, int syncDir) {
  (void)v;
  pthread_mutex_lock(&lock);
  Tracked *t = find(name);
  size_t length = strlen(name);
  int isLog = (length > 8 && strcmp(name + length - 8, "-journal") == 0) ||
              (length > 4 && strcmp(name + length - 4, "-wal") == 0);
  if (!t && isLog && access(name, F_OK) == 0) t = track(name, 0);
  if (t) {
    if (event()) {
      pthread_mutex_unlock(&lock);
      return SQLITE_IOERR_DELETE;
    }
    freeOperations(t);
    if (lastWriteFile == t) lastWriteFile = NULL;
    t->volatileExists = 0;
    t->recreated = 0;
    t->syncsDirectory = 0;
    if (syncDir || unlinkDurable) {
      t->durableExists = 0;
      free(t->durable);
      t->durable = NULL;
      t->durableSize = 0;
    }
    if (syncDir) syncDirectory();
  }
  pthread_mutex_unlock(&lock);
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
  pthread_mutex_lock(&lock);
  if (unixVFS) {
    pthread_mutex_unlock(&lock);
    return SQLITE_OK;
  }
  unixVFS = sqlite3_vfs_find("unix");
  if (!unixVFS) {
    pthread_mutex_unlock(&lock);
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
  pthread_mutex_unlock(&lock);
  return sqlite3_vfs_register(&vfs, 0);
}

void powerloss_begin(int unlinkIsDurable) {
  pthread_mutex_lock(&lock);
  while (files) {
    Tracked *t = files;
    files = t->next;
    freeOperations(t);
    free(t->operations);
    free(t->durable);
    free(t->priorDurable);
    free(t->path);
    free(t);
  }
  eventCount = 0;
  renamesUndone = 0;
  cutAt = 0;
  isLost = 0;
  mainOpens = 0;
  dataSyncs = 0;
  lastWriteFile = NULL;
  unlinkDurable = unlinkIsDurable;
  pthread_mutex_unlock(&lock);
}

void powerloss_arm(int64_t cut) {
  pthread_mutex_lock(&lock);
  cutAt = cut;
  pthread_mutex_unlock(&lock);
}

int64_t powerloss_events(void) {
  pthread_mutex_lock(&lock);
  int64_t count = eventCount;
  pthread_mutex_unlock(&lock);
  return count;
}

int powerloss_lost(void) {
  pthread_mutex_lock(&lock);
  int lost = isLost;
  pthread_mutex_unlock(&lock);
  return lost;
}

void powerloss_cut_now(void) {
  pthread_mutex_lock(&lock);
  isLost = 1;
  pthread_mutex_unlock(&lock);
}

int powerloss_main_opens(void) {
  pthread_mutex_lock(&lock);
  int count = mainOpens;
  pthread_mutex_unlock(&lock);
  return count;
}

int powerloss_data_syncs(void) {
  pthread_mutex_lock(&lock);
  int count = dataSyncs;
  pthread_mutex_unlock(&lock);
  return count;
}

void powerloss_track(const char *path) {
  pthread_mutex_lock(&lock);
  track(path, 1);
  pthread_mutex_unlock(&lock);
}

int powerloss_rename_event(const char *from, const char *to) {
  pthread_mutex_lock(&lock);
  if (event()) {
    pthread_mutex_unlock(&lock);
    return EIO;
  }
  Tracked *source = find(from);
  // The target as the disk holds it before the rename replaces it.
  Tracked *target = source && !find(to) ? track(to, source->isMainDatabase) : find(to);
  if (rename(from, to) != 0) {
    int code = errno;
    pthread_mutex_unlock(&lock);
    return code;
  }
  if (source && target && source != target) {
    // The name `to` now holds the source's inode; what it durably held stays its durable
    // entry until the folder is synced (kept from the first rename onto it since then).
    if (!target->renamePending) {
      target->priorDurable = target->durable;
      target->priorSize = target->durableSize;
      target->priorExists = target->durableExists;
      target->renamePending = 1;
    } else {
      free(target->durable);
    }
    if (target->renamedFrom) target->renamedFrom->movedTo = NULL;
    target->renamedFrom = source;
    source->movedTo = target;
    target->durable = source->durable;
    target->durableSize = source->durableSize;
    target->durableExists = source->durableExists;
    freeOperations(target);
    free(target->operations);
    target->operations = source->operations;
    target->operationCount = source->operationCount;
    target->operationCapacity = source->operationCapacity;
    target->recreated = source->recreated;
    target->isMainDatabase = source->isMainDatabase;
    target->volatileExists = 1;
    if (lastWriteFile == source) lastWriteFile = target;
    // The source name keeps its durable entry (source->durableExists) until the sync.
    source->durable = NULL;
    source->durableSize = 0;
    source->volatileExists = 0;
    source->operations = NULL;
    source->operationCount = source->operationCapacity = 0;
    source->recreated = 0;
  }
  pthread_mutex_unlock(&lock);
  return 0;
}

int powerloss_sync_directory_event(const char *directory) {
  pthread_mutex_lock(&lock);
  if (event()) {
    pthread_mutex_unlock(&lock);
    return EIO;
  }
  // The model holds the durability: no real fsync, as for xSync.
  syncDirectoryOf(directory);
  pthread_mutex_unlock(&lock);
  return 0;
}

int powerloss_renames_undone(void) {
  pthread_mutex_lock(&lock);
  int count = renamesUndone;
  pthread_mutex_unlock(&lock);
  return count;
}

const char *powerloss_tracked_path(const char *prefix) {
  size_t length = strlen(prefix);
  const char *found = NULL;
  pthread_mutex_lock(&lock);
  for (Tracked *t = files; t; t = t->next)
    if (t->isMainDatabase && strlen(t->path) > length && strncmp(t->path, prefix, length) == 0)
      found = t->path;
  pthread_mutex_unlock(&lock);
  return found;
}

static uint64_t nextRandom(uint64_t *state) {
  // splitmix64
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void writeWhole(const char *path, const unsigned char *data, sqlite3_int64 size) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  sqlite3_int64 done = 0;
  while (done < size) {
    ssize_t n = pwrite(fd, data + done, (size_t)(size - done), done);
    if (n <= 0) break;
    done += n;
  }
  close(fd);
}

// The image a power loss leaves of a file's inode: its durable content, with each pending
// operation dropped or (in mode 1) kept, the last write maybe torn.
static void survivingImage(Tracked *t, uint64_t *state, int mode, int *dropped,
                           unsigned char **outImage, sqlite3_int64 *outSize) {
  unsigned char *image = NULL;
  sqlite3_int64 size = t->durableSize;
  if (size > 0) {
    image = malloc((size_t)size);
    memcpy(image, t->durable, (size_t)size);
  }
  // Pending operations apply to this image only when they belong to the same file.
  if (!t->recreated) {
    for (int i = 0; i < t->operationCount; i++) {
      const Operation *op = &t->operations[i];
      int isLast = t == lastWriteFile && i == t->operationCount - 1;
      if (isLast && !op->isTruncate) {
        // The last unsynced write: torn half the time (its first half, in 512-byte
        // sectors when it spans more than one), dropped otherwise.
        if (nextRandom(state) & 1) {
          int half = op->length > 512 ? (op->length / 2 / 512) * 512 : op->length / 2;
          if (half > 0) apply(&image, &size, op, half);
        }
        (*dropped)++;
      } else if (mode == 1 && (nextRandom(state) & 1)) {
        apply(&image, &size, op, op->length);
      } else {
        (*dropped)++;
      }
    }
  } else {
    *dropped += t->operationCount;
  }
  *outImage = image;
  *outSize = size;
}

static void removeSharedMemory(const char *path) {
  size_t length = strlen(path);
  char *shm = malloc(length + 5);
  memcpy(shm, path, length);
  memcpy(shm + length, "-shm", 5);
  unlink(shm);
  free(shm);
}

int powerloss_restore(uint64_t seed, int mode) {
  pthread_mutex_lock(&lock);
  isLost = 1;
  uint64_t state = seed;
  int dropped = 0;
  for (Tracked *t = files; t; t = t->next) {
    // A name renamed away, the rename not durable: restored with the rename's target.
    if (t->movedTo && t->movedTo->renamePending) continue;
    if (t->renamePending) {
      // The rename is undone: the inode is back under its old name when that entry was
      // durable, and this name holds what it durably held before.
      renamesUndone++;
      unsigned char *image;
      sqlite3_int64 size;
      survivingImage(t, &state, mode, &dropped, &image, &size);
      Tracked *source = t->renamedFrom;
      if (source && source->durableExists && t->durableExists) {
        writeWhole(source->path, image, size);
      } else if (source) {
        unlink(source->path);
      }
      free(image);
      if (t->priorExists) {
        writeWhole(t->path, t->priorDurable, t->priorSize);
      } else {
        unlink(t->path);
      }
      if (t->isMainDatabase) removeSharedMemory(t->path);
      continue;
    }
    if (!t->durableExists) {
      unlink(t->path);
      dropped += t->operationCount;
      continue;
    }
    unsigned char *image;
    sqlite3_int64 size;
    survivingImage(t, &state, mode, &dropped, &image, &size);
    writeWhole(t->path, image, size);
    free(image);
    if (t->isMainDatabase) removeSharedMemory(t->path);
  }
  pthread_mutex_unlock(&lock);
  return dropped;
}
