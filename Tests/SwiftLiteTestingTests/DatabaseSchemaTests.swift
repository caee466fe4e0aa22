import SwiftLite
import XCTest

@testable import SwiftLiteTesting

final class DatabaseSchemaTests: XCTestCase {
  /// The differences between two databases made by `a` and `b`.
  private func differences(_ a: String, _ b: String) throws -> [SchemaDifference] {
    let left = try TemporaryDatabase.inMemory()
    let right = try TemporaryDatabase.inMemory()
    try left.connection.execute(a)
    try right.connection.execute(b)
    return try DatabaseSchema(right.connection).differences(from: DatabaseSchema(left.connection))
  }

  func testTheSameSchemaWrittenOtherwiseIsEqual() throws {
    XCTAssertEqual(
      try differences(
        """
        CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (length(name) > 0));
        CREATE INDEX by_name ON item(name);
        CREATE VIEW named AS SELECT name FROM item WHERE name <> '';
        CREATE TRIGGER t AFTER INSERT ON item BEGIN SELECT 1; END;
        """,
        """
        create table "Item" ( "id" integer primary key, [name] text not null check(LENGTH(name)>0) );
        CREATE INDEX another_name ON Item (name);
        CREATE VIEW named AS -- the names
          select "name" from ITEM where NAME <> '';
        create trigger T after insert on item begin select 1; end;
        """), [])
  }

