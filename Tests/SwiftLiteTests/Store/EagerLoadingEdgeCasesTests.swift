import Foundation
import SwiftLite
import XCTest

// Eager loading (keys grouped by one value, runs read through buffers, models' own
// models(from:)) and per-target tables' blueprints (kept past the cache of checked
// tables, reused while the table's description is the same reading).

private struct RPLine: Model, Equatable {
  var id: Int64
  var text: String
  static let primaryKey = ["id"]
}

private struct RPShelf: Model, Equatable {
  var code: String
  var label: String
  static let primaryKey = ["code"]
  static let books = hasMany(RPBook.self)
}

private struct RPBook: Model, Equatable {
  var id: Int64
  var shelfCode: String?
  var rank: Int64
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["shelfCode"], references: RPShelf.tableName)]
  static let shelf = belongsTo(RPShelf.self)
}

private struct RPOwner: Model, Equatable {
  var id: Int64
  static let primaryKey = ["id"]
  static let pets = hasMany(RPPet.self)
}

private struct RPPet: Model, Equatable {
  var id: Int64
  var ownerID: Int64?
  var rank: Int64
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["ownerID"], references: RPOwner.tableName)]
  static let owner = belongsTo(RPOwner.self)
}

/// A child of `RPOwner` in a table another program made, its key column without a type.
private struct RPLoosePet: Model, Equatable {
  var id: Int64
  var ownerID: Double?
  var rank: Int64
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["ownerID"], references: RPOwner.tableName)]
}

/// A child whose own `models(from:)` reads its rows two at a time: after an odd row it asks
/// `next()` once more after the `nil` that ended the rows (a cap keeps a restart finite).
private struct RPPairPet: Model, RowMapped, Equatable {
  var id: Int64
  var ownerID: Int64?
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "ownerID"]
  static let foreignKeys = [ForeignKey(["ownerID"], references: RPOwner.tableName)]
  init(id: Int64, ownerID: Int64?) { (self.id, self.ownerID) = (id, ownerID) }
  init(row: MappedRow) throws {
    id = try row.get(0)
    ownerID = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(ownerID, at: 1)
  }
  static func models(from rows: MappedRows) throws -> [RPPairPet] {
    var models: [RPPairPet] = []
    while models.count < 50, let first = try rows.next() {
      models.append(try RPPairPet(row: first))
      if let second = try rows.next() { models.append(try RPPairPet(row: second)) }
    }
    return models
  }
}

/// A parent whose own `models(from:)` returns its models newest first: as many models as
/// rows, in another order.
private struct RPSortedOwner: Model, RowMapped, Equatable {
  var id: Int64
  static let tableName = "RPOwner"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id"]
  init(id: Int64) { self.id = id }
  init(row: MappedRow) throws { id = try row.get(0) }
  func write(to row: MappedRowWriter) throws { try row.set(id, at: 0) }
  static func models(from rows: MappedRows) throws -> [RPSortedOwner] {
    var models: [RPSortedOwner] = []
    while let row = try rows.next() { models.append(try RPSortedOwner(row: row)) }
    return models.sorted { $0.id > $1.id }
  }
}

final class EagerLoadingEdgeCasesTests: SQLiteTestCase {
  /// Pins: TEXT keys that differ only in Unicode normalization are two parents (SQLite
  /// compares bytes), each with its own children, with and without a per-parent limit.
  func testTextKeysDifferingOnlyInNormalizationAreTwoParents() throws {
    let nfc = "caf\u{E9}"
    let nfd = "cafe\u{301}"
    try db.save([RPShelf(code: nfc, label: "nfc"), RPShelf(code: nfd, label: "nfd")])
    try db.save([
      RPBook(id: 1, shelfCode: nfc, rank: 2), RPBook(id: 2, shelfCode: nfd, rank: 1),
      RPBook(id: 3, shelfCode: nfc, rank: 1), RPBook(id: 4, shelfCode: nil, rank: 0),
    ])
    let loaded = try RPShelf.all().order(Column("label")).fetchAll(
      db, including: RPShelf.books.order(Column("rank")))
    XCTAssertEqual(loaded.map(\.parent.label), ["nfc", "nfd"])
    XCTAssertEqual(loaded.map { $0.children.map(\.id) }, [[3, 1], [2]])
    let limited = try RPShelf.all().order(Column("label")).fetchAll(
      db, including: RPShelf.books.order(Column("rank")).limit(1))
    XCTAssertEqual(limited.map { $0.children.map(\.id) }, [[3], [2]])
    let parents = try RPBook.all().order(Column("id")).fetchAll(db, including: RPBook.shelf)
    XCTAssertEqual(parents.map { $0.parent?.label }, ["nfc", "nfd", "nfc", nil])
  }

