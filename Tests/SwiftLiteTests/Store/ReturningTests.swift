import XCTest

@testable import SwiftLite

private struct RNote: Model, Equatable {
  var id: Int64?
  var title: String
  var createdAt: String?
  var revision: Int? = nil
  static let tableName = "rnote"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "createdAt": [.notNull(true), .defaultExpression("'2026-01-01 00:00:00'")],
    "revision": [.notNull(true), .default(1)],
  ]
}

private struct Membership: Model, Equatable {
  var userID: String
  var groupID: String
  var role: String
  static let tableName = "membership"
  static let primaryKey = ["userID", "groupID"]
}

/// RETURNING: writes that give back the row as stored, in one statement each.
final class ReturningTests: SQLiteTestCase {
  func testInsertAndFetchGivesTheAssignedKeyAndTheDefaults() throws {
    _ = try db.insert(RNote(id: nil, title: "first", createdAt: "2020-05-05 10:00:00"))
    let before = executedSQL.count
    let stored = try db.insertAndFetch(RNote(id: nil, title: "second", createdAt: nil))
    XCTAssertEqual(executedSQL.count - before, 1, executedSQL.suffix(2).joined(separator: "\n"))
    XCTAssertEqual(
      stored, RNote(id: 2, title: "second", createdAt: "2026-01-01 00:00:00", revision: 1))
    XCTAssertEqual(try db.find(RNote.self, id: 2), stored)
  }

  func testSaveUpdateAndDeleteAndFetch() throws {
    let first = try db.saveAndFetch(RNote(id: nil, title: "a", createdAt: nil))
    XCTAssertEqual(first.id, 1)
    var changed = first
    changed.title = "b"
    changed.createdAt = nil  // keeps the stored value
    let saved = try db.saveAndFetch(changed)
    XCTAssertEqual(saved, RNote(id: 1, title: "b", createdAt: "2026-01-01 00:00:00", revision: 1))
    changed.title = "c"
    changed.revision = 7
    let before = executedSQL.count
    let updated = try db.updateAndFetch(changed)
    XCTAssertEqual(executedSQL.count - before, 1)
    XCTAssertEqual(updated.title, "c")
    XCTAssertEqual(updated.revision, 7)
    let removed = try db.deleteAndFetch(updated)
    XCTAssertEqual(removed, updated)
    XCTAssertEqual(try db.count(RNote.self), 0)
    XCTAssertThrowsError(try db.updateAndFetch(changed)) { error in
      guard case ModelError.notFound = error else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(try db.deleteAndFetch(RNote.self, key: [.integer(1)])) { error in
      guard case ModelError.notFound = error else { return XCTFail("\(error)") }
    }
  }

  func testWithoutRowIDAndCompositeKeys() throws {
    try db.execute(
      """
      CREATE TABLE membership(userID TEXT NOT NULL, groupID TEXT NOT NULL, role TEXT NOT NULL,
        PRIMARY KEY (userID, groupID)) WITHOUT ROWID
      """)
    let member = try db.insertAndFetch(Membership(userID: "u1", groupID: "g1", role: "owner"))
    XCTAssertEqual(member.role, "owner")
    let saved = try db.saveAndFetch(Membership(userID: "u1", groupID: "g1", role: "reader"))
    XCTAssertEqual(saved.role, "reader")
    let updated = try db.updateAndFetch(Membership(userID: "u1", groupID: "g1", role: "editor"))
    XCTAssertEqual(updated.role, "editor")
    let removed = try db.deleteAndFetch(Membership.self, key: [.text("u1"), .text("g1")])
    XCTAssertEqual(removed.role, "editor")
    XCTAssertEqual(try db.count(Membership.self), 0)
  }

  func testBulkUpdatesAndDeletesReturnTheirRows() throws {
    for title in ["a", "b", "c", "d"] {
      _ = try db.insertAndFetch(RNote(id: nil, title: title, createdAt: nil))
    }
    let bumped = try RNote.filter(Column("title") >= "c").updateAllAndFetch(
      db, Column("revision").set(to: Column("revision") + 1))
    XCTAssertEqual(bumped.map(\.title).sorted(), ["c", "d"])
    XCTAssertEqual(Set(bumped.map(\.revision)), [2])
    let removed = try RNote.filter(Column("title") < "c").deleteAllAndFetch(db)
    XCTAssertEqual(removed.map(\.title).sorted(), ["a", "b"])
    XCTAssertEqual(try db.count(RNote.self), 2)
    XCTAssertEqual(try RNote.filter(Column("title") == "zzz").deleteAllAndFetch(db), [])
  }

  func testAFailedInsertChangesNothing() throws {
    _ = try db.insertAndFetch(RNote(id: 5, title: "x", createdAt: nil))
    XCTAssertThrowsError(try db.insertAndFetch(RNote(id: 5, title: "y", createdAt: nil))) {
      error in
      XCTAssertEqual((error as? SQLiteError)?.constraintKind, .primaryKey)
    }
    XCTAssertEqual(try db.fetchAll(String.self, "SELECT title FROM rnote"), ["x"])
  }

  func testThroughARepository() async throws {
    try db.close()
    db = nil
    let queue = try DatabaseQueue(path: databasePath)
    let notes = try Repository<RNote>(queue)
    let created = try await notes.createAndFetch(RNote(id: nil, title: "r", createdAt: nil))
    XCTAssertEqual(created.id, 1)
    XCTAssertEqual(created.createdAt, "2026-01-01 00:00:00")
    try queue.close()
  }
}
