import Dispatch
import Foundation

/// One connection to a database, shared safely by any number of threads and tasks: closures
/// run on it one at a time, in order, on a private serial dispatch queue.
///
/// ```swift
/// import SwiftLite
///
/// let dbQueue = try DatabaseQueue(path: "app.sqlite")
/// try await dbQueue.write { db in  // in a task, await
///   try db.execute("CREATE TABLE IF NOT EXISTS user(id TEXT PRIMARY KEY, name TEXT NOT NULL)")
///   try db.run("INSERT OR REPLACE INTO user(id, name) VALUES (?, ?)", ["u1", "Ann"])
/// }
/// let names = try await dbQueue.read { db in
///   try db.query("SELECT name FROM user").map { try $0.get(String.self, at: 0) }
/// }
///
/// func userCount(_ dbQueue: DatabaseQueue) throws -> Int {  // synchronous code blocks
///   try dbQueue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM user") ?? 0 }
/// }
/// print(names, try userCount(dbQueue))
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
/// it, or a ``Row`` read from it, escape the closure. A connection that escapes anyway
/// throws `SQLiteError` `.misuse` when used instead of running SQL beside the queue's own
/// work (which could corrupt the connection's state and crash).
///
/// For reads that run beside a long write, use a ``DatabasePool``: both conform to
/// ``DatabaseAccess``.
public final class DatabaseQueue: DatabaseAccess {
  /// The path the connection was opened with.
  public var path: String { database.path }
  let database: SerializedDatabase

  /// Opens (and by default creates) a database file behind a serial queue.
  /// - Parameters:
  ///   - path: the file path, or `":memory:"`.
  ///   - options: as for ``Connection/init(path:options:)``.
  /// - Throws: `SQLiteError` when the file cannot be opened or is not a database.
  public init(path: String, options: OpenOptions = OpenOptions()) throws {
    database = try SerializedDatabase(
      path: path, options: options, role: .readWrite, ownerName: "DatabaseQueue")
  }

  /// Opens a database file behind a serial queue and brings it up to date with
  /// `preparation` before returning, so the first read finds the schema the app expects.
  ///
  /// ```swift
  /// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
  /// var migrator = Migrator()
  /// migrator.registerModels("v1", Note.self)
  /// let dbQueue = try DatabaseQueue(path: "notes.sqlite", preparation: migrator)
  /// let notes = try await dbQueue.read { db in try db.findAll(Note.self) }  // never needsMigration
  /// ```
  /// The tables the preparation covers (``DatabasePreparation/preparedTables``) are never
  /// created or migrated by a model's first write afterwards.
  /// - Parameters:
  ///   - path: the file path, or `":memory:"`.
  ///   - options: as for ``Connection/init(path:options:)``.
  ///   - preparation: what brings the database up to date, such as a `Migrator` or a
  ///     `ModelPreparation`.
  /// - Throws: `SQLiteError` when the file cannot be opened; what the preparation throws
  ///   (such as ``MigratorError``, ``MigratorError/readOnlyDatabase(pending:)`` for a
  ///   read-only open with migrations pending), after closing the database.
  public convenience init(
    path: String, options: OpenOptions = OpenOptions(), preparation: any DatabasePreparation
  ) throws {
    try self.init(path: path, options: options)
    try preparation.prepareOnOpen(self)
  }

  /// A queue over a private in-memory database.
  /// - Throws: `SQLiteError` if SQLite cannot allocate it.
  public static func inMemory() throws -> DatabaseQueue {
    var options = OpenOptions()
    options.flags.insert(.memory)
    return try DatabaseQueue(path: ":memory:", options: options)
  }

  // MARK: Synchronous access

  /// Runs `body` with the connection in read-only mode and returns its result, blocking the
  /// caller until the queue gets to it.
  /// - Throws: what `body` throws; `SQLiteError` `.readOnly` for a write attempted in it;
  ///   `.misuse` once closed.
  @discardableResult
  public func read<T>(_ body: (Connection) throws -> T) throws -> T {
    try database.read(body)
  }

  /// Runs `body` in one IMMEDIATE transaction (a savepoint when nested in another write):
  /// committed when it returns, rolled back when it throws. A failed write always ends its
  /// transaction before the queue takes the next closure, even when ``interrupt()`` is
  /// called meanwhile.
  /// - Throws: what `body` throws, after the rollback; `SQLiteError` for BEGIN/COMMIT
  ///   failures, `.readOnly` when called from inside a ``read(_:)-6x7vg``, and `.misuse` when an
  ///   earlier ``writeWithoutTransaction(_:)-vxhl`` left a transaction open, or once closed.
  @discardableResult
  public func write<T>(_ body: (Connection) throws -> T) throws -> T {
    try database.write(body)
  }

  /// Runs `body` on the connection outside any transaction, for statements that cannot
  /// run in one (`VACUUM`, `PRAGMA journal_mode`) or for your own transaction handling.
  /// - Throws: what `body` throws; `.readOnly` from inside a ``read(_:)-6x7vg``; `.misuse` once
  ///   closed.
  @discardableResult
  public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
    try database.writeWithoutTransaction(body)
  }

  // MARK: Asynchronous access

  /// Like ``read(_:)``, suspending the task instead of blocking a thread: while the queue is
  /// busy, the task waits without holding one, then `body` runs on the queue's own thread. A
  /// task cancelled before `body` starts throws `CancellationError`, and `body` never runs.
  /// - Throws: what `body` throws; `CancellationError`.
  @discardableResult
  public func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T)
    async throws -> T
  {
    try await database.read(body)
  }

  /// Like ``write(_:)``, suspending the task instead of blocking a thread, as the
  /// asynchronous `read` does. A task cancelled before `body` starts throws
  /// `CancellationError`, and no transaction begins.
  /// - Throws: what `body` throws, after the rollback; `CancellationError`.
  @discardableResult
  public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T)
    async throws -> T
  {
    try await database.write(body)
  }

  /// Like ``writeWithoutTransaction(_:)``, suspending the task instead of blocking a thread,
  /// as the asynchronous `read` does.
  /// - Throws: what `body` throws; `CancellationError`.
  @discardableResult
  public func writeWithoutTransaction<T: Sendable>(
    _ body: @escaping @Sendable (Connection) throws -> T
  ) async throws -> T {
    try await database.writeWithoutTransaction(body)
  }

  // MARK: Control

  /// Interrupts the statement running now, if any; it fails with `SQLiteError` `.interrupt`.
  /// Safe from any thread. The queue's own rollback of a failed write is never cut short.
  public func interrupt() { database.interrupt() }

  /// Waits for the closures queued before it, then closes the connection. Later calls throw
  /// `SQLiteError` `.misuse`; closing again does nothing.
  /// - Throws: `.misuse` from inside one of the queue's closures (it would wait for
  ///   itself); `.busy` when statements prepared in a closure are still alive (the queue
  ///   stays open then).
  public func close() throws { try database.close() }
}
