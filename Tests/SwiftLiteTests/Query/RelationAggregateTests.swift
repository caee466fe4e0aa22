import XCTest

@testable import SwiftLite

private struct AFolder: Model, Equatable {
  var id: Int64?
  var name: String
  static let tableName = "afolder"
  static let primaryKey = ["id"]
  static let notes = hasMany(ANote.self)
}

private struct ANote: Model, Equatable {
  var id: Int64?
  var folderID: Int64
  var size: Int
  var isPinned: Bool
  static let tableName = "anote"
  static let primaryKey = ["id"]
  static let foreignKeys = [
    ForeignKey(["folderID"], references: AFolder.tableName, onDelete: .cascade)
  ]
}

/// A parent's fields and aggregates of its children, read by name.
private struct FolderInfo: Decodable, Equatable {
  var id: Int64
  var name: String
  var noteCount: Int
  var pinned: Int
  var totalSize: Int?
  var largest: Int?
}

/// Aggregates over a relation: counts, sums, min/max and emptiness as annotations and
/// conditions of the parent's query, one statement each.
final class RelationAggregateTests: SQLiteTestCase {
  private let sizes: [Int64: [Int]] = [1: [5, 7, 9], 2: [4], 3: [], 4: [1, 1, 2, 2, 10]]

  private func seed() throws {
    try db.transaction { db in
      for (id, name) in [(1, "work"), (2, "home"), (3, "empty"), (4, "misc")] {
        _ = try db.insert(AFolder(id: Int64(id), name: name))
      }
      for (folder, list) in sizes.sorted(by: { $0.key < $1.key }) {
        for (index, size) in list.enumerated() {
          _ = try db.insert(
            ANote(id: nil, folderID: folder, size: size, isPinned: index.isMultiple(of: 2)))
        }
      }
    }
  }

  func testAnnotationsMatchAHandWrittenGroupByInOneStatement() throws {
    try seed()
    let before = executedSQL.count
    let folders = try AFolder.all()
      .annotated(
        with: AFolder.notes.count.aliased("noteCount"),
        AFolder.notes.filter(Column("isPinned") == true).count.aliased("pinned"),
        AFolder.notes.sum(Column("size")).aliased("totalSize"),
        AFolder.notes.max(Column("size")).aliased("largest")
      )
      .order(Column("id"))
      .fetchAll(db, as: FolderInfo.self)
    XCTAssertEqual(executedSQL.count - before, 1, executedSQL.suffix(3).joined(separator: "\n"))
    let byHand = try db.fetchAll(
      FolderInfo.self,
      """
      SELECT afolder.id, afolder.name, count(anote.id) AS noteCount,
        count(CASE WHEN anote.isPinned THEN 1 END) AS pinned,
        sum(anote.size) AS totalSize, max(anote.size) AS largest
      FROM afolder LEFT JOIN anote ON anote.folderID = afolder.id
      GROUP BY afolder.id ORDER BY afolder.id
      """)
    XCTAssertEqual(folders, byHand)
    XCTAssertEqual(folders.map(\.noteCount), [3, 1, 0, 5])
    XCTAssertEqual(folders[2].totalSize, nil, "a sum over no child is NULL, as in SQL")
  }

  func testConditionsOnAggregates() throws {
    try seed()
    XCTAssertEqual(
      try AFolder.all().having(AFolder.notes.count >= 3).order(Column("id")).fetchAll(db)
        .map(\.name), ["work", "misc"])
    XCTAssertEqual(
      try AFolder.all().having(AFolder.notes.isEmpty).fetchAll(db).map(\.name), ["empty"])
    XCTAssertEqual(
      try AFolder.filter(Column("name") != "misc").having(AFolder.notes.min(Column("size")) < 5)
        .fetchAll(db).map(\.name), ["home"])
    XCTAssertEqual(
      try AFolder.all().having(AFolder.notes.average(Column("size")) > 3.5).fetchCount(db), 2)
    // Counting, deleting and updating take the same conditions.
    XCTAssertEqual(try AFolder.all().having(AFolder.notes.isEmpty).deleteAll(db), 1)
    XCTAssertEqual(try db.count(AFolder.self), 3)
  }

