internal import CSQLite
import Foundation

// Online backup: a page-by-page copy of a live database, in steps, through SQLite's backup
// API. See https://sqlite.org/backup.html.
extension Connection {
  /// Copies this connection's main database into another connection's, replacing what it
  /// held, in steps of `pagesPerStep` pages.
  ///
  /// Works from an in-memory database too. Between steps the source is unlocked, so other
  /// connections may write; a change made by another connection restarts the copy from
  /// the start on the next step (SQLite does this by itself), one made through this
  /// connection is copied as it happens. Run it inside a read transaction (a
  /// `DatabasePool.read`) to copy one snapshot while others write, without restarts.
  ///
  /// ```swift
  /// let memory = try Connection.inMemory()
  /// try memory.execute("CREATE TABLE t(x)")
  /// try memory.run("INSERT INTO t VALUES (1), (2)")
  /// let fileConnection = try Connection(path: "copy.sqlite")
  /// let userCancelled = false
  ///
  /// try memory.backup(to: fileConnection, pagesPerStep: 100) { progress in
  ///   print("\(progress.completedPages) of \(progress.totalPages) pages")
  ///   if userCancelled { throw CancellationError() }
  /// }
  /// ```
  /// - Parameters:
  ///   - destination: the connection to copy into; it must not be used meanwhile.
  ///   - pagesPerStep: pages copied per step; 0 or less copies everything in one step.
  ///   - progress: called after each step. Throw from it to cancel: the destination is
  ///     rolled back to what it held before, and the error is rethrown.
  /// - Throws: what `progress` throws; `SQLiteError` when the copy fails (`.busy` when a
  ///   lock was not free within the busy timeout, `.readOnly` for a read-only
  ///   destination, an error for a WAL destination with another page size).
  public func backup(
    to destination: Connection, pagesPerStep: Int = 256,
    progress: ((BackupProgress) throws -> Void)? = nil
  ) throws {
    try ensureOpen(nil)
    try destination.ensureOpen(nil)
    guard destination !== self else {
      throw SQLiteError.misuse("a backup needs two different connections")
    }
    guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
      throw SQLiteError(sqlite3_errcode(destination.handle), destination.handle)
    }
    destination.writeRunCounter.count &+= 1
    var isFinished = false
    // Finishing an incomplete backup rolls the destination back.
    defer { if !isFinished { sqlite3_backup_finish(backup) } }
    let pages = Int32(clamping: pagesPerStep > 0 ? pagesPerStep : -1)
    while true {
      let code = sqlite3_backup_step(backup, pages)
      guard code == SQLITE_OK || code == SQLITE_DONE else {
        isFinished = true
        sqlite3_backup_finish(backup)
        throw SQLiteError(code, destination.handle)
      }
      let total = Int(sqlite3_backup_pagecount(backup))
      let remaining = Int(sqlite3_backup_remaining(backup))
      try progress?(BackupProgress(completedPages: total - remaining, totalPages: total))
      if code == SQLITE_DONE { break }
    }
    isFinished = true
    try SQLiteError.check(sqlite3_backup_finish(backup), destination.handle)
    // The destination's content was replaced without any of its statements: every result
    // read from it may be stale.
    destination.tableActivity.noteEverythingChanged(
      inTransaction: sqlite3_get_autocommit(destination.handle) == 0)
  }

  /// Copies this connection's main database into a new file at `path`, in steps, replacing
  /// any file there only once the copy is complete.
  ///
  /// The copy is written next to `path` under a temporary name, through this connection's
  /// VFS (``OpenOptions/vfs``), and renamed into place when done, so a failure or a
  /// cancellation leaves no partial file (and an older file at `path` as it was). Works from an in-memory database, where `VACUUM INTO` is no help.
  ///
  /// Once this returns, the backup survives a power loss: the copy was synced before the
  /// rename, and the folder holding `path` is synced after it (`fsync` of the directory;
  /// `F_FULLFSYNC` where Darwin's file system supports it), since a file's own syncs do not
  /// make its new name durable.
  /// - Parameters:
  ///   - path: the file to write.
  ///   - pagesPerStep: pages copied per step; 0 or less copies everything in one step.
  ///   - progress: called after each step; throw from it to cancel.
  /// - Throws: what `progress` throws; `SQLiteError` when the copy fails or the file cannot
  ///   be created; `POSIXError` when the rename into place fails (the file at `path` is then
  ///   as it was); `SQLiteError` with the extended code `SQLITE_IOERR_DIR_FSYNC` (1290)
  ///   when the folder cannot be synced after the rename: the new file is in place, but a
  ///   power loss may still bring the old one back.
  public func backup(
    toPath path: String, pagesPerStep: Int = 256,
    progress: ((BackupProgress) throws -> Void)? = nil
  ) throws {
    try ensureOpen(nil)
    // Replacing the file this connection (or another) has open would leave those
    // connections writing to an unlinked file: their later commits would be lost.
    if let source = sqlite3_db_filename(handle, "main").map({ String(cString: $0) }),
      !source.isEmpty, Self.sameFile(source, path)
    {
      throw SQLiteError.misuse(
        "cannot back up a database onto its own file '\(path)': choose another path")
    }
    // A short suffix, so that a name near the file system's limit still fits.
    let temporary = path + ".bk" + String(UInt32.random(in: .min ... .max), radix: 16)
    let manager = FileManager.default
    let placement = BackupPlacement.forVFS(vfs)
    let removeTemporary = {
      for suffix in ["", "-journal", "-wal", "-shm"] {
        try? manager.removeItem(atPath: temporary + suffix)
      }
    }
    do {
      var options = OpenOptions()
      options.foreignKeys = false
      // The copy goes through the source's VFS, whatever it adds (encryption, a test's
      // model of the disk).
      options.vfs = vfs
      let destination = try Connection(path: temporary, options: options)
      do {
        try backup(to: destination, pagesPerStep: pagesPerStep, progress: progress)
        // A copy of a WAL database is in WAL mode: fold its log in before it moves.
        if try destination.journalMode() == .wal { try destination.setJournalMode(.delete) }
        try destination.close()
      } catch {
        try? destination.close()
        throw error
      }
      // Files left by an earlier database of that name would be taken as this one's.
      for suffix in ["-journal", "-wal", "-shm"] { try? manager.removeItem(atPath: path + suffix) }
      // rename(2) replaces an existing file in one step.
      let code = placement.rename(temporary, path)
      if code != 0 { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
    } catch {
      removeTemporary()
      throw error
    }
    // The rename changed the folder, not the file: until the folder is synced, a power
    // loss may leave the old file at `path` (or none) and the copy under its temporary name.
    let directory = BackupPlacement.directory(of: path)
    let code = placement.syncDirectory(directory)
    if code != 0 {
      // SQLITE_IOERR_DIR_FSYNC (a macro Swift does not import), SQLite's code for a folder
      // it could not sync.
      throw SQLiteError(
        extendedCode: SQLiteError.Code(rawValue: SQLITE_IOERR | (5 << 8)),
        message: "the backup is at '\(path)', but its folder '\(directory)' could not be synced, "
          + "so a power loss may undo it: \(String(cString: strerror(code)))")
    }
  }

  /// Whether two paths name the same existing file (same device and inode).
  static func sameFile(_ a: String, _ b: String) -> Bool {
    let manager = FileManager.default
    guard let first = try? manager.attributesOfItem(atPath: a),
      let second = try? manager.attributesOfItem(atPath: b)
    else { return false }
    guard let device = first[.systemNumber] as? NSNumber,
      let inode = first[.systemFileNumber] as? NSNumber
    else { return a == b }
    return device == second[.systemNumber] as? NSNumber
      && inode == second[.systemFileNumber] as? NSNumber
  }
}
