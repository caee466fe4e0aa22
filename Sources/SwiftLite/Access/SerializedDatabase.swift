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
  let dispatchQueue: DispatchQueue
  // Only ever touched on `dispatchQueue`, which serializes every use.
  nonisolated(unsafe) let connection: Connection
  nonisolated(unsafe) private var readDepth = 0
  /// How many closures are running, nested one in another.
  nonisolated(unsafe) private var depth = 0
  nonisolated(unsafe) var isClosed = false
  /// Who left a transaction open when no closure runs, for the next write's error.
  nonisolated(unsafe) private var openTransactionOrigin: String?
  /// The schema version a reader last saw: when it changes, model tables are checked again.
  nonisolated(unsafe) private var schemaVersion: Int?
  let owner: ConnectionOwner
  private let token = Token()
  /// Whether the connection tracks what its transactions change (turned on by the first
  /// commit listener, and left on).
  let tracksChanges = Atomic<Bool>(false)
  /// Who hears about what each committed transaction changed, by registration id.
  let commitListeners = Mutex(CommitListeners())
  /// How many outermost write closures started: bumped before each one, so that any commit
  /// this connection makes comes after a bump (see ``otherCommitsSinceLastLook(writes:)``).
  let writesStarted = Atomic<UInt64>(0)
  /// ``isClosed``, readable off the queue.
  let hasClosed = Atomic<Bool>(false)
  /// How many tasks wait for the queue (see ``queuedTaskCount``).
  let queuedTasks = Atomic<Int>(0)
  /// Whether a write transaction runs whose start looked for other connections' commits:
  /// until it ends, no other connection can commit.
  let isInCheckedWrite = Atomic<Bool>(false)
  /// `PRAGMA data_version` of each database when this connection last read them (they
  /// change when another connection commits), with the writer's ``writesStarted`` read just before (readers).
  nonisolated(unsafe) var seenDataVersion: (version: [String: Int], writes: UInt64)?

  struct CommitListeners {
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

  /// The identity of the serialized database whose queue runs the caller, if any: the one
  /// whose closure runs innermost on the calling thread.
  static var current: UInt? {
    let running = RunningQueue.current
    return running == 0 ? nil : running
  }

  /// This database's identity, as ``current`` reports it.
  let identity: UInt

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
    self.identity = UInt(bitPattern: ObjectIdentifier(token))
  }

  /// Whether the caller runs inside one of this database's closures.
  var isOnQueue: Bool { RunningQueue.current == identity }

  func onQueue<T>(_ body: () throws -> T) rethrows -> T {
    if isOnQueue { return try body() }
    return try dispatchQueue.sync { try RunningQueue.run(as: identity, body) }
  }

  /// Runs `body` on the queue after the closures queued before it, the task suspended
  /// meanwhile (no thread waits). A task cancelled before `body` starts gets
  /// `CancellationError` at once, and `body` never runs.
  func async<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
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
          continuation.resume(with: Result { try RunningQueue.run(as: identity, body) })
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
      RunningQueue.run(as: identity) { owner.lending { body(connection) } }
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
      try RunningQueue.run(as: identity) { try owner.lending { try connection.close() } }
      isClosed = true
      hasClosed.store(true, ordering: .releasing)
    }
  }

  // MARK: On the queue

  func enter<T>(_ body: () throws -> T) throws -> T {
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
      // A connection left read-only would refuse every later write. The restore runs once
      // as is: it fails only when an interrupt (pending, or landing on it) cuts it short.
      // Then it runs again with interrupts held, where nothing can cut it short; holding
      // them on every read would cost a statement more each time.
      if (try? connection.runCached("PRAGMA query_only = 0")) == nil {
        connection.withInterruptsHeld {
          var attempts = 0
          while (try? connection.runCached("PRAGMA query_only = 0")) == nil, attempts < 3 {
            attempts += 1
          }
        }
      }
    }
    try connection.runCached("PRAGMA query_only = 1")
    return try body(connection)
  }

  /// One deferred transaction: its first read fixes the snapshot for the whole closure.
  /// BEGIN and COMMIT go through the statement cache: a read pays no parsing for them.
  private func snapshotRead<T>(_ body: (Connection) throws -> T) throws -> T {
    try connection.runCached("BEGIN DEFERRED TRANSACTION")
    do {
      // Reading the schema version starts the read transaction now, and tells whether
      // the writer changed the schema since this reader last looked.
      let version = try connection.scalar(Int.self, "PRAGMA schema_version") ?? 0
      if version != schemaVersion {
        connection.removeAllAttachments()
        schemaVersion = version
      }
      let result = try body(connection)
      try connection.runCached("COMMIT TRANSACTION")
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
        return try connection.cachedTransaction(.immediate) { db in
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
