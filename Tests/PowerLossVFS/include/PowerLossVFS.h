// A test VFS that simulates power loss: it wraps SQLite's "unix" VFS, keeps for each main
// database, rollback journal and WAL file what is durable (what was synced) beside what
// the process wrote, and at a chosen cut point drops every write not yet synced.
//
// Only the tests of this package use it (see PowerLossModel.c for the model it simulates).
#ifndef SWIFTLITE_POWER_LOSS_VFS_H
#define SWIFTLITE_POWER_LOSS_VFS_H

#include <stdint.h>

/// Registers the VFS under `name` (not as the default). Registering twice is harmless.
/// Returns an SQLite result code.
int powerloss_register(const char *name);

/// Starts a new run: forgets every file, counts events from 0, no cut armed, power on.
/// Files opened from now on are taken as durable as they are on disk when first opened.
/// `unlinkIsDurable`: 1 models a deletion as durable once it returns (SQLite's own
/// assumption for a rollback journal at synchronous=FULL); 0 makes it durable only with
/// a directory sync (xDelete's syncDir, or the first sync of a new journal or WAL).
void powerloss_begin(int unlinkIsDurable);

/// Arms the cut: the `cut`th event (1-based) does not happen and power is lost there.
/// 0 disarms.
void powerloss_arm(int64_t cut);

/// How many events (xWrite, xSync, xTruncate, xDelete of a tracked file) ran or were cut.
int64_t powerloss_events(void);

/// Whether the power was lost (the cut was reached).
int powerloss_lost(void);

/// Loses power now, if it was still on.
void powerloss_cut_now(void);

/// How many main-database files this VFS opened since `powerloss_begin`.
int powerloss_main_opens(void);

/// Tracks a main database file from now on, taking what is on disk as durable, before
/// anything opens it (a file that a rename outside SQLite will replace, say).
void powerloss_track(const char *path);

/// How many syncs of main-database and WAL files ran since `powerloss_begin`. In WAL mode
/// each one makes every transaction committed before it durable: a WAL sync keeps the
/// frames written so far, and the log restarts only after a checkpoint synced the database.
int powerloss_data_syncs(void);

/// A rename(2) that code under test makes outside SQLite, observed as an event: with the
/// power on, the file at `from` replaces the one at `to` on disk, and in the model `to`
/// holds that inode while both names keep their durable entries until their folder is
/// synced (a power loss before that undoes the rename). At the cut, or after it, nothing
/// happens. Returns 0 or an errno (EIO at and after the cut).
int powerloss_rename_event(const char *from, const char *to);

/// A sync of the folder `directory` (open, fsync, close) made outside SQLite, observed as
/// an event: the creations, deletions and renames of the tracked files in that folder
/// become durable. At the cut, or after it, nothing happens. Returns 0 or EIO.
int powerloss_sync_directory_event(const char *directory);

/// How many renames the last restore undid (their folder was not synced before the cut).
int powerloss_renames_undone(void);

/// Writes what survived the power loss back to disk: every tracked file gets its durable
/// image, a file whose existence was not durable is removed, and each `-shm` of a main
/// database is removed. `mode` 0 drops every unsynced write; 1 keeps each unsynced write
/// with probability 1/2 (the OS wrote it back early, in any order). In both modes the
/// last unsynced write may be torn (its first half new, the rest old). `seed` drives
/// those choices. Call it once every connection on the files is closed. Returns how many
/// unsynced writes were dropped.
int powerloss_restore(uint64_t seed, int mode);

/// The path of a tracked main database whose name starts with `prefix` and is longer, or
/// NULL (the temporary file of a backup, say). Valid until the next `powerloss_begin`.
const char *powerloss_tracked_path(const char *prefix);

#endif
