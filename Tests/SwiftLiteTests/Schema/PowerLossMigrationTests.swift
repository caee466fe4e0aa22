import Foundation
import XCTest

@testable import SwiftLite

/// The shelf before: `note` is there, always NULL.
private struct ShelfItemV1: Model {
  var id: Int64?
  var name: String
  var note: String?
  static let tableName = "shelf_item"
  static let primaryKey = ["id"]
}

/// The shelf after: `note` removed, which SQLite cannot drop in place here: a rebuild.
private struct ShelfItemV2: Model {
  var id: Int64?
  var name: String
  static let tableName = "shelf_item"
  static let primaryKey = ["id"]
}

/// Power loss during schema changes (see ``PowerLoss``): a model migration that rebuilds a
/// table and a `Migrator` step, in rollback-journal mode at FULL and through a pool in WAL
/// mode at NORMAL, are wholly applied or not at all after any cut, and the next open
/// completes them.
final class PowerLossMigrationTests: TemporaryDirectoryTestCase {
  /// The rows of the shelf, as `id name` lines.
  private static func shelf(_ db: Connection) throws -> [String] {
    try db.query("SELECT id, name FROM shelf_item ORDER BY id").map {
      "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
    }
  }

  /// Runs `body` on a connection through the power-loss VFS: a plain one in rollback-journal
  /// mode at FULL, or a pool's writer in WAL mode at NORMAL (durable once the pool closed).
  private static func withWriter(
    _ run: PowerLossRun, inPool: Bool, _ body: (Connection) throws -> Void
  ) throws {
    if inPool {
      let pool = try DatabasePool(path: run.path(), options: PowerLoss.options)
      defer { try? pool.close() }
      try run.syncingLog {
        try run.transaction(durable: false) { try pool.writeWithoutTransaction(body) }
      }
      try pool.close()
      if !PowerLoss.isLost { run.mustKeep = run.committed }
    } else {
      let db = try Connection(path: run.path(), options: PowerLoss.options)
      defer { try? db.close() }
      try run.transaction(durable: true) { try body(db) }
    }
  }

  private func rebuildScenario(inPool: Bool) -> PowerLossScenario {
    let expected = Locked<[String]>([])
    return PowerLossScenario(
      name: "table rebuild (model migration), "
        + (inPool ? "pool, WAL, NORMAL" : "rollback journal, FULL"),
      cutsAfterTheEnd: true,
      prepare: { folder in
        let db = try Connection(path: folder.appendingPathComponent("db.sqlite").path)
        XCTAssertEqual(try db.migrate(ShelfItemV1.self).strategy, .create)
        try db.execute(
          """
          WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 400)
          INSERT INTO shelf_item(name) SELECT printf('item %d %.40c', x, 'x') FROM n
          """)
        let rows = try Self.shelf(db)
        expected.mutate { $0 = rows }
        try db.close()
      },
      run: { run in
        try Self.withWriter(run, inPool: inPool) { db in
          let plan = try db.migrate(ShelfItemV2.self)
          XCTAssertEqual(plan.strategy, .rebuild)
        }
      },
      check: { run in
        let db = try Connection(path: run.path())
        defer { try? db.close() }
        try assertIntact(db)
        XCTAssertEqual(try Self.shelf(db), expected.value, "every row, old shape or new")
        let columns = try db.columnNames("shelf_item")
        XCTAssertTrue(
          [["id", "name", "note"], ["id", "name"]].contains(columns), "columns \(columns)")
        // The next open finishes the work, whichever state it finds.
        try db.migrate(ShelfItemV2.self)
        XCTAssertEqual(try db.columnNames("shelf_item"), ["id", "name"])
        XCTAssertEqual(try Self.shelf(db), expected.value)
        return columns.count == 2 ? 1 : 0
      })
  }

  func testATableRebuildIsWhollyAppliedOrNotAtAll() throws {
    let figures = try measure(rebuildScenario(inPool: false))
    XCTAssertEqual(figures.intact, figures.cuts)
  }

  func testATableRebuildInAPoolIsWhollyAppliedOrNotAtAll() throws {
    let figures = try measure(rebuildScenario(inPool: true))
    XCTAssertEqual(figures.intact, figures.cuts)
  }

  /// Step "accounts" makes 50 accounts; step "entries" adds 400 entries, a balance column
  /// and fills it: four statements that stand or fall together.
  private static func ledgerMigrator() -> Migrator {
    var migrator = Migrator()
    migrator.register("accounts") { db in
      try db.execute(
        """
        CREATE TABLE account(id INTEGER PRIMARY KEY, owner TEXT NOT NULL);
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50)
        INSERT INTO account(owner) SELECT printf('owner %d', x) FROM n;
        """)
    }
    migrator.register("entries") { db in
      try db.execute(
        """
        CREATE TABLE entry(
          id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES account(id),
          amount INTEGER NOT NULL, memo TEXT NOT NULL);
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 400)
        INSERT INTO entry(account_id, amount, memo)
          SELECT 1 + x % 50, x, printf('%.60c', 'm') FROM n;
        CREATE INDEX entry_account ON entry(account_id);
        ALTER TABLE account ADD COLUMN balance INTEGER NOT NULL DEFAULT 0;
        UPDATE account SET balance = (SELECT sum(amount) FROM entry WHERE account_id = account.id);
        """)
    }
    return migrator
  }

  /// Whether the file holds step "entries" wholly (1) or not at all (0); anything between
  /// fails the test.
  private static func entriesStep(_ db: Connection) throws -> Int {
    let applied = try ledgerMigrator().appliedMigrations(db)
    let tables = try SchemaInspector(db).tableNames()
    let columns = try db.columnNames("account")
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM account"), 50)
    if applied == ["accounts"] {
      XCTAssertFalse(tables.contains("entry"), "no entry table without the step")
      XCTAssertEqual(columns, ["id", "owner"])
      return 0
    }
    XCTAssertEqual(applied, ["accounts", "entries"])
    XCTAssertEqual(columns, ["id", "owner", "balance"])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM entry"), 400)
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT sum(balance) FROM account"), (1...400).reduce(0, +))
    return 1
  }

  private func migratorScenario(inPool: Bool) -> PowerLossScenario {
    PowerLossScenario(
      name: "Migrator step, " + (inPool ? "pool, WAL, NORMAL" : "rollback journal, FULL"),
      cutsAfterTheEnd: true,
      prepare: { folder in
        let db = try Connection(path: folder.appendingPathComponent("db.sqlite").path)
        XCTAssertEqual(try Self.ledgerMigrator().migrate(db, upTo: "accounts"), ["accounts"])
        try db.close()
      },
      run: { run in
        try Self.withWriter(run, inPool: inPool) { db in
          let applied = try Self.ledgerMigrator().migrate(db)
          XCTAssertEqual(applied, ["entries"])
        }
      },
      check: { run in
        let db = try Connection(path: run.path())
        defer { try? db.close() }
        try assertIntact(db)
        let step = try Self.entriesStep(db)
        // The next open applies what is missing, once.
        try Self.ledgerMigrator().migrate(db)
        XCTAssertEqual(try Self.entriesStep(db), 1)
        return step
      })
  }

  func testAMigratorStepIsWhollyAppliedOrNotAtAll() throws {
    let figures = try measure(migratorScenario(inPool: false))
    XCTAssertEqual(figures.intact, figures.cuts)
  }

  func testAMigratorStepInAPoolIsWhollyAppliedOrNotAtAll() throws {
    let figures = try measure(migratorScenario(inPool: true))
    XCTAssertEqual(figures.intact, figures.cuts)
  }
}
