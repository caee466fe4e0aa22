import Foundation
import SwiftLite

/// Checks an app's migration history in one call: every intermediate state of its
/// ``Migrator``, and every fixture file of an earlier release, upgraded to the last step,
/// has the schema of a fresh install and keeps the rows it had.
///
/// ```swift
/// import Foundation
/// import XCTest
///
/// struct Note: Model { var id: Int64?; var title: String; var pinned: Bool; static let primaryKey = ["id"] }
/// enum AppDatabase {
///   static var migrator: Migrator {
///     var migrator = Migrator()
///     migrator.register("v1-tables") { db in
///       try db.execute("CREATE TABLE Note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, pinned BOOLEAN NOT NULL)")
///     }
///     return migrator
///   }
/// }
/// // A file as release 2 left it (an app commits one and loads it with
/// // `Bundle.module.url(forResource: "release2", withExtension: "sqlite")!`).
/// func release2File() throws -> URL {
///   let url = URL(fileURLWithPath: "release2.sqlite")
///   try AppDatabase.migrator.migrate(Connection(path: url.path))
///   return url
/// }
///
/// func testMigrationHistory() throws {
///   var check = MigrationHistoryCheck(AppDatabase.migrator)
///   check.seed(after: "v1-tables", sql: "INSERT INTO Note (title, pinned) VALUES ('a', 0)")
///   check.upgrade(fixture: try release2File())
///   let report = try check.run()
///   XCTAssertTrue(report.passed, report.description)
///   // Swift Testing: #expect(report.passed, "\(report)")
/// }
/// ```
///
/// ``run()`` builds, each in a temporary file:
///
/// 1. a **fresh install**: every migration in one `migrate` call on an empty file;
/// 2. for each step, the **state at that step**: the steps up to it applied one call each,
///    each followed by its seeds; a model step given a snapshot is compared, right after it
///    ran, with the tables its snapshot records (column order aside: a column added in place
///    comes last); then the rest applied in one call, as an upgrade would;
/// 3. each **fixture**, a copy of a file an earlier release made, upgraded in one call.
///
/// Each upgraded file must equal the fresh install by ``DatabaseSchema``'s definition, and
/// keep its rows: every row a seed inserted (by rowid; by count for a `WITHOUT ROWID`
/// table), and every row of a fixture, must still be in its table. ``verify(_:)`` closures
/// run on the fresh install and every upgraded file, for what only the app knows (the
/// rows a seeding migration inserts, values a data step computed).
///
/// For n steps it builds n + 1 databases, the one at step k applying k + 1 steps one call
/// each: quadratic in the number of steps, a few seconds for an app's tens of steps.
///
/// A migrator without snapshots is checked as it runs: its model steps apply today's
/// models, and the check shows where that breaks (often, the fresh install itself).
///
/// Not `Sendable`: its seeds and checks are closures run on the test's thread.
public struct MigrationHistoryCheck {
  /// The migrator checked.
  public let migrator: Migrator
  private var seeds: [String: [(Connection) throws -> Void]] = [:]
  private var fixtures: [URL] = []
  private var checks: [(Connection) throws -> Void] = []

  /// A check of `migrator`, with no seeds, fixtures or extra checks yet.
  public init(_ migrator: Migrator) {
    self.migrator = migrator
  }

  /// Rows to insert once `step` has run, on every path that stops there or goes through it
  /// one step at a time.
  /// - Parameters:
  ///   - step: a registered step's name (an unknown name makes ``run()`` throw).
  ///   - sql: statements, run with `Connection.execute`.
  public mutating func seed(after step: String, sql: String) {
    seed(after: step) { db in try db.execute(sql) }
  }

  /// Rows to insert once `step` has run, written by a closure (models of that step's shape,
  /// SQL with arguments).
  public mutating func seed(after step: String, _ body: @escaping (Connection) throws -> Void) {
    seeds[step, default: []].append(body)
  }

  /// A database file an earlier release made (committed with the tests), to upgrade on a
  /// copy.
  public mutating func upgrade(fixture: URL) {
    fixtures.append(fixture)
  }

  /// A check of the final database, run on the fresh install and on every upgraded file;
  /// what it throws is reported for that path.
  public mutating func verify(_ check: @escaping (Connection) throws -> Void) {
    checks.append(check)
  }

