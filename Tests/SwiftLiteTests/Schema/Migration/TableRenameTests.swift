import Foundation
import SwiftLiteTesting
import XCTest

@testable import SwiftLite

// A table renamed with its model across releases: release 1 calls it Contact, release 2
// Person (declaring the old name), release 3 People (declaring both).

private struct ContactR1: Model, Equatable {
  var id: Int64?
  var name: String
  var city: String
  static let tableName = "Contact"
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["city"])]
  static let fullTextIndexes = [FullTextIndex(ContactR1.self, columns: ["name"])]
}

private struct PersonR2: Model, Equatable {
  var id: Int64?
  var name: String
  var city: String
  static let tableName = "Person"
  static let previousTableNames = ["Contact"]
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["city"])]
  static let fullTextIndexes = [FullTextIndex(PersonR2.self, columns: ["name"])]
}

/// Release 3: renamed again, with a column renamed and one added in the same release.
private struct PeopleR3: Model, Equatable {
  var id: Int64?
  var fullName: String
  var city: String
  var email: String?
  static let tableName = "People"
  static let previousTableNames = ["Person", "Contact"]
  static let renamedProperties = ["fullName": "name"]
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["city"])]
  static let fullTextIndexes = [FullTextIndex(PeopleR3.self, columns: ["fullName"])]
}

/// Release 2 as a branch made it, without declaring the old name: it made a new table.
private struct PersonR2Unrenamed: Model, Equatable {
  var id: Int64?
  var name: String
  var city: String
  static let tableName = "Person"
  static let primaryKey = ["id"]
}

final class TableRenameTests: ModelTestCase {
  private let samples = [
    ContactR1(id: 1, name: "Ann Lee", city: "Oslo"),
    ContactR1(id: 2, name: "Bo Berg", city: "Lund"),
    ContactR1(id: 3, name: "Cy Park", city: "Oslo"),
  ]

  /// Release 1's file, with a trigger of the app's own on the table.
  private func seedRelease1() throws {
    let db = try open()
    try db.save(samples)
    try db.execute(
      """
      CREATE TABLE audit (name TEXT);
      CREATE TRIGGER contact_audit AFTER INSERT ON Contact BEGIN
        INSERT INTO audit VALUES (new.city);
      END;
      """)
  }

  func testARenamedTableKeepsItsRowsIndexesTriggersFullTextIndexAndRecord() throws {
    try seedRelease1()
    let db = try open()
    let plan = try db.migrationPlan(for: PersonR2.self)
    XCTAssertEqual(plan.changes.first, "table Contact renamed to Person")
    XCTAssertTrue(
      plan.steps.contains { $0.sql == "ALTER TABLE \"Contact\" RENAME TO \"Person\"" },
      plan.description)
    XCTAssertNotEqual(plan.strategy, .rebuild, plan.description)
    // Planning changed nothing.
    XCTAssertEqual(try db.tableNames(), try open().tableNames())
    XCTAssertTrue(try db.tableNames().contains("Contact"))

    try db.migrate(PersonR2.self)
    let reopened = try open()
    let tables = try reopened.tableNames()
    XCTAssertFalse(tables.contains("Contact"), "\(tables)")
    XCTAssertFalse(tables.contains("Contact_fts"), "\(tables)")
    XCTAssertTrue(tables.contains("Person_fts"), "\(tables)")
    XCTAssertEqual(
      try reopened.findAll(PersonR2.self, orderBy: "id"),
      samples.map { PersonR2(id: $0.id, name: $0.name, city: $0.city) })
    XCTAssertEqual(try reopened.indexNames("Person"), ["Person_on_city"])
    XCTAssertEqual(
      try reopened.scalar(
        String.self, "SELECT table_name FROM swiftlite_schema WHERE table_name LIKE 'P%'"),
      "Person")
    XCTAssertEqual(
      try reopened.scalar(
        Int.self, "SELECT count(*) FROM swiftlite_schema WHERE table_name = 'Contact'"),
      0)
    XCTAssertFalse(try reopened.needsMigration(PersonR2.self))
    // The app's trigger follows the table, and so does the full-text index.
    try reopened.save(PersonR2(id: nil, name: "Di Moss", city: "Oslo"))
    XCTAssertEqual(
      try reopened.query("SELECT name FROM audit").map { try $0.get(String.self, at: 0) },
      ["Oslo"])
    XCTAssertEqual(
      try reopened.query(
        "SELECT rowid FROM Person_fts WHERE Person_fts MATCH 'berg OR moss' ORDER BY rowid"
      ).map { try $0.get(Int64.self, at: 0) }, [2, 4])
    try assertIntact(reopened)
  }

