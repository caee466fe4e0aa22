import Foundation
import XCTest

@testable import SwiftLite

/// A TEMP table of a per-target table's name, made by the connection: the model's
/// statements name no schema, so SQLite would run them on the TEMP table, while the table
/// checked is the main schema's.
final class TemporaryTableShadowTests: SQLiteTestCase {
  /// A TEMP table of the same name shadows the file's table for every statement that
  /// does not name the schema: a save must not land there as if it were the model's table,
  /// nor a read read it. Refused, for a table checked before as for a first use.
  func testATemporaryTableShadowingAPerTargetTableDoesNotTakeTheModelsRows() throws {
    try checkEveryChatMemoTable()
    try db.execute(#"CREATE TEMP TABLE "Memo_chat7" (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"#)
    XCTAssertThrowsError(try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")) {
      Self.assertHiddenByTemporaryTable($0)
    }
    XCTAssertThrowsError(try db.findAll(ChatMemo.self, target: "chat7")) {
      Self.assertHiddenByTemporaryTable($0)
    }
    XCTAssertEqual(try db.scalar(Int.self, #"SELECT count(*) FROM temp."Memo_chat7""#), 0)
    XCTAssertEqual(try db.scalar(Int.self, #"SELECT count(*) FROM main."Memo_chat7""#), 2)
    // Once the TEMP table is gone, the table is the model's again.
    try db.execute(#"DROP TABLE temp."Memo_chat7""#)
    try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")
    XCTAssertEqual(try db.scalar(Int.self, #"SELECT count(*) FROM main."Memo_chat7""#), 3)
  }

  /// The same on a table's first use on the connection, nothing checked before.
  func testATemporaryTableMadeBeforeAFirstUseDoesNotTakeTheModelsRows() throws {
    try db.createTable(for: ChatMemo.self, target: "chat7")
    let other = try Connection(path: databasePath)
    defer { try? other.close() }
    try other.execute(
      #"CREATE TEMP TABLE "Memo_chat7" (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"#)
    XCTAssertThrowsError(try other.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")) {
      Self.assertHiddenByTemporaryTable($0)
    }
    XCTAssertEqual(try other.scalar(Int.self, #"SELECT count(*) FROM temp."Memo_chat7""#), 0)
    XCTAssertEqual(try other.scalar(Int.self, #"SELECT count(*) FROM main."Memo_chat7""#), 0)
  }

  /// The refusal names the table and what hides it.
  private static func assertHiddenByTemporaryTable(
    _ error: Error, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard case ModelError.incompatibleTable(_, let table, let problems) = error else {
      return XCTFail("\(error)", file: file, line: line)
    }
    XCTAssertEqual(table, "Memo_chat7", file: file, line: line)
    XCTAssertTrue(problems.joined().contains("TEMP table"), "\(problems)", file: file, line: line)
  }
}
