/// What ``DatabaseQueue`` and ``DatabasePool`` have in common: a database that any number
/// of threads and tasks share, through closures that receive its ``Connection``.
///
/// Code written against `DatabaseAccess` (``Repository``, ``Migrator``, your own stores)
/// works over either:
///
/// ```swift
/// struct User: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
/// func importUsers(_ users: [User], into database: some DatabaseAccess) throws {
///   try database.write { db in try db.save(users) }
/// }
/// try importUsers([User(id: 1, name: "Ann")], into: DatabaseQueue(path: "app.sqlite"))
/// ```
///
/// The semantics are the same for both:
/// - A ``write(_:)-82p8b`` is one IMMEDIATE transaction: committed when the closure returns,
///   rolled back when it throws. Writes run one at a time, in order.
/// - A ``read(_:)-2qvi5`` cannot write (`SQLiteError` `.readOnly`) and sees committed data only,
///   the same data from its start to its end.
/// - A call made from inside one of its own closures runs inline on the same connection (a
///   write nested in a write becomes a savepoint; a write nested in a read throws
///   `.readOnly`); it never deadlocks.
/// - After ``close()``, every call throws `SQLiteError` `.misuse`.
///
/// Conforming types are `Sendable`. The `Connection` handed to a closure is not: it belongs
/// to the closure, and used after it returns it throws `.misuse` instead of running.
public protocol DatabaseAccess: AnyObject, Sendable {
  /// The path of the database file.
  var path: String { get }

  /// Runs `body` with a connection that cannot write and returns its result, blocking the
  /// caller until a connection is free.
  /// - Throws: what `body` throws; `SQLiteError` `.readOnly` for a write attempted in it;
  ///   `.misuse` once closed.
  @discardableResult
  func read<T>(_ body: (Connection) throws -> T) throws -> T

  /// Runs `body` in one IMMEDIATE transaction (a savepoint when nested in another write):
  /// committed when it returns, rolled back when it throws.
  /// - Throws: what `body` throws, after the rollback; `SQLiteError` for BEGIN/COMMIT
  ///   failures, `.readOnly` when called from inside a read, `.misuse` once closed.
  @discardableResult
  func write<T>(_ body: (Connection) throws -> T) throws -> T

  /// Runs `body` on the writing connection outside any transaction, for statements that
  /// cannot run in one (`VACUUM`, some pragmas) or for your own transaction handling.
  /// - Throws: what `body` throws; `.misuse` once closed.
  @discardableResult
  func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T

  /// Like ``read(_:)``, suspending the task instead of blocking it: no thread waits for a
  /// free connection. A task cancelled before `body` starts throws `CancellationError`, and
  /// `body` never runs.
  /// - Throws: as ``read(_:)``; `CancellationError`.
  @discardableResult
  func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

  /// Like ``write(_:)``, suspending the task instead of blocking it, as the asynchronous
  /// `read` does.
  /// - Throws: as ``write(_:)``; `CancellationError`.
  @discardableResult
  func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T

  /// Like ``writeWithoutTransaction(_:)``, suspending the task instead of blocking it, as
  /// the asynchronous `read` does.
  /// - Throws: as ``writeWithoutTransaction(_:)``; `CancellationError`.
  @discardableResult
  func writeWithoutTransaction<T: Sendable>(
    _ body: @escaping @Sendable (Connection) throws -> T
  ) async throws -> T

  /// Interrupts the statements running now, if any; they fail with `SQLiteError`
  /// `.interrupt`. Safe from any thread.
  func interrupt()

  /// Waits for the work in flight, then closes every connection. Later calls throw
  /// `.misuse`; closing again does nothing.
  /// - Throws: `.misuse` when called from inside one of its own closures (it would wait
  ///   for itself); `SQLiteError` `.busy` when statements prepared in a closure are alive.
  func close() throws
}
