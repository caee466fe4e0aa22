import Synchronization

// Commits: the listeners that hear what each committed transaction changed, and the looks
// at `PRAGMA data_version` that notice the commits of other connections and processes.
extension SerializedDatabase {

  /// Registers `listener` to receive what committed transactions changed: on this
  /// database's queue after each closure that committed (a rolled-back transaction reports
  /// nothing), and ``CommittedChanges/everything`` from any thread as soon as a commit by
  /// another connection or process is noticed (see ``noticeOtherConnectionsCommits()``). The
  /// listener must return quickly and must not wait for this database. Only the first
  /// listener waits for the queue, to turn change tracking on.
  /// - Returns: the id that ``removeCommitListener(_:)`` takes.
  /// - Throws: `.misuse` once closed; `.readOnly` for a reader.
  func addCommitListener(_ listener: @escaping @Sendable (CommittedChanges) -> Void) throws
    -> UInt64
  {
    let id = try addCommitListenerWithoutTracking(listener)
    if !tracksChanges.load(ordering: .acquiring) {
      do {
        try turnOnChangeTracking()
      } catch {
        removeCommitListener(id)
        throw error
      }
    }
    return id
  }

  /// Registers `listener` as ``addCommitListener(_:)`` does, without waiting for anything:
  /// it hears commits once change tracking is on, which the caller makes sure of with
  /// `turnOnChangeTracking() async` before it relies on them (before its first read).
  /// - Returns: the id that ``removeCommitListener(_:)`` takes.
  /// - Throws: `.misuse` once closed; `.readOnly` for a reader.
  func addCommitListenerWithoutTracking(
    _ listener: @escaping @Sendable (CommittedChanges) -> Void
  ) throws -> UInt64 {
    if role == .reader {
      throw SQLiteError(
        extendedCode: .readOnly, message: "a reader connection of a \(ownerName) has no commits")
    }
    if hasClosed.load(ordering: .acquiring) {
      throw SQLiteError.misuse("the \(ownerName) is closed")
    }
    return commitListeners.withLock { listeners in
      listeners.nextID += 1
      listeners.byID[listeners.nextID] = listener
      return listeners.nextID
    }
  }

  func turnOnChangeTracking() throws {
    try onQueue {
      if isClosed { throw SQLiteError.misuse("the \(ownerName) is closed") }
      if !tracksChanges.load(ordering: .acquiring) {
        owner.lending {
          connection.startTrackingChanges()
          // Other connections' commits count from here on.
          seenDataVersion = (try? readDataVersion()).map { ($0, 0) }
        }
        tracksChanges.store(true, ordering: .releasing)
      }
    }
  }

  /// Like ``turnOnChangeTracking()``, the task suspended while it waits for the queue;
  /// returns at once when tracking is on already. Commits that end before it returns are
  /// not reported: a read made after it sees them.
  /// - Throws: `.misuse` once closed; `CancellationError` when the task is cancelled first
  ///   (tracking is not turned on then).
  func turnOnChangeTracking() async throws {
    if tracksChanges.load(ordering: .acquiring) { return }
    try await async { try self.turnOnChangeTracking() }
  }

  /// Unregisters a listener; unknown ids are ignored. Safe from any thread.
  func removeCommitListener(_ id: UInt64) {
    _ = commitListeners.withLock { $0.byID.removeValue(forKey: id) }
  }

  /// The number of commit listeners registered now.
  var commitListenerCount: Int { commitListeners.withLock { $0.byID.count } }

  /// Whether the connection tracks what its transactions change. Safe from any thread.
  var isTrackingChanges: Bool { tracksChanges.load(ordering: .acquiring) }

  /// How many outermost write closures started so far. Safe from any thread.
  var writeCount: UInt64 { writesStarted.load(ordering: .acquiring) }

  /// Hands `changes` to the listeners.
  func notify(_ changes: CommittedChanges) {
    for listener in commitListeners.withLock({ Array($0.byID.values) }) { listener(changes) }
  }

  /// Hands what the commits of the closure that just ended changed to the listeners.
  func notifyCommits() {
    guard tracksChanges.load(ordering: .relaxed) else { return }
    let changes = connection.takeCommittedChanges()
    guard !changes.isEmpty else { return }
    notify(changes)
  }

  /// `PRAGMA data_version` of the main database and of each attached one, by schema name:
  /// it changes when a connection other than this one commits to any of their files (a
  /// database attached or detached changes it too). Housekeeping, hidden from the trace.
  func readDataVersion() throws -> [String: Int] {
    try connection.withTraceSuppressed {
      var versions: [String: Int] = [:]
      // `temp` is private to this connection: no one else commits to it.
      for name in connection.schemaNames where name != "temp" {
        let pragma = "PRAGMA " + SQLIdentifier.quote(name) + ".data_version"
        versions[name] = try connection.scalar(Int.self, pragma) ?? 0
      }
      return versions
    }
  }

  /// On the writer's queue: tells the listeners when another connection or process
  /// committed since this connection last looked. A failed look counts as a commit.
  func lookForOtherCommits() {
    guard tracksChanges.load(ordering: .relaxed) else { return }
    guard let version = try? readDataVersion() else {
      notify(.everything)
      return
    }
    if seenDataVersion?.version != version { notify(.everything) }
    seenDataVersion = (version, 0)
  }

  /// Makes sure that the commits of other connections and processes up to now have been
  /// reported to the listeners (as ``CommittedChanges/everything``), on the writer: a write
  /// transaction that runs now has looked already (no one else can commit until it ends);
  /// otherwise this waits for the queue and looks.
  /// - Throws: `.misuse` once closed.
  func noticeOtherConnectionsCommits() throws {
    guard tracksChanges.load(ordering: .acquiring), !isInCheckedWrite.load(ordering: .acquiring)
    else { return }
    try onQueue { try enter { lookForOtherCommits() } }
  }

  /// Like ``noticeOtherConnectionsCommits()``, the task suspended while it waits for the
  /// queue.
  /// - Throws: `.misuse` once closed; `CancellationError` when the task is cancelled first.
  func noticeOtherConnectionsCommits() async throws {
    guard tracksChanges.load(ordering: .acquiring), !isInCheckedWrite.load(ordering: .acquiring)
    else { return }
    try await async { try self.noticeOtherConnectionsCommits() }
  }

  /// Like ``otherCommitsSinceLastLook(writes:)``, the task suspended while it waits for the
  /// queue.
  /// - Throws: as the blocking form; `CancellationError` when the task is cancelled first.
  func otherCommitsSinceLastLook(writes: UInt64) async throws -> OtherCommits {
    try await async { try self.otherCommitsSinceLastLook(writes: writes) }
  }

  /// On a reader: whether connections other than the pool's writer committed since this
  /// reader last looked. `writes` is the writer's ``writeCount``, read before this call: when
  /// it did not move, the writer made no commit in between, and any change is another's.
  /// - Throws: `.misuse` once closed; `SQLiteError` from the pragma.
  func otherCommitsSinceLastLook(writes: UInt64) throws -> OtherCommits {
    try onQueue {
      try enter {
        let version = try readDataVersion()
        defer { seenDataVersion = (version, writes) }
        guard let seen = seenDataVersion else { return .unknown }
        if seen.version == version { return .none }
        return seen.writes == writes ? .some : .unknown
      }
    }
  }
}
