import Foundation
import XCTest

@testable import SwiftLite

/// `update(_:from:)` writes only the columns that changed, so every other column keeps its
/// bytes, and a model saved unchanged writes nothing.
final class ChangedColumnsTests: SQLiteTestCase {
  struct Note: Model, Equatable {
    var id: Int64
    var title: String
    var day: Date
    var seen: Date?
    var tags: [String: Int]
    static let primaryKey = ["id"]
  }

  override func setUpWithError() throws {
    try super.setUpWithError()
    // Another program's rows: dates in two formats in one column, a REAL Unix time that
    // no millisecond rounding would give back, JSON with spaces and keys out of order.
    try db.execute(
      """
      CREATE TABLE Note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, day DATETIME NOT NULL,
        seen REAL, tags TEXT NOT NULL);
      INSERT INTO Note VALUES
        (1, 'one', '2016-07-05', 1467722096.123456789, '{ "b": 2, "a": 1 }'),
        (2, 'two', '2021-01-02 00:00:00', NULL, '{"z":26,  "y":25}');
      """)
  }

  private func dump() throws -> [String] {
    try db.query("SELECT quote(id), quote(title), quote(day), quote(seen), quote(tags) FROM Note")
      .map { try $0.values.map(\.description).joined(separator: "|") }
  }

  func testAModelSavedUnchangedWritesNothing() throws {
    let before = try dump()
    for note in try db.findAll(Note.self) {
      clearExecutedSQL()
      XCTAssertEqual(try db.update(note, from: note), [])
      XCTAssertFalse(executedSQL.contains { $0.hasPrefix("UPDATE") }, "\(executedSQL)")
    }
    XCTAssertEqual(try dump(), before)
  }

  func testOnlyTheChangedColumnIsWrittenTheOthersKeepTheirBytes() throws {
    let before = try dump()
    for original in try db.findAll(Note.self) {
      var note = original
      note.title += "!"
      clearExecutedSQL()
      XCTAssertEqual(try db.update(note, from: original), ["title"])
      XCTAssertEqual(
        executedSQL.filter { $0.hasPrefix("UPDATE") },
        ["UPDATE \"Note\" SET \"title\" = ? WHERE \"id\" = ?"])
    }
    XCTAssertEqual(
      try dump(),
      before.map { $0.replacingOccurrences(of: "one'", with: "one!'") }
        .map { $0.replacingOccurrences(of: "two'", with: "two!'") })
    // A plain update writes every column (the JSON is written as SwiftLite writes it).
    try db.update(try XCTUnwrap(try db.find(Note.self, id: 1)))
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT tags FROM Note WHERE id = 1"), #"{"a":1,"b":2}"#)
  }

  func testChangedComparesTextByItsBytes() throws {
    let decomposed = "Cafe\u{301}"
    let precomposed = "Caf\u{E9}"
    XCTAssertEqual(decomposed, precomposed, "Swift's == calls them equal")
    try db.run("UPDATE Note SET title = ? WHERE id = 1", [decomposed])
    let original = try XCTUnwrap(try db.find(Note.self, id: 1))
    var note = original
    note.title = precomposed
    XCTAssertEqual(try db.update(note, from: original), ["title"])
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT hex(title) FROM Note WHERE id = 1"), "436166C3A9")
  }

  func testARowMappedModelWritesOnlyWhatChangedToo() throws {
    struct Title: Model, RowMapped {
      var id: Int64
      var title: String
      var day: Date
      static let tableName = "Note"
      static let primaryKey = ["id"]
      static let mappedColumns = ["id", "title", "day"]
      init(row: MappedRow) throws {
        id = try row.get(0)
        title = try row.get(1)
        day = try row.get(2)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(id, at: 0)
        try row.set(title, at: 1)
        try row.set(day, at: 2)
      }
    }
    let before = try dump()
    let original = try XCTUnwrap(try db.find(Title.self, id: 2))
    XCTAssertEqual(try db.update(original, from: original), [])
    var changed = original
    changed.day = Date(timeIntervalSince1970: 1_609_632_000)  // 2021-01-03
    XCTAssertEqual(try db.update(changed, from: original), ["day"])
    XCTAssertEqual(try dump()[0], before[0])
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT day FROM Note WHERE id = 2"), "2021-01-03",
      "the format of the column's first value")
  }

  func testAChangeToARowThatIsGoneIsNotFound() throws {
    let original = try XCTUnwrap(try db.find(Note.self, id: 1))
    try db.execute("DELETE FROM Note WHERE id = 1")
    var note = original
    note.title = "moved"
    guard
      case .notFound(let table, let key) = thrownError(
        ModelError.self,
        {
          try db.update(note, from: original)
        })
    else { return XCTFail("expected notFound") }
    XCTAssertEqual(table, "Note")
    XCTAssertEqual(key, [.integer(1)])
  }
}

extension ChangedColumnsTests {
  func testARepositoryModifiesOnlyWhatChanged() async throws {
    let queue = try DatabaseQueue(path: databasePath)
    let notes = try Repository<Note>(queue)
    let found = try await notes.findById(1)
    let original = try XCTUnwrap(found)
    let unchanged = try await notes.modify(original, from: original)
    XCTAssertEqual(unchanged, [])
    var note = original
    note.seen = nil
    let written = try await notes.modify(note, from: original)
    XCTAssertEqual(written, ["seen"])
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT tags || day FROM Note WHERE id = 1"),
      #"{ "b": 2, "a": 1 }2016-07-05"#)
  }
}
