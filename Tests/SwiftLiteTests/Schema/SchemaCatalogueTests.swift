import Foundation
import XCTest

@testable import SwiftLite

/// A note of one target (`Note_<target>`).
private struct Note: Model, Equatable {
  var id: Int64
  var text: String
  static let primaryKey = ["id"]
}

/// The same table with a column more: `ALTER TABLE ... ADD COLUMN`.
private struct NoteWithTag: Model, Equatable {
  var id: Int64
  var text: String
  var tag: String?
  static let tableName = "Note"
  static let primaryKey = ["id"]
}

/// The same table with a column retyped: a rebuild (a new row of `sqlite_schema`).
private struct NoteWithNumber: Model, Equatable {
  var id: Int64
  var text: Int64?
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let lossyConvertibleColumns: Set<String> = ["text"]
}

/// What a connection keeps of the schema to describe a table in one statement is checked
/// against the file at every use: changes made by another connection, rolled back, or
/// made by a VACUUM are seen at the next first use of a table, as are records written
/// without any change to the schema.
final class SchemaCatalogueTests: SQLiteTestCase {
  /// The statements of `body` on ``db`` that read the schema (see
  /// `TargetRotationTests.readsSchema`).
  private func schemaReads(_ body: () throws -> Void) rethrows -> [String] {
    clearExecutedSQL()
    try body()
    return executedSQL.filter(TargetRotationTests.readsSchema)
  }

  func testAMigrationByAnotherConnectionIsSeenAtTheNextFirstUse() throws {
    try db.createTable(for: Note.self, target: "a")
    try db.createTable(for: Note.self, target: "b")
    XCTAssertFalse(try db.needsMigration(Note.self, target: "a"))
    let other = try openSecondConnection()
    // Altered in place: the table's row of sqlite_schema keeps its rowid. (Planning the
    // rebuild back to `Note` reads more of the schema: the tables and triggers it concerns.)
    try other.migrate(NoteWithTag.self, target: "a")
    var reads = try schemaReads {
      XCTAssertFalse(try db.needsMigration(NoteWithTag.self, target: "a"))
    }
    XCTAssertEqual(reads.count, 1, reads.joined(separator: "\n"))
    XCTAssertTrue(try db.needsMigration(Note.self, target: "a"))
    XCTAssertEqual(
      try db.migrationPlan(for: Note.self, target: "a").schemaChanges, [.columnRemoved("tag")])
    // Rebuilt: the table's row is a new one.
    try other.migrate(NoteWithNumber.self, target: "a")
    reads = try schemaReads {
      XCTAssertFalse(try db.needsMigration(NoteWithNumber.self, target: "a"))
    }
    // Found by name by the same statement, the row at the rowid no longer being the table's.
    XCTAssertEqual(reads.count, 1, reads.joined(separator: "\n"))
    XCTAssertTrue(try db.needsMigration(NoteWithTag.self, target: "a"))
    XCTAssertFalse(try db.needsMigration(Note.self, target: "b"))
    // The first write of a connection that has not used the table migrates it back.
    try other.save(NoteWithNumber(id: 1, text: 42), target: "a")
    let third = try openSecondConnection()
    try third.save(Note(id: 2, text: "two"), target: "a")
    XCTAssertEqual(
      try db.findAll(Note.self, orderBy: "id", target: "a"),
      [Note(id: 1, text: "42"), Note(id: 2, text: "two")])
    XCTAssertFalse(try db.needsMigration(Note.self, target: "a"))
  }

