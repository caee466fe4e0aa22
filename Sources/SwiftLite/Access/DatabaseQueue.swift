import Dispatch
import Foundation

/// One connection to a database, shared safely by any number of threads and tasks: closures
/// run on it one at a time, in order, on a private serial dispatch queue.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "app.sqlite")
/// try dbQueue.write { db in
///   try db.run("INSERT INTO user(id, name) VALUES (?, ?)", ["u1", "Ann"])
/// }
/// let count = try dbQueue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM user") }
/// let names = try await dbQueue.read { db in
///   try db.query("SELECT name FROM user").map { try $0.get(String.self, at: 0) }
/// }
/// ```
///
/// - A ``write(_:)-8wxz8`` is one IMMEDIATE transaction: it commits when the closure returns and
///   rolls back when it throws.
/// - A ``read(_:)-6x7vg`` runs with `PRAGMA query_only` on, so an accidental write fails with
///   `SQLiteError` `.readOnly` instead of happening.
/// - Calling `read` or `write` again from inside one of this queue's closures runs inline on
///   the same connection (a nested write becomes a savepoint); it never deadlocks.
///
/// `DatabaseQueue` is `Sendable`. The `Connection` handed to a closure is not: do not let
/// it, or a ``Row`` read from it, escape the closure.
public final class DatabaseQueue: Sendable {
  /// The path the connection was opened with.
  public let path: String
  private let dispatchQueue: DispatchQueue
  // Only ever touched on `dispatchQueue`, which serializes every use.
  nonisolated(unsafe) private let connection: Connection
  nonisolated(unsafe) private var readDepth = 0
  /// How many of this queue's closures are running, nested one in another.
  nonisolated(unsafe) private var depth = 0
  private let token: Token

  private final class Token: Sendable {}
  private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

  /// Opens (and by default creates) a database file behind a serial queue.
  /// - Parameters:
  ///   - path: the file path, or `":memory:"`.
  ///   - options: as for ``Connection/init(path:options:)``.
  /// - Throws: `SQLiteError` when the file cannot be opened or is not a database.
  public init(path: String, options: OpenOptions = OpenOptions()) throws {
    self.path = path
    self.connection = try Connection(path: path, options: options)
    self.token = Token()
    self.dispatchQueue = DispatchQueue(label: "SwiftLite.DatabaseQueue(\(path))")
    dispatchQueue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(token))
  }

  /// A queue over a private in-memory database.
  /// - Throws: `SQLiteError` if SQLite cannot allocate it.
  public static func inMemory() throws -> DatabaseQueue {
    var options = OpenOptions()
    options.flags.insert(.memory)
    return try DatabaseQueue(path: ":memory:", options: options)
  }

  private var isOnQueue: Bool {
    DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(token)
  }

  private func onQueue<T>(_ body: () throws -> T) rethrows -> T {
    if isOnQueue { return try body() }
    return try dispatchQueue.sync(execute: body)
  }

  // MARK: Synchronous access

  /// Runs `body` with the connection in read-only mode and returns its result, blocking the
  /// caller until the queue gets to it.
  /// - Throws: what `body` throws; `SQLiteError` `.readOnly` for a write attempted in it.
  @discardableResult
  public func read<T>(_ body: (Connection) throws -> T) throws -> T {
    try onQueue { try readOnQueue(body) }
  }

  /// Runs `body` in one IMMEDIATE transaction (a savepoint when nested in another write):
  /// committed when it returns, rolled back when it throws.
  /// - Throws: what `body` throws, after the rollback; `SQLiteError` for BEGIN/COMMIT
  ///   failures, `.readOnly` when called from inside a ``read(_:)-6x7vg``, and `.misuse` when an
  ///   earlier ``writeWithoutTransaction(_:)`` left a transaction open.
  @discardableResult
  public func write<T>(_ body: (Connection) throws -> T) throws -> T {
    try onQueue { try writeOnQueue(body) }
  }

  /// Runs `body` on the connection outside any transaction, for statements that cannot
  /// run in one (`VACUUM`, `PRAGMA journal_mode`) or for your own transaction handling.
  /// - Throws: what `body` throws.
  @discardableResult
  public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
    try onQueue {
      depth += 1
      defer { depth -= 1 }
      return try body(connection)
    }
  }

  // MARK: Asynchronous access

  /// Like ``read(_:)-6x7vg``, suspending the task instead of blocking a thread.
  /// - Throws: what `body` throws.
  @discardableResult
  public func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T)
    async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      dispatchQueue.async {
        continuation.resume(with: Result { try self.readOnQueue(body) })
      }
    }
  }

  /// Like ``write(_:)-8wxz8``, suspending the task instead of blocking a thread.
  /// - Throws: what `body` throws, after the rollback.
  @discardableResult
  public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T)
    async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      dispatchQueue.async {
        continuation.resume(with: Result { try self.writeOnQueue(body) })
      }
    }
  }

  // MARK: Control

  /// Interrupts the statement running now, if any; it fails with `SQLiteError` `.interrupt`.
  /// Safe from any thread.
  public func interrupt() { connection.interrupt() }

  // MARK: On the queue

  private func readOnQueue<T>(_ body: (Connection) throws -> T) throws -> T {
    depth += 1
    defer { depth -= 1 }
    if readDepth > 0 { return try body(connection) }
    try connection.run("PRAGMA query_only = 1")
    readDepth += 1
    defer {
      readDepth -= 1
      // An interrupt() landing on this pragma would leave the connection read-only for good;
      // SQLite clears the interrupt once no statement runs, so another attempt goes through.
      // Should it still fail, the next write reports it.
      var attempts = 0
      while (try? connection.run("PRAGMA query_only = 0")) == nil, attempts < 3 { attempts += 1 }
    }
    return try body(connection)
  }

  private func writeOnQueue<T>(_ body: (Connection) throws -> T) throws -> T {
    if readDepth > 0 {
      throw SQLiteError(
        extendedCode: .readOnly, message: "write(_:) was called from inside read(_:)")
    }
    if connection.isInTransaction {
      // Nested in another closure of this queue, the write joins its transaction. A
      // transaction still open when no closure runs was left by an earlier one: joining it
      // would report success for a write that is not committed.
      guard depth > 0 else {
        throw SQLiteError(
          extendedCode: .misuse,
          message: "write(_:) found a transaction left open by an earlier closure "
            + "(writeWithoutTransaction without COMMIT or ROLLBACK); end it first")
      }
      depth += 1
      defer { depth -= 1 }
      return try connection.savepoint(nil, body)
    }
    depth += 1
    defer { depth -= 1 }
    return try connection.transaction(.immediate, body)
  }
}
