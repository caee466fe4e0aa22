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
/// table and a `Migrator` step, in rollback-journal mode at FULL, are wholly applied or not
/// at all after any cut, and the next open completes them.
final class PowerLossMigrationTests: TemporaryDirectoryTestCase {
  /// The rows of the shelf, as `id name` lines.
  private static func shelf(_ db: Connection) throws -> [String] {
    try db.query("SELECT id, name FROM shelf_item ORDER BY id").map {
      "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
    }
  }

  func testATableRebuildIsWhollyAppliedOrNotAtAll() throws {
    let expected = Locked<[String]>([])
    let scenario = PowerLossScenario(
      name: "table rebuild (model migration), rollback journal, FULL", cutsAfterTheEnd: true,
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
        let db = try Connection(path: run.path(), options: PowerLoss.options)
        defer { try? db.close() }
        try run.transaction(durable: true) {
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
    let figures = try measure(scenario)
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

  func testAMigratorStepIsWhollyAppliedOrNotAtAll() throws {
    let scenario = PowerLossScenario(
      name: "Migrator step, rollback journal, FULL", cutsAfterTheEnd: true,
      prepare: { folder in
        let db = try Connection(path: folder.appendingPathComponent("db.sqlite").path)
        XCTAssertEqual(try Self.ledgerMigrator().migrate(db, upTo: "accounts"), ["accounts"])
        try db.close()
      },
      run: { run in
        let db = try Connection(path: run.path(), options: PowerLoss.options)
        defer { try? db.close() }
        try run.transaction(durable: true) {
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
    let figures = try measure(scenario)
    XCTAssertEqual(figures.intact, figures.cuts)
  }
}
