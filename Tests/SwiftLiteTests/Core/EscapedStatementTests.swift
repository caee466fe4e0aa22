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
}