  /// Runs the check.
  /// - Returns: the report; ``MigrationHistoryReport/passed`` when every path reached the
  ///   fresh install's schema and kept its rows.
  /// - Throws: ``MigratorError/unknownTarget(_:)`` for a seed after a step that is not
  ///   registered; errors of making temporary files. Failures of the history itself are in
  ///   the report, not thrown.
  public func run() throws -> MigrationHistoryReport {
    let names = migrator.names
    if let unknown = seeds.keys.sorted().first(where: { !names.contains($0) }) {
      throw MigratorError.unknownTarget(unknown)
    }
    var report = MigrationHistoryReport()
    if migrator.snapshots == nil && !migrator.modelStepNames.isEmpty {
      report.notes.append(
        "the migrator has no snapshots: its model steps apply today's models, so the"
          + " history below is not the one earlier releases ran")
    }

    let fresh = try TemporaryDatabase.file(named: "fresh.sqlite")
    var freshPath = MigrationHistoryReport.Path(name: "fresh install")
    do {
      try migrator.migrate(fresh.connection)
    } catch {
      freshPath.failure = "\(error)"
      report.freshInstall = freshPath
      return report
    }
    let expected = try DatabaseSchema(fresh.connection)
    report.freshSchema = expected
    freshPath.verifyFailures = verifyFailures(fresh.connection)
    report.freshInstall = freshPath

    for (position, step) in names.enumerated() {
      let database = try TemporaryDatabase.file(named: "step\(position).sqlite")
      let db = database.connection
      var path = MigrationHistoryReport.Path(
        name: position == names.count - 1
          ? "every step, one call each" : "upgrade from \"\(step)\"")
      var seeded = SeededRows()
      do {
        for earlier in names[...position] {
          try migrator.migrate(db, upTo: earlier)
          if earlier == step, let differences = try snapshotDifferences(step, db) {
            report.snapshotDifferences[step] = differences
          }
          for seed in seeds[earlier] ?? [] {
            let before = try SeededRows.read(db)
            try seed(db)
            try seeded.add(since: before, in: db, step: earlier)
          }
        }
        try migrator.migrate(db)
      } catch {
        path.failure = "\(error)"
        report.paths.append(path)
        continue
      }
      try finish(&path, db, expected: expected, seeded: seeded)
      report.paths.append(path)
    }

    for fixture in fixtures {
      var path = MigrationHistoryReport.Path(name: "upgrade of \(fixture.lastPathComponent)")
      let database = try TemporaryDatabase.copy(of: fixture)
      let db = database.connection
      var seeded = SeededRows()
      do {
        try seeded.add(since: SeededRows(), in: db, step: fixture.lastPathComponent)
        try migrator.migrate(db)
      } catch {
        path.failure = "\(error)"
        report.paths.append(path)
        continue
      }
      try finish(&path, db, expected: expected, seeded: seeded)
      report.paths.append(path)
    }
    return report
  }

  private func finish(
    _ path: inout MigrationHistoryReport.Path, _ db: Connection, expected: DatabaseSchema,
    seeded: SeededRows
  ) throws {
    path.schemaDifferences = try DatabaseSchema(db).differences(from: expected)
    path.missingRows = try seeded.missing(in: db, renamed: try renamedTables())
    path.verifyFailures = verifyFailures(db)
  }

  /// The tables the model steps rename (their earlier names, as recorded in the snapshots,
  /// else as the models declare them now): old name -> new name, lower-cased.
  private func renamedTables() throws -> [String: String] {
    var renamed: [String: String] = [:]
    for step in migrator.modelStepNames {
      let tables =
        try migrator.snapshots?[step]?.tables ?? migrator.currentModelTables(ofStep: step) ?? []
      for table in tables {
        for old in table.previousNames where old.lowercased() != table.name.lowercased() {
          renamed[old.lowercased()] = table.name.lowercased()
        }
      }
    }
    return renamed
  }

  private func verifyFailures(_ db: Connection) -> [String] {
    checks.compactMap { check in
      do {
        try check(db)
        return nil
      } catch {
        return "\(error)"
      }
    }
  }

  /// How the tables of a model step, just applied, differ from its snapshot; `nil` when
  /// the step is not a model step or has no snapshot.
  private func snapshotDifferences(_ step: String, _ db: Connection) throws -> [SchemaDifference]? {
    guard let snapshot = migrator.snapshots?[step] else { return nil }
    let scratch = try TemporaryDatabase.inMemory()
    let names = Set(snapshot.tables.map { $0.name.lowercased() })
    for table in snapshot.tables {
      for statement in table.createStatements { try scratch.connection.execute(statement) }
    }
    // The parents the recorded foreign keys name, as they are, so that implied parent
    // columns resolve alike on both sides.
    let parents = Set(snapshot.tables.flatMap { $0.foreignKeys.map { $0.table.lowercased() } })
      .subtracting(names)
    for parent in parents.sorted() {
      if let sql = try db.scalar(
        String.self,
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE",
        [parent])
      {
        try scratch.connection.execute(sql)
      }
    }
    let recorded = try DatabaseSchema(scratch.connection)
    let actual = try DatabaseSchema(db)
    var differences: [SchemaDifference] = []
    for table in snapshot.tables {
      let fullText = table.fullTextIndexes.map(\.name)
      differences += actual.only(table.name, fullText: fullText).differences(
        from: recorded.only(table.name, fullText: fullText), ignoringColumnOrder: true)
    }
    return differences
  }
}

extension DatabaseSchema {
  /// The schema with only the table `name` and the full-text indexes named `fullText`
  /// (their FTS5 tables and the triggers that keep them in sync; no other view or trigger).
  fileprivate func only(_ name: String, fullText: [String] = []) -> DatabaseSchema {
    let names = [name] + fullText
    let triggerNames = Set(
      fullText.flatMap { index in ["ai", "ad", "au"].map { index.lowercased() + "_" + $0 } })
    return DatabaseSchema(
      tables: names.compactMap { table(named: $0) }, views: [:],
      triggers: triggers.filter { triggerNames.contains($0.key) })
  }
}
