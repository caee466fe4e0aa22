import Foundation
import XCTest

@testable import SwiftLite

/// The changeset framing check (Core/Changeset+Validation.swift): what
/// sessions record must pass it, whatever the shape of the table.
final class RecordedChangesetShapesTests: TemporaryDirectoryTestCase {
  /// A table of 200 columns (a column count and key flags past one varint byte's worth of
  /// columns) whose three-column key sits out of column order, a WITHOUT ROWID table keyed
  /// by a REAL and a BLOB, and keys of TEXT longer than 127 bytes (a two-byte length).
  private let schema: String = {
    let columns = (0..<200).map {
      "c\($0)" + ($0 == 3 || $0 == 150 || $0 == 199 ? " NOT NULL" : "")
    }
    return "CREATE TABLE wide(" + columns.joined(separator: ", ")
      + ", PRIMARY KEY (c199, c150, c3));"
      + " CREATE TABLE odd(r REAL NOT NULL, b BLOB NOT NULL, v, PRIMARY KEY (b, r)) WITHOUT ROWID;"
  }()

  private let longKey = String(repeating: "k", count: 300)

  private func seed(_ db: Connection) throws {
    try db.execute(
      "INSERT INTO wide(c3, c150, c199, c0) VALUES (1, '\(longKey)', 2.5, 'a'), (2, 'b', 3, 'b')")
    try db.execute("INSERT INTO odd VALUES (0.5, x'0102', 'one'), (1.5, zeroblob(200), 'two')")
  }

  private func dump(_ db: Connection) throws -> [String] {
    try db.query(
      "SELECT 'w' || c3 || '|' || length(c150) || '|' || quote(c0) || '|' || quote(c100) FROM wide"
        + " UNION ALL SELECT 'o' || r || '|' || length(b) || '|' || quote(v) FROM odd ORDER BY 1"
    ).map { try $0.get(String.self, at: 0) }
  }

  func testWideTablesLongKeysAndOddKeysRecordConcatenateInvertAndApply() throws {
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
    for patchset in [false, true] {
      let source = try open("source\(patchset).sqlite")
      try source.execute(schema)
      try seed(source)
      var parts: [Changeset] = []
      for edits in [
        "UPDATE wide SET c100 = 'x' WHERE c3 = 1; UPDATE wide SET c150 = 'moved' WHERE c3 = 2;"
          + " DELETE FROM odd WHERE r = 0.5; INSERT INTO odd VALUES (0.5, x'0102', 'back');"
          + " INSERT INTO wide(c3, c150, c199) VALUES (9, '\(longKey)x', -1)",
        "UPDATE wide SET c100 = 'y' WHERE c3 = 1; DELETE FROM wide WHERE c3 = 9;"
          + " UPDATE odd SET v = NULL WHERE r = 1.5; UPDATE odd SET r = 2.5 WHERE r = 1.5",
      ] {
        let session = try Session(on: source)
        try session.attachAllTables()
        try source.execute(edits)
        parts.append(patchset ? try session.patchset() : try session.changeset())
        try session.close()
      }
      let expected = try dump(source)
      try source.close()
      let both = try Changeset.concatenate(parts)
      XCTAssertFalse(try both.changes().isEmpty)
      if !patchset {
        // Applying the inverse of everything brings the seed back.
        let undone = try open("undone.sqlite")
        try undone.execute(schema)
        try seed(undone)
        let seeded = try dump(undone)
        try undone.apply(both)
        try undone.apply(try both.inverted())
        XCTAssertEqual(try dump(undone), seeded)
        try undone.close()
      }
      let target = try open("target\(patchset).sqlite")
      try target.execute(schema)
      try seed(target)
      try target.apply(both)
      XCTAssertEqual(try dump(target), expected, patchset ? "patchset" : "changeset")
      // The parts one by one, and their bytes appended, give the same.
      let stepwise = try open("stepwise\(patchset).sqlite")
      try stepwise.execute(schema)
      try seed(stepwise)
      try stepwise.apply(Changeset(data: parts[0].data + parts[1].data))
      XCTAssertEqual(try dump(stepwise), expected, patchset ? "patchset" : "changeset")
      try stepwise.close()
      try target.close()
    }
  }

  /// With one `Row` value moved from row to row, a row kept from an earlier
  /// step (inside the loop or after it) refuses to read instead of reading another row's
  /// values, on a connection and on a statement; a nested run of the same SQL gets a
  /// statement of its own.
  func testARowKeptFromAnEarlierStepNeverReadsAnotherRowsValues() throws {
    let db = try open()
    try db.execute("CREATE TABLE n(v INTEGER); INSERT INTO n VALUES (1), (2), (3)")
    var kept: [Row] = []
    var nested: [Int] = []
    try db.forEachRow("SELECT v FROM n ORDER BY v") { row in
      if let previous = kept.last {
        XCTAssertThrowsError(try previous.get(Int.self, at: 0), "a row of an earlier step read")
      }
      kept.append(row)
      XCTAssertNotNil(try row.get(Int.self, at: 0))
      try db.forEachRow("SELECT v FROM n ORDER BY v") { inner in
        nested.append(try inner.get(Int.self, at: 0))
      }
    }
    XCTAssertEqual(kept.count, 3)
    XCTAssertEqual(nested, [1, 2, 3, 1, 2, 3, 1, 2, 3])
    for row in kept { XCTAssertThrowsError(try row.get(Int.self, at: 0)) }
    let statement = try db.prepare("SELECT v FROM n ORDER BY v")
    var fromStatement: [Row] = []
    try statement.forEachRow { fromStatement.append($0) }
    for row in fromStatement { XCTAssertThrowsError(try row.get(Int.self, at: 0)) }
    XCTAssertEqual(
      try db.queryFirst("SELECT v FROM n WHERE v = ?", values: 2)?.get(Int.self, at: 0), 2)
    XCTAssertNil(try db.queryFirst("SELECT v FROM n WHERE v = ?", values: Int?.none))
  }

  /// Closing the connection from inside an iteration of a cached statement
  /// is refused (the statement is in use) and the iteration ends normally.
  func testClosingTheConnectionInsideAnIterationIsRefused() throws {
    let db = try open()
    try db.execute("CREATE TABLE n(v INTEGER); INSERT INTO n VALUES (1), (2)")
    var seen: [Int] = []
    try db.forEachRow("SELECT v FROM n ORDER BY v") { row in
      XCTAssertThrowsError(try db.close())
      seen.append(try row.get(Int.self, at: 0))
    }
    XCTAssertEqual(seen, [1, 2])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM n"), 2)
    try db.close()
  }
}