  func testATableAnotherConnectionMadeAgainIsNoLongerManaged() throws {
    try db.createTable(for: Note.self, target: "a")
    XCTAssertFalse(try db.needsMigration(Note.self, target: "a"))
    let other = try openSecondConnection()
    try other.execute(
      """
      DROP TABLE "Note_a";
      CREATE TABLE "Note_a" (id INTEGER PRIMARY KEY, text TEXT NOT NULL, legacy TEXT);
      """)
    XCTAssertFalse(try db.needsMigration(Note.self, target: "a"), "not SwiftLite's any more")
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(Note.self, target: "a") },
      .notManaged(table: "Note_a"))
  }

  func testATableDroppedByAnotherConnectionIsMissing() throws {
    try db.createTable(for: Note.self, target: "a")
    XCTAssertFalse(try db.needsMigration(Note.self, target: "a"))
    try openSecondConnection().dropTable(for: Note.self, target: "a")
    XCTAssertEqual(try db.migrationPlan(for: Note.self, target: "a").strategy, .create)
  }

  func testATableMadeByAnotherConnectionIsFoundWithOneMoreRead() throws {
    try db.createTable(for: Note.self, target: "a")
    XCTAssertFalse(try db.needsMigration(Note.self, target: "a"))
    try openSecondConnection().createTable(for: Note.self, target: "b")
    let reads = try schemaReads {
      XCTAssertFalse(try db.needsMigration(Note.self, target: "b"))
    }
    XCTAssertEqual(reads.count, 2, reads.joined(separator: "\n"))
    // The light statement, last run before the other connection's change, is prepared
    // again by SQLite at this run: the table is then read once more, in full.
    XCTAssertEqual(try schemaReads { _ = try db.needsMigration(Note.self, target: "b") }.count, 2)
    XCTAssertEqual(try schemaReads { _ = try db.needsMigration(Note.self, target: "b") }.count, 1)
  }

  func testAModelTableAsTheModelWritesItIsDescribedWithoutTheColumnAndForeignKeyPragmas() throws {
    try db.createTable(for: Note.self, target: "a")
    let other = try openSecondConnection()
    try other.createTable(for: Note.self, target: "b")
    let reads = try schemaReads {
      XCTAssertFalse(try db.needsMigration(Note.self, target: "a"))
    }
    XCTAssertEqual(reads.count, 1, reads.joined(separator: "\n"))
    XCTAssertFalse(reads[0].contains("pragma_table_xinfo"), reads[0])
    XCTAssertFalse(reads[0].contains("pragma_foreign_key_list"), reads[0])
    XCTAssertFalse(try db.needsMigration(Note.self, target: "b"))
  }

  func testATableWhoseCreationRolledBackIsMissingThoughTheSchemaVersionComesBack() throws {
    try db.createTable(for: Note.self, target: "a")
    let version = try db.scalar(Int.self, "PRAGMA schema_version")
    XCTAssertThrowsError(
      try db.transaction { db in
        try db.migrate(Note.self, target: "r")
        XCTAssertFalse(try db.needsMigration(Note.self, target: "r"))
        throw TestError()
      })
    XCTAssertEqual(try db.scalar(Int.self, "PRAGMA schema_version"), version)
    // Another table made the same way takes the same schema version, and the same row.
    try openSecondConnection().migrate(NoteWithTag.self, target: "z")
    XCTAssertEqual(try db.migrationPlan(for: Note.self, target: "r").strategy, .create)
    XCTAssertTrue(try db.migrationPlan(for: NoteWithTag.self, target: "z").isEmpty)
    XCTAssertTrue(try db.needsMigration(Note.self, target: "z"))
  }

  func testAVacuumThatRenumbersTheSchemaIsSeen() throws {
    for target in ["a", "b", "c", "d"] { try db.createTable(for: Note.self, target: target) }
    for target in ["a", "b", "c", "d"] {
      XCTAssertFalse(try db.needsMigration(Note.self, target: target))
    }
    let other = try openSecondConnection()
    try other.dropTable(for: Note.self, target: "b")
    try other.execute("VACUUM")
    try other.migrate(NoteWithTag.self, target: "c")
    XCTAssertFalse(try db.needsMigration(Note.self, target: "a"))
    XCTAssertEqual(try db.migrationPlan(for: Note.self, target: "b").strategy, .create)
    XCTAssertTrue(try db.needsMigration(Note.self, target: "c"))
    XCTAssertFalse(try db.needsMigration(NoteWithTag.self, target: "c"))
    XCTAssertFalse(try db.needsMigration(Note.self, target: "d"))
  }

  func testARecordWrittenWithoutAnySchemaChangeIsSeen() throws {
    try db.createTable(for: Note.self, target: "a")
    // Made as SwiftLite would make it, by another program: mapped, not managed.
    try db.execute(#"CREATE TABLE "Note_x" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL)"#)
    XCTAssertEqual(
      thrownError(MigrationError.self) { _ = try db.migrationPlan(for: Note.self, target: "x") },
      .notManaged(table: "Note_x"))
    let version = try db.scalar(Int.self, "PRAGMA schema_version")
    // Adopting it records it and changes nothing else.
    let adoption = try openSecondConnection().adopt(Note.self, target: "x")
    XCTAssertEqual(adoption.strategy, .none)
    XCTAssertEqual(try db.scalar(Int.self, "PRAGMA schema_version"), version)
    XCTAssertTrue(try db.migrationPlan(for: Note.self, target: "x").isEmpty, "managed now")
  }

  func testARecordUnderAnotherASCIICaseOfTheNameIsFound() throws {
    struct Mixed: Model {
      var id: Int64
      var name: String
      static let tableName = "People"
      static let primaryKey = ["id"]
    }
    struct Upper: Model {
      var id: Int64
      var name: String
      static let tableName = "PEOPLE"
      static let primaryKey = ["id"]
    }
    try db.execute(#"CREATE TABLE people ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)"#)
    try db.adopt(Mixed.self)
    XCTAssertEqual(try db.scalar(String.self, "SELECT table_name FROM swiftlite_schema"), "People")
    // Neither the name asked for nor the table's spelling: the record is still found.
    let reads = try schemaReads {
      XCTAssertEqual(try db.ownership(of: Upper.tableName), .managed)
    }
    XCTAssertEqual(reads.count, 1, reads.joined(separator: "\n"))
    XCTAssertEqual(try db.ownership(of: "people"), .managed)
    XCTAssertEqual(try db.ownership(of: "People"), .managed)
  }

  func testAMappedTableIsDescribedInOneStatement() throws {
    try db.createTable(for: Note.self, target: "a")
    try db.execute(
      #"CREATE TABLE "Note_m" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL, extra BLOB)"#)
    XCTAssertFalse(try db.needsMigration(Note.self, target: "a"))
    let reads = try schemaReads {
      try db.save(Note(id: 1, text: "mapped"), target: "m")
    }
    XCTAssertLessThanOrEqual(reads.count, 2, reads.joined(separator: "\n"))
    XCTAssertEqual(try db.find(Note.self, id: 1, target: "m")?.text, "mapped")
  }

  func testStrictAndWithoutRowIDAreReadFromTheStatementAsSQLiteReadsThem() throws {
    let statements = [
      "CREATE TABLE t1 (a INTEGER PRIMARY KEY, b TEXT)",
      "CREATE TABLE t2 (a INTEGER PRIMARY KEY, b TEXT) STRICT",
      "CREATE TABLE t3 (a TEXT PRIMARY KEY, b TEXT) WITHOUT ROWID",
      "CREATE TABLE t4 (a TEXT PRIMARY KEY, b ANY) without rowid , strict",
      "CREATE TABLE \"t5 (x) STRICT\" (a INTEGER DEFAULT (1 + (2)), b TEXT CHECK (b <> ')'))",
      "CREATE TABLE t6 (a TEXT PRIMARY KEY, [b) strict] TEXT) /* STRICT */ WITHOUT -- x\n ROWID",
      "CREATE TABLE t7 (a INTEGER, 'b''' TEXT, `c)` INT) -- WITHOUT ROWID",
      "CREATE TABLE t8 (a INTEGER PRIMARY KEY) STRICT, WITHOUT ROWID",
      "CREATE VIRTUAL TABLE t9 USING fts5(a, b)",
    ]
    for sql in statements { try db.execute(sql) }
    let rows = try db.query(
      "SELECT s.sql, l.wr, l.strict FROM sqlite_schema s JOIN pragma_table_list l"
        + " ON l.name = s.name AND l.schema = 'main' WHERE s.name GLOB 't[1-9]*' ORDER BY s.name")
    // The full-text index's shadow tables too (one of them WITHOUT ROWID).
    XCTAssertEqual(rows.count, statements.count + 5)
    for row in rows {
      let sql = try row.get(String.self, at: 0)
      let options = TableOptions(createStatement: sql)
      XCTAssertEqual(options.isWithoutRowID, try row.get(Bool.self, at: 1), sql)
      XCTAssertEqual(options.isStrict, try row.get(Bool.self, at: 2), sql)
    }
  }

  func testARecordTableMadeOrWidenedByAnotherConnectionIsReadAgain() throws {
    // A file another program made: no record table yet.
    try db.execute(#"CREATE TABLE "Note_x" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL)"#)
    XCTAssertEqual(try db.ownership(of: "Note_x"), .mapped)
    let other = try openSecondConnection()
    try other.adopt(Note.self, target: "x")
    XCTAssertEqual(try db.ownership(of: "Note_x"), .managed)
    XCTAssertTrue(try db.migrationPlan(for: Note.self, target: "x").isEmpty)

    // A record table from a version before `swift_types`, `origin` and `table_sql`.
    let older = try open("older.sqlite")
    try older.execute(
      """
      CREATE TABLE swiftlite_schema (table_name TEXT NOT NULL PRIMARY KEY, definition TEXT NOT NULL);
      CREATE TABLE "Note_y" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL);
      INSERT INTO swiftlite_schema VALUES
        ('Note_y', 'CREATE TABLE "Note_y" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL)');
      """)
    XCTAssertEqual(try older.ownership(of: "Note_y"), .managed)
    // Another connection widens the record table (and records the table's statement);
    // then the table is remade behind SwiftLite's back: the record no longer describes it.
    let widening = try open("older.sqlite")
    try widening.migrate(Note.self, target: "y")
    XCTAssertEqual(try older.ownership(of: "Note_y"), .managed)
    try widening.execute(
      #"DROP TABLE "Note_y"; CREATE TABLE "Note_y" (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"#)
    XCTAssertEqual(try older.ownership(of: "Note_y"), .mapped)
  }

  func testATableAsItsModelMadeItIsDescribedAsThePragmasWouldWithoutRunningThem() throws {
    struct Parent: Model {
      var id: Int64
      var name: String
      static let tableName = "parent"
      static let primaryKey = ["id"]
    }
    struct Child: Model {
      var a: String
      var b: Int64
      var parentID: Int64?
      var score: Double
      var note: String?
      var tags: [String]
      var when: Date
      static let tableName = "child"
      static let primaryKey = ["a", "b"]
      static let foreignKeys = [
        ForeignKey(["parentID"], references: "parent", onDelete: .cascade)
      ]
      static let indexes = [TableIndex(["score"]), TableIndex(["note", "b"], unique: true)]
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "score": [.default(.real(1.5)), .check("score >= 0")],
        "note": [.unique, .collate("NOCASE")],
      ]
    }
    struct Strict: Model {
      var id: Int64
      var value: String?
      static let tableName = "strict_item"
      static let primaryKey = ["id"]
      static let isStrict = true
      static let autoIncrement = true
    }
    try db.createTable(for: Parent.self, target: "p")
    try db.createTable(for: Child.self, target: "p")
    try db.createTable(for: Strict.self, target: "p")
    func check<M: Model>(_ model: M.Type) throws {
      let name = M.tableName(target: "p")
      let desired = try TableSchema(model, target: "p")
      let fromPragmas = try SchemaCatalogue.describe(name, in: db)
      clearExecutedSQL()
      let fromModel = try SchemaCatalogue.describe(name, expecting: desired, in: db)
      // The pragmas a statement runs are traced as "-- PRAGMA ..." lines of their own
      // (the schema and data versions are read by every describing statement).
      XCTAssertEqual(
        executedSQL.filter {
          $0.hasPrefix("-- PRAGMA") && !$0.contains("index_") && !$0.contains("schema_version")
            && !$0.contains("data_version")
        }, [],
        "\(name): the pragmas for columns and foreign keys ran")
      XCTAssertEqual(fromModel.schema, fromPragmas.schema, name)
      XCTAssertEqual(fromModel.uniqueKeys, fromPragmas.uniqueKeys, name)
      XCTAssertEqual(fromModel.options, fromPragmas.options, name)
      XCTAssertNotNil(fromModel.record, name)
      XCTAssertTrue(try AutoMigration.plan(to: desired, stored: fromModel, in: db).isEmpty, name)
    }
    try check(Parent.self)
    try check(Child.self)
    try check(Strict.self)
    // Another statement (a column added): the pragmas are asked.
    try db.execute(#"ALTER TABLE "parent_p" ADD COLUMN extra TEXT"#)
    let desired = try TableSchema(Parent.self, target: "p")
    clearExecutedSQL()
    let altered = try SchemaCatalogue.describe("parent_p", expecting: desired, in: db)
    XCTAssertTrue(executedSQL.contains { $0.hasPrefix("-- PRAGMA 'main'.table_xinfo='parent_p'") })
    XCTAssertEqual(altered.schema?.columns.map(\.name), ["id", "name", "extra"])
  }
}
