import XCTest

@testable import SwiftLite

private struct Folder: Model, Equatable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
}

private struct Note: Model, Equatable {
  var id: Int64?
  var folderID: Int64
  var title: String
  var body: String
  var isPinned: Bool
  var draft: String? = nil
  static let primaryKey = ["id"]
  static let ignoredProperties: Set<String> = ["draft"]
}

private struct MappedNote: Model, RowMapped, Equatable {
  var id: Int64?
  var title: String
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "title"]
  init(id: Int64?, title: String) { (self.id, self.title) = (id, title) }
  init(row: MappedRow) throws {
    id = try row.get(0)
    title = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(title, at: 1)
  }
}

/// A record made for one query: not a model, decoded by column name all the same.
private struct FolderCount: Decodable, Equatable, Sendable {
  var name: String
  var notes: Int
}

/// Models, records and values from SQL written by hand, on a file database.
final class SQLFetchTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.transaction { db in
      let work = try db.insert(Folder(id: nil, name: "work"))
      let home = try db.insert(Folder(id: nil, name: "home"))
      _ = try db.insert(Folder(id: nil, name: "empty"))
      for (index, title) in ["budget", "plan", "review"].enumerated() {
        _ = try db.insert(
          Note(
            id: nil, folderID: work, title: title, body: "about \(title)",
            isPinned: index == 0))
      }
      _ = try db.insert(
        Note(id: nil, folderID: home, title: "groceries", body: "milk", isPinned: false))
    }
  }

  func testModelsFromAJoinWithBoundValues() throws {
    let name = "work' OR '1'='1"
    XCTAssertEqual(
      try db.fetchAll(
        Note.self,
        "SELECT note.* FROM note JOIN folder ON folder.id = note.folderID WHERE folder.name = \(name)"
      ), [])
    let work = try db.fetchAll(
      Note.self,
      """
      SELECT note.*, 'extra' AS unused FROM note JOIN folder ON folder.id = note.folderID
      WHERE folder.name = \("work") ORDER BY note.title DESC
      """)
    XCTAssertEqual(work.map(\.title), ["review", "plan", "budget"])
    XCTAssertEqual(work.last?.isPinned, true)
    XCTAssertNil(work.first?.draft, "an ignored property needs no column")
  }

  func testFetchOneAndNone() throws {
    let pinned = try db.fetchOne(Note.self, "SELECT * FROM note WHERE isPinned = \(true)")
    XCTAssertEqual(pinned?.title, "budget")
    XCTAssertNil(try db.fetchOne(Note.self, "SELECT * FROM note WHERE title = \("nothing")"))
  }

  func testRowMappedModelsReadThroughTheirMapping() throws {
    let notes = try db.fetchAll(
      MappedNote.self, "SELECT title, id FROM note WHERE title LIKE \("%r%") ORDER BY id")
    XCTAssertEqual(notes.map(\.title), ["review", "groceries"])
    XCTAssertEqual(
      try db.fetchOne(MappedNote.self, "SELECT * FROM note ORDER BY title")?.title, "budget")
    XCTAssertThrowsError(try db.fetchAll(MappedNote.self, "SELECT id FROM note")) { error in
      guard case DecodingError.keyNotFound(let key, _) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(key.stringValue, "title")
    }
  }

  func testARecordMadeForOneQuery() throws {
    let counts = try db.fetchAll(
      FolderCount.self,
      """
      SELECT folder.name, count(note.id) AS notes FROM folder
      LEFT JOIN note ON note.folderID = folder.id GROUP BY folder.id ORDER BY folder.name
      """)
    XCTAssertEqual(
      counts,
      [
        FolderCount(name: "empty", notes: 0), FolderCount(name: "home", notes: 1),
        FolderCount(name: "work", notes: 3),
      ])
  }

  func testValuesAsAnArray() throws {
    XCTAssertEqual(
      try db.fetchAll(String.self, "SELECT title FROM note ORDER BY title"),
      ["budget", "groceries", "plan", "review"])
    XCTAssertEqual(
      try db.fetchAll(String?.self, "SELECT nullif(title, \("plan")) FROM note ORDER BY id"),
      ["budget", nil, "review", "groceries"])
    XCTAssertThrowsError(
      try db.fetchAll(String.self, "SELECT nullif(title, \("plan")) FROM note"))
    XCTAssertEqual(try db.fetchAll(Int.self, "SELECT id FROM note WHERE 0"), [])
  }

  func testStreamingWithExtraColumnsBesideTheModel() throws {
    var hits: [(title: String, length: Int)] = []
    try db.forEachRow(
      "SELECT note.*, length(body) AS length FROM note WHERE folderID = \(1) ORDER BY title",
      as: Note.self
    ) { note, row in
      hits.append((note.title, try row.get(Int.self, "length")))
    }
    XCTAssertEqual(hits.map(\.title), ["budget", "plan", "review"])
    XCTAssertEqual(hits.map(\.length), [12, 10, 12])
    var mapped: [String] = []
    try db.forEachRow("SELECT id, title FROM note ORDER BY id", as: MappedNote.self) { note, _ in
      mapped.append(note.title)
    }
    XCTAssertEqual(mapped, ["budget", "plan", "review", "groceries"])
  }

  private func checkBlockingForms(_ access: any DatabaseAccess) throws {
    XCTAssertEqual(
      try access.fetchAll(Note.self, "SELECT * FROM note WHERE folderID = \(2)").map(\.title),
      ["groceries"])
    XCTAssertEqual(
      try access.fetchOne(FolderCount.self, "SELECT name, 7 AS notes FROM folder")?.notes, 7)
    let notes = try Repository<Note>(access)
    XCTAssertEqual(try notes.fetchAll("SELECT * FROM note WHERE isPinned").map(\.title), ["budget"])
  }

  func testThroughAQueueAPoolAndARepository() async throws {
    try db.close()
    db = nil
    let pool = try DatabasePool(path: databasePath)
    let queue = try DatabaseQueue(path: databasePath)
    for access in [pool as any DatabaseAccess, queue] {
      try checkBlockingForms(access)
      let titles = try await access.fetchAll(String.self, "SELECT title FROM note ORDER BY id")
      XCTAssertEqual(titles.first, "budget")
      let records = try await access.fetchAll(
        FolderCount.self, "SELECT name, 1 AS notes FROM folder")
      XCTAssertEqual(records.count, 3)
      let pinned = try await Repository<Note>(access).fetchAll("SELECT * FROM note WHERE isPinned")
      XCTAssertEqual(pinned.map(\.title), ["budget"])
    }
    try pool.close()
    try queue.close()
  }
}