  /// Pins: more parents than SQLite's variable limit, keys as TEXT (a list, not the JSON
  /// array) and as INTEGER (the JSON array), each finding its one child.
  func testMoreParentsThanTheVariableLimitFindTheirChildren() throws {
    let count = 33_000
    try db.transaction { db in
      try db.save((0..<count).map { RPOwner(id: Int64($0)) })
      try db.save((0..<count).map { RPPet(id: Int64($0), ownerID: Int64(count - 1 - $0), rank: 0) })
      try db.save((0..<count).map { RPShelf(code: "s\($0)", label: "l\($0)") })
      try db.save((0..<count).map { RPBook(id: Int64($0), shelfCode: "s\($0)", rank: 0) })
    }
    let owners = try RPOwner.all().fetchAll(db, including: RPOwner.pets)
    XCTAssertEqual(owners.count, count)
    XCTAssertTrue(owners.allSatisfy { $0.children.map(\.ownerID) == [$0.parent.id] })
    let shelves = try RPShelf.all().fetchAll(db, including: RPShelf.books)
    XCTAssertEqual(shelves.count, count)
    XCTAssertTrue(shelves.allSatisfy { $0.children.map(\.shelfCode) == [$0.parent.code] })
  }

  /// Children whose key column, in a table another program made without a type, holds
  /// REAL 1.0 for INTEGER parent 1: SQLite's IN matches them (1.0 = 1), so the parent's
  /// children must include them rather than being dropped after the query found them.
  /// The grouping compares keys as SQLite's `=` does.
  func testChildrenKeyedByREALOneBelongToINTEGERParentOne() throws {
    try db.execute(
      "CREATE TABLE RPOwner (id INTEGER PRIMARY KEY); "
        + "CREATE TABLE RPLoosePet (id INTEGER PRIMARY KEY, ownerID, rank INTEGER NOT NULL, "
        + "FOREIGN KEY (ownerID) REFERENCES RPOwner(id))")
    try db.execute(
      "INSERT INTO RPOwner VALUES (1); INSERT INTO RPLoosePet VALUES (1, 1, 0), (2, 1.0, 1)")
    let loaded = try RPOwner.all().fetchAll(
      db, including: RPOwner.hasMany(RPLoosePet.self).order(Column("rank")))
    let sqlCount = try db.scalar(Int.self, "SELECT count(*) FROM RPLoosePet WHERE ownerID IN (1)")
    XCTAssertEqual(sqlCount, 2)
    XCTAssertEqual(loaded.first?.children.map(\.id), [1, 2])
  }

  /// A `models(from:)` that asks `next()` again after the `nil` that ended its rows: an
  /// eager load reading a group must keep answering `nil`, not hand out the next group's
  /// first row (which then belongs to the wrong parent and is lost to its own).
  func testAModelsFromThatAsksAgainAfterTheEndKeepsEachChildWithItsParent() throws {
    try db.save((1...3).map { RPOwner(id: $0) })
    try db.save([
      RPPairPet(id: 1, ownerID: 1), RPPairPet(id: 2, ownerID: 2), RPPairPet(id: 3, ownerID: 2),
      RPPairPet(id: 4, ownerID: 3),
    ])
    let loaded = try RPOwner.all().order(Column("id")).fetchAll(
      db, including: RPOwner.hasMany(RPPairPet.self).order(Column("id")))
    XCTAssertEqual(loaded.map { $0.children.map(\.id) }, [[1], [2, 3], [4]])
  }

  /// A parent's own `models(from:)` that returns its models in another order: each parent
  /// must still come with its own children (the keys are those of the rows, in row order).
  /// Parents are read row by row, each with its own row's key.
  func testAParentsModelsFromInAnotherOrderKeepsEachParentWithItsChildren() throws {
    try db.save((1...3).map { RPOwner(id: $0) })
    try db.save([
      RPPet(id: 1, ownerID: 1, rank: 0), RPPet(id: 2, ownerID: 2, rank: 0),
      RPPet(id: 3, ownerID: 2, rank: 1),
    ])
    let loaded = try RPSortedOwner.all().order(Column("id")).fetchAll(
      db, including: RPSortedOwner.hasMany(RPPet.self).order(Column("id")))
    for (owner, pets) in loaded {
      XCTAssertEqual(pets.map(\.ownerID), pets.map { _ in owner.id }, "owner \(owner.id)")
    }
    XCTAssertEqual(loaded.map { $0.children.count }.reduce(0, +), 3)
  }

  /// The same `models(from:)` for a plain read: after the end, `next()` must stay `nil`
  /// rather than run the statement again from its first row (SQLite starts a statement
  /// over when stepped past its end).
  func testAModelsFromThatAsksAgainAfterTheEndReadsEachRowOnce() throws {
    try db.save((1...3).map { RPOwner(id: $0) })
    try db.save([
      RPPairPet(id: 1, ownerID: 1), RPPairPet(id: 2, ownerID: 2), RPPairPet(id: 3, ownerID: 2),
    ])
    XCTAssertEqual(try db.findAll(RPPairPet.self, orderBy: "id").map(\.id), [1, 2, 3])
  }

