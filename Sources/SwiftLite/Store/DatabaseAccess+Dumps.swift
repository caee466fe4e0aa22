// Dumps through a queue or a pool: each is one read, so the text is one snapshot.
extension DatabaseAccess {
  /// ``Connection/dumpContent(includingBookkeeping:)`` in one read.
  /// - Throws: as the connection's form, and as `read(_:)`.
  public func dumpContent(includingBookkeeping: Bool = false) throws -> String {
    try read { db in try db.dumpContent(includingBookkeeping: includingBookkeeping) }
  }

  /// ``Connection/dumpSchema(includingBookkeeping:)`` in one read.
  /// - Throws: as the connection's form, and as `read(_:)`.
  public func dumpSchema(includingBookkeeping: Bool = false) throws -> String {
    try read { db in try db.dumpSchema(includingBookkeeping: includingBookkeeping) }
  }

  /// The connection's `dump(_:)` of SQL, in one read.
  /// - Throws: as the connection's form, and as `read(_:)`.
  public func dump(_ sql: SQL) throws -> String {
    try read { db in try db.dump(sql) }
  }

  /// The connection's `dump(_:)` of a query of models, in one read.
  /// - Throws: as the connection's form, and as `read(_:)`.
  public func dump<M: Model>(_ query: ModelQuery<M>) throws -> String {
    try read { db in try db.dump(query) }
  }
}
