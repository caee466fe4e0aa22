// Online backup of a queue's or pool's database, copying one snapshot.
extension DatabaseAccess {
  /// Copies the database into a new file at `path`, in steps, as one committed snapshot:
  /// writes go on meanwhile (on a pool, and from other connections in WAL mode) without
  /// making the copy start over. The file appears only once complete, and survives a power
  /// loss once this returns: its folder is synced after the rename (see
  /// ``Connection/backup(toPath:pagesPerStep:progress:)``).
  /// - Parameters:
  ///   - path: the file to write.
  ///   - pagesPerStep: pages copied per step; 0 or less copies everything in one step.
  ///   - progress: called after each step, on the thread that runs the copy; throw from it
  ///     to cancel (no file is left).
  /// - Throws: what `progress` throws; `SQLiteError` when the copy fails or the folder
  ///   cannot be synced after the rename (`SQLITE_IOERR_DIR_FSYNC`); `POSIXError` when the
  ///   rename fails.
  public func backup(
    toPath path: String, pagesPerStep: Int = 256,
    progress: ((BackupProgress) throws -> Void)? = nil
  ) throws {
    try read { db in
      let copy = { try db.backup(toPath: path, pagesPerStep: pagesPerStep, progress: progress) }
      if db.isInTransaction { return try copy() }
      // One read transaction for the whole copy: its first step fixes the snapshot.
      try db.transaction(.deferred) { _ in try copy() }
    }
  }

  /// Like ``backup(toPath:pagesPerStep:progress:)``, suspending the task instead of blocking
  /// it: while every connection that can read is busy, the task waits without holding a
  /// thread; the copy runs on the connection's own thread. A task cancelled before the copy
  /// starts throws `CancellationError`, and no file is written.
  /// - Parameters:
  ///   - path: the file to write.
  ///   - pagesPerStep: pages copied per step; 0 or less copies everything in one step.
  ///   - progress: called after each step, on the thread that runs the copy; throw from it
  ///     to cancel (no file is left).
  /// - Throws: what `progress` throws; `SQLiteError` when the copy fails or the folder
  ///   cannot be synced after the rename; `POSIXError` when the rename fails;
  ///   `CancellationError`.
  public func backup(
    toPath path: String, pagesPerStep: Int = 256,
    progress: (@Sendable (BackupProgress) throws -> Void)? = nil
  ) async throws {
    try await read { db in
      let copy = { try db.backup(toPath: path, pagesPerStep: pagesPerStep, progress: progress) }
      if db.isInTransaction { return try copy() }
      // One read transaction for the whole copy: its first step fixes the snapshot.
      try db.transaction(.deferred) { _ in try copy() }
    }
  }
}
