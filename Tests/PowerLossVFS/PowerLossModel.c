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
#include "PowerLossModel.h"

pthread_mutex_t pl_lock = PTHREAD_MUTEX_INITIALIZER;
Tracked *pl_files;
int64_t pl_eventCount, pl_cutAt;
int pl_isLost, pl_unlinkDurable, pl_mainOpens, pl_dataSyncs, pl_renamesUndone;
Tracked *pl_lastWriteFile;

void pl_freeOperations(Tracked *t) {
  for (int i = 0; i < t->operationCount; i++) free(t->operations[i].data);
  t->operationCount = 0;
}

Tracked *pl_find(const char *path) {
  for (Tracked *t = pl_files; t; t = t->next)
    if (strcmp(t->path, path) == 0) return t;
  return NULL;
}

void pl_readWhole(const char *path, unsigned char **data, sqlite3_int64 *size, int *exists) {
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

Tracked *pl_track(const char *path, int isMainDatabase) {
  Tracked *t = pl_find(path);
  if (t) return t;
  t = calloc(1, sizeof(Tracked));
  t->path = strdup(path);
  t->isMainDatabase = isMainDatabase;
  pl_readWhole(path, &t->durable, &t->durableSize, &t->durableExists);
  t->volatileExists = t->durableExists;
  t->next = pl_files;
  pl_files = t;
  return t;
}

// Applies one operation to an image.
void pl_apply(unsigned char **image, sqlite3_int64 *size, const Operation *op, int length) {
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
void pl_syncDirectoryOf(const char *directory) {
  for (Tracked *t = pl_files; t; t = t->next) {
    if (!t->renamePending || !isInDirectory(t->path, directory)) continue;
    free(t->priorDurable);
    t->priorDurable = NULL;
    t->priorSize = 0;
    t->renamePending = 0;
    if (t->renamedFrom) t->renamedFrom->movedTo = NULL;
    t->renamedFrom = NULL;
  }
  for (Tracked *t = pl_files; t; t = t->next) {
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

void pl_syncDirectory(void) { pl_syncDirectoryOf(NULL); }

void pl_syncFile(Tracked *t) {
  if (t->recreated) {
    free(t->durable);
    t->durable = NULL;
    t->durableSize = 0;
    // Its entry becomes durable with the next directory sync, with this content.
    t->recreated = 0;
  }
  for (int i = 0; i < t->operationCount; i++)
    pl_apply(&t->durable, &t->durableSize, &t->operations[i], t->operations[i].length);
  pl_freeOperations(t);
  if (t == pl_lastWriteFile) pl_lastWriteFile = NULL;
  if (t->syncsDirectory) {
    t->syncsDirectory = 0;
    pl_syncDirectory();
  }
}

// Counts an event: 0 when it may happen, 1 when the power goes off at it, 2 when it was
// already off.
int pl_event(void) {
  if (pl_isLost) return 2;
  pl_eventCount++;
  if (pl_cutAt > 0 && pl_eventCount >= pl_cutAt) {
    pl_isLost = 1;
    return 1;
  }
  return 0;
}

void pl_addOperation(Tracked *t, int isTruncate, sqlite3_int64 offset, const void *data,
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
    pl_lastWriteFile = t;
  }
}