  func testHavingStillFiltersGroupsWhenTheQueryIsGrouped() throws {
    try seed()
    let rows = try ANote.all().select(Column("folderID"), SQLExpression.countAll.aliased("n"))
      .group(Column("folderID")).having(SQLExpression.countAll > 1).order(Column("folderID"))
      .fetchRows(db)
    XCTAssertEqual(try rows.map { try $0.get(Int.self, "folderID") }, [1, 4])
  }

  func testWithoutAChildTableCountsAreZero() throws {
    _ = try db.insert(AFolder(id: 1, name: "alone"))
    XCTAssertFalse(try SchemaInspector(db).tableExists("anote"))
    let folders = try AFolder.all()
      .annotated(
        with: AFolder.notes.count.aliased("noteCount"), AFolder.notes.count.aliased("pinned"),
        AFolder.notes.sum(Column("size")).aliased("totalSize"),
        AFolder.notes.max(Column("size")).aliased("largest")
      )
      .fetchAll(db, as: FolderInfo.self)
    XCTAssertEqual(
      folders,
      [FolderInfo(id: 1, name: "alone", noteCount: 0, pinned: 0, totalSize: nil, largest: nil)])
    XCTAssertFalse(try SchemaInspector(db).tableExists("anote"), "a read created nothing")
  }
}

/// Eager loading with a limit per parent: uneven child counts, ties in the order.
final class PerParentLimitTests: SQLiteTestCase {
  func testEachParentKeepsItsFirstChildrenInOrderWithTiesCutByKey() throws {
    try db.transaction { db in
      for id in 1...4 { _ = try db.insert(AFolder(id: Int64(id), name: "f\(id)")) }
      // Folder 1: 5 notes with sizes 3, 1, 3, 2, 3 (ties on 3); folder 2: 1 note; 3: none;
      // folder 4: 2 notes of the same size.
      let rows: [(Int64, Int)] = [(1, 3), (1, 1), (1, 3), (1, 2), (1, 3), (2, 9), (4, 5), (4, 5)]
      for (index, (folder, size)) in rows.enumerated() {
        _ = try db.insert(
          ANote(id: Int64(index + 1), folderID: folder, size: size, isPinned: false))
      }
    }
    let before = executedSQL.count
    let families = try AFolder.all().order(Column("id")).fetchAll(
      db, including: AFolder.notes.order(Column("size").desc).limit(2))
    XCTAssertEqual(executedSQL.count - before, 2, "two statements in all")
    let ids = families.map { $0.children.map { $0.id ?? 0 } }
    // Folder 1's largest are three notes of size 3 (ids 1, 3, 5): the first two by key.
    XCTAssertEqual(ids, [[1, 3], [6], [], [7, 8]])
    let second = try AFolder.all().order(Column("id")).fetchAll(
      db, including: AFolder.notes.order(Column("size").desc).limit(2, offset: 2))
    XCTAssertEqual(second.map { $0.children.map { $0.id ?? 0 } }, [[5, 4], [], [], []])
    let unlimited = try AFolder.all().order(Column("id")).fetchAll(
      db, including: AFolder.notes.order(Column("size")))
    XCTAssertEqual(unlimited.map(\.children.count), [5, 1, 0, 2])
  }

  func testIncludingWorksUnderAnnotationsAndCommonTables() throws {
    try db.transaction { db in
      for id in 1...3 { _ = try db.insert(AFolder(id: Int64(id), name: "f\(id)")) }
      for id in 1...6 {
        _ = try db.insert(
          ANote(id: Int64(id), folderID: Int64(id % 3 + 1), size: id, isPinned: false))
      }
    }
    let annotated = try AFolder.all().annotated(with: AFolder.notes.count.aliased("n"))
      .order(Column("id")).fetchAll(db, including: AFolder.notes.limit(1))
    XCTAssertEqual(annotated.map { $0.children.map(\.folderID) }, [[1], [2], [3]])
    let some = CommonTable("some", "SELECT * FROM afolder WHERE id >= \(2)")
    let fromTable = try AFolder.all(from: some).order(Column("id"))
      .fetchAll(db, including: AFolder.notes)
    XCTAssertEqual(fromTable.map(\.parent.id), [2, 3])
    XCTAssertEqual(fromTable.map(\.children.count), [2, 2])
  }
}
