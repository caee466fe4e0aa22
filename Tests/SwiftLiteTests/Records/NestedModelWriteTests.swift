import Foundation
import SwiftLite
import XCTest

/// What a `write(to:)` of the tests below does on the side, set by each test.
private enum SideWrite {
  nonisolated(unsafe) static var connection: Connection?
  /// Saves this model from inside the next `Reentrant.write(to:)`, after its id.
  nonisolated(unsafe) static var sameTable: Reentrant?
  /// Saves this model of another table from inside the next `Reentrant.write(to:)`.
  nonisolated(unsafe) static var otherTable: Neighbour?
  /// Updates this model from inside the next `Reentrant.write(to:)`.
  nonisolated(unsafe) static var sameTableUpdate: Reentrant?
}

/// A mapped model whose `write(to:)` may save another model on the same connection between
/// two of its own values.
private struct Reentrant: Model, RowMapped, Equatable {
  var id: Int64
  /// Optional: no NOT NULL constraint stands between a wrong bind and the file.
  var text: String?

  static let tableName = "reentrant"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "text"]

  init(id: Int64, text: String?) { (self.id, self.text) = (id, text) }

  init(row: MappedRow) throws {
    id = try row.get(0)
    text = try row.get(1)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    if let db = SideWrite.connection {
      if let other = SideWrite.sameTable {
        SideWrite.sameTable = nil
        try db.save(other)
      }
      if let other = SideWrite.otherTable {
        SideWrite.otherTable = nil
        try db.save(other)
      }
      if let other = SideWrite.sameTableUpdate {
        SideWrite.sameTableUpdate = nil
        try db.update(other)
      }
    }
    try row.set(text, at: 1)
  }
}

private struct Neighbour: Model, RowMapped, Equatable {
  var id: Int64
  var text: String

  static let tableName = "neighbour"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "text"]

  init(id: Int64, text: String) { (self.id, self.text) = (id, text) }

  init(row: MappedRow) throws {
    id = try row.get(0)
    text = try row.get(1)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(text, at: 1)
  }
}

/// RowMapped writes that bind straight into the table's one statement
/// (Records/MappedRowWriter.swift, Store/ModelTable.swift `Writer`).
final class NestedModelWriteTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("NestedModelWrite-" + UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    SideWrite.connection = nil
    SideWrite.sameTable = nil
    SideWrite.otherTable = nil
    try? FileManager.default.removeItem(at: directory)
  }

  private func open() throws -> Connection {
    try Connection(path: directory.appendingPathComponent("probe.sqlite").path)
  }

  /// A model's `write(to:)` that saves another model of its own table between two of its
  /// values: the inner save binds into, runs and resets the same statement the outer one
  /// is filling, and starts a new generation of its marks. The outer save then binds NULL
  /// over its own text (marked with the old generation) and keeps the inner id: it
  /// overwrites the inner row with a NULL text, never writes its own, and reports success.
  /// Both rows are stored as given: the inner save runs a statement of its own.
  func testASaveOfTheSameTableFromInsideWriteToDoesNotCorruptTheOuterRow() throws {
    let db = try open()
    try db.save(Reentrant(id: 100, text: "first"))
    SideWrite.connection = db
    SideWrite.sameTable = Reentrant(id: 2, text: "inner")
    try db.save(Reentrant(id: 1, text: "outer"))
    SideWrite.connection = nil
    let rows = try db.findAll(Reentrant.self, orderBy: "id")
    XCTAssertEqual(
      rows,
      [
        Reentrant(id: 1, text: "outer"), Reentrant(id: 2, text: "inner"),
        Reentrant(id: 100, text: "first"),
      ])
  }

  /// A save into another table from inside `write(to:)` leaves both rows as
  /// given (each table has its own statement).
  func testASaveOfAnotherTableFromInsideWriteToKeepsBothRows() throws {
    let db = try open()
    try db.save(Reentrant(id: 100, text: "first"))
    try db.save(Neighbour(id: 100, text: "first"))
    SideWrite.connection = db
    SideWrite.otherTable = Neighbour(id: 2, text: "inner")
    try db.save(Reentrant(id: 1, text: "outer"))
    SideWrite.connection = nil
    XCTAssertEqual(
      try db.findAll(Reentrant.self, orderBy: "id"),
      [Reentrant(id: 1, text: "outer"), Reentrant(id: 100, text: "first")])
    XCTAssertEqual(
      try db.findAll(Neighbour.self, orderBy: "id"),
      [Neighbour(id: 2, text: "inner"), Neighbour(id: 100, text: "first")])
  }

  /// An update of the same table from inside the encoding of another is refused: the
  /// table's one list of values is being filled. Nothing is written by either.
  func testAnUpdateOfTheSameTableFromInsideAnUpdateIsRefused() throws {
    let db = try open()
    try db.save(Reentrant(id: 1, text: "one"))
    try db.save(Reentrant(id: 2, text: "two"))
    SideWrite.connection = db
    defer { SideWrite.connection = nil }
    SideWrite.sameTableUpdate = Reentrant(id: 2, text: "inner")
    XCTAssertThrowsError(try db.update(Reentrant(id: 1, text: "outer"))) { error in
      guard case .writeRefused(let table, _)? = error as? ModelError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(table, "reentrant")
    }
    XCTAssertEqual(
      try db.findAll(Reentrant.self, orderBy: "id"),
      [Reentrant(id: 1, text: "one"), Reentrant(id: 2, text: "two")])
  }
}
