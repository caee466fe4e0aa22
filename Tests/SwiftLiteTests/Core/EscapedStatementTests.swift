import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

/// A statement (or a row read in place) used where it may not be: outside the closures of
/// the queue that owns its connection, on another thread, or after its statement moved on.
/// Each use throws `.misuse` and leaves the statement as it was.
final class EscapedStatementTests: SQLiteTestCase {
  private var queue: DatabaseQueue!

  override func setUpWithError() throws {
    try super.setUpWithError()
    queue = try DatabaseQueue(path: path("escaped.sqlite"))
    try queue.write { db in
      try db.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
    }
  }

  override func tearDownWithError() throws {
    try queue?.close()
    queue = nil
    try super.tearDownWithError()
  }

  /// A statement prepared in a closure of the queue and stepped to its first row, then
  /// returned out of it.
  private func escapedOnFirstRow() throws -> Statement {
    try queue.writeWithoutTransaction { db in
      let statement = try db.prepare("SELECT x FROM t ORDER BY x")
      XCTAssertTrue(try statement.step())
      return statement
    }
  }

  /// Runs `body` on another thread while the queue lends its connection to this one, and
  /// returns what it threw. The thread may hold `body` for a while after it ends: what it
  /// captures is boxed, and the test empties the box.
  private func onAnotherThreadDuringALoan(_ body: @escaping @Sendable () throws -> Void)
    throws -> (any Error)?
  {
    try queue.writeWithoutTransaction { _ in
      let thrown = Locked<(any Error)?>(nil)
      let done = DispatchSemaphore(value: 0)
      Thread {
        do { try body() } catch { thrown.mutate { $0 = error } }
        done.signal()
      }.start()
      done.wait()
      return thrown.value
    }
  }

  private func assertMisuse(
    _ error: (any Error)?, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let error = error as? SQLiteError else {
      return XCTFail(
        "expected SQLiteError .misuse, got \(String(describing: error))",
        file: file, line: line)
    }
    XCTAssertEqual(error.code, .misuse, "\(error)", file: file, line: line)
  }

  /// The statement is still on its first row: the next step in a closure gives the second.
  private func assertStillOnFirstRow(
    _ statement: Statement, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    try queue.writeWithoutTransaction { _ in
      XCTAssertTrue(try statement.step(), file: file, line: line)
      XCTAssertEqual(try statement.row.get(Int.self, at: 0), 2, file: file, line: line)
      statement.reset()
    }
  }

  // MARK: run, forEachRow and bind

  func testRunOutsideTheQueueThrowsMisuseAndDoesNotResetTheStatement() throws {
    let statement = try escapedOnFirstRow()
    assertSQLiteError(try statement.run()) { XCTAssertEqual($0.code, .misuse) }
    try assertStillOnFirstRow(statement)
  }

  func testRunOnAnotherThreadThrowsMisuseAndDoesNotResetTheStatement() throws {
    let statement = try escapedOnFirstRow()
    let box = Unchecked<Statement?>(statement)  // the misuse under test
    defer { box.value = nil }
    assertMisuse(try onAnotherThreadDuringALoan { try box.value?.run() })
    try assertStillOnFirstRow(statement)
  }

  func testForEachRowOutsideTheQueueThrowsMisuseAndDoesNotResetTheStatement() throws {
    let statement = try escapedOnFirstRow()
    assertSQLiteError(try statement.forEachRow { _ in XCTFail("no row may be read") }) {
      XCTAssertEqual($0.code, .misuse)
    }
    try assertStillOnFirstRow(statement)
  }

  func testForEachRowOnAnotherThreadThrowsMisuseAndDoesNotResetTheStatement() throws {
    let statement = try escapedOnFirstRow()
    let box = Unchecked<Statement?>(statement)
    defer { box.value = nil }
    assertMisuse(
      try onAnotherThreadDuringALoan {
        try box.value?.forEachRow { _ in XCTFail("no row may be read") }
      })
    try assertStillOnFirstRow(statement)
  }

  func testBindingArgumentsOutsideTheQueueThrowsMisuseAndKeepsTheBindings() throws {
    let statement = try queue.writeWithoutTransaction { db in
      let statement = try db.prepare("SELECT :a")
      try statement.bind(["a": 7])
      return statement
    }
    assertSQLiteError(try statement.bind([8])) { XCTAssertEqual($0.code, .misuse) }
    assertSQLiteError(try statement.bind(["a": 8])) { XCTAssertEqual($0.code, .misuse) }
    try queue.writeWithoutTransaction { _ in
      XCTAssertTrue(try statement.step())
      XCTAssertEqual(try statement.row.get(Int?.self, at: 0), 7)
      statement.reset()
    }
  }

  // MARK: Rows read in place

