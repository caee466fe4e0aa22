// What the database records of a migrator's history, and what is left to apply: read in
// one statement on a database migrated before, without writing anything.
extension Migrator {
  /// The names of the migrations the database records as applied, in the order they were
  /// applied, including any this migrator does not know. Writes nothing: on a database
  /// never migrated, ``recordTable`` is not created and the result is empty.
  /// - Throws: `SQLiteError` if reading fails.
  public func appliedMigrations(_ db: Connection) throws -> [String] {
    // One statement in the common case, a database migrated before: the record table is
    // read without asking first whether it exists. Only a read that fails asks, so that a
    // database never migrated still reads as no migration applied. (SQLite's prepare reads
    // the schema again before it reports a table missing, so a table another connection
    // created meanwhile is found.)
    do {
      var names: [String] = []
      try db.forEachRow(Self.appliedNamesSQL) { row in
        names.append(try row.get(String.self, at: 0))
      }
      return names
    } catch let error as SQLiteError {
      // When the check fails too, the read's own error is the one to report.
      let exists = (try? SchemaInspector(db).tableExists(Self.recordTable)) ?? true
      if !exists { return [] }
      throw error
    }
  }

  private static let appliedNamesSQL =
    "SELECT name FROM " + SQLIdentifier.quote(recordTable) + " ORDER BY rowid"

  /// The names of the registered migrations not applied yet, in the order
  /// ``migrate(_:upTo:)-(Connection,_)`` would apply them. Writes nothing.
  /// - Throws: ``MigratorError/duplicateName(_:)``,
  ///   ``MigratorError/unknownAppliedMigrations(_:)`` (the database is ahead of this app),
  ///   ``MigrationSnapshotError/missingSnapshots(_:)`` (with ``snapshots``, a model step has
  ///   none), `SQLiteError` if reading fails.
  public func pendingMigrations(_ db: Connection) throws -> [String] {
    try pending(db, upTo: nil).map(\.name)
  }

  /// Whether some registered migration is not applied yet. Writes nothing.
  /// - Throws: as ``pendingMigrations(_:)-(Connection)``.
  public func hasPendingMigrations(_ db: Connection) throws -> Bool {
    try !pending(db, upTo: nil).isEmpty
  }

  // MARK: Internals

  /// The registered migrations not applied yet (up to `target`), after the checks that
  /// come before anything runs.
  func pending(_ db: Connection, upTo target: String?) throws -> [Migration] {
    // Names are told apart by their bytes, as the record table's primary key does: a name
    // recorded in one Unicode normalization form is not a registered name in the other.
    if let duplicate = firstDuplicateName { throw MigratorError.duplicateName(duplicate) }
    var candidates = migrations[...]
    if let target {
      guard let last = migrations.firstIndex(where: { $0.name.hasSameBytes(as: target) }) else {
        throw MigratorError.unknownTarget(target)
      }
      candidates = migrations[...last]
    }
    if let snapshots {
      let missing = migrations.filter { $0.models != nil && snapshots[$0.name] == nil }
      if !missing.isEmpty { throw MigrationSnapshotError.missingSnapshots(missing.map(\.name)) }
    }
    let applied = try appliedMigrations(db)
    // The common case: the record holds the first registered names, in registration
    // order (every launch after the first). The names being unique, what is pending is
    // then what follows them, found without hashing a name.
    if applied.count <= migrations.count,
      zip(applied, migrations).allSatisfy({ $0.hasSameBytes(as: $1.name) })
    {
      return Array(candidates.dropFirst(applied.count))
    }
    let unknown = applied.filter { !registeredNames.contains(ExactText($0)) }
    if !unknown.isEmpty { throw MigratorError.unknownAppliedMigrations(unknown) }
    let done = Set(applied.map(ExactText.init))
    return candidates.filter { !done.contains(ExactText($0.name)) }
  }
}
