import Foundation
import SwiftLite
import XCTest

// A model over a table with generated columns (VIRTUAL and STORED) reads them and never
// writes them: insert, save (an upsert), update, update(_:from:) and the writes that
// return the row all leave them to SQLite.

private let createPerson = """
  CREATE TABLE person (
    id INTEGER PRIMARY KEY,
    initials TEXT GENERATED ALWAYS AS (substr(first, 1, 1) || substr(last, 1, 1)) STORED,
    first TEXT NOT NULL,
    last TEXT NOT NULL,
    full TEXT GENERATED ALWAYS AS (first || ' ' || last) VIRTUAL
  )
  """

private struct Person: Model, Equatable {
  var id: Int64?
  var initials: String?
  var first: String
  var last: String
  var full: String?
  static let tableName = "person"
  static let primaryKey = ["id"]
}

/// The same with a mapping of its own, which binds straight into the statements.
private struct FastPerson: Model, RowMapped, Equatable {
  var id: Int64?
  var initials: String?
  var first: String
  var last: String
  var full: String?
  static let tableName = "person"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "initials", "first", "last", "full"]
  init(id: Int64?, initials: String?, first: String, last: String, full: String?) {
    (self.id, self.initials, self.first, self.last, self.full) = (id, initials, first, last, full)
  }
  init(row: MappedRow) throws {
    id = try row.get(0)
    initials = try row.get(1)
    first = try row.get(2)
    last = try row.get(3)
    full = try row.get(4)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(initials, at: 1)
    try row.set(first, at: 2)
    try row.set(last, at: 3)
    try row.set(full, at: 4)
  }
}

final class GeneratedColumnTests: ModelTestCase {
  private func rows(_ db: Connection) throws -> [[String]] {
    try db.query("SELECT CAST(id AS TEXT), initials, first, last, full FROM person ORDER BY id").map
    { row in
      try (0..<5).map { try row.get(String?.self, at: $0) ?? "nil" }
    }
  }

  func testGeneratedColumnsAreReadAndNeverWritten() throws {
    let db = try open()
    try db.execute(createPerson)
    // Values given for the generated columns are not written (SQLite would refuse them).
    let id = try db.insert(Person(id: nil, initials: "XX", first: "Ann", last: "Lee", full: "x"))
    XCTAssertEqual(id, 1)
    try db.save(Person(id: 2, initials: nil, first: "Bo", last: "Berg", full: nil))
    try db.save(Person(id: 2, initials: "?", first: "Bo", last: "Borg", full: "?"))
    try db.update(Person(id: 1, initials: "!", first: "Ann", last: "Moss", full: "!"))
    let cy = try db.insertAndFetch(
      Person(id: nil, initials: "X", first: "Cy", last: "Park", full: nil))
    XCTAssertEqual(cy, Person(id: 3, initials: "CP", first: "Cy", last: "Park", full: "Cy Park"))
    let saved = try db.saveAndFetch(
      Person(id: 3, initials: nil, first: "Cy", last: "Pine", full: nil))
    XCTAssertEqual(saved.full, "Cy Pine")
    XCTAssertEqual(
      try db.updateAndFetch(Person(id: 3, initials: nil, first: "Cyd", last: "Pine", full: nil))
        .initials, "CP")
    let original = try XCTUnwrap(try db.find(Person.self, key: [.integer(1)]))
    var changed = original
    changed.first = "Anne"
    changed.full = "ignored"
    try db.update(changed, from: original)

    let reopened = try open()
    XCTAssertEqual(
      try rows(reopened),
      [
        ["1", "AM", "Anne", "Moss", "Anne Moss"], ["2", "BB", "Bo", "Borg", "Bo Borg"],
        ["3", "CP", "Cyd", "Pine", "Cyd Pine"],
      ])
    XCTAssertEqual(
      try reopened.findAll(Person.self, orderBy: "id").map(\.full),
      ["Anne Moss", "Bo Borg", "Cyd Pine"])
    try assertIntact(reopened)
  }

  func testAModelWithItsOwnMappingNeverWritesGeneratedColumns() throws {
    let db = try open()
    try db.execute(createPerson)
    try db.insert(FastPerson(id: nil, initials: "X", first: "Ann", last: "Lee", full: "x"))
    try db.save(FastPerson(id: 2, initials: "X", first: "Bo", last: "Berg", full: "x"))
    try db.save(FastPerson(id: 2, initials: "X", first: "Bo", last: "Borg", full: "x"))
    try db.update(FastPerson(id: 1, initials: "X", first: "Ann", last: "Moss", full: "x"))
    XCTAssertEqual(
      try rows(try open()),
      [["1", "AM", "Ann", "Moss", "Ann Moss"], ["2", "BB", "Bo", "Borg", "Bo Borg"]])
    XCTAssertEqual(
      try open().findAll(FastPerson.self, orderBy: "id").map(\.initials), ["AM", "BB"])
  }
}

/// A model over an FTS5 table, whose `rank` is one of the table's hidden columns.
private struct Doc: Model, Equatable {
  var title: String
  var body: String
  var rank: Double?
  static let tableName = "docs"
  static let primaryKey = ["title"]
}

extension GeneratedColumnTests {
  func testHiddenColumnsOfAVirtualTableAreReadAndNeverWritten() throws {
    let db = try open()
    try db.execute("CREATE VIRTUAL TABLE docs USING fts5(title, body)")
    // Writing `rank` would be one of FTS5's commands; the insert leaves it out.
    try db.insert(Doc(title: "Tea", body: "green and black", rank: 1.5))
    try db.insert(Doc(title: "Coffee", body: "black", rank: nil))
    let reopened = try open()
    XCTAssertEqual(
      try reopened.findAll(Doc.self, orderBy: "title"),
      [
        Doc(title: "Coffee", body: "black", rank: nil),
        Doc(title: "Tea", body: "green and black", rank: nil),
      ])
    XCTAssertEqual(
      try reopened.scalar(Int.self, "SELECT count(*) FROM docs WHERE docs MATCH 'black'"), 2)
  }
}
