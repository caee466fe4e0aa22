internal import CSQLite
import Foundation
import Synchronization

/// Marks a connection as owned by a ``DatabaseQueue`` or ``DatabasePool``: the owner lends
/// it to one thread at a time, for the length of a closure, and the connection refuses to
/// run SQL on any other thread.
///
/// A connection that escapes its closure (`let c = try queue.read { $0 }`) would otherwise
/// run SQL beside the owner's own work on the same `SQLITE_OPEN_NOMUTEX` handle, which
/// corrupts SQLite's state and can crash the process. The check is one atomic load and
/// one `pthread_self()` per statement run or prepared, and per ``Statement/step()`` of a
/// statement made by ``Connection/prepare(_:)`` and per read of a ``Row`` of such a
/// statement read in place.
final class ConnectionOwner: Sendable {
  /// What owns the connection, for the error message (`"DatabaseQueue"`, ...).
  let name: String
  /// The thread the connection is lent to, or 0 when no closure of the owner runs.
  private let holder = Atomic<UInt>(0)

  /// Statements released on a thread that did not hold the connection, finalized by the
  /// next thread that does (``lend()``), or when the connection goes (``retire(_:)``).
  private let released = Mutex(Released())

  private struct Released {
    var statements: [ReleasedStatement] = []
    /// Set once the connection is gone: no closure uses the handle any more, so a statement
    /// released later is finalized at once (under this lock, one at a time) instead of
    /// waiting for a loan that will never come.
    var connectionIsGone = false
  }

  /// A statement handle in transit to the thread that may finalize it: only that thread
  /// uses it, so passing it across threads is safe.
  private struct ReleasedStatement: @unchecked Sendable {
    let handle: OpaquePointer
  }

  init(name: String) { self.name = name }

  /// Whether the calling thread holds the connection now.
  var isHeldByCurrentThread: Bool { holder.load(ordering: .acquiring) == Self.currentThread }

  /// Keeps a statement released off the connection's thread, to finalize it safely later;
  /// once the connection is gone, finalizes it now.
  func finalizeLater(_ handle: OpaquePointer) {
    let statement = ReleasedStatement(handle: handle)
    released.withLock { state in
      if state.connectionIsGone {
        sqlite3_finalize(statement.handle)
      } else {
        state.statements.append(statement)
      }
    }
  }

  /// Finalizes the statements released off the connection's thread. Call only while the
  /// calling thread holds the connection (or it is closing).
  func finalizeReleased() {
    let statements = released.withLock { state -> [ReleasedStatement] in
      defer { state.statements.removeAll() }
      return state.statements
    }
    for statement in statements { sqlite3_finalize(statement.handle) }
  }

  /// Runs `close`, the teardown of a connection that is going away without ``close()``
  /// having closed it, with the connection lent to the calling thread: statements it
  /// releases (those the layers above Core kept on the connection) are finalized at once.
  /// The statements released elsewhere before are finalized first. Afterwards the owner
  /// finalizes each statement released anywhere as soon as it is released, so that the
  /// last one lets SQLite close the handle that `sqlite3_close_v2` left open for them.
  ///
  /// A connection goes away only when nothing lends it any more, so no closure runs on it
  /// meanwhile; statements released on other threads meanwhile wait for this lock.
  func retire(_ close: () -> Void) {
    released.withLock { state in
      holder.store(Self.currentThread, ordering: .releasing)
      for statement in state.statements { sqlite3_finalize(statement.handle) }
      state.statements.removeAll()
      close()
      state.connectionIsGone = true
      holder.store(0, ordering: .releasing)
    }
  }

  /// An identifier of the calling thread.
  static var currentThread: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// Lends the connection to the calling thread until ``takeBack()``.
  func lend() {
    holder.store(Self.currentThread, ordering: .releasing)
    finalizeReleased()
  }

  /// Ends the loan: from now on, nobody may run SQL on the connection.
  func takeBack() { holder.store(0, ordering: .releasing) }

  /// Runs `body` with the connection lent to the calling thread, then takes it back. A
  /// call nested in a loan on the same thread keeps the outer loan.
  func lending<T>(_ body: () throws -> T) rethrows -> T {
    if holder.load(ordering: .acquiring) == Self.currentThread { return try body() }
    lend()
    defer { takeBack() }
    return try body()
  }

  /// Throws unless the calling thread holds the connection now.
  func check(_ sql: String?) throws(SQLiteError) {
    guard holder.load(ordering: .acquiring) != Self.currentThread else { return }
    throw SQLiteError.misuse(
      "this connection belongs to a \(name) and was used outside its closures: "
        + "keep the Connection (and statements prepared on it) inside the closure "
        + "that received it", sql: sql)
  }
}
