import Dispatch
import Foundation
import Synchronization

/// A database file in WAL mode shared by any number of threads and tasks: one writer, and
/// reads that run beside it, each on its own read-only connection.
///
/// ```swift
/// import SwiftLite
///
/// func addAnn(_ pool: DatabasePool) throws {  // synchronous code blocks
///   try pool.write { db in
///     try db.execute("CREATE TABLE IF NOT EXISTS user(id INTEGER PRIMARY KEY, name TEXT)")
///     try db.run("INSERT INTO user(name) VALUES (?)", ["Ann"])
///   }
/// }
///
/// let pool = try DatabasePool(path: "app.sqlite")
/// try addAnn(pool)
/// let count = try await pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM user") }
/// ```
///
/// - Writes run one at a time on the writer connection, each in one IMMEDIATE transaction,
///   as on a ``DatabaseQueue``.
/// - Each read runs on a reader connection (opened read-only, when first needed, up to
///   `maximumReaderCount`) inside one deferred transaction: it sees one committed snapshot
///   from its start to its end, whatever commits meanwhile, and never waits for a write.
///   When every reader is busy, a read waits for one: a thread blocked, a task suspended
///   (it holds no thread while it waits).
/// - A read called from inside a write runs on the writer and sees that write's changes.
/// - SQLite checkpoints the log by itself when a commit leaves it over 1,000 pages; call
///   ``checkpoint(_:)`` for more (`.truncate` empties the `-wal` file).
/// - Every connection runs with `PRAGMA synchronous = NORMAL` unless
///   ``OpenOptions/synchronous`` says otherwise: commits do not wait for a sync to disk,
///   the file is never corrupted, and a power loss may roll back the last commits (see
///   ``OpenOptions/synchronous``; `.full` keeps each commit durable).
///
/// `DatabasePool` is `Sendable`; it conforms to ``DatabaseAccess`` with the same
/// semantics as ``DatabaseQueue``. The `Connection` handed to a closure belongs to it.
/// A pool needs a file: WAL does not apply to an in-memory database.
public final class DatabasePool: DatabaseAccess {
  /// The path of the database file.
  public let path: String
  /// The most reader connections the pool opens.
  public let maximumReaderCount: Int
  let writer: SerializedDatabase
  private let readerOptions: OpenOptions
  private let state = Mutex(ReaderState())
  /// One permit per reader connection: a read holds one from checkout to checkin. Tasks
  /// wait for one suspended, threads blocked.
  let permits: PermitGate
  /// Held by the one ``close()`` running.
  private let closing = NSLock()

  private struct ReaderState {
    var idle: [SerializedDatabase] = []
    var all: [SerializedDatabase] = []
    var isClosed = false
    /// Whether ``DatabasePool/close()`` finished its work.
    var didClose = false
  }

