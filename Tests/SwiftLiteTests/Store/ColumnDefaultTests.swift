import Foundation
import XCTest

@testable import SwiftLite

/// A `nil` property over a NOT NULL column with a DEFAULT leaves the column to it: an
/// insert stores the default (a value or an expression such as `CURRENT_TIMESTAMP`), an
/// update keeps what the row has. Declared on a model, or found on a table another
/// program made.
final class ColumnDefaultTests: SQLiteTestCase {
  struct Note: Model, Equatable {
    var id: Int64?
    var title: String
    var createdAt: Date?
    var stamp: Int64?
    var mood: String?
    var remark: String?
    static let primaryKey = ["id"]
    static let columnConstraints: [String: [ColumnConstraint]] = [
      "createdAt": [.notNull(true), .defaultExpression("CURRENT_TIMESTAMP")],
      "stamp": [.notNull(true), .defaultExpression("(CAST(strftime('%s', 'now') AS INTEGER))")],
      "mood": [.notNull(true), .default(.text("calm"))],
      "remark": [.default(.text("none"))],  // nullable: nil stores NULL
    ]
  }

  func testDefaultExpressionsAreCreatedAsWritten() throws {
    try db.createTable(for: Note.self)
    let sql = try XCTUnwrap(try db.storedSQL("Note"))
    XCTAssertTrue(sql.contains(#""createdAt" TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP"#), sql)
    XCTAssertTrue(
      sql.contains(#""stamp" INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))"#),
      sql)
    XCTAssertTrue(sql.contains(#""mood" TEXT NOT NULL DEFAULT 'calm'"#), sql)
    XCTAssertEqual(try db.migrationPlan(for: Note.self).changes.map(\.description), [])
    XCTAssertFalse(try db.needsMigration(Note.self), "the stored defaults read back as declared")
  }

  func testNilOnInsertGetsTheDefaultOfAManagedTable() throws {
    let id = try db.insert(Note(id: nil, title: "a", createdAt: nil, stamp: nil, mood: nil))
    let note = try XCTUnwrap(try db.find(Note.self, id: id))
    XCTAssertEqual(note.mood, "calm")
    XCTAssertNil(note.remark)
    XCTAssertNotNil(note.createdAt)
    XCTAssertNotNil(note.stamp)
    // CURRENT_TIMESTAMP's own text, and both defaults of one statement at the same 'now'.
    let stored = try XCTUnwrap(
      try db.queryFirst(
        "SELECT createdAt, stamp = CAST(strftime('%s', createdAt) AS INTEGER) FROM Note "
          + "WHERE id = ?", [id]))
    XCTAssertEqual(SQLiteDateFormat(of: try stored.value(at: 0)), .dateTime)
    XCTAssertEqual(try stored.get(Bool.self, at: 1), true)
    // save() of a new row does the same; given values are stored as given.
    try db.save(Note(id: 7, title: "b", createdAt: nil, stamp: 5, mood: "glad"))
    let saved = try XCTUnwrap(try db.find(Note.self, id: 7))
    XCTAssertNotNil(saved.createdAt)
    XCTAssertEqual(saved.stamp, 5)
    XCTAssertEqual(saved.mood, "glad")
  }

  func testNilOnUpdateKeepsTheStoredValue() throws {
    try db.save(Note(id: 1, title: "a", createdAt: nil, stamp: 5, mood: "glad"))
    let stored = try XCTUnwrap(try db.find(Note.self, id: 1))
    try db.update(Note(id: 1, title: "b", createdAt: nil, stamp: nil, mood: nil))
    try db.save(Note(id: 1, title: "c", createdAt: nil, stamp: nil, mood: nil))
    var expected = stored
    expected.title = "c"
    XCTAssertEqual(try db.find(Note.self, id: 1), expected)
    var changed = expected
    changed.mood = nil
    XCTAssertEqual(try db.update(changed, from: expected), ["mood"])
    XCTAssertEqual(try db.find(Note.self, id: 1)?.mood, "glad")
  }

  func testNilOnInsertGetsTheDefaultOfAMappedTable() throws {
    // As the sqlite3 shell would make it.
    try db.execute(
      """
      CREATE TABLE entry(
        id INTEGER PRIMARY KEY,
        body TEXT NOT NULL CHECK (length(body) > 0),
        created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
        day TEXT NOT NULL DEFAULT (date('now')),
        rank INTEGER NOT NULL DEFAULT 7,
        note TEXT DEFAULT 'n/a');
      INSERT INTO entry(body) VALUES ('first');
      """)
    struct Entry: Model {
      var id: Int64?
      var body: String
      var created: Date?
      var day: String?
      var rank: Int?
      var note: String?
      static let tableName = "entry"
      static let primaryKey = ["id"]
      init(id: Int64?, body: String) {
        (self.id, self.body) = (id, body)
      }
    }
    let id = try db.insert(Entry(id: nil, body: "second"))
    let row = try XCTUnwrap(
      try db.queryFirst(
        "SELECT created = (SELECT created FROM entry WHERE id = 1) OR created >= "
          + "(SELECT created FROM entry WHERE id = 1), day = date('now'), rank, note "
          + "FROM entry WHERE id = ?", [id]))
    XCTAssertEqual(try row.get(Bool.self, at: 0), true)
    XCTAssertEqual(try row.get(Bool.self, at: 1), true)
    XCTAssertEqual(try row.get(Int.self, at: 2), 7)
    XCTAssertNil(try row.get(String?.self, at: 3), "a nullable column stores the NULL given")
    // An update with nil keeps the row's values.
    try db.update(Entry(id: 1, body: "first, edited"))
    XCTAssertEqual(
      try db.dump("entry").first?.contains("'first, edited'|TEXT:"), true)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT rank FROM entry WHERE id = 1"), 7)
  }

  func testAnExpressionDefaultAddedByMigrationFillsTheExistingRows() throws {
    struct Item: Model {
      var id: Int64?
      var name: String
      static let primaryKey = ["id"]
    }
    try db.save(Item(id: 1, name: "a"))
    struct ItemV2: Model {
      var id: Int64?
      var name: String
      var addedAt: Date?
      static let tableName = "Item"
      static let primaryKey = ["id"]
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "addedAt": [.notNull(true), .defaultExpression("CURRENT_TIMESTAMP")]
      ]
    }
    // SQLite's ADD COLUMN refuses a CURRENT_TIMESTAMP default: the table is rebuilt.
    XCTAssertEqual(try db.migrationPlan(for: ItemV2.self).strategy, .rebuild)
    try db.migrate(ItemV2.self)
    XCTAssertNotNil(try db.find(ItemV2.self, id: 1)?.addedAt)
  }
}
