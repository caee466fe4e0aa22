import Foundation
import XCTest

@testable import SwiftLite

private struct DumpedNote: Model, Equatable {
  var id: Int64?
  var title: String
  var rank: Double
  static let primaryKey = ["id"]
}

final class ConnectionDumpTests: SQLiteTestCase {
  /// Rows come in primary-key order, not insertion or rowid order, with each value as
  /// `quote()` writes it; SQLite's tables, shadow tables of a full-text index and the
  /// bookkeeping tables are left out unless asked for.
  func testContentIsInPrimaryKeyOrderWithQuotedValues() throws {
    try db.execute(
      """
      CREATE TABLE tag(name TEXT PRIMARY KEY, weight REAL, data BLOB);
      INSERT INTO tag VALUES ('zebra', 1.5, X'00FF'), ('apple', NULL, NULL), ('it''s', 2, x'');
      CREATE TABLE pair(a TEXT, b INTEGER, PRIMARY KEY (b, a)) WITHOUT ROWID;
      INSERT INTO pair VALUES ('x', 2), ('y', 1), ('a', 2);
      CREATE TABLE plain(v);
      INSERT INTO plain VALUES ('second?'), (1e100), (-0.25);
      CREATE VIRTUAL TABLE search USING fts5(body);
      INSERT INTO search VALUES ('hello');
      CREATE TABLE "odd name"(id INTEGER PRIMARY KEY, "a|b" TEXT);
      INSERT INTO "odd name" VALUES (1, 'x|y');
      """)
    var migrator = Migrator()
    migrator.register("v1") { _ in }
    try migrator.migrate(db)
    XCTAssertEqual(
      try db.dumpContent(),
      """
      table odd name: 1 row(s)
        1|'x|y'
      table pair: 3 row(s)
        'y'|1
        'a'|2
        'x'|2
      table plain: 3 row(s)
        'second?'
        1.0e+100
        -0.25
      table tag: 3 row(s)
        'apple'|NULL|NULL
        'it''s'|2.0|X''
        'zebra'|1.5|X'00FF'
      """)
    XCTAssertTrue(
      try db.dumpContent(includingBookkeeping: true).contains(
        "table swiftlite_migrations: 1 row(s)"))
  }

  /// The same content written in another order dumps the same text.
  func testTheSameContentDumpsTheSameWhateverTheWriteOrder() throws {
    let other = try open("other.sqlite")
    for (connection, order) in [(db!, [3, 1, 2]), (other, [2, 3, 1])] {
      try connection.execute("CREATE TABLE t(k TEXT PRIMARY KEY, v)")
      for key in order {
        _ = try connection.query("INSERT INTO t VALUES (?, ?)", ["k\(key)", key])
      }
    }
    XCTAssertEqual(try db.dumpContent(), try other.dumpContent())
    try other.close()
  }

  /// The schema: tables by name, each followed by its indexes and triggers, views last;
  /// no statement of SQLite's own objects, shadow tables or bookkeeping tables.
  func testSchemaListsStatementsInAStableOrder() throws {
    try db.execute(
      """
      CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT UNIQUE, folder INTEGER);
      CREATE VIEW titles AS SELECT title FROM note;
      CREATE INDEX note_folder ON note(folder);
      CREATE TABLE folder(id INTEGER PRIMARY KEY);
      CREATE TRIGGER note_touch AFTER UPDATE ON note BEGIN SELECT 1; END;
      CREATE VIRTUAL TABLE note_search USING fts5(title);
      CREATE TRIGGER titles_insert INSTEAD OF INSERT ON titles BEGIN SELECT 1; END;
      """)
    var migrator = Migrator()
    migrator.register("v1") { _ in }
    try migrator.migrate(db)
    XCTAssertEqual(
      try db.dumpSchema(),
      """
      CREATE TABLE folder(id INTEGER PRIMARY KEY);
      CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT UNIQUE, folder INTEGER);
      CREATE INDEX note_folder ON note(folder);
      CREATE TRIGGER note_touch AFTER UPDATE ON note BEGIN SELECT 1; END;
      CREATE VIRTUAL TABLE note_search USING fts5(title);
      CREATE VIEW titles AS SELECT title FROM note;
      CREATE TRIGGER titles_insert INSTEAD OF INSERT ON titles BEGIN SELECT 1; END;
      """)
    XCTAssertTrue(try db.dumpSchema(includingBookkeeping: true).contains("swiftlite_migrations"))
  }

  /// A query dumps its column names, then its rows in its order; interpolated values are
  /// bound (an injection attempt is only text), and a query of models dumps its columns.
  func testQueryDumpsBindValuesAndKeepTheQueryOrder() throws {
    try db.save([
      DumpedNote(id: 1, title: "b", rank: 0.5),
      DumpedNote(id: 2, title: "a'; DROP TABLE x", rank: 2),
      DumpedNote(id: 3, title: "c", rank: 1),
    ])
    let hostile = "a'; DROP TABLE x"
    XCTAssertEqual(
      try db.dump(
        "SELECT id, title, NULL AS empty, X'01' AS bytes FROM dumpedNote WHERE title <> \(hostile) ORDER BY rank DESC"
      ),
      """
      id|title|empty|bytes
      3|'c'|NULL|X'01'
      1|'b'|NULL|X'01'
      """)
    XCTAssertEqual(try db.dump("SELECT 1 AS a, 1 AS a WHERE 0"), "a|a")
    XCTAssertEqual(
      try db.dump(DumpedNote.all().filter(Column("rank") >= 1).order(Column("title"))),
      """
      id|title|rank
      2|'a''; DROP TABLE x'|2.0
      3|'c'|1.0
      """)
    let queue = try DatabaseQueue(path: path())
    XCTAssertEqual(try queue.dump(DumpedNote.all().select(Column("id")).limit(1)), "id\n1")
    XCTAssertEqual(try queue.dumpContent(), try db.dumpContent())
    XCTAssertEqual(try queue.dumpSchema(), try db.dumpSchema())
    try queue.close()
  }
}