  /// Opens (and by default creates) a database file and puts it in WAL mode.
  /// - Parameters:
  ///   - path: a file path (not `":memory:"`).
  ///   - options: as for ``Connection/init(path:options:)``, for the writer; its
  ///     `journalMode` is ignored (always WAL). Readers open the file read-only with the
  ///     same busy timeout and VFS.
  ///   - maximumReaderCount: how many reads may run at once (at least 1). Default 4.
  /// - Throws: `SQLiteError` when the file cannot be opened or is not a database;
  ///   `.misuse` for an in-memory path; `.cannotOpen` when SQLite cannot put it in WAL mode
  ///   (also when `options` are read-only and the file is not in WAL mode already: a
  ///   read-only connection cannot change it).
  public init(path: String, options: OpenOptions = OpenOptions(), maximumReaderCount: Int = 4)
    throws
  {
    if path.isEmpty || path == ":memory:" || options.flags.contains(.memory) {
      throw SQLiteError.misuse(
        "a DatabasePool needs a database file: WAL mode does not apply to '\(path)'; "
          + "use a DatabaseQueue for an in-memory database")
    }
    self.path = path
    self.maximumReaderCount = max(1, maximumReaderCount)
    var writerOptions = options
    // A read-only connection cannot change the journal mode (SQLite answers "attempt to
    // write a readonly database"): it can only find WAL already set.
    let isReadOnly = options.flags.contains(.readOnly)
    writerOptions.journalMode = isReadOnly ? nil : .wal
    writer = try SerializedDatabase(
      path: path, options: writerOptions, role: .readWrite, ownerName: "DatabasePool")
    let mode = try writer.writeWithoutTransaction { db in try db.journalMode() }
    guard mode == .wal else {
      try? writer.close()
      throw SQLiteError(
        extendedCode: .cannotOpen,
        message: isReadOnly
          ? "cannot open '\(path)' read-only as a DatabasePool: it is in '\(mode.rawValue)' "
            + "journal mode, and a read-only connection cannot put it in WAL mode; open it "
            + "writable once (a writable DatabasePool does), or read it with a DatabaseQueue"
          : "cannot open '\(path)' as a DatabasePool: its journal mode stays "
            + "'\(mode.rawValue)', not 'wal'")
    }
    var readerOptions = OpenOptions()
    readerOptions.flags = [.readOnly, .noMutex]
    if options.flags.contains(.uri) { readerOptions.flags.insert(.uri) }
    readerOptions.vfs = options.vfs
    readerOptions.busyTimeout = options.busyTimeout
    readerOptions.doubleQuotedStringLiterals = options.doubleQuotedStringLiterals
    readerOptions.statementCacheCapacity = options.statementCacheCapacity
    readerOptions.foreignKeys = options.foreignKeys
    readerOptions.synchronous = options.synchronous
    readerOptions.checkpoints = options.checkpoints
    readerOptions.connectionSetup = options.connectionSetup
    self.readerOptions = readerOptions
    permits = PermitGate(permits: self.maximumReaderCount)
  }

  /// Opens a database file in WAL mode and brings it up to date with `preparation` on the
  /// writer before returning, so no read (on any reader) meets an outdated schema.
  ///
  /// ```swift
  /// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
  /// var migrator = Migrator()
  /// migrator.registerModels("v1", Note.self)
  /// let pool = try DatabasePool(path: "notes.sqlite", preparation: migrator)
  /// ```
  /// The tables the preparation covers (``DatabasePreparation/preparedTables``) are never
  /// created or migrated by a model's first write afterwards.
  /// - Parameters:
  ///   - path: a file path (not `":memory:"`).
  ///   - options: as for ``init(path:options:maximumReaderCount:)``.
  ///   - maximumReaderCount: how many reads may run at once (at least 1). Default 4.
  ///   - preparation: what brings the database up to date, such as a `Migrator` or a
  ///     `ModelPreparation`.
  /// - Throws: as ``init(path:options:maximumReaderCount:)``; what the preparation throws,
  ///   after closing the pool.
  public convenience init(
    path: String, options: OpenOptions = OpenOptions(), maximumReaderCount: Int = 4,
    preparation: any DatabasePreparation
  ) throws {
    try self.init(path: path, options: options, maximumReaderCount: maximumReaderCount)
    try preparation.prepareOnOpen(self)
  }

  // MARK: Synchronous access

  /// Runs `body` on a reader connection, in one read transaction: it sees one committed
  /// snapshot throughout and runs beside writes. Blocks the caller while every reader is
  /// busy. From inside a write, runs on the writer and sees that write's changes.
  /// - Throws: what `body` throws; `SQLiteError` `.readOnly` for a write attempted in it
  ///   (readers are opened read-only); `.misuse` once closed; what opening a reader throws.
  @discardableResult
  public func read<T>(_ body: (Connection) throws -> T) throws -> T {
    try onReader { database in try database.read(body) }
  }

  /// Runs `body` on the writer in one IMMEDIATE transaction (a savepoint when nested in
  /// another write): committed when it returns, rolled back when it throws.
  /// - Throws: what `body` throws, after the rollback; `SQLiteError` for BEGIN/COMMIT
  ///   failures; `.readOnly` when called from inside a ``read(_:)-3duv6``; `.misuse` once closed.
  @discardableResult
  public func write<T>(_ body: (Connection) throws -> T) throws -> T {
    try checkNotInsideRead("write(_:)")
    return try writer.write(body)
  }