  /// Every way of reading `row` throws `.misuse`: the typed reads (each fast path and the
  /// general one), the raw values, NULL checks, the bytes and a copy.
  private func assertUnreadable(
    _ row: Row, file: StaticString = #filePath, line: UInt = #line
  ) {
    let reads: [(String, () throws -> Void)] = [
      ("get(Int64.self)", { _ = try row.get(Int64.self, at: 0) }),
      ("get(Int.self)", { _ = try row.get(Int.self, at: 0) }),
      ("get(Int?.self)", { _ = try row.get(Int?.self, at: 0) }),
      ("get(Int64?.self)", { _ = try row.get(Int64?.self, at: 0) }),
      ("get(String.self)", { _ = try row.get(String.self, at: 0) }),
      ("get(String?.self)", { _ = try row.get(String?.self, at: 0) }),
      ("get(Double?.self)", { _ = try row.get(Double?.self, at: 0) }),
      ("get(Bool.self)", { _ = try row.get(Bool.self, at: 0) }),
      ("get by name", { _ = try row.get(Int.self, "x") }),
      ("subscript", { _ = try row[0] }),
      ("subscript by name", { _ = try row["x"] }),
      ("values", { _ = try row.values }),
      ("isNull", { _ = try row.isNull("x") }),
      ("withUnsafeBytes", { _ = try row.withUnsafeBytes(at: 0) { $0.count } }),
      ("copy", { _ = try row.copy() }),
      ("decoded", { _ = try RowDecoder().decode(Item.self, from: row) }),
    ]
    for (name, read) in reads {
      do {
        try read()
        XCTFail("\(name) read an unreadable row", file: file, line: line)
      } catch let error as SQLiteError {
        XCTAssertEqual(error.code, .misuse, "\(name): \(error)", file: file, line: line)
      } catch {
        XCTFail("\(name) threw \(error), not .misuse", file: file, line: line)
      }
    }
    XCTAssertTrue(row.description.hasPrefix("[unreadable row: "), row.description)
  }

  private struct Item: Decodable {
    var x: Int
  }

  func testARowKeptAfterItsIterationThrowsMisuse() throws {
    try db.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2)")
    var kept: Row?
    try db.forEachRow("SELECT x FROM t ORDER BY x") { row in kept = row }
    assertUnreadable(try XCTUnwrap(kept))

    let statement = try db.prepare("SELECT x FROM t ORDER BY x")
    kept = nil
    try statement.forEachRow { row in kept = row }
    assertUnreadable(try XCTUnwrap(kept))
  }

  func testARowKeptFromAnEarlierStepThrowsMisuseAndTheCurrentOneReads() throws {
    try db.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2)")
    var first: Row?
    var checked = false
    try db.forEachRow("SELECT x FROM t ORDER BY x") { row in
      guard let first else {
        first = row
        return
      }
      assertUnreadable(first)
      XCTAssertEqual(try row.get(Int.self, at: 0), 2)
      checked = true
    }
    XCTAssertTrue(checked)
  }

  func testRowsKeptFromEveryStepOfAStatementLoopAreEachUnreadableOnceItMovesOn() throws {
    // The loop hands the closure one value it moves from row to row: every copy the
    // closure keeps stays at its own row, and reads only while the statement stands there.
    try db.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
    let statement = try db.prepare("SELECT x FROM t ORDER BY x")
    var kept: [Row] = []
    try statement.forEachRow { row in
      for earlier in kept { assertUnreadable(earlier) }
      XCTAssertEqual(try row.get(Int.self, at: 0), kept.count + 1)
      kept.append(row)
      XCTAssertEqual(try kept.last?.get(Int.self, at: 0), kept.count)
    }
    XCTAssertEqual(kept.count, 3)
    for row in kept { assertUnreadable(row) }
    // The statement was reset: it runs again from the first row.
    var again: [Int] = []
    try statement.forEachRow { again.append(try $0.get(Int.self, at: 0)) }
    XCTAssertEqual(again, [1, 2, 3])
  }

  func testARowBeforeTheFirstStepAfterTheLastOrAfterAResetThrowsMisuse() throws {
    try db.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1)")
    let statement = try db.prepare("SELECT x FROM t")
    assertUnreadable(statement.row)
    XCTAssertTrue(try statement.step())
    let row = statement.row
    XCTAssertEqual(try row.get(Int.self, at: 0), 1)
    statement.reset()
    assertUnreadable(row)
    XCTAssertTrue(try statement.step())
    XCTAssertFalse(try statement.step())
    assertUnreadable(statement.row)
  }

  func testARowOfAnEscapedStatementReadOutsideTheQueueThrowsMisuse() throws {
    let statement = try escapedOnFirstRow()
    // The statement still stands on its first row; only the queue's closures may read it.
    assertUnreadable(statement.row)
    try queue.writeWithoutTransaction { _ in
      XCTAssertEqual(try statement.row.get(Int.self, at: 0), 1)
      statement.reset()
    }
  }

  func testARowReadOnAnotherThreadDuringALoanThrowsMisuse() throws {
    let statement = try escapedOnFirstRow()
    let box = Unchecked<Row?>(statement.row)  // the misuse under test
    defer { box.value = nil }
    let reads: [@Sendable (Row) throws -> Void] = [
      { _ = try $0.get(Int.self, at: 0) }, { _ = try $0.get(Int?.self, at: 0) },
      { _ = try $0[0] }, { _ = try $0.copy() },
    ]
    for read in reads {
      assertMisuse(
        try onAnotherThreadDuringALoan {
          guard let row = box.value else { return }
          try read(row)
        })
    }
    try assertStillOnFirstRow(statement)
  }

  func testARowReturnedFromAQueueClosureThrowsMisuse() throws {
    let row = try queue.read { db in
      var kept: Row?
      try db.forEachRow("SELECT x FROM t ORDER BY x") { row in kept = kept ?? row }
      return kept
    }
    assertUnreadable(try XCTUnwrap(row))
  }
}
