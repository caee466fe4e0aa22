import Foundation
import XCTest

@testable import SwiftLite

/// Text is the same text when its UTF-8 bytes are the same, as in SQLite: "café" written
/// with a precomposed é (NFC) and with an e and a combining accent (NFD) are two texts,
/// though Swift's `==` on `String` finds them equal (canonical equivalence).
final class SQLiteValueBytesTests: SQLiteTestCase {
  private let nfc = "caf\u{E9}"
  private let nfd = "cafe\u{301}"

  func testTextValuesCompareAndHashByTheirBytes() throws {
    XCTAssertTrue(nfc == nfd, "Swift's String equality is canonical equivalence")
    XCTAssertEqual(try db.scalar(Bool.self, "SELECT ? = ?", [nfc, nfd]), false)
    XCTAssertNotEqual(SQLiteValue.text(nfc), SQLiteValue.text(nfd))
    XCTAssertNotEqual(SQLiteValue.text(nfd), SQLiteValue.text(nfc))
    XCTAssertEqual(SQLiteValue.text(nfc), SQLiteValue.text("caf\u{E9}"))
    XCTAssertEqual(SQLiteValue.text(nfc).hashValue, SQLiteValue.text("caf\u{E9}").hashValue)
    XCTAssertEqual(Set<SQLiteValue>([.text(nfc), .text(nfd), .text(nfc)]).count, 2)
    var counts: [SQLiteValue: Int] = [:]
    for text in [nfc, nfd, nfd] { counts[.text(text), default: 0] += 1 }
    XCTAssertEqual(counts[.text(nfc)], 1)
    XCTAssertEqual(counts[.text(nfd)], 2)
    XCTAssertEqual(Set<[SQLiteValue]>([[.text(nfc), 1], [.text(nfd), 1]]).count, 2)
    // The other classes keep their equality: one class never equals another.
    XCTAssertEqual(SQLiteValue.integer(1), 1)
    XCTAssertNotEqual(SQLiteValue.integer(1), .real(1))
    XCTAssertNotEqual(SQLiteValue.text("1"), .integer(1))
    XCTAssertNotEqual(SQLiteValue.text(""), .blob(Data()))
    XCTAssertNotEqual(SQLiteValue.text(""), .null)
    XCTAssertEqual(SQLiteValue.blob(Data([1, 2])), .blob(Data([1, 2])))
    XCTAssertEqual(Set<SQLiteValue>([.real(0), .real(-0.0)]).count, 1, "0.0 = -0.0, as in SQLite")
    // Values read back keep the bytes stored, and compare as SQLite compares them.
    try db.execute("CREATE TABLE t(name TEXT)")
    try db.run("INSERT INTO t VALUES (?), (?)", [nfc, nfd])
    let read = try db.query("SELECT name FROM t ORDER BY rowid").map { try $0.values[0] }
    XCTAssertEqual(read, [.text(nfc), .text(nfd)])
    XCTAssertEqual(Set(read).count, 2)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(DISTINCT name) FROM t"), 2)
  }

  /// The statement cache is keyed by SQL text: two texts that differ only in normalization
  /// are two statements, whether found as the last one used or by hashing.
  func testSQLTextsThatDifferOnlyInNormalizationAreTwoStatements() throws {
    let first = "SELECT '\(nfc)'"
    let second = "SELECT '\(nfd)'"
    XCTAssertEqual(try db.scalar(String.self, first).map { Array($0.utf8) }, Array(nfc.utf8))
    XCTAssertEqual(try db.scalar(String.self, second).map { Array($0.utf8) }, Array(nfd.utf8))
    _ = try db.scalar(Int.self, "SELECT 1")
    XCTAssertEqual(try db.scalar(String.self, first).map { Array($0.utf8) }, Array(nfc.utf8))
    _ = try db.scalar(Int.self, "SELECT 1")
    XCTAssertEqual(try db.scalar(String.self, second).map { Array($0.utf8) }, Array(nfd.utf8))
    try db.execute("CREATE TABLE k(name TEXT PRIMARY KEY)")
    let (insertComposed, insertDecomposed) = (
      "INSERT INTO k VALUES ('\(nfc)')", "INSERT INTO k VALUES ('\(nfd)')"
    )
    try db.run(insertComposed)
    try db.run(insertDecomposed)
    XCTAssertEqual(
      try db.query("SELECT name FROM k ORDER BY name").map {
        Array(try $0.get(String.self, at: 0).utf8)
      },
      [Array(nfd.utf8), Array(nfc.utf8)])
  }
}