  func testACheckOnlyDifferenceIsADifference() throws {
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(id INTEGER PRIMARY KEY, n INTEGER CHECK (n > 0))",
        "CREATE TABLE item(id INTEGER PRIMARY KEY, n INTEGER)"),
      [SchemaDifference(object: "table item", expected: ["check (n > 0) on n"], actual: [])])
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(a INTEGER, b INTEGER, CHECK (a < b))",
        "CREATE TABLE item(a INTEGER, b INTEGER, CHECK (a <= b))"),
      [
        SchemaDifference(
          object: "table item", expected: ["check (a < b)"], actual: ["check (a <= b)"])
      ])
  }

  func testACollateOnlyDifferenceIsADifference() throws {
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(name TEXT COLLATE NOCASE)", "CREATE TABLE item(name TEXT)"),
      [
        SchemaDifference(
          object: "table item", expected: ["column 1: name TEXT COLLATE NOCASE"],
          actual: ["column 1: name TEXT"])
      ])
  }

  func testColumnOrderTypeNullabilityDefaultAndKeyAreCompared() throws {
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(a INTEGER, b TEXT)", "CREATE TABLE item(b TEXT, a INTEGER)"
      ).map(\.expected), [["column 1: a INTEGER", "column 2: b TEXT"]])
    let changed = try differences(
      "CREATE TABLE item(id INTEGER PRIMARY KEY, a INTEGER NOT NULL DEFAULT 1, b TEXT)",
      "CREATE TABLE item(id INTEGER, a INTEGER DEFAULT 2, b BLOB)")
    XCTAssertEqual(
      changed.first?.actual,
      ["column 1: id INTEGER", "column 2: a INTEGER DEFAULT 2", "column 3: b BLOB"])
    XCTAssertEqual(
      try DatabaseSchema.columnOrderIgnored(
        "CREATE TABLE item(a INTEGER, b TEXT)", "CREATE TABLE item(b TEXT, a INTEGER)"), [])
  }

  func testIndexesAreComparedByWhatTheyIndexNotByName() throws {
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(a, b); CREATE INDEX i1 ON item(a, b)",
        "CREATE TABLE item(a, b); CREATE INDEX i2 ON item(a, b)"), [])
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(a, b); CREATE INDEX i ON item(a, b)",
        "CREATE TABLE item(a, b); CREATE UNIQUE INDEX i ON item(b DESC) WHERE b > 0"),
      [
        SchemaDifference(
          object: "table item", expected: ["index (a, b)"],
          actual: ["unique index (b DESC) where b > 0"])
      ])
  }

  func testAForeignKeyToThePrimaryKeyEqualsOneThatImpliesIt() throws {
    XCTAssertEqual(
      try differences(
        "CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(pid REFERENCES p(id) ON DELETE CASCADE)",
        "CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(pid REFERENCES p ON DELETE CASCADE)"
      ),
      [])
    XCTAssertEqual(
      try differences(
        "CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(pid REFERENCES p ON DELETE CASCADE)",
        "CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(pid REFERENCES p)"
      ).flatMap(\.actual),
      ["foreign key (pid) REFERENCES p (id) ON UPDATE NO ACTION ON DELETE NO ACTION MATCH NONE"])
  }

  func testViewsAndTriggersAreComparedByNormalizedSQL() throws {
    let base = "CREATE TABLE item(a); "
    XCTAssertEqual(
      try differences(
        base + "CREATE VIEW v AS SELECT a FROM item",
        base + "CREATE VIEW v AS SELECT a + 1 FROM item"
      ),
      [
        SchemaDifference(
          object: "view v", expected: ["create view v as select a from item"],
          actual: ["create view v as select a + 1 from item"])
      ])
    XCTAssertEqual(
      try differences(
        base + "CREATE VIEW v AS SELECT 'A' FROM item",
        base + "CREATE VIEW v AS SELECT 'a' FROM item"
      ).count,
      1, "string literals count exactly")
    XCTAssertEqual(
      try differences(
        base, base + "CREATE TRIGGER t AFTER DELETE ON item BEGIN SELECT 1; END"),
      [
        SchemaDifference(
          object: "trigger t", expected: [],
          actual: ["create trigger t after delete on item begin select 1; end"], isUnexpected: true)
      ])
  }

  func testTableOptionsAndFullTextTablesAreCompared() throws {
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(id INTEGER PRIMARY KEY AUTOINCREMENT, a TEXT) STRICT",
        "CREATE TABLE item(id INTEGER PRIMARY KEY, a TEXT)"
      ).map(\.expected),
      [["column 1: id INTEGER PRIMARY KEY 1 AUTOINCREMENT", "STRICT"]])
    XCTAssertEqual(
      try differences(
        "CREATE VIRTUAL TABLE doc USING fts5(title, body)",
        "CREATE VIRTUAL TABLE doc USING fts5(title, body, tokenize = 'porter')"
      ).first(where: { $0.object == "table doc" })?.actual,
      ["virtual: create virtual table doc using fts5(title, body, tokenize = 'porter')"])
  }

  func testGeneratedColumnsAreComparedByTheirExpression() throws {
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) STORED)",
        "CREATE TABLE item(a INTEGER, b INTEGER AS (a * 3) STORED)"),
      [
        SchemaDifference(
          object: "table item", expected: ["generated as (a * 2) on b"],
          actual: ["generated as (a * 3) on b"])
      ])
  }

  func testSwiftLitesBookkeepingIsLeftOutButAHalfBuiltCopyIsNot() throws {
    XCTAssertEqual(
      try differences(
        "CREATE TABLE item(a)",
        """
        CREATE TABLE item(a);
        CREATE TABLE swiftlite_migrations(name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL);
        CREATE TABLE swiftlite_new_item(a);
        """
      ).map(\.object), ["table swiftlite_new_item"])
  }

  func testTheDescriptionIsTheSchemaAsText() throws {
    let database = try TemporaryDatabase.inMemory()
    try database.connection.execute(
      "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE); CREATE VIEW v AS SELECT * FROM item"
    )
    XCTAssertEqual(
      try DatabaseSchema(database.connection).description,
      """
      table item
        column 1: id INTEGER PRIMARY KEY 1
        column 2: name TEXT NOT NULL
        unique constraint (name)
      view v
        create view v as select * from item
      """)
  }

  func testSQLTextIgnoresSpacingCommentsCaseAndQuotesButNotLiterals() {
    XCTAssertEqual(
      SQLText.normalized("SELECT  \"A b\", [c],`d` -- x\n FROM /* y */ T WHERE e='It''s'"),
      "select \"a b\", c, d from t where e = 'It''s'")
    XCTAssertEqual(SQLText.normalized("x>=1.5e-3 AND y->>'$.a'"), "x >= 1.5e-3 and y ->> '$.a'")
  }
}

extension DatabaseSchema {
  /// The differences between two databases with column order ignored.
  fileprivate static func columnOrderIgnored(_ a: String, _ b: String) throws -> [SchemaDifference]
  {
    let left = try TemporaryDatabase.inMemory()
    let right = try TemporaryDatabase.inMemory()
    try left.connection.execute(a)
    try right.connection.execute(b)
    return try DatabaseSchema(right.connection).differences(
      from: DatabaseSchema(left.connection), ignoringColumnOrder: true)
  }
}
