import Dispatch
import Foundation
import Synchronization

/// One connection behind a private serial dispatch queue: the engine of ``DatabaseQueue``,
/// of a ``DatabasePool``'s writer and of each of its readers.
///
/// Closures run one at a time, in order. A call made from inside one of its own closures
/// runs inline. The connection is lent to the running closure's thread only (see
/// ``ConnectionOwner``).
final class SerializedDatabase: Sendable {
  /// What the connection is for.
  enum Role {
    /// Reads run with `PRAGMA query_only` on, writes in IMMEDIATE transactions.
    case readWrite
    /// A read-only connection: each read is one deferred transaction, so it sees one
    /// committed snapshot from start to end; writes are refused.
    case reader
  }

  let path: String
  let role: Role
  /// The public type's name, for messages (`"DatabaseQueue"`, `"DatabasePool"`).
  let ownerName: String
  private let dispatchQueue: DispatchQueue
  // Only ever touched on `dispatchQueue`, which serializes every use.
  nonisolated(unsafe) private let connection: Connection
  nonisolated(unsafe) private var readDepth = 0
  /// How many closures are running, nested one in another.
  nonisolated(unsafe) private var depth = 0
  nonisolated(unsafe) private var isClosed = false
  /// Who left a transaction open when no closure runs, for the next write's error.
  nonisolated(unsafe) private var openTransactionOrigin: String?
  /// The schema version a reader last saw: when it changes, model tables are checked again.
  nonisolated(unsafe) private var schemaVersion: Int?
  private let owner: ConnectionOwner
  private let token = Token()
  /// Whether the connection tracks what its transactions change (turned on by the first
  /// commit listener, and left on).
  private let tracksChanges = Atomic<Bool>(false)
  /// Who hears about what each committed transaction changed, by registration id.
  private let commitListeners = Mutex(CommitListeners())
  /// How many outermost write closures started: bumped before each one, so that any commit
  /// this connection makes comes after a bump (see ``otherCommitsSinceLastLook(writes:)``).
  private let writesStarted = Atomic<UInt64>(0)
  /// ``isClosed``, readable off the queue.
  private let hasClosed = Atomic<Bool>(false)
  /// How many tasks wait for the queue (see ``queuedTaskCount``).
  private let queuedTasks = Atomic<Int>(0)
  /// Whether a write transaction runs whose start looked for other connections' commits:
  /// until it ends, no other connection can commit.
  private let isInCheckedWrite = Atomic<Bool>(false)
  /// `PRAGMA data_version` of each database when this connection last read them (they
  /// change when another connection commits), with the writer's ``writesStarted`` read just before (readers).
  nonisolated(unsafe) private var seenDataVersion: (version: [String: Int], writes: UInt64)?

  private struct CommitListeners {
    var byID: [UInt64: @Sendable (CommittedChanges) -> Void] = [:]
    var nextID: UInt64 = 0
  }

  /// What a reader knows of commits made by connections other than the writer.
  enum OtherCommits {
    /// None since its last look.
    case none
    /// Some, for sure.
    case some
    /// Maybe: the writer committed too, or this is the first look. Only the writer knows.
    case unknown
  }

  private final class Token: Sendable {}
  private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

  /// The token of the serialized database whose queue runs the caller, if any.
  static var current: ObjectIdentifier? { DispatchQueue.getSpecific(key: queueKey) }

  /// This database's identity, as ``current`` reports it.
  var identity: ObjectIdentifier { ObjectIdentifier(token) }

