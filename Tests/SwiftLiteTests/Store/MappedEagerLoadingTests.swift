import SwiftLite
import XCTest

// Eager loading of RowMapped models: children read a run of rows with one key at a time
// through the model's own models(from:); these cover runs that do not come in one piece,
// per-parent limits, NULL and shared keys, and a models(from:) of the model's own.

private struct MEFolder: Model, RowMapped, Equatable {
  var id: Int64
  var name: String
  static let tableName = "folder"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "name"]
  static let notes = hasMany(MENote.self)
  init(id: Int64, name: String) { (self.id, self.name) = (id, name) }
  init(row: MappedRow) throws {
    id = try row.get(0)
    name = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(name, at: 1)
  }
}

private struct MENote: Model, RowMapped, Equatable {
  var id: Int64
  var folderID: Int64?
  var rank: Int64
  static let tableName = "note"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "folderID", "rank"]
  static let foreignKeys = [ForeignKey(["folderID"], references: MEFolder.tableName)]
  static let folder = belongsTo(MEFolder.self)
  init(id: Int64, folderID: Int64?, rank: Int64) {
    (self.id, self.folderID, self.rank) = (id, folderID, rank)
  }
  init(row: MappedRow) throws {
    id = try row.get(0)
    folderID = try row.get(1)
    rank = try row.get(2)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(folderID, at: 1)
    try row.set(rank, at: 2)
  }
}

/// A model whose own `models(from:)` keeps only every other row.
private struct MESkipping: Model, RowMapped, Equatable {
  var id: Int64
  var folderID: Int64
  static let tableName = "skipping"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "folderID"]
  static let foreignKeys = [ForeignKey(["folderID"], references: MEFolder.tableName)]
  init(id: Int64, folderID: Int64) { (self.id, self.folderID) = (id, folderID) }
  init(row: MappedRow) throws {
    id = try row.get(0)
    folderID = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(folderID, at: 1)
  }
  static func models(from rows: MappedRows) throws -> [MESkipping] {
    var models: [MESkipping] = []
    var keep = true
    while let row = try rows.next() {
      if keep { models.append(try MESkipping(row: row)) }
      keep.toggle()
    }
    return models
  }
}

final class MappedEagerLoadingTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.save((1...3).map { MEFolder(id: $0, name: "f\($0)") })
    // Ranks interleave the folders, so that ordering by rank mixes their runs.
    try db.save([
      MENote(id: 1, folderID: 1, rank: 5), MENote(id: 2, folderID: 2, rank: 1),
      MENote(id: 3, folderID: 1, rank: 2), MENote(id: 4, folderID: 2, rank: 4),
      MENote(id: 5, folderID: 1, rank: 3), MENote(id: 6, folderID: nil, rank: 0),
    ])
  }

  func testChildrenInTheAssociationsOrderWhenTheirRunsInterleave() throws {
    let loaded = try MEFolder.all().order(Column("id")).fetchAll(
      db, including: MEFolder.notes.order(Column("rank")))
    XCTAssertEqual(loaded.map(\.parent.id), [1, 2, 3])
    XCTAssertEqual(loaded.map { $0.children.map(\.id) }, [[3, 5, 1], [2, 4], []])
  }

  func testAPerParentLimitKeepsEachParentsFirstChildren() throws {
    let loaded = try MEFolder.all().order(Column("id")).fetchAll(
      db, including: MEFolder.notes.order(Column("rank").desc).limit(2))
    XCTAssertEqual(loaded.map { $0.children.map(\.id) }, [[1, 5], [4, 2], []])
  }

  func testParentsOfChildrenWithANullKeyAndSharedParents() throws {
    let loaded = try MENote.all().order(Column("id")).fetchAll(db, including: MENote.folder)
    XCTAssertEqual(loaded.map(\.child.id), [1, 2, 3, 4, 5, 6])
    XCTAssertEqual(loaded.map { $0.parent?.id }, [1, 2, 1, 2, 1, nil])
  }

  func testExtremeIntegerKeysFindTheirChildren() throws {
    // Bound as one JSON array; with Int64.min among them, as the list of parameters.
    let ids: [Int64] = [.max, .min, -1, (1 << 53) + 1]
    for (index, id) in ids.enumerated() {
      try db.save(MEFolder(id: id, name: "edge"))
      try db.save(MENote(id: 101 + Int64(index), folderID: id, rank: 0))
    }
    let edges = Column("name") == "edge"
    for (filter, count) in [(edges, 4), (edges && Column("id") != Int64.min, 3)] {
      let loaded = try MEFolder.all().filter(filter).order(Column("id")).fetchAll(
        db, including: MEFolder.notes)
      XCTAssertEqual(loaded.count, count)
      for (folder, notes) in loaded {
        XCTAssertEqual(notes.map(\.folderID), [folder.id], "folder \(folder.id)")
      }
    }
  }

  func testATableNamedLikeTheJSONFunctionLeavesTheKeysAsAList() throws {
    try db.execute("CREATE TABLE json_each (value)")
    let loaded = try MEFolder.all().order(Column("id")).fetchAll(
      db, including: MEFolder.notes.order(Column("rank")))
    XCTAssertEqual(loaded.map { $0.children.map(\.id) }, [[3, 5, 1], [2, 4], []])
  }

  func testAModelsOwnModelsFromThatSkipsRowsStillPairsEachWithItsKey() throws {
    try db.save((1...4).map { MESkipping(id: $0, folderID: $0 % 2 + 1) })
    let loaded = try MESkipping.all().order(Column("id")).fetchAll(
      db, including: MESkipping.belongsTo(MEFolder.self))
    // Read again row by row: every child, each with its own parent.
    XCTAssertEqual(loaded.map(\.child.id), [1, 2, 3, 4])
    XCTAssertEqual(loaded.map { $0.parent?.id }, [2, 1, 2, 1])
    // As children, each run goes through models(from:): it keeps what it keeps.
    let folders = try MEFolder.all().order(Column("id")).fetchAll(
      db, including: MEFolder.hasMany(MESkipping.self))
    XCTAssertEqual(folders.map { $0.children.map(\.id) }, [[2], [1], []])
  }
}
