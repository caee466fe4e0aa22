import Foundation
import XCTest

@testable import SwiftLite

/// Bytes that are framed as a changeset but break what every recorded changeset holds are
/// refused before SQLite reads them: SQLite trusts them, and reads past their end.
final class ChangesetValidationTests: XCTestCase {
  /// A table `t` with one key column, then one change of `operation` with `records`.
  private func bytes(_ format: Character, _ operation: UInt8, _ records: [UInt8]) -> Data {
    var bytes: [UInt8] = [format.asciiValue!, 2, 1, 0, UInt8(ascii: "t"), 0, operation, 0]
    bytes += records
    return Data(bytes)
  }

  let integer: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 7]
  let text: [UInt8] = [3, 1, UInt8(ascii: "a")]

  func assertMalformed(_ data: Data, file: StaticString = #filePath, line: UInt = #line) {
    let changeset = Changeset(data: data)
    for (name, use) in [
      ("changes", { _ = try changeset.changes() }),
      ("concatenated", { _ = try changeset.concatenated(with: changeset) }),
      (
        "apply",
        {
          let db = try Connection(path: ":memory:")
          try db.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT)")
          try db.apply(changeset) { _ in .omit }
        }
      ),
    ] as [(String, () throws -> Void)] {
      XCTAssertThrowsError(try use(), name, file: file, line: line) { error in
        guard case .malformed? = error as? ChangesetError else {
          return XCTFail("\(name): \(error)", file: file, line: line)
        }
      }
    }
  }

  func testAKeyWithoutAValueIsMalformed() {
    // Concatenating a DELETE whose key is undefined read past the bytes (a crash).
    assertMalformed(bytes("T", 9, [0] + text))
    assertMalformed(bytes("T", 9, [5] + text))
    assertMalformed(bytes("T", 18, [5] + text))
    assertMalformed(bytes("T", 23, [0, 0] + integer + text))
    assertMalformed(bytes("P", 9, [0]))
    assertMalformed(bytes("P", 9, [5]))
    assertMalformed(bytes("P", 23, [5] + text))
  }

  func testAnInsertOrADeleteWithAnUndefinedValueIsMalformed() {
    assertMalformed(bytes("T", 18, integer + [0]))
    assertMalformed(bytes("T", 9, integer + [0]))
  }

  func testWellFormedChangesStillConcatenateAndApply() throws {
    let insert = Changeset(data: bytes("T", 18, integer + text))
    let update = Changeset(data: bytes("T", 23, integer + text + [0] + [3, 1, UInt8(ascii: "b")]))
    let both = try insert.concatenated(with: update)
    XCTAssertEqual(try both.changes().map(\.operation), [.insert])
    XCTAssertEqual(try both.changes().first?.new, [7, "b"])
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT)")
    try db.apply(both)
    XCTAssertEqual(try db.scalar(String.self, "SELECT quote(k) || ',' || quote(v) FROM t"), "7,'b'")
    let patch = Changeset(data: bytes("P", 9, integer))
    XCTAssertEqual(try patch.changes().map(\.operation), [.delete])
  }
}

extension ChangesetValidationTests {
  func testATableNamedAgainWithAnotherShapeIsMalformed() {
    // SQLite read the second header's records with the first header's column count.
    let first: [UInt8] = [0x54, 2, 1, 0, UInt8(ascii: "t"), 0, 18, 0] + integer + text
    for second in [
      [0x54, 1, 1, UInt8(ascii: "T"), 0, 9, 0] + integer,
      [0x54, 2, 0, 1, UInt8(ascii: "t"), 0, 9, 0] + text + integer,
    ] {
      assertMalformed(Data(first + second))
    }
    XCTAssertEqual(
      try Changeset(data: Data(first + first)).changes().count, 2, "the same shape again is fine")
  }

  func testATableWithoutAKeyOrAMixOfFormatsIsMalformed() {
    assertMalformed(Data([0x54, 1, 0, UInt8(ascii: "t"), 0, 18, 0] + integer))
    let change: [UInt8] = [18, 0] + integer + text
    assertMalformed(
      Data(
        [0x54, 2, 1, 0, UInt8(ascii: "t"), 0] + change + [0x50, 2, 1, 0, UInt8(ascii: "u"), 0]
          + change))
  }
}
