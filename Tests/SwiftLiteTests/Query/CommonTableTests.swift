import XCTest

@testable import SwiftLite

private struct TFolder: Model, Equatable {
  var id: Int64?
  var parentID: Int64?
  var name: String
  static let tableName = "tfolder"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["parentID"], references: "tfolder", onDelete: .cascade)]
}

private struct TNote: Model, Equatable {
  var id: Int64?
  var folderID: Int64
  var title: String
  static let tableName = "tnote"
  static let primaryKey = ["id"]
}

/// Common table expressions, recursive included, whose rows read as models and feed the
/// conditions of other queries.
final class CommonTableTests: SQLiteTestCase {
  /// A chain of 50 nested folders (1 is the root, n + 1 in n), a side folder 100 under the
  /// root, and one note per folder.
  private func seed() throws {
    try db.transaction { db in
      for id in 1...50 {
        _ = try db.insert(
          TFolder(id: Int64(id), parentID: id == 1 ? nil : Int64(id - 1), name: "f\(id)"))
      }
      _ = try db.insert(TFolder(id: 100, parentID: 1, name: "side"))
      for folder in [Int64(100)] + (1...50).map(Int64.init) {
        _ = try db.insert(TNote(id: nil, folderID: folder, title: "note in \(folder)"))
      }
    }
  }

  private func subtree(of root: Int64, name: String = "subtree") -> CommonTable {
    CommonTable(
      recursive: name,
      """
      SELECT * FROM tfolder WHERE id = \(root)
      UNION ALL
      SELECT tfolder.* FROM tfolder JOIN \(identifier: name) AS up ON tfolder.parentID = up.id
      """)
  }

  func testATreeOfDepthFiftyInOneStatement() throws {
    try seed()
    let before = executedSQL.count
    let folders = try TFolder.all(from: subtree(of: 1)).order(Column("id")).fetchAll(db)
    XCTAssertEqual(executedSQL.count - before, 1)
    XCTAssertEqual(folders.count, 51)
    XCTAssertEqual(folders.last, TFolder(id: 100, parentID: 1, name: "side"))
    XCTAssertEqual(folders[49].parentID, 49)
    let deep = try TFolder.all(from: subtree(of: 40)).fetchAll(db).map(\.id)
    XCTAssertEqual(deep.compactMap { $0 }.sorted(), Array(40...50))
  }

  func testACommonTablesRowsFilterCountAndFeedOtherQueries() throws {
    try seed()
    let tree = subtree(of: 45)
    XCTAssertEqual(try TFolder.all(from: tree).filter(Column("id") > 47).fetchCount(db), 3)
    XCTAssertEqual(try TFolder.all(from: tree).filter(Column("name") == "f46").fetchOne(db)?.id, 46)
    let notes = try TNote.all().with(tree).filter(Column("folderID").in(tree, column: "id"))
      .order(Column("folderID")).fetchAll(db)
    XCTAssertEqual(notes.map(\.folderID), [45, 46, 47, 48, 49, 50])
    XCTAssertEqual(
      try TNote.all().with(tree).filter(Column("folderID").in(tree, column: "id")).fetchCount(db), 6
    )
  }

  func testDeletingThroughACommonTable() throws {
    try seed()
    let tree = subtree(of: 48)
    XCTAssertEqual(
      try TNote.all().with(tree).filter(Column("folderID").in(tree, column: "id")).deleteAll(db), 3)
    XCTAssertEqual(try db.count(TNote.self), 48)
    // 49 goes, and 50 with it by its cascade (cascades are not counted).
    XCTAssertEqual(try TFolder.all(from: tree).filter(Column("id") >= 49).deleteAll(db), 1)
    XCTAssertEqual(try db.count(TFolder.self), 49)
    XCTAssertEqual(try TFolder.all(from: tree).fetchAll(db).map(\.id), [48])
  }

  func testACommonTableOfAModelQuery() throws {
    try seed()
    let side = CommonTable("side", TFolder.filter(Column("name") == "side").select(Column("id")))
    let notes = try TNote.all().with(side).filter(Column("folderID").in(side, column: "id"))
      .fetchAll(db)
    XCTAssertEqual(notes.map(\.title), ["note in 100"])
  }

  func testNamesAreQuotedAndValuesBound() throws {
    try seed()
    let odd = subtree(of: 49, name: #"tree"; DROP TABLE tfolder; --"#)
    XCTAssertEqual(try TFolder.all(from: odd).fetchCount(db), 2)
    XCTAssertEqual(try db.count(TFolder.self), 51)
    let injected = CommonTable("t", "SELECT * FROM tfolder WHERE name = \("f1' OR '1'='1")")
    XCTAssertEqual(try TFolder.all(from: injected).fetchCount(db), 0)
  }
}
