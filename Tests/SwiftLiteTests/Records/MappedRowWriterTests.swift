import CSQLite
import Foundation
import SwiftLite
import XCTest

/// A model whose integers, doubles and strings take the direct binds of `MappedRowWriter`.
private struct DirectRecord: Model, RowMapped, Equatable {
  var id: Int64
  var int: Int
  var double: Double
  var text: String

  static let tableName = "direct_record"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "int", "double", "text"]

  init(id: Int64, int: Int, double: Double, text: String) {
    (self.id, self.int, self.double, self.text) = (id, int, double, text)
  }

  init(row: MappedRow) throws {
    id = try row.get(0)
    int = try row.get(1)
    double = try row.get(2)
    text = try row.get(3)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(int, at: 1)
    try row.set(double, at: 2)
    try row.set(text, at: 3)
  }
}

/// A model that writes `id` twice and `note` only when it has one: two writes of one
/// position must not count as two positions written.
private struct TwiceWritten: Model, RowMapped, Equatable {
  var id: Int64
  var note: String?

  static let tableName = "twice_written"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "note"]

  init(id: Int64, note: String?) { (self.id, self.note) = (id, note) }

  init(row: MappedRow) throws {
    id = try row.get(0)
    note = try row.get(1)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(Int64(-1), at: 0)
    try row.set(id, at: 0)
    if let note { try row.set(note, at: 1) }
  }
}

final class MappedRowWriterTests: XCTestCase {
  func testAPositionWrittenTwiceDoesNotStandForOneLeftUnwritten() throws {
    let db = try Connection.inMemory()
    try db.insert(TwiceWritten(id: 1, note: "first"))
    // The insert statement still holds "first" for `note`: it must be bound NULL.
    try db.insert(TwiceWritten(id: 2, note: nil))
    XCTAssertEqual(
      try db.findAll(TwiceWritten.self, orderBy: "id"),
      [TwiceWritten(id: 1, note: "first"), TwiceWritten(id: 2, note: nil)])
  }

  func testDirectBindsStoreTheExactValues() throws {
    let db = try Connection.inMemory()
    let records = [
      DirectRecord(id: .min, int: .max, double: -0.0, text: ""),
      DirectRecord(id: .max, int: .min, double: .infinity, text: "a\u{0}b"),
      DirectRecord(id: 0, int: 0, double: .leastNonzeroMagnitude, text: "e\u{301} ü 🎈"),
    ]
    for record in records { try db.insert(record) }
    XCTAssertEqual(
      try db.findAll(DirectRecord.self, orderBy: "id"), records.sorted { $0.id < $1.id })
    // Stored as the storage classes the values have: an empty text is TEXT, not NULL, and
    // its bytes are the string's own.
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT group_concat(typeof(text), ',') FROM direct_record"),
      "text,text,text")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT hex(text) FROM direct_record WHERE id = ?", [Int64.max]),
      "610062")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT typeof(double) FROM direct_record WHERE id = 0"), "real")
  }

  func testARefusedDirectBindThrowsTheSQLiteErrorNamingTheStatement() throws {
    let db = try Connection.inMemory()
    try db.insert(DirectRecord(id: 1, int: 1, double: 1, text: "short"))
    // A text longer than the connection's length limit is refused by the bind itself.
    _ = try db.withUnsafeHandle { sqlite3_limit($0, SQLITE_LIMIT_LENGTH, 64) }
    XCTAssertThrowsError(
      try db.insert(
        DirectRecord(id: 2, int: 2, double: 2, text: String(repeating: "x", count: 100)))
    ) { error in
      guard let error = error as? SQLiteError else { return XCTFail("\(error)") }
      XCTAssertEqual(error.code, .tooBig)
      XCTAssertTrue(error.sql?.contains("direct_record") == true, "\(error)")
    }
    // The statement still works afterwards.
    try db.insert(DirectRecord(id: 3, int: 3, double: 3, text: "fits"))
    XCTAssertEqual(try db.findAll(DirectRecord.self).map(\.id), [1, 3])
  }

  func testDirectBindsRunOnAQueuesConnection() throws {
    let queue = try DatabaseQueue.inMemory()
    try queue.write { db in
      try db.insert(DirectRecord(id: 1, int: 2, double: 3.5, text: "queued"))
    }
    let record = try queue.read { db in try db.find(DirectRecord.self, id: 1) }
    XCTAssertEqual(record, DirectRecord(id: 1, int: 2, double: 3.5, text: "queued"))
  }
}
