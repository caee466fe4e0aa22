import Foundation
import SwiftLite
import XCTest

// Changing a column's SQLite type: values that convert exactly are converted; a lossy change is
// refused until declared.

final class ColumnRetypedTests: ModelTestCase {
  func testConvertibleTypeChange() throws {
    let db = try open()
    try db.save([CodeV1(id: 1, code: "123"), CodeV1(id: 2, code: "-5"), CodeV1(id: 3, code: "0")])
    try db.close()
    let later = try open()
    let plan = try later.migrate(CodeV2.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(plan.changes, ["column code type changed from TEXT to INTEGER"])
    let reopened = try open()
    XCTAssertEqual(
      try reopened.findAll(CodeV2.self, orderBy: "id"),
      [CodeV2(id: 1, code: 123), CodeV2(id: 2, code: -5), CodeV2(id: 3, code: 0)])
    XCTAssertEqual(
      try reopened.query("SELECT DISTINCT typeof(code) FROM Code").map {
        try $0.get(String.self, at: 0)
      },
      ["integer"])
    try assertIntact(reopened)
  }

  func testLossyTypeChangeIsRefusedThenPermitted() throws {
    let db = try open()
    try db.save([
      CodeV1(id: 1, code: "123"), CodeV1(id: 2, code: "abc"), CodeV1(id: 3, code: "4.5"),
    ])
    try db.close()
    let before = try snapshot(ofFile: path())
    let later = try open()
    let error = thrownError(MigrationError.self) { try later.migrate(CodeV2.self) }
    XCTAssertEqual(error, .lossyTypeChange(table: "Code", column: "code", newType: "INTEGER"))
    XCTAssertTrue(error?.description.contains("lossyConvertibleColumns") ?? false)
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertEqual(
      try open().findAll(CodeV1.self, orderBy: "id").map(\.code), ["123", "abc", "4.5"])

    try later.migrate(CodeV3.self)
    let reopened = try open()
    XCTAssertEqual(
      try reopened.findAll(CodeV3.self, orderBy: "id"),
      [
        CodeV3(id: 1, code: 123), CodeV3(id: 2, code: nil),
        CodeV3(id: 3, code: nil),
      ])
    try assertIntact(reopened)
  }

  func testTypeChangesThatWouldRoundAreRefused() throws {
    // INTEGER -> REAL rounds integers above 2^53; REAL -> TEXT keeps 15 digits.
    let db = try open()
    try db.save([
      MeasureV1(id: 1, count: 3, ratio: 0.5),
      MeasureV1(id: 2, count: 9_007_199_254_740_993, ratio: 0.25),
    ])
    try db.close()
    let before = try snapshot(ofFile: path())
    let later = try open()
    XCTAssertEqual(
      thrownError(MigrationError.self) { try later.migrate(MeasureV2.self) },
      .lossyTypeChange(table: "Measure", column: "count", newType: "REAL"))
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    try later.run("UPDATE Measure SET ratio = 0.1 + 0.2 WHERE id = 1")
    let changed = try snapshot(ofFile: path())
    XCTAssertEqual(
      thrownError(MigrationError.self) { try later.migrate(MeasureV3.self) },
      .lossyTypeChange(table: "Measure", column: "ratio", newType: "TEXT"))
    XCTAssertEqual(try snapshot(ofFile: path()), changed)

    // Values that convert exactly do.
    try later.run("UPDATE Measure SET count = 4, ratio = 0.75 WHERE id = 2")
    try later.run("UPDATE Measure SET ratio = 0.5 WHERE id = 1")
    try later.migrate(MeasureV2.self)
    XCTAssertEqual(
      try open().findAll(MeasureV2.self, orderBy: "id"),
      [MeasureV2(id: 1, count: 3, ratio: 0.5), MeasureV2(id: 2, count: 4, ratio: 0.75)])
    let last = try open()
    try last.migrate(MeasureV3.self)
    XCTAssertEqual(
      try open().findAll(MeasureV3.self, orderBy: "id"),
      [MeasureV3(id: 1, count: 3, ratio: "0.5"), MeasureV3(id: 2, count: 4, ratio: "0.75")])
  }

  /// A STRICT table refuses, at the copy, a value that does not convert: the change must
  /// still be reported as lossy (naming lossyConvertibleColumns), and permitted when declared.
  func testStrictTableLossyTypeChangeIsReportedThenPermitted() throws {
    let db = try open()
    try db.save([ReadingV1(id: 1, value: 2), ReadingV1(id: 2, value: 2.5)])
    let before = try db.snapshot()
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(ReadingV2.self) },
      .lossyTypeChange(table: "Reading", column: "value", newType: "INTEGER"))
    XCTAssertEqual(try db.snapshot(), before)

    try db.migrate(ReadingV3.self)
    XCTAssertEqual(
      try open().findAll(ReadingV3.self, orderBy: "id"),
      [ReadingV3(id: 1, value: 2), ReadingV3(id: 2, value: nil)])
    XCTAssertEqual(
      try db.scalar(Bool.self, "SELECT strict FROM pragma_table_list('Reading')"), true)
    XCTAssertFalse(
      try SchemaInspector(db).tableNames().contains {
        $0.hasPrefix("swiftlite_") && $0 != "swiftlite_schema"
      })
    XCTAssertEqual(try db.scalar(String.self, "PRAGMA integrity_check"), "ok")
  }
}
