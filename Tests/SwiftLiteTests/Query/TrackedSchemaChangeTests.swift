import Foundation
import XCTest

@testable import SwiftLite

// Schema statements do what they say whether or not changes are tracked (a QueryCache or an
// observation turns tracking on, and it stays on once they are released), on a queue and on
// a pool, through every way SQL reaches SQLite.

final class TrackedSchemaChangeTests: TemporaryDirectoryTestCase {
  private enum Kind: CaseIterable { case queue, pool }

  private enum Tracking: CaseIterable {
    case none, cache, observation, releasedCache, releasedObservation
  }

  /// One case of the matrix: a fresh file opened as `kind`, with tracking turned on.
  private struct Subject {
    let database: any DatabaseAccess
    /// What keeps the tracking alive (a cache, an observation), if anything.
    let kept: AnyObject?
    let label: String
  }

  private func subjects() throws -> [Subject] {
    var subjects: [Subject] = []
    let schema = Self.schema(fullText: hasFullText)
    for kind in Kind.allCases {
      for tracking in Tracking.allCases {
        let file = path("\(kind)-\(tracking)-\(UUID().uuidString).sqlite")
        let database: any DatabaseAccess =
          kind == .queue ? try DatabaseQueue(path: file) : try DatabasePool(path: file)
        try database.write { db in try db.execute(schema) }
        let kept = try Self.track(database, tracking)
        subjects.append(Subject(database: database, kept: kept, label: "\(kind), \(tracking)"))
      }
    }
    return subjects
  }

  /// Turns tracking on as `tracking` says; returns what must stay alive for it.
  private static func track(_ database: some DatabaseAccess, _ tracking: Tracking) throws
    -> AnyObject?
  {
    switch tracking {
    case .none:
      return nil
    case .cache:
      let cache = try QueryCache(database)
      _ = try cache.query("SELECT count(*) FROM a")
      return cache
    case .releasedCache:
      _ = try QueryCache(database).query("SELECT count(*) FROM a")
      return nil
    case .observation:
      return database.observe(countOfA, onChange: { _ in })
    case .releasedObservation:
      database.observe(countOfA, onChange: { _ in }).cancel()
      return nil
    }
  }

  private static let countOfA: @Sendable (Connection) throws -> Int = { db in
    try db.scalar(Int.self, "SELECT count(*) FROM a") ?? -1
  }

  private lazy var hasFullText: Bool =
    (try? Connection.inMemory().isFullTextSearchAvailable()) ?? false

  private static func schema(fullText: Bool) -> String {
    """
    CREATE TABLE a(x);
    CREATE TABLE b(x);
    CREATE TABLE c(x);
    CREATE VIEW v AS SELECT x FROM a;
    CREATE INDEX i ON c(x);
    CREATE TRIGGER tr AFTER INSERT ON c BEGIN SELECT 1; END;
    INSERT INTO a VALUES (1), (2);
    INSERT INTO b VALUES (1);
    """ + (fullText ? "CREATE VIRTUAL TABLE f USING fts5(x); INSERT INTO f VALUES ('word');" : "")
  }

  /// Every kind of schema statement, in an order where each one applies.
  private func statements() -> [String] {
    var statements = [
      "DROP VIEW v",
      "DROP TABLE a",
      "DROP INDEX i",
      "DROP TRIGGER tr",
      "ALTER TABLE b RENAME TO b_old",
      "ALTER TABLE b_old ADD COLUMN z DEFAULT 7",
    ]
    if hasFullText {
      statements += ["CREATE VIRTUAL TABLE g USING fts5(y)", "DROP TABLE f"]
    }
    return statements
  }

  /// Asserts that every statement of ``statements()`` took effect.
  private func assertApplied(
    _ subject: Subject, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let (names, columns) = try subject.database.read { db in
      (
        Set(try db.query("SELECT name FROM sqlite_schema").map { try $0.get(String.self, at: 0) }),
        try db.columnNames("b_old")
      )
    }
    var gone = ["v", "a", "i", "tr", "b"]
    var present = ["b_old", "c"]
    if hasFullText {
      gone += ["f", "f_data", "f_idx", "f_config", "f_docsize", "f_content"]
      present += ["g", "g_data"]
    }
    for name in gone {
      XCTAssertFalse(
        names.contains(name), "\(name) is still there (\(subject.label))", file: file, line: line)
    }
    for name in present {
      XCTAssertTrue(
        names.contains(name), "\(name) is missing (\(subject.label))", file: file, line: line)
    }
    XCTAssertEqual(columns, ["x", "z"], subject.label, file: file, line: line)
  }