  init(path: String, options: OpenOptions, role: Role, ownerName: String) throws {
    self.path = path
    self.role = role
    self.ownerName = ownerName
    let connection = try Connection(path: path, options: options)
    let owner = ConnectionOwner(name: ownerName)
    connection.owner = owner
    self.connection = connection
    self.owner = owner
    self.dispatchQueue = DispatchQueue(label: "SwiftLite.\(ownerName)(\(path))")
    dispatchQueue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(token))
  }

  /// Whether the caller runs inside one of this database's closures.
  var isOnQueue: Bool { Self.current == ObjectIdentifier(token) }

  private func onQueue<T>(_ body: () throws -> T) rethrows -> T {
    if isOnQueue { return try body() }
    return try dispatchQueue.sync(execute: body)
  }

  /// Runs `body` on the queue after the closures queued before it, the task suspended
  /// meanwhile (no thread waits). A task cancelled before `body` starts gets
  /// `CancellationError` at once, and `body` never runs.
  private func async<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try Task.checkCancellation()
    let run = PendingRun<T>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        guard run.wait(continuation) else {
          continuation.resume(throwing: CancellationError())
          return
        }
        queuedTasks.add(1, ordering: .relaxed)
        dispatchQueue.async { [self] in
          queuedTasks.subtract(1, ordering: .relaxed)
          // A task cancelled meanwhile was resumed already.
          guard let continuation = run.start() else { return }
          continuation.resume(with: Result { try body() })
        }
      }
    } onCancel: {
      run.cancel()?.resume(throwing: CancellationError())
    }
  }

  /// The continuation of one task waiting for the queue: resumed exactly once, by the
  /// queue when its turn comes, or with `CancellationError` when the task is cancelled first.
  private final class PendingRun<T: Sendable>: Sendable {
    private enum Stage {
      case arriving
      case waiting(CheckedContinuation<T, any Error>)
      case cancelled
      case resumed
    }

    private let stage = Mutex(Stage.arriving)

    /// Keeps the continuation; `false` when the task was cancelled already.
    func wait(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
      stage.withLock { stage in
        guard case .arriving = stage else { return false }
        stage = .waiting(continuation)
        return true
      }
    }

    /// The continuation to resume with the result, unless the task was cancelled.
    func start() -> CheckedContinuation<T, any Error>? { take(next: .resumed) }

    /// The continuation to resume with `CancellationError`, unless the run started.
    func cancel() -> CheckedContinuation<T, any Error>? { take(next: .cancelled) }

    private func take(next: Stage) -> CheckedContinuation<T, any Error>? {
      stage.withLock { stage in
        switch stage {
        case .waiting(let continuation):
          stage = .resumed
          return continuation
        case .arriving:
          stage = next
          return nil
        case .cancelled, .resumed:
          return nil
        }
      }
    }
  }

  /// How many tasks wait for the queue now, for tests.
  var queuedTaskCount: Int { queuedTasks.load(ordering: .relaxed) }

  // MARK: Access

  func read<T>(_ body: (Connection) throws -> T) throws -> T {
    try onQueue { try readOnQueue(body) }
  }

  func write<T>(_ body: (Connection) throws -> T) throws -> T {
    try onQueue { try writeOnQueue(body) }
  }

  func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
    try onQueue { try writeWithoutTransactionOnQueue(body) }
  }

  func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
    try await async { try self.readOnQueue(body) }
  }

  func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
    try await async { try self.writeOnQueue(body) }
  }

  func writeWithoutTransaction<T: Sendable>(
    _ body: @escaping @Sendable (Connection) throws -> T
  ) async throws -> T {
    try await async { try self.writeWithoutTransactionOnQueue(body) }
  }

  /// Runs `body` on the queue after the closures queued before it, without waiting and
  /// outside any transaction; it does not run once the database is closed. For clean-up
  /// work that must happen on the connection's thread (a session released elsewhere).
  func writeLater(_ body: @escaping @Sendable (Connection) -> Void) {
    dispatchQueue.async { [self] in
      guard !isClosed else { return }
      owner.lending { body(connection) }
    }
  }

  /// Interrupts the statement running now, if any. Safe from any thread.
  func interrupt() { connection.interrupt() }

  /// Waits for the closures queued before it, then closes the connection.
  /// - Throws: `.misuse` from inside one of its closures (it would wait for itself);
  ///   `SQLiteError` `.busy` when statements prepared in a closure are still alive.
  func close() throws {
    if isOnQueue {
      throw SQLiteError.misuse("close() was called from inside one of the \(ownerName)'s closures")
    }
    try dispatchQueue.sync {
      guard !isClosed else { return }
      try owner.lending { try connection.close() }
      isClosed = true
      hasClosed.store(true, ordering: .releasing)
    }
  }

  // MARK: Commits

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
    if role == .reader {
      throw SQLiteError(
        extendedCode: .readOnly, message: "a reader connection of a \(ownerName) has no commits")
    }
    if tracksChanges.load(ordering: .acquiring) {
      if hasClosed.load(ordering: .acquiring) {
        throw SQLiteError.misuse("the \(ownerName) is closed")
      }
    } else {
      try turnOnChangeTracking()
    }
    return commitListeners.withLock { listeners in
      listeners.nextID += 1
      listeners.byID[listeners.nextID] = listener
      return listeners.nextID
    }
  }

  private func turnOnChangeTracking() throws {
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
  private func notify(_ changes: CommittedChanges) {
    for listener in commitListeners.withLock({ Array($0.byID.values) }) { listener(changes) }
  }

  /// Hands what the commits of the closure that just ended changed to the listeners.
  private func notifyCommits() {
    guard tracksChanges.load(ordering: .relaxed) else { return }
    let changes = connection.takeCommittedChanges()
    guard !changes.isEmpty else { return }
    notify(changes)
  }

  /// `PRAGMA data_version` of the main database and of each attached one, by schema name:
  /// it changes when a connection other than this one commits to any of their files (a
  /// database attached or detached changes it too). Housekeeping, hidden from the trace.
  private func readDataVersion() throws -> [String: Int] {
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
  private func lookForOtherCommits() {
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

  // MARK: On the queue

  private func enter<T>(_ body: () throws -> T) throws -> T {
    if isClosed { throw SQLiteError.misuse("the \(ownerName) is closed") }
    // Listeners hear of commits once the outermost closure is over, whether it returned
    // or threw (an earlier statement of writeWithoutTransaction may have committed).
    defer { if depth == 0 { notifyCommits() } }
    return try owner.lending {
      depth += 1
      defer { depth -= 1 }
      return try body()
    }
  }

  private func writeWithoutTransactionOnQueue<T>(_ body: (Connection) throws -> T) throws -> T {
    if role == .reader {
      throw SQLiteError(
        extendedCode: .readOnly, message: "a reader connection of a \(ownerName) cannot write")
    }
    if readDepth > 0 {
      throw SQLiteError(
        extendedCode: .readOnly,
        message: "writeWithoutTransaction(_:) was called from inside read(_:)")
    }
    return try enter {
      defer {
        if depth == 1 {
          openTransactionOrigin =
            connection.isInTransaction ? "writeWithoutTransaction without COMMIT or ROLLBACK" : nil
        }
      }
      if depth == 1 {
        writesStarted.add(1, ordering: .acquiringAndReleasing)
        lookForOtherCommits()
      }
      return try body(connection)
    }
  }

  private func readOnQueue<T>(_ body: (Connection) throws -> T) throws -> T {
    try enter {
      if readDepth > 0 { return try body(connection) }
      readDepth += 1
      defer { readDepth -= 1 }
      switch role {
      case .reader: return try snapshotRead(body)
      // Inside a write, the read sees that write's changes and may not add its own.
      case .readWrite where connection.isInTransaction: return try queryOnly(body)
      // Otherwise it is one read transaction, so that another connection's commits (of
      // another process, say) cannot change what it sees halfway through.
      case .readWrite: return try queryOnly { _ in try snapshotRead(body) }
      }
    }
  }

  /// Runs `body` with `PRAGMA query_only` on, so a write in it fails with `.readOnly`.
  private func queryOnly<T>(_ body: (Connection) throws -> T) throws -> T {
    // The restore is registered first: an interrupt can land on this pragma after it took
    // effect, and the read then fails with the connection already read-only.
    defer {
      // With interrupts held, the pragma cannot be cut short: a connection left read-only
      // would refuse every later write.
      connection.withInterruptsHeld {
        var attempts = 0
        while (try? connection.run("PRAGMA query_only = 0")) == nil, attempts < 3 {
          attempts += 1
        }
      }
    }
    try connection.run("PRAGMA query_only = 1")
    return try body(connection)
  }

  /// One deferred transaction: its first read fixes the snapshot for the whole closure.
  /// BEGIN and COMMIT go through the statement cache: a read pays no parsing for them.
  private func snapshotRead<T>(_ body: (Connection) throws -> T) throws -> T {
    try connection.run("BEGIN DEFERRED TRANSACTION")
    do {
      // Reading the schema version starts the read transaction now, and tells whether
      // the writer changed the schema since this reader last looked.
      let version = try connection.scalar(Int.self, "PRAGMA schema_version") ?? 0
      if version != schemaVersion {
        connection.removeAllAttachments()
        schemaVersion = version
      }
      let result = try body(connection)
      try connection.run("COMMIT TRANSACTION")
      return result
    } catch {
      connection.rollbackQuietly("ROLLBACK TRANSACTION")
      throw error
    }
  }

  private func writeOnQueue<T>(_ body: (Connection) throws -> T) throws -> T {
    if role == .reader {
      throw SQLiteError(
        extendedCode: .readOnly, message: "a reader connection of a \(ownerName) cannot write")
    }
    if readDepth > 0 {
      throw SQLiteError(
        extendedCode: .readOnly, message: "write(_:) was called from inside read(_:)")
    }
    return try enter {
      if connection.isInTransaction {
        // Nested in another closure of this queue, the write joins its transaction. A
        // transaction still open when no closure runs was left by an earlier one: joining
        // it would report success for a write that is not committed.
        guard depth > 1 else {
          throw SQLiteError(
            extendedCode: .misuse,
            message: "write(_:) found a transaction left open by an earlier closure ("
              + (openTransactionOrigin ?? "writeWithoutTransaction without COMMIT or ROLLBACK")
              + "); end it first")
        }
        return try connection.savepoint(nil, body)
      }
      writesStarted.add(1, ordering: .acquiringAndReleasing)
      do {
        return try connection.transaction(.immediate) { db in
          // The transaction holds the write lock: the commits of others that this look
          // finds are all there will be until it ends.
          lookForOtherCommits()
          isInCheckedWrite.store(true, ordering: .releasing)
          defer { isInCheckedWrite.store(false, ordering: .releasing) }
          return try body(db)
        }
      } catch {
        // The closure's one transaction did not commit, even if SQLite ran its commit
        // hook before refusing the COMMIT.
        connection.discardCommittedChanges()
        // The transaction's own rollback holds interrupts off; should SQLite still keep
        // the transaction open, end it here so the next closure starts clean.
        if connection.isInTransaction {
          connection.rollbackQuietly("ROLLBACK TRANSACTION")
          if connection.isInTransaction { openTransactionOrigin = "a write whose rollback failed" }
        }
        throw error
      }
    }
  }
}
