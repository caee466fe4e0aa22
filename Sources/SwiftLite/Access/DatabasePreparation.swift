/// What brings a database up to date when it opens: a `Migrator` (its migrations, or the
/// models it registers) or a `ModelPreparation` (models brought to their current shape).
///
/// ``DatabaseQueue``, ``DatabasePool`` and ``DatabaseDirectory`` take one when they open a
/// database and run it before returning, so the first read already finds the schema the
/// app expects. A preparation that throws closes the database, and the open rethrows.
///
/// Conforming types must be `Sendable`: they are kept and run from whichever thread opens
/// a database.
public protocol DatabasePreparation: Sendable {
  /// Brings `database` up to date; called once each time the database opens, before
  /// anything else uses it.
  /// - Throws: what preparing throws; the database is then closed and the open rethrows.
  func prepare(_ database: any DatabaseAccess) throws

  /// The tables this preparation brings up to date. On the connection that writes, a
  /// model's first write never creates or migrates them (it throws `needsMigration` or
  /// `tableNotFound` instead), whatever ``OpenOptions/automaticMigration`` says: their
  /// schema changes only through the preparation. Default: none.
  var preparedTables: Set<String> { get }
}

extension DatabasePreparation {
  /// No table: a model's first write creates or migrates its table as
  /// ``OpenOptions/automaticMigration`` says.
  public var preparedTables: Set<String> { [] }

  /// Runs the preparation on a database just opened, after marking its tables as prepared
  /// on the writing connection; closes the database when it throws.
  /// - Throws: what ``prepare(_:)`` throws, after closing the database.
  func prepareOnOpen(_ database: any DatabaseAccess) throws {
    do {
      let tables = preparedTables
      if !tables.isEmpty {
        try database.writeWithoutTransaction { db in db.preparedTables.formUnion(tables) }
      }
      try prepare(database)
    } catch {
      try? database.close()
      throw error
    }
  }
}