  /// Per-target tables past the cache of checked tables: another connection drops a target
  /// table and makes it again with another shape between two passes. The next write must
  /// migrate or refuse, never write into the table as if it had the old shape.
  func testATargetTableRemadeWithAnotherShapeIsSeenOnTheBlueprintPath() throws {
    let targets = 300
    try db.transaction { db in
      for target in 0..<targets { try db.createTable(for: RPLine.self, target: "t\(target)") }
    }
    let rotating = try Connection(path: databasePath)
    func pass(_ number: Int) throws {
      for target in 0..<targets {
        try rotating.save(RPLine(id: Int64(number), text: "pass \(number)"), target: "t\(target)")
      }
    }
    try pass(0)
    try pass(1)
    let table = RPLine.tableName(target: "t7")
    let other = try openSecondConnection()
    try other.execute(
      "DROP TABLE \"\(table)\"; CREATE TABLE \"\(table)\" (id INTEGER PRIMARY KEY, "
        + "body TEXT NOT NULL DEFAULT 'b', text INTEGER)")
    try other.close()
    do {
      try pass(2)
    } catch {
      return  // refused loudly: fine
    }
    // Written: then through a table the model can read back as it wrote it.
    let lines = try rotating.findAll(RPLine.self, orderBy: "id", target: "t7")
    XCTAssertEqual(lines.last, RPLine(id: 2, text: "pass 2"))
    try rotating.close()
  }

  /// Per-target tables past the cache: a schema change by this connection undone by a
  /// rollback, with the table used meanwhile: after the rollback, the table is the one on
  /// file again.
  func testARolledBackRemakeOfATargetTableIsForgotten() throws {
    let targets = 300
    try db.transaction { db in
      for target in 0..<targets { try db.createTable(for: RPLine.self, target: "t\(target)") }
    }
    for number in 0..<2 {
      for target in 0..<targets {
        try db.save(RPLine(id: Int64(number), text: "p\(number)"), target: "t\(target)")
      }
    }
    let table = RPLine.tableName(target: "t7")
    try db.execute("BEGIN")
    try db.execute(
      "DROP TABLE \"\(table)\"; CREATE TABLE \"\(table)\" (id INTEGER PRIMARY KEY, text BLOB, x)")
    _ = try? db.save(RPLine(id: 9, text: "inside"), target: "t7")
    try db.execute("ROLLBACK")
    for target in 0..<targets {
      try db.save(RPLine(id: 2, text: "p2"), target: "t\(target)")
    }
    XCTAssertEqual(
      try db.findAll(RPLine.self, orderBy: "id", target: "t7").map(\.id), [0, 1, 2])
    XCTAssertEqual(try db.columnNames(table), ["id", "text"])
  }

  /// Pins: a VACUUM by another connection between passes of a rotation past the cache:
  /// the next pass writes every table. (A UNIQUE index another connection adds to a
  /// managed table is dropped by the next save with or without rotation: the managed
  /// tables' policy.)
  func testAVacuumByAnotherConnectionBetweenPasses() throws {
    let targets = 300
    try db.transaction { db in
      for target in 0..<targets { try db.createTable(for: RPLine.self, target: "t\(target)") }
    }
    let rotating = try Connection(path: databasePath)
    for number in 0..<2 {
      try rotating.transaction { db in
        for target in 0..<targets {
          try db.save(RPLine(id: Int64(number), text: "p\(number)"), target: "t\(target)")
        }
      }
    }
    let other = try openSecondConnection()
    try other.execute("VACUUM")
    try other.close()
    try rotating.transaction { db in
      for target in 0..<targets {
        try db.save(RPLine(id: 2, text: "p2"), target: "t\(target)")
      }
    }
    XCTAssertEqual(try rotating.findAll(RPLine.self, target: "t299").count, 3)
    try rotating.close()
  }

  /// Another connection drops the table whose row is last in `sqlite_schema` and makes a
  /// new one, which takes the same rowid: a connection that knew the old one must find
  /// the new one (and its row), and see the old one missing.
  func testANewTableTakingADroppedTablesRowidIsFound() throws {
    let first = try Connection(path: databasePath)
    for target in 0..<10 {
      try first.save(RPLine(id: 0, text: "a"), target: "t\(target)")
    }
    XCTAssertEqual(try first.findAll(RPLine.self, target: "t9").count, 1)
    XCTAssertEqual(try first.findAll(RPLine.self, target: "new").count, 0)
    let last = try XCTUnwrap(
      try first.scalar(String.self, "SELECT name FROM sqlite_schema ORDER BY rowid DESC LIMIT 1"))
    let other = try openSecondConnection()
    try other.execute(
      "DROP TABLE \"\(last)\"; CREATE TABLE \"RPLine_new\" (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
        + " INSERT INTO \"RPLine_new\" VALUES (1, 'b')")
    let newRowID = try other.scalar(
      Int.self, "SELECT rowid FROM sqlite_schema WHERE name = 'RPLine_new'")
    try other.close()
    XCTAssertEqual(
      try first.findAll(RPLine.self, target: "new"), [RPLine(id: 1, text: "b")],
      "rowid \(String(describing: newRowID)), dropped \(last)")
    try first.save(RPLine(id: 2, text: "c"), target: "new")
    XCTAssertEqual(try first.findAll(RPLine.self, target: "new").count, 2)
    try first.close()
  }
}
