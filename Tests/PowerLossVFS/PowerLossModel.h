// The power-loss VFS's model of the disk, shared by its three files: PowerLossModel.c (the
// tracked files, their durable images and the events), PowerLossVFS.c (the VFS that feeds
// it) and PowerLossControl.c (what the tests call: runs, cuts, renames, the restore). The
// model is described at the top of PowerLossModel.c. Names shared between the files start
// with `pl_`; the tests see only include/PowerLossVFS.h.
#ifndef SWIFTLITE_POWER_LOSS_MODEL_H
#define SWIFTLITE_POWER_LOSS_MODEL_H

#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700  // realpath

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

// Every access to the model holds this lock.
extern pthread_mutex_t pl_lock;
extern Tracked *pl_files;
extern int64_t pl_eventCount, pl_cutAt;
extern int pl_isLost, pl_unlinkDurable, pl_mainOpens, pl_dataSyncs, pl_renamesUndone;
// The write in flight at the cut, kept as the last pending write of its file.
extern Tracked *pl_lastWriteFile;

void pl_freeOperations(Tracked *t);
Tracked *pl_find(const char *path);
void pl_readWhole(const char *path, unsigned char **data, sqlite3_int64 *size, int *exists);
Tracked *pl_track(const char *path, int isMainDatabase);
// Applies one operation (its first `length` bytes) to an image.
void pl_apply(unsigned char **image, sqlite3_int64 *size, const Operation *op, int length);
// Makes the directory entries of the files in `directory` (every folder for NULL) durable.
void pl_syncDirectoryOf(const char *directory);
void pl_syncDirectory(void);
// Makes a file's pending operations durable (and its folder, for a new journal or WAL).
void pl_syncFile(Tracked *t);
// Counts an event: 0 when it may happen, 1 when the power goes off at it, 2 when it was
// already off.
int pl_event(void);
void pl_addOperation(Tracked *t, int isTruncate, sqlite3_int64 offset, const void *data,
                     int length);

#endif
