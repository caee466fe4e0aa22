// What the tests call: runs, cuts, renames and directory syncs made outside SQLite, and the
// restore of what survived the power loss.
#include "PowerLossModel.h"
#include "PowerLossVFS.h"

void powerloss_begin(int unlinkIsDurable) {
  pthread_mutex_lock(&pl_lock);
  while (pl_files) {
    Tracked *t = pl_files;
    pl_files = t->next;
    pl_freeOperations(t);
    free(t->operations);
    free(t->durable);
    free(t->priorDurable);
    free(t->path);
    free(t);
  }
  pl_eventCount = 0;
  pl_renamesUndone = 0;
  pl_cutAt = 0;
  pl_isLost = 0;
  pl_mainOpens = 0;
  pl_dataSyncs = 0;
  pl_lastWriteFile = NULL;
  pl_unlinkDurable = unlinkIsDurable;
  pthread_mutex_unlock(&pl_lock);
}

void powerloss_arm(int64_t cut) {
  pthread_mutex_lock(&pl_lock);
  pl_cutAt = cut;
  pthread_mutex_unlock(&pl_lock);
}

int64_t powerloss_events(void) {
  pthread_mutex_lock(&pl_lock);
  int64_t count = pl_eventCount;
  pthread_mutex_unlock(&pl_lock);
  return count;
}

int powerloss_lost(void) {
  pthread_mutex_lock(&pl_lock);
  int lost = pl_isLost;
  pthread_mutex_unlock(&pl_lock);
  return lost;
}

void powerloss_cut_now(void) {
  pthread_mutex_lock(&pl_lock);
  pl_isLost = 1;
  pthread_mutex_unlock(&pl_lock);
}

int powerloss_main_opens(void) {
  pthread_mutex_lock(&pl_lock);
  int count = pl_mainOpens;
  pthread_mutex_unlock(&pl_lock);
  return count;
}

int powerloss_data_syncs(void) {
  pthread_mutex_lock(&pl_lock);
  int count = pl_dataSyncs;
  pthread_mutex_unlock(&pl_lock);
  return count;
}

void powerloss_track(const char *path) {
  pthread_mutex_lock(&pl_lock);
  pl_track(path, 1);
  pthread_mutex_unlock(&pl_lock);
}

int powerloss_rename_event(const char *from, const char *to) {
  pthread_mutex_lock(&pl_lock);
  if (pl_event()) {
    pthread_mutex_unlock(&pl_lock);
    return EIO;
  }
  Tracked *source = pl_find(from);
  // The target as the disk holds it before the rename replaces it.
  Tracked *target = source && !pl_find(to) ? pl_track(to, source->isMainDatabase) : pl_find(to);
  if (rename(from, to) != 0) {
    int code = errno;
    pthread_mutex_unlock(&pl_lock);
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
    pl_freeOperations(target);
    free(target->operations);
    target->operations = source->operations;
    target->operationCount = source->operationCount;
    target->operationCapacity = source->operationCapacity;
    target->recreated = source->recreated;
    target->isMainDatabase = source->isMainDatabase;
    target->volatileExists = 1;
    if (pl_lastWriteFile == source) pl_lastWriteFile = target;
    // The source name keeps its durable entry (source->durableExists) until the sync.
    source->durable = NULL;
    source->durableSize = 0;
    source->volatileExists = 0;
    source->operations = NULL;
    source->operationCount = source->operationCapacity = 0;
    source->recreated = 0;
  }
  pthread_mutex_unlock(&pl_lock);
  return 0;
}

int powerloss_sync_directory_event(const char *directory) {
  pthread_mutex_lock(&pl_lock);
  if (pl_event()) {
    pthread_mutex_unlock(&pl_lock);
    return EIO;
  }
  // The model holds the durability: no real fsync, as for xSync.
  pl_syncDirectoryOf(directory);
  pthread_mutex_unlock(&pl_lock);
  return 0;
}

int powerloss_renames_undone(void) {
  pthread_mutex_lock(&pl_lock);
  int count = pl_renamesUndone;
  pthread_mutex_unlock(&pl_lock);
  return count;
}

const char *powerloss_tracked_path(const char *prefix) {
  size_t length = strlen(prefix);
  const char *found = NULL;
  pthread_mutex_lock(&pl_lock);
  for (Tracked *t = pl_files; t; t = t->next)
    if (t->isMainDatabase && strlen(t->path) > length && strncmp(t->path, prefix, length) == 0)
      found = t->path;
  pthread_mutex_unlock(&pl_lock);
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
      int isLast = t == pl_lastWriteFile && i == t->operationCount - 1;
      if (isLast && !op->isTruncate) {
        // The last unsynced write: torn half the time (its first half, in 512-byte
        // sectors when it spans more than one), dropped otherwise.
        if (nextRandom(state) & 1) {
          int half = op->length > 512 ? (op->length / 2 / 512) * 512 : op->length / 2;
          if (half > 0) pl_apply(&image, &size, op, half);
        }
        (*dropped)++;
      } else if (mode == 1 && (nextRandom(state) & 1)) {
        pl_apply(&image, &size, op, op->length);
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
  pthread_mutex_lock(&pl_lock);
  pl_isLost = 1;
  uint64_t state = seed;
  int dropped = 0;
  for (Tracked *t = pl_files; t; t = t->next) {
    // A name renamed away, the rename not durable: restored with the rename's target.
    if (t->movedTo && t->movedTo->renamePending) continue;
    if (t->renamePending) {
      // The rename is undone: the inode is back under its old name when that entry was
      // durable, and this name holds what it durably held before.
      pl_renamesUndone++;
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
  pthread_mutex_unlock(&pl_lock);
  return dropped;
}
