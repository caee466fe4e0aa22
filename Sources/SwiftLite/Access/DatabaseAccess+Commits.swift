// The commits of a queue or a pool, for the layers that react to them (observation, the
// query cache).
extension DatabaseAccess {
  /// The serialized database that runs this database's writes: a queue's own, a pool's
  /// writer; `nil` for another conforming type.
  var writingDatabase: SerializedDatabase? {
    if let queue = self as? DatabaseQueue { return queue.database }
    if let pool = self as? DatabasePool { return pool.writer }
    return nil
  }

  /// Whether the caller runs inside one of this queue's or pool's closures, a read or a
  /// write; `false` for another conforming type.
  var runsCaller: Bool {
    if let queue = self as? DatabaseQueue { return queue.database.isOnQueue }
    if let pool = self as? DatabasePool { return pool.runsCaller }
    return false
  }

  /// Registers a listener of what each committed write changed (see
  /// `SerializedDatabase.addCommitListener(_:)`).
  /// - Returns: the id to pass to ``removeCommitListener(_:)``.
  /// - Throws: `SQLiteError` `.misuse` once closed, or for a type other than
  ///   ``DatabaseQueue`` and ``DatabasePool``.
  func addCommitListener(_ listener: @escaping @Sendable (CommittedChanges) -> Void) throws
    -> UInt64
  {
    guard let writingDatabase else { throw cannotReportCommits }
    return try writingDatabase.addCommitListener(listener)
  }

  /// Registers a listener as ``addCommitListener(_:)`` does, without waiting for the
  /// writer: it hears commits once ``turnOnChangeTracking()`` has returned.
  /// - Returns: the id to pass to ``removeCommitListener(_:)``.
  /// - Throws: as ``addCommitListener(_:)``.
  func addCommitListenerWithoutTracking(
    _ listener: @escaping @Sendable (CommittedChanges) -> Void
  ) throws -> UInt64 {
    guard let writingDatabase else { throw cannotReportCommits }
    return try writingDatabase.addCommitListenerWithoutTracking(listener)
  }

  /// Makes the writer track what its transactions change, so that the listeners hear its
  /// commits, the task suspended (no thread held) while it waits for the writer; returns at
  /// once when tracking is on already.
  /// - Throws: `SQLiteError` `.misuse` once closed; `CancellationError` when the task is
  ///   cancelled first.
  func turnOnChangeTracking() async throws {
    guard let writingDatabase else { throw cannotReportCommits }
    try await writingDatabase.turnOnChangeTracking()
  }

  /// The error of a conforming type other than ``DatabaseQueue`` and ``DatabasePool``.
  private var cannotReportCommits: SQLiteError {
    SQLiteError.misuse(
      "\(type(of: self)) cannot report its commits: use a DatabaseQueue or a DatabasePool")
  }

  /// Unregisters a listener of ``addCommitListener(_:)``.
  func removeCommitListener(_ id: UInt64) {
    writingDatabase?.removeCommitListener(id)
  }

  /// Makes sure that the commits made to the file by other connections and processes, up
  /// to now, have been reported to the listeners (as changing everything: which tables they
  /// changed is unknown). Writes through this queue or pool look too, at their start.
  /// - Throws: `SQLiteError` `.misuse` once closed; an error of `PRAGMA data_version`.
  func noticeOtherConnectionsCommits() throws {
    if let pool = self as? DatabasePool { return try pool.noticeOtherConnectionsCommits() }
    try writingDatabase?.noticeOtherConnectionsCommits()
  }

  /// Like ``noticeOtherConnectionsCommits()``, the task suspended (no thread held) while it
  /// waits for a connection.
  /// - Throws: as the blocking form; `CancellationError` when the task is cancelled first.
  func noticeOtherConnectionsCommits() async throws {
    if let pool = self as? DatabasePool { return try await pool.noticeOtherConnectionsCommits() }
    try await writingDatabase?.noticeOtherConnectionsCommits()
  }
}
