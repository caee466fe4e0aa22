import Foundation
import XCTest

@testable import SwiftLite

private struct Drink: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "drink"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.default("caf\u{E9}")]]
}

/// The same table, whose model now declares the default in the other normalization form.
private struct DecomposedDrink: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "drink"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "name": [.default("cafe\u{301}")]
  ]
}

private struct Checked: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "checked"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "name": [.check("name <> 'caf\u{E9}'")]
  ]
}

private struct DecomposedChecked: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "checked"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "name": [.check("name <> 'cafe\u{301}'")]
  ]
}

/// The planner, the inspector and the migrator tell texts apart by their bytes, as SQLite
/// does: a default, a CHECK, a table name or a migration name that differs only in
/// normalization is another one.
final class SchemaTextBytesTests: SQLiteTestCase {
  private let nfc = "caf\u{E9}"
  private let nfd = "cafe\u{301}"

  func testADefaultThatChangesOnlyInNormalizationIsAChange() throws {
    try db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT DEFAULT '\(nfc)')")
    let desired = TableSchema(
      name: "item",
      columns: [
        ColumnDefinition(name: "id", type: "INTEGER", isNotNull: false, defaultSQL: nil),
        ColumnDefinition(name: "name", type: "TEXT", isNotNull: false, defaultSQL: "'\(nfd)'"),
      ],
      primaryKey: ["id"])
    let diff = SchemaDiff(
      from: try XCTUnwrap(SchemaDiff.StoredTable.read("item", for: desired, in: db)), to: desired,
      renamed: [:])
    XCTAssertEqual(diff.changes, [.defaultChanged("name", from: "'\(nfc)'", to: "'\(nfd)'")])

    // Through the models: the new default is applied, and new rows take its bytes.
    try db.createTable(for: Drink.self)
    XCTAssertTrue(try db.needsMigration(DecomposedDrink.self))
    _ = try db.migrate(DecomposedDrink.self)
    XCTAssertFalse(try db.needsMigration(DecomposedDrink.self))
    try db.execute("INSERT INTO drink DEFAULT VALUES")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT name FROM drink").map { Array($0.utf8) },
      Array(nfd.utf8))
  }

  func testACheckThatChangesOnlyInNormalizationIsAChange() throws {
    try db.createTable(for: Checked.self)
    XCTAssertFalse(try db.needsMigration(Checked.self))
    XCTAssertTrue(try db.needsMigration(DecomposedChecked.self))
    _ = try db.migrate(DecomposedChecked.self)
    try db.save(DecomposedChecked(id: 1, name: nfc))  // allowed now, only the NFD text is not
    assertSQLiteError(try db.save(DecomposedChecked(id: 2, name: nfd))) {
      XCTAssertEqual($0.constraintKind, .check)
    }
  }

  /// SQLite folds only ASCII letters in names: "zoë" and "ZOË" are two tables.
  func testTablesReferencingFoldsOnlyASCIICase() throws {
    try db.execute(
      """
      CREATE TABLE "zoë"(id INTEGER PRIMARY KEY);
      CREATE TABLE "ZOË"(id INTEGER PRIMARY KEY);
      CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES "ZOË"(id));
      CREATE TABLE other(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES "Zoë"(id));
      """)
    let inspector = SchemaInspector(db)
    XCTAssertEqual(try inspector.tablesReferencing("ZOË"), ["child"])
    XCTAssertEqual(try inspector.tablesReferencing("zoË"), ["child"])
    XCTAssertEqual(try inspector.tablesReferencing("zoë"), ["other"])
    XCTAssertEqual(try inspector.tablesReferencing("ZOë"), ["other"])
  }

  /// A migration's name is recorded as text and found again by its bytes: a name recorded
  /// in one normalization form is not a registered name in the other, which is an error
  /// rather than a migration silently taken for applied.
  func testMigrationNamesAreToldApartByTheirBytes() throws {
    var both = Migrator()
    both.register(nfc) { db in try db.execute("CREATE TABLE composed(x)") }
    both.register(nfd) { db in try db.execute("CREATE TABLE decomposed(x)") }
    XCTAssertEqual(try both.migrate(db).map { Array($0.utf8) }, [Array(nfc.utf8), Array(nfd.utf8)])
    XCTAssertEqual(try both.pendingMigrations(db), [])

    let other = try open("other.sqlite")
    var first = Migrator()
    first.register(nfc) { db in try db.execute("CREATE TABLE composed(x)") }
    _ = try first.migrate(other)
    var renamed = Migrator()
    renamed.register(nfd) { db in try db.execute("CREATE TABLE decomposed(x)") }
    XCTAssertThrowsError(try renamed.migrate(other)) { error in
      guard case MigratorError.unknownAppliedMigrations(let names) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(names.map { Array($0.utf8) }, [Array(nfc.utf8)])
    }
    XCTAssertThrowsError(try renamed.migrate(other, upTo: nfc)) { error in
      guard case MigratorError.unknownTarget = error else { return XCTFail("\(error)") }
    }
    try other.close()
  }
}