  func testAFileFromRelease1OpenedByRelease3IsRenamedOnItsFirstWrite() throws {
    try seedRelease1()
    let db = try open()
    // A read never renames: it is refused rather than finding no rows.
    XCTAssertThrowsError(try db.findAll(PeopleR3.self)) { error in
      guard case MigrationError.needsMigration(let table, let changes, _) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(table, "People")
      XCTAssertEqual(changes, ["table Contact renamed to People"])
    }
    try db.save(PeopleR3(id: nil, fullName: "Di Moss", city: "Rome", email: "di@example.com"))
    let reopened = try open()
    XCTAssertEqual(
      try reopened.findAll(PeopleR3.self, orderBy: "id"),
      samples.map { PeopleR3(id: $0.id, fullName: $0.name, city: $0.city, email: nil) }
        + [PeopleR3(id: 4, fullName: "Di Moss", city: "Rome", email: "di@example.com")])
    let tables = try reopened.tableNames()
    XCTAssertFalse(tables.contains("Contact") || tables.contains("Person"), "\(tables)")
    XCTAssertEqual(
      try reopened.query(
        "SELECT rowid FROM People_fts WHERE People_fts MATCH 'lee OR moss' ORDER BY rowid"
      ).map { try $0.get(Int64.self, at: 0) }, [1, 4])
    XCTAssertFalse(try reopened.needsMigration(PeopleR3.self))
    try assertIntact(reopened)
  }

  func testBothTablesPresentIsRefusedNamingBoth() throws {
    try seedRelease1()
    let db = try open()
    try db.save(PersonR2Unrenamed(id: nil, name: "Eve", city: "Bern"))
    let before = try db.dumpSchema(includingBookkeeping: true)
    // A dry run lists the conflict as a refusal of the plan, with its fix.
    let plan = try db.migrationPlan(for: PersonR2.self)
    XCTAssertFalse(plan.canApply)
    XCTAssertEqual(
      plan.refusals.map(\.error), [.tableRenameConflict(table: "Person", previousName: "Contact")])
    XCTAssertEqual(plan.refusals.first?.subject, "tables Contact and Person")
    XCTAssertThrowsError(try db.migrate(PersonR2.self)) { error in
      XCTAssertEqual(
        error as? MigrationError,
        .tableRenameConflict(table: "Person", previousName: "Contact"))
    }
    XCTAssertEqual(try open().dumpSchema(includingBookkeeping: true), before)
    XCTAssertEqual(try open().scalar(Int.self, "SELECT count(*) FROM Contact"), 3)
  }

