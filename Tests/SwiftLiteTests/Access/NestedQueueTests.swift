import Dispatch
import Foundation
import Synchronization
import XCTest

@testable import SwiftLite

/// How a queue knows that it runs its caller: the mark each closure sets on its thread, and
/// restores when it returns, whether it ran on the caller's thread or on a worker's.
final class NestedQueueTests: SQLiteTestCase {
  private func makeQueue(_ name: String) throws -> DatabaseQueue {
    let queue = try DatabaseQueue(path: path(name))
    try queue.write { db in try db.execute("CREATE TABLE IF NOT EXISTS t(x)") }
    return queue
  }

  func testAQueueKnowsItRunsItsCallerAgainAfterAnotherQueuesClosureReturns() throws {
    let outer = try makeQueue("outer.sqlite")
    let inner = try makeQueue("inner.sqlite")

    let counts = try outer.write { db -> [Int] in
      try db.run("INSERT INTO t VALUES (1)")
      XCTAssertTrue(outer.database.isOnQueue)
      let innerCount = try inner.read { innerDB in
        XCTAssertTrue(inner.database.isOnQueue)
        XCTAssertFalse(outer.database.isOnQueue)
        return try innerDB.scalar(Int.self, "SELECT count(*) FROM t") ?? -1
      }
      // Back in the outer closure: a nested read runs inline and sees the uncommitted row.
      XCTAssertTrue(outer.database.isOnQueue)
      XCTAssertFalse(inner.database.isOnQueue)
      let outerCount = try outer.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") ?? -1 }
      return [innerCount, outerCount]
    }

    XCTAssertEqual(counts, [0, 1])
    XCTAssertFalse(outer.database.isOnQueue)
    XCTAssertNil(SerializedDatabase.current)
    XCTAssertThrowsError(try outer.write { _ in try outer.close() })
    try inner.close()
    try outer.close()
  }

  func testAClosureRunForATaskIsMarkedOnItsWorkerThreadOnly() async throws {
    let queue = try makeQueue("task.sqlite")
    let nested = try await queue.write { db -> Int in
      XCTAssertTrue(queue.database.isOnQueue)
      try db.run("INSERT INTO t VALUES (1)")
      // Inline on the same connection, inside the write's transaction.
      return try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") ?? -1 }
    }
    XCTAssertEqual(nested, 1)
    XCTAssertFalse(queue.database.isOnQueue)
    // The worker thread that ran the closure was unmarked when it returned.
    let marks = Mutex<[UInt?]>([])
    DispatchQueue.concurrentPerform(iterations: 16) { _ in
      marks.withLock { $0.append(SerializedDatabase.current) }
    }
    XCTAssertEqual(marks.withLock { $0 }, Array(repeating: nil, count: 16))
    try queue.close()
  }

  func testAPoolFindsTheConnectionThatRunsItsCaller() throws {
    let pool = try DatabasePool(path: path("pool.sqlite"))
    try pool.write { db in try db.execute("CREATE TABLE t(x)") }
    let seen = try pool.write { db -> Int in
      try db.run("INSERT INTO t VALUES (1)")
      // A read from inside the write runs on the writer, which sees its own row.
      return try pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") ?? -1 }
    }
    XCTAssertEqual(seen, 1)
    try pool.read { _ in
      XCTAssertThrowsError(try pool.write { _ in }) { error in
        XCTAssertEqual((error as? SQLiteError)?.code, .readOnly)
      }
    }
    try pool.close()
  }
}
