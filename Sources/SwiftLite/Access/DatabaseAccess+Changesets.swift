// Changesets through a queue or a pool: sessions that record on the writer, and applies
// that run as writes (so observers and the query cache hear of the applied rows).
extension DatabaseAccess {
  /// Starts a session on the writer's connection, recording the tables named (attach
  /// more later with ``DatabaseSession/attach(_:)``, or all with
  /// ``DatabaseSession/attachAllTables(except:)``).
  /// - Throws: ``ChangesetError/sessionExtensionUnavailable(missing:)``; as
  ///   ``Session/attach(_:)`` for each table; `SQLiteError` `.misuse` once closed or for a
  ///   type other than ``DatabaseQueue`` and ``DatabasePool``.
  public func makeSession(attaching tables: [String] = []) throws -> DatabaseSession {
    guard let writer = writingDatabase else {
      throw SQLiteError.misuse(
        "\(type(of: self)) cannot hold a session: use a DatabaseQueue or a DatabasePool")
    }
    let session = try DatabaseSession(writer: writer)
    for table in tables { try session.attach(table) }
    return session
  }

  /// Applies a changeset on the writer, in one transaction of its own (see
  /// ``Connection/apply(_:onConflict:)``); the commit reaches observers and the query cache.
  /// - Throws: as ``Connection/apply(_:onConflict:)``; `.misuse` once closed.
  public func apply(
    _ changeset: Changeset,
    onConflict: (ChangesetConflict) throws -> ChangesetConflict.Resolution = { _ in .abort }
  ) throws {
    try writeWithoutTransaction { db in try db.apply(changeset, onConflict: onConflict) }
  }

  /// Like ``apply(_:onConflict:)``, suspending the task instead of blocking a thread.
  /// - Throws: as ``apply(_:onConflict:)``.
  public func apply(
    _ changeset: Changeset,
    onConflict: @escaping @Sendable (ChangesetConflict) throws -> ChangesetConflict.Resolution = {
      _ in .abort
    }
  ) async throws {
    try await writeWithoutTransaction { db in try db.apply(changeset, onConflict: onConflict) }
  }
}