  /// The rename through a migrator's model steps, with snapshots: an upgrade from release
  /// 1 and a fresh install end with the same table, and the upgrade keeps its rows.
  func testARenameThroughModelStepsAndSnapshots() throws {
    let snapshots = try MigrationSnapshots([
      SchemaSnapshot(step: "v1", tables: [try SchemaSnapshot.Table(model: ContactR1.self)]),
      SchemaSnapshot(step: "v2", tables: [try SchemaSnapshot.Table(model: PersonR2.self)]),
    ])
    XCTAssertEqual(snapshots["v2"]?.tables.first?.previousNames, ["Contact"])
    XCTAssertEqual(snapshots["v2"]?.formatVersion, 2)
    let file = try snapshots["v2"]!.jsonData()
    XCTAssertEqual(try SchemaSnapshot(jsonData: file), snapshots["v2"])
    var migrator = Migrator(snapshots: snapshots)
    migrator.registerModels("v1", ContactR1.self)
    migrator.registerModels("v2", PersonR2.self)

    let upgraded = try open("upgraded.sqlite")
    try migrator.migrate(upgraded, upTo: "v1")
    try upgraded.save(samples)
    XCTAssertEqual(try migrator.migrate(upgraded), ["v2"])
    let fresh = try open("fresh.sqlite")
    try migrator.migrate(fresh)
    for db in [try open("upgraded.sqlite"), try open("fresh.sqlite")] {
      XCTAssertEqual(
        try db.tableNames().filter { !$0.hasPrefix("swiftlite_") && !$0.contains("_fts") },
        ["Person"])
      XCTAssertFalse(try db.needsMigration(PersonR2.self))
      try assertIntact(db)
    }
    XCTAssertEqual(
      try open("upgraded.sqlite").findAll(PersonR2.self, orderBy: "id"),
      samples.map { PersonR2(id: $0.id, name: $0.name, city: $0.city) })
    XCTAssertEqual(
      try open("upgraded.sqlite").dumpSchema(), try open("fresh.sqlite").dumpSchema())
  }

  /// The same through snapshots alone: the recorded table, not today's model, is renamed.
  func testARecordedTableIsRenamed() throws {
    try seedRelease1()
    let db = try open()
    try AutoMigration.migrate(to: try SchemaSnapshot.Table(model: PersonR2.self), in: db)
    XCTAssertEqual(
      try open().findAll(PersonR2.self, orderBy: "id"),
      samples.map { PersonR2(id: $0.id, name: $0.name, city: $0.city) })
    XCTAssertFalse(try open().tableNames().contains("Contact"))
  }
}

extension Connection {
  /// The names of the main database's tables, sorted.
  fileprivate func tableNames() throws -> [String] {
    try query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map {
      try $0.get(String.self, at: 0)
    }
  }
}

extension TableRenameTests {
  /// SwiftLiteTesting's history check follows the rename: rows seeded in the old table
  /// must be in the new one, and every path ends with the fresh install's schema.
  func testTheHistoryCheckFollowsTheRename() throws {
    var migrator = Migrator(
      snapshots: try MigrationSnapshots([
        SchemaSnapshot(step: "v1", tables: [try SchemaSnapshot.Table(model: ContactR1.self)]),
        SchemaSnapshot(step: "v2", tables: [try SchemaSnapshot.Table(model: PersonR2.self)]),
        SchemaSnapshot(step: "v3", tables: [try SchemaSnapshot.Table(model: PeopleR3.self)]),
      ]))
    migrator.registerModels("v1", ContactR1.self)
    migrator.registerModels("v2", PersonR2.self)
    migrator.registerModels("v3", PeopleR3.self)
    var check = MigrationHistoryCheck(migrator)
    check.seed(after: "v1", sql: "INSERT INTO Contact (name, city) VALUES ('Ann', 'Oslo')")
    check.seed(after: "v2", sql: "INSERT INTO Person (name, city) VALUES ('Bo', 'Lund')")
    check.verify { db in
      let names = try db.query("SELECT fullName FROM People ORDER BY id").map {
        try $0.get(String.self, at: 0)
      }
      guard names.isEmpty || names == ["Ann"] || names == ["Ann", "Bo"] || names == ["Bo"]
      else { throw MigrationError.foreignKeyViolation(table: "People: \(names)") }
    }
    let report = try check.run()
    XCTAssertTrue(report.passed, report.description)
  }

  /// A read-only connection over a file whose table must be renamed gets a typed error,
  /// for a read and for a write, and the file is left as it was.
  func testAReadOnlyConnectionOverARenamedTableGetsATypedError() throws {
    try seedRelease1()
    let reader = try Connection(path: path(), options: .readOnly)
    XCTAssertThrowsError(try reader.findAll(PersonR2.self)) { error in
      guard case MigrationError.needsMigration(_, let changes, _) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(changes, ["table Contact renamed to Person"])
    }
    XCTAssertThrowsError(try reader.save(PersonR2(id: nil, name: "Di", city: "Rome"))) { error in
      XCTAssertEqual(
        error as? MigrationError, .readOnlyConnection(table: "Person", strategy: "alter"))
    }
    XCTAssertEqual(try open().scalar(Int.self, "SELECT count(*) FROM Contact"), 3)
  }
}