  private func close(_ subject: Subject) throws {
    withExtendedLifetime(subject.kept) {}
    try subject.database.close()
  }

  func testSchemaStatementsRunByExecuteTakeEffect() throws {
    let script = statements().joined(separator: "; ")
    for subject in try subjects() {
      try subject.database.write { db in try db.execute(script) }
      try assertApplied(subject)
      try close(subject)
    }
  }

  func testSchemaStatementsPreparedAndSteppedTakeEffect() throws {
    let statements = statements()
    for subject in try subjects() {
      try subject.database.write { db in
        for sql in statements {
          let statement = try db.prepare(sql)
          XCTAssertFalse(try statement.step(), sql)
        }
      }
      try assertApplied(subject)
      try close(subject)
    }
  }

  func testSchemaStatementsOfAMigratorStepTakeEffect() throws {
    var migrator = Migrator()
    let statements = statements()
    migrator.register("schema statements") { db in
      for sql in statements { try db.execute(sql) }
    }
    for subject in try subjects() {
      XCTAssertEqual(try migrator.migrate(subject.database), ["schema statements"])
      try assertApplied(subject)
      try close(subject)
    }
  }

  func testDropTableForAModelDropsIt() throws {
    for subject in try subjects() {
      try subject.database.write { db in try db.save(ItemV1.samples) }
      try subject.database.write { db in try db.dropTable(for: ItemV1.self) }
      XCTAssertEqual(
        try subject.database.read { db in
          try db.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'Item'")
        }, 0, subject.label)
      // The table is SwiftLite's again when made again: a model migration may rebuild it.
      try subject.database.write { db in try db.save(ItemV1.samples) }
      let plan = try subject.database.write { db in try db.migrate(ItemV5.self) }
      XCTAssertEqual(plan.strategy, .rebuild, subject.label)
      try close(subject)
    }
  }

  func testAModelMigrationThatRebuildsATableSucceeds() throws {
    for subject in try subjects() {
      try subject.database.write { db in try db.save(ItemV1.samples) }
      let plan = try subject.database.write { db in try db.migrate(ItemV5.self) }
      XCTAssertEqual(plan.strategy, .rebuild, subject.label)
      let expected = ItemV1.samples.map { ItemV5(id: $0.id, name: $0.name, price: $0.price) }
      XCTAssertEqual(
        try subject.database.read { db in try db.findAll(ItemV5.self, orderBy: "id") }, expected,
        subject.label)
      XCTAssertEqual(
        try subject.database.read { db in try db.columnNames("Item") }, ["id", "name", "price"],
        subject.label)
      try subject.database.read { db in try assertIntact(db) }
      try close(subject)
    }
  }

  /// A DELETE without WHERE still reaches the cache and observation table by table: it
  /// drops the results that read its table, and keeps the others.
  func testADeleteWithoutWhereIsStillSeenTableByTable() throws {
    for kind in Kind.allCases {
      let file = path("delete-\(kind).sqlite")
      let database: any DatabaseAccess =
        kind == .queue ? try DatabaseQueue(path: file) : try DatabasePool(path: file)
      try database.write { db in try db.execute(Self.schema(fullText: false)) }
      let cache = try QueryCache(database)
      let counts = Locked<[Int]>([])
      let observation = database.observe(
        Self.countOfA, onChange: { count in counts.mutate { $0.append(count) } })
      XCTAssertEqual(try cache.query("SELECT count(*) FROM a").first?.get(Int.self, at: 0), 2)
      XCTAssertEqual(try cache.query("SELECT count(*) FROM b").first?.get(Int.self, at: 0), 1)
      try database.write { db in try db.execute("DELETE FROM a") }
      XCTAssertEqual(try cache.query("SELECT count(*) FROM a").first?.get(Int.self, at: 0), 0)
      XCTAssertEqual(try cache.query("SELECT count(*) FROM b").first?.get(Int.self, at: 0), 1)
      XCTAssertEqual(cache.statistics.hits, 1, "the result of b was kept (\(kind))")
      XCTAssertEqual(cache.statistics.misses, 3, "\(kind)")
      // Deadline only as a deadlock guard, not a timing assertion.
      let deadline = Date().addingTimeInterval(10)
      while counts.value.last != 0, Date() < deadline { usleep(1000) }
      XCTAssertEqual(counts.value.last, 0, "the observation saw the delete (\(kind))")
      observation.cancel()
      try database.close()
    }
  }
}
