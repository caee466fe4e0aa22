import Synchronization

/// The sessions open on one connection. SQLite requires a session to be deleted before its
/// connection closes (`sqlite3session_delete` reads the connection), so the connection
/// ends them all first (see ``Connection/close()``).
///
/// A ``Session`` released on a thread that does not hold its connection (one that escaped
/// a ``DatabaseQueue`` closure) cannot call SQLite there: it leaves its handle here, and the
/// next session made on the connection, or the connection's close, deletes it.
final class SessionRegistry {
  private struct Entry {
    weak var session: Session?
  }

  private var entries: [Entry] = []
  /// Session handles released off the connection's thread, with their filter context.
  private let pending = Mutex<[PendingDelete]>([])

  /// A handle waiting for the connection's thread. Only that thread uses it.
  struct PendingDelete: @unchecked Sendable {
    let api: SessionAPI
    let handle: OpaquePointer
    let context: AnyObject?
  }

  /// Remembers a session; forgets the ones already gone.
  func add(_ session: Session) {
    deletePending()
    entries.removeAll { $0.session == nil }
    entries.append(Entry(session: session))
  }

  /// Keeps a handle to delete on the connection's thread later.
  func deleteLater(_ entry: PendingDelete) {
    pending.withLock { $0.append(entry) }
  }

  /// Deletes the handles left by sessions released off the connection's thread.
  func deletePending() {
    let handles = pending.withLock { list -> [PendingDelete] in
      defer { list.removeAll() }
      return list
    }
    for entry in handles { entry.api.delete(entry.handle) }
  }

  /// Ends every session: the connection is about to close.
  func closeAll() {
    deletePending()
    for entry in entries { entry.session?.connectionWillClose() }
    entries.removeAll()
  }
}