/// A table whose rows reference Contact, then (release 2) Person.
private struct NoteR1: Model, Equatable {
  var id: Int64?
  var contactID: Int64
  var text: String
  static let tableName = "ContactNote"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["contactID"], references: "Contact", onDelete: .cascade)]
}

private struct NoteR2: Model, Equatable {
  var id: Int64?
  var contactID: Int64
  var text: String
  static let tableName = "ContactNote"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["contactID"], references: "Person", onDelete: .cascade)]
}

extension TableRenameTests {
  /// Other tables' foreign keys and views follow the rename, with foreign keys enforced,
  /// and the referencing table stays SwiftLite's.
  func testForeignKeysAndViewsFollowTheRename() throws {
    let db = try open()
    try db.execute("PRAGMA foreign_keys = ON")
    try db.save(ContactR1(id: 1, name: "Ann Lee", city: "Oslo"))
    try db.save([
      NoteR1(id: nil, contactID: 1, text: "call"), NoteR1(id: nil, contactID: 1, text: "mail"),
    ])
    try db.execute("CREATE VIEW oslo AS SELECT name FROM Contact WHERE city = 'Oslo'")

    let upgraded = try open()
    try upgraded.execute("PRAGMA foreign_keys = ON")
    try upgraded.migrate(PersonR2.self)
    XCTAssertFalse(try upgraded.needsMigration(NoteR2.self))
    XCTAssertEqual(
      try upgraded.query("SELECT name FROM oslo").map { try $0.get(String.self, at: 0) },
      ["Ann Lee"])
    XCTAssertEqual(try upgraded.findAll(NoteR2.self, orderBy: "id").map(\.text), ["call", "mail"])
    try upgraded.delete(PersonR2(id: 1, name: "Ann Lee", city: "Oslo"))
    XCTAssertEqual(try upgraded.findAll(NoteR2.self).count, 0, "the cascade follows the rename")
    try assertIntact(upgraded)
  }
}

/// Release 2 renaming the table and removing a column that holds values, undeclared.
private struct PersonR2Dropping: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "Person"
  static let previousTableNames = ["Contact"]
  static let primaryKey = ["id"]
  static let fullTextIndexes = [FullTextIndex(PersonR2Dropping.self, columns: ["name"])]
}

extension TableRenameTests {
  /// A refusal of what follows the rename is a refusal of the whole plan: planning and
  /// migrating leave the file exactly as it was, under its old name.
  func testARefusalAfterTheRenameLeavesTheFileAsItWas() throws {
    try seedRelease1()
    let db = try open()
    let before = try db.dumpSchema(includingBookkeeping: true)
    let content = try db.dumpContent(includingBookkeeping: true)
    // The dry run lists both refusals after the rename: the values of the removed column,
    // and the user's trigger that names it.
    let plan = try db.migrationPlan(for: PersonR2Dropping.self)
    XCTAssertFalse(plan.canApply)
    XCTAssertEqual(plan.changes.first, "table Contact renamed to Person")
    XCTAssertEqual(
      plan.refusals.map(\.error).first, .wouldLoseData(table: "Person", column: "city", rows: 3))
    XCTAssertEqual(plan.refusals.map(\.subject).last, "trigger(s) contact_audit")
    let attempts: [() throws -> Void] = [
      { try db.migrate(PersonR2Dropping.self) },
      { try db.save(PersonR2Dropping(id: nil, name: "Di")) },
    ]
    for attempt in attempts {
      XCTAssertThrowsError(try attempt()) { error in
        XCTAssertEqual((error as? MigrationError)?.refusals, plan.refusals)
      }
    }
    let reopened = try open()
    XCTAssertEqual(try reopened.dumpSchema(includingBookkeeping: true), before)
    XCTAssertEqual(try reopened.dumpContent(includingBookkeeping: true), content)
  }
}
