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

/// What sessions record passes the checks: composite keys, a key that changes, a row
/// deleted and inserted again, names that differ in case, and what SQLite makes of them.
final class RecordedChangesetValidationTests: TemporaryDirectoryTestCase {
  func testRecordedChangesetsAndPatchsetsPassEveryCheck() throws {
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
    let schema = """
      CREATE TABLE pair(a TEXT NOT NULL, b INTEGER NOT NULL, v BLOB, PRIMARY KEY (b, a));
      CREATE TABLE Item(id INTEGER PRIMARY KEY, name TEXT, price REAL);
      """
    let source = try open("source.sqlite")
    try source.execute(schema)
    try source.execute(
      "INSERT INTO pair VALUES ('x', 1, x'00'), ('y', 2, NULL); INSERT INTO Item VALUES (1, 'a', 1.5)"
    )
    var recorded: [[Changeset]] = []
    for format in ["changeset", "patchset"] {
      let first = try Session(on: source)
      try first.attachAllTables()
      try source.execute(
        """
        UPDATE pair SET a = 'z' WHERE a = 'x';
        DELETE FROM item WHERE id = 1;
        INSERT INTO ITEM VALUES (1, 'again', NULL);
        INSERT INTO pair VALUES ('w', -9223372036854775808, zeroblob(3));
        """)
      let pick = { (session: Session) in
        format == "changeset" ? try session.changeset() : try session.patchset()
      }
      // A session reads the rows as they are when asked: ask before the next edits.
      let firstChanges = try pick(first)
      try first.close()
      let second = try Session(on: source)
      try second.attachAllTables()
      try source.execute(
        "UPDATE pair SET v = NULL WHERE b = 2; DELETE FROM pair WHERE a = 'w'; UPDATE item SET price = 2"
      )
      recorded.append([firstChanges, try pick(second)])
      try second.close()
      try source.execute(
        "DELETE FROM pair; DELETE FROM item; INSERT INTO pair VALUES ('x', 1, x'00'), ('y', 2, NULL); INSERT INTO Item VALUES (1, 'a', 1.5)"
      )
    }
    for (index, pair) in recorded.enumerated() {
      let both = try Changeset.concatenate(pair)
      XCTAssertFalse(try both.changes().isEmpty)
      if index == 0 {
        XCTAssertFalse(try both.inverted().changes().isEmpty)
        XCTAssertFalse(try pair[0].inverted().concatenated(with: pair[1]).isEmpty)
      }
      let target = try open("target\(index).sqlite")
      try target.execute(schema)
      try target.execute(
        "INSERT INTO pair VALUES ('x', 1, x'00'), ('y', 2, NULL); INSERT INTO Item VALUES (1, 'a', 1.5)"
      )
      try target.apply(both)
      XCTAssertEqual(
        try target.query("SELECT quote(a), b, quote(v) FROM pair ORDER BY b").map {
          try
            "\($0.get(String.self, at: 0)) \($0.get(Int.self, at: 1)) \($0.get(String.self, at: 2))"
        }, ["'z' 1 X'00'", "'y' 2 NULL"])
      XCTAssertEqual(
        try target.scalar(String.self, "SELECT name || ' ' || quote(price) FROM item"), "again 2.0")
      try target.close()
    }
  }
}
