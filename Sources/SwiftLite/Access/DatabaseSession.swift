/// A ``Session`` on the writer of a ``DatabaseQueue`` or ``DatabasePool``: it records the
/// changes of every write closure, across as many closures as you like, until asked for a
/// changeset.
///
/// ```swift
/// let pool = try DatabasePool(path: "notes.sqlite")
/// try await pool.write { db in
///   try db.execute("CREATE TABLE IF NOT EXISTS note(id INTEGER PRIMARY KEY, body TEXT)")
///   try db.run("INSERT OR REPLACE INTO note(id, body) VALUES (1, 'a'), (2, 'b')")
/// }
/// let (id, other, body) = (1, 2, "edited")
/// let session = try pool.makeSession(attaching: ["note"])
/// try await pool.write { db in try db.run("UPDATE note SET body = ? WHERE id = ?", [body, id]) }
/// try await pool.write { db in try db.run("DELETE FROM note WHERE id = ?", [other]) }
/// let changes = try await session.changeset()  // both writes
/// ```
///
/// **How it is held:** the database queue owns the connection, and the session lives on
/// it: the `DatabaseSession` is a `Sendable` handle whose every call runs on the writer's
/// serial queue (like a write, waiting for the closures queued before it), so the session
/// is only ever touched by the thread that holds the connection. Asked from inside a write
/// closure, a changeset includes that closure's changes not yet committed. Releasing the
/// handle (or ``close()``) ends the session on the writer's queue; closing the database
/// ends it too, and every later call throws ``ChangesetError/sessionClosed``.
///
/// Changes made through other connections (another pool, another process) are not
/// recorded: a session sees its own connection's writes only.
public final class DatabaseSession: Sendable {
  private let writer: SerializedDatabase
  /// Only touched on the writer's queue, through `writer`.
  nonisolated(unsafe) private let session: Session

  init(writer: SerializedDatabase) throws {
    self.writer = writer
    session = try writer.writeWithoutTransaction { connection in try Session(on: connection) }
  }

  deinit {
    let box = SessionBox(session: session)
    writer.writeLater { _ in try? box.session.close() }
  }

  /// Runs `body` with the session on the writer's queue (for the layers above Access).
  func withSession<T>(_ body: (Session) throws -> T) throws -> T {
    try writer.writeWithoutTransaction { _ in try body(session) }
  }

  /// Records one table's changes from now on (see ``Session/attach(_:)``).
  /// - Throws: as ``Session/attach(_:)``; `SQLiteError` `.misuse` once the database is
  ///   closed.
  public func attach(_ table: String) throws {
    try writer.writeWithoutTransaction { _ in try session.attach(table) }
  }

  /// Records every table's changes, those created later included (see
  /// ``Session/attachAllTables(except:)``).
  /// - Throws: as ``Session/attachAllTables(except:)``.
  public func attachAllTables(except excluded: Set<String> = []) throws {
    try writer.writeWithoutTransaction { _ in try session.attachAllTables(except: excluded) }
  }

  /// The tables attached by name.
  /// - Throws: `SQLiteError` `.misuse` once the database is closed.
  public func tables() throws -> [String] {
    try writer.writeWithoutTransaction { _ in session.tables }
  }

  /// Tables met after ``attachAllTables(except:)`` that cannot be recorded (see
  /// ``Session/unrecordedTables``).
  /// - Throws: `SQLiteError` `.misuse` once the database is closed.
  public func unrecordedTables() throws -> [String] {
    try writer.writeWithoutTransaction { _ in session.unrecordedTables }
  }

  /// Pauses or resumes recording (see ``Session/setEnabled(_:)``).
  /// - Throws: ``ChangesetError/sessionClosed``; `SQLiteError` `.misuse` once the database
  ///   is closed.
  public func setEnabled(_ enabled: Bool) throws {
    try writer.writeWithoutTransaction { _ in try session.setEnabled(enabled) }
  }

  /// Whether nothing was recorded yet (see ``Session/isEmpty()``).
  /// - Throws: ``ChangesetError/sessionClosed``; `SQLiteError` `.misuse` once the database
  ///   is closed.
  public func isEmpty() throws -> Bool {
    try writer.writeWithoutTransaction { _ in try session.isEmpty() }
  }

  /// The changes recorded so far (see ``Session/changeset()``).
  /// - Throws: as ``Session/changeset()``.
  public func changeset() throws -> Changeset {
    try writer.writeWithoutTransaction { _ in try session.changeset() }
  }

  /// The changes recorded so far as a patchset (see ``Session/patchset()``).
  /// - Throws: as ``Session/patchset()``.
  public func patchset() throws -> Changeset {
    try writer.writeWithoutTransaction { _ in try session.patchset() }
  }

  /// Like ``changeset()``, suspending the task instead of blocking a thread.
  /// - Throws: as ``changeset()``.
  public func changeset() async throws -> Changeset {
    try await writer.writeWithoutTransaction { [self] _ in try session.changeset() }
  }

  /// Like ``patchset()``, suspending the task instead of blocking a thread.
  /// - Throws: as ``patchset()``.
  public func patchset() async throws -> Changeset {
    try await writer.writeWithoutTransaction { [self] _ in try session.patchset() }
  }

  /// Ends the session now. Later calls throw ``ChangesetError/sessionClosed``.
  /// - Throws: `SQLiteError` `.misuse` once the database is closed.
  public func close() throws {
    try writer.writeWithoutTransaction { _ in try session.close() }
  }
}

/// Carries a session to the writer's queue, the one thread that uses it.
private struct SessionBox: @unchecked Sendable {
  let session: Session
}