  /// Runs `body` on the writer outside any transaction.
  /// - Throws: what `body` throws; `.readOnly` from inside a ``read(_:)-3duv6``; `.misuse` once
  ///   closed.
  @discardableResult
  public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
    try checkNotInsideRead("writeWithoutTransaction(_:)")
    return try writer.writeWithoutTransaction(body)
  }

  // MARK: Asynchronous access

  /// Like ``read(_:)``, suspending the task instead of blocking it: while every reader is
  /// busy, the task waits without holding a thread, then `body` runs on the reader's own
  /// thread. A task cancelled before `body` starts throws `CancellationError`, and `body`
  /// never runs.
  /// - Throws: as ``read(_:)``; `CancellationError`.
  @discardableResult
  public func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T)
    async throws -> T
  {
    try await onFreeReader { reader in try await reader.read(body) }
  }

  /// Like ``write(_:)``, suspending the task instead of blocking it while the writer is
  /// busy; `body` runs on the writer's own thread. A task cancelled before `body` starts
  /// throws `CancellationError`, and `body` never runs.
  /// - Throws: as ``write(_:)``; `CancellationError`.
  @discardableResult
  public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T)
    async throws -> T
  {
    try await writer.write(body)
  }

  /// Like ``writeWithoutTransaction(_:)``, suspending the task instead of blocking it, as
  /// the asynchronous `write` does.
  /// - Throws: as ``writeWithoutTransaction(_:)``; `CancellationError`.
  @discardableResult
  public func writeWithoutTransaction<T: Sendable>(
    _ body: @escaping @Sendable (Connection) throws -> T
  ) async throws -> T {
    try await writer.writeWithoutTransaction(body)
  }

  // MARK: Control

  /// Runs a WAL checkpoint on the writer, after the writes queued before it.
  /// - Parameter mode: `.passive` (default) never waits; `.truncate` waits (within the
  ///   busy timeout) for reads in flight and leaves an empty `-wal` file.
  /// - Returns: the log's size in frames and how many are now in the database file.
  /// - Throws: `SQLiteError` `.busy` when a waiting mode could not finish in time;
  ///   `.misuse` once closed.
  @discardableResult
  public func checkpoint(_ mode: CheckpointMode = .passive) throws -> Connection.CheckpointResult {
    try writeWithoutTransaction { db in try db.checkpoint(mode) }
  }

  /// Interrupts every statement running now on the writer and the readers.
  /// Safe from any thread.
  public func interrupt() {
    writer.interrupt()
    for reader in state.withLock({ $0.all }) { reader.interrupt() }
  }

  /// Refuses new work, waits for the writes and reads in flight, then closes every
  /// connection. Later calls throw `SQLiteError` `.misuse`; closing again does nothing.
  /// - Throws: `.misuse` from inside one of the pool's closures (it would wait for itself);
  ///   `.busy` when statements prepared in a closure are still alive.
  public func close() throws {
    if runsCaller {
      throw SQLiteError.misuse("close() was called from inside one of the DatabasePool's closures")
    }
    // One closer at a time: two taking permits one by one could each hold some and wait
    // forever for the rest. A later closer finds the work done.
    closing.lock()
    defer { closing.unlock() }
    if state.withLock({ $0.didClose }) { return }
    state.withLock { $0.isClosed = true }
    // Holding every permit means no read is in flight, and none can start. Those queued
    // before the close get their permit first, and find the pool closed.
    for _ in 0..<maximumReaderCount { permits.wait() }
    defer { for _ in 0..<maximumReaderCount { permits.release() } }
    var firstError: (any Error)?
    for reader in state.withLock({ $0.all }) {
      do { try reader.close() } catch { firstError = firstError ?? error }
    }
    // The writer goes last: as the file's last connection, it checkpoints the log and
    // removes the -wal and -shm files (a read-only reader could not).
    do { try writer.close() } catch { firstError = firstError ?? error }
    if let firstError { throw firstError }
    state.withLock { $0.didClose = true }
  }

  /// The number of reader connections opened so far.
  public var readerCount: Int { state.withLock { $0.all.count } }

  // MARK: Readers

  /// Runs `body` with the serialized database a read uses: a free reader (waiting for one),
  /// or, from inside one of the pool's closures, the reader or writer running it.
  private func onReader<T>(_ body: (SerializedDatabase) throws -> T) throws -> T {
    if let current = SerializedDatabase.current {
      if current == writer.identity { return try body(writer) }
      if let reader = state.withLock({ $0.all.first { $0.identity == current } }) {
        return try body(reader)
      }
    }
    permits.wait()
    defer { permits.release() }
    let reader = try checkOut()
    defer { checkIn(reader) }
    return try body(reader)
  }

  /// Whether the caller runs inside one of the pool's closures (a read or a write).
  var runsCaller: Bool {
    guard let current = SerializedDatabase.current else { return false }
    return current == writer.identity
      || state.withLock({ $0.all.contains { $0.identity == current } })
  }

  /// Like the blocking form, for a task: it waits for a permit suspended. An asynchronous
  /// call never runs inside one of the pool's closures (they are synchronous).
  /// - Throws: what `body` throws; `CancellationError` when the task is cancelled while
  ///   it waits (it holds no permit then); `.misuse` once closed.
  private func onFreeReader<T: Sendable>(_ body: (SerializedDatabase) async throws -> T)
    async throws -> T
  {
    try await permits.acquire()
    defer { permits.release() }
    let reader = try checkOut()
    defer { checkIn(reader) }
    return try await body(reader)
  }

  /// Makes sure that the commits of other connections and processes to the file, up to
  /// now, have been reported to the commit listeners as changing everything.
  ///
  /// A reader's `PRAGMA data_version` changes with every commit of another connection,
  /// the pool's own writer included; the writer's changes with the commits of others only,
  /// but the writer may be busy with a long write. So a reader looks first: when its
  /// version did not move, the answer is there without waiting for the writer. Otherwise
  /// the writer looks (a write transaction running then has looked already), and reports:
  /// the writer's own look must see the commit too, or its next write would report it again
  /// and drop every result once more.
  /// - Throws: `.misuse` once closed; `SQLiteError` from the pragma.
  func noticeOtherConnectionsCommits() throws {
    guard writer.isTrackingChanges else { return }
    if SerializedDatabase.current == writer.identity {
      return try writer.noticeOtherConnectionsCommits()
    }
    let writes = writer.writeCount
    switch try onReader({ reader in try reader.otherCommitsSinceLastLook(writes: writes) }) {
    case .none: return
    case .some, .unknown: try writer.noticeOtherConnectionsCommits()
    }
  }

  /// Like ``noticeOtherConnectionsCommits()``, the task suspended while it waits for a
  /// reader or the writer.
  /// - Throws: as the blocking form; `CancellationError`.
  func noticeOtherConnectionsCommits() async throws {
    guard writer.isTrackingChanges else { return }
    let writes = writer.writeCount
    let seen = try await onFreeReader { reader in
      try await reader.otherCommitsSinceLastLook(writes: writes)
    }
    switch seen {
    case .none: return
    // The writer looks itself, so that its own look sees the commit too (see the blocking
    // form).
    case .some, .unknown: try await writer.noticeOtherConnectionsCommits()
    }
  }

  private func checkNotInsideRead(_ call: String) throws {
    guard let current = SerializedDatabase.current, current != writer.identity,
      state.withLock({ $0.all.contains { $0.identity == current } })
    else { return }
    throw SQLiteError(
      extendedCode: .readOnly, message: "\(call) was called from inside read(_:)")
  }

  /// An idle reader, or a new one when none is idle. The caller holds a permit, so the
  /// pool never opens more than `maximumReaderCount`.
  private func checkOut() throws -> SerializedDatabase {
    let idle = try state.withLock { state throws(SQLiteError) -> SerializedDatabase? in
      if state.isClosed { throw SQLiteError.misuse("the DatabasePool is closed") }
      return state.idle.popLast()
    }
    if let idle { return idle }
    let reader = try SerializedDatabase(
      path: path, options: readerOptions, role: .reader, ownerName: "DatabasePool")
    state.withLock { $0.all.append(reader) }
    return reader
  }

  private func checkIn(_ reader: SerializedDatabase) {
    state.withLock { $0.idle.append(reader) }
  }
}
