import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

/// Tasks that wait for a connection hold no thread, and a task cancelled while it waits
/// never runs its closure. Events are ordered with semaphores and the waiters' counts.
final class AsyncWaitTests: TemporaryDirectoryTestCase {
  private func makePool(readers: Int) throws -> DatabasePool {
    let pool = try DatabasePool(path: path("pool.sqlite"), maximumReaderCount: readers)
    try pool.write { db in
      try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, n INTEGER)")
      try db.run("INSERT INTO item(n) VALUES (1)")
    }
    return pool
  }

  /// Holds the pool's writer and its `readers` readers in closures until `release` is
  /// signalled (once per closure); returns the tasks running them.
  private func holdEveryConnection(
    of pool: DatabasePool, readers: Int, release: DispatchSemaphore
  ) -> [Task<Int, any Error>] {
    let started = DispatchSemaphore(value: 0)
    let write = Task {
      try await pool.write { db in
        try db.run("INSERT INTO item(n) VALUES (2)")
        started.signal()
        release.wait()
        return 0
      }
    }
    let reads = (0..<readers).map { _ in
      Task {
        try await pool.read { db in
          started.signal()
          release.wait()
          return try itemCount(db)
        }
      }
    }
    for _ in 0...readers { started.wait() }
    return [write] + reads
  }

  /// 200 tasks waiting for one of 2 busy readers, while a long write runs: on dispatch
  /// worker threads blocked on a semaphore, each waiting read held a thread of its own.
  func testTasksWaitingForAReaderHoldNoThread() throws {
    guard processThreadCount() != nil else {
      throw XCTSkip("no /proc/self/task here: the process's threads cannot be counted")
    }
    let pool = try makePool(readers: 2)
    let release = DispatchSemaphore(value: 0)
    let holders = holdEveryConnection(of: pool, readers: 2, release: release)
    let before = processThreadCount()!
    let waiters = (0..<200).map { _ in
      Task { try await pool.read { db in try itemCount(db) } }
    }
    waitUntil { pool.permits.waiterCount == 200 }
    let during = processThreadCount()!
    for _ in holders { release.signal() }
    let counts = try resultOfTask {
      var counts: [Int] = []
      for task in holders + waiters { counts.append(try await task.value) }
      return counts
    }
    // The holding reads started before the long write committed; the waiters after.
    XCTAssertEqual(counts.count, 203)
    XCTAssertEqual(Set(counts.dropFirst(3)).subtracting([1, 2]), [])
    // The cooperative pool may start a thread per core; a blocked waiter would add 200.
    XCTAssertLessThanOrEqual(
      during - before, 8, "threads went from \(before) to \(during) with 200 reads waiting")
    XCTAssertEqual(try pool.read { try itemCount($0) }, 2)
    try pool.close()
  }

  /// 100 observations whose first fetch waits for a busy reader: the fetches ran on
  /// dispatch worker threads, each blocked while it waited.
  func testObservationsWaitingForAReaderHoldNoThread() throws {
    guard processThreadCount() != nil else {
      throw XCTSkip("no /proc/self/task here: the process's threads cannot be counted")
    }
    let pool = try makePool(readers: 2)
    // The first listener turns change tracking on, on the writer; later ones need no writer.
    let primed = DispatchSemaphore(value: 0)
    let primer = pool.observe({ _ in 0 }, onChange: { _ in primed.signal() })
    primed.wait()
    let release = DispatchSemaphore(value: 0)
    let holders = holdEveryConnection(of: pool, readers: 2, release: release)
    XCTAssertTrue(pool.writer.isTrackingChanges)
    let before = processThreadCount()!
    let observers = (0..<100).map { _ in
      Task { () async throws -> Int in
        for try await count in pool.observe({ db in try itemCount(db) }) { return count }
        return -1
      }
    }
    waitUntil { pool.permits.waiterCount == 100 }
    let during = processThreadCount()!
    for _ in holders { release.signal() }
    let firsts = try resultOfTask {
      var firsts: [Int] = []
      for task in observers { firsts.append(try await task.value) }
      return firsts
    }
    XCTAssertEqual(Set(firsts).subtracting([1, 2]), [])
    XCTAssertLessThanOrEqual(
      during - before, 8, "threads went from \(before) to \(during) with 100 fetches waiting")
    _ = try resultOfTask { for task in holders { _ = try await task.value } }
    primer.cancel()
    try pool.close()
  }

  func testAReadCancelledWhileWaitingForAReaderNeverRuns() throws {
    let pool = try makePool(readers: 1)
    let release = DispatchSemaphore(value: 0)
    let holders = holdEveryConnection(of: pool, readers: 1, release: release)
    let ran = Locked(false)
    let waiting = Task {
      try await pool.read { db in
        ran.mutate { $0 = true }
        return try itemCount(db)
      }
    }
    waitUntil { pool.permits.waiterCount == 1 }
    waiting.cancel()
    let error = try resultOfTask { () async -> (any Error)? in
      do {
        _ = try await waiting.value
        return nil
      } catch { return error }
    }
    XCTAssertTrue(error is CancellationError, "\(String(describing: error))")
    XCTAssertEqual(pool.permits.waiterCount, 0)
    for _ in holders { release.signal() }
    _ = try resultOfTask { for task in holders { _ = try await task.value } }
    XCTAssertFalse(ran.value)
    // The permit was not lost: the one reader still serves reads, async and blocking.
    XCTAssertEqual(try resultOfTask { try await pool.read { try itemCount($0) } }, 2)
    XCTAssertEqual(try pool.read { try itemCount($0) }, 2)
    XCTAssertEqual(pool.readerCount, 1)
    try pool.close()
  }

  func testAWriteCancelledWhileWaitingForTheQueueNeverRuns() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    try queue.write { db in try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, n INTEGER)") }
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let long = Task {
      try await queue.write { db in
        try db.run("INSERT INTO item(n) VALUES (1)")
        started.signal()
        release.wait()
      }
    }
    started.wait()
    let ran = Locked(false)
    let waiting = Task {
      try await queue.write { db in
        ran.mutate { $0 = true }
        try db.run("INSERT INTO item(n) VALUES (2)")
      }
    }
    waitUntil { queue.database.queuedTaskCount == 1 }
    waiting.cancel()
    // Cancelled while the long write still runs: the waiting task does not wait for it.
    let error = try resultOfTask { () async -> (any Error)? in
      do {
        try await waiting.value
        return nil
      } catch { return error }
    }
    XCTAssertTrue(error is CancellationError, "\(String(describing: error))")
    release.signal()
    try resultOfTask { try await long.value }
    XCTAssertFalse(ran.value)
    try resultOfTask {
      try await queue.write { db in try db.run("INSERT INTO item(n) VALUES (3)") }
    }
    XCTAssertEqual(try queue.read { try itemCount($0) }, 2)
    try queue.close()
  }

  /// A cancelled task does not start a closure even when the connection is free, for each
  /// asynchronous form; and `try await queue.write {}` in an async function resolves to the
  /// asynchronous overload (only that one checks for cancellation).
  func testACancelledTaskStartsNoClosure() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    let pool = try makePool(readers: 2)
    let ran = Locked(0)
    let copyPath = path("copy.sqlite")
    let errors = try resultOfTask { () async -> [String] in
      withUnsafeCurrentTask { $0?.cancel() }
      var errors: [String] = []
      func record(_ body: () async throws -> Void) async {
        do {
          try await body()
          errors.append("no error")
        } catch { errors.append(error is CancellationError ? "cancelled" : "\(error)") }
      }
      await record { try await queue.write { _ in ran.mutate { $0 += 1 } } }
      await record { try await queue.read { _ in ran.mutate { $0 += 1 } } }
      await record { try await queue.writeWithoutTransaction { _ in ran.mutate { $0 += 1 } } }
      await record { try await pool.write { _ in ran.mutate { $0 += 1 } } }
      await record { try await pool.read { _ in ran.mutate { $0 += 1 } } }
      await record { try await pool.backup(toPath: copyPath) }
      await record { _ = try await Migrator().migrate(pool) }
      return errors
    }
    XCTAssertEqual(errors, Array(repeating: "cancelled", count: 7))
    XCTAssertEqual(ran.value, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("copy.sqlite")))
    try queue.close()
    try pool.close()
  }

  func testTheAsyncBackupCopiesTheDatabase() throws {
    let pool = try makePool(readers: 2)
    let steps = Locked(0)
    let copyPath = path("copy.sqlite")
    try resultOfTask {
      try await pool.backup(toPath: copyPath, pagesPerStep: 1) { _ in
        steps.mutate { $0 += 1 }
      }
    }
    XCTAssertGreaterThan(steps.value, 0)
    let copy = try DatabaseQueue(path: path("copy.sqlite"))
    XCTAssertEqual(try copy.read { try itemCount($0) }, 1)
    try copy.close()
    try pool.close()
  }

  /// The close of a pool waits for the reads in flight, and those queued behind it find
  /// the pool closed: no permit is lost or handed twice on the way.
  func testReadsQueuedBeforeACloseFindThePoolClosed() throws {
    let pool = try makePool(readers: 1)
    let release = DispatchSemaphore(value: 0)
    let holders = holdEveryConnection(of: pool, readers: 1, release: release)
    let waiters = (0..<5).map { _ in Task { try await pool.read { try itemCount($0) } } }
    waitUntil { pool.permits.waiterCount == 5 }
    let closed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      try? pool.close()
      closed.signal()
    }
    waitUntil { pool.permits.waiterCount == 6 }
    for _ in holders { release.signal() }
    closed.wait()
    for waiter in waiters {
      let error = try resultOfTask { () async -> (any Error)? in
        do {
          _ = try await waiter.value
          return nil
        } catch { return error }
      }
      XCTAssertEqual((error as? SQLiteError)?.code, .misuse)
    }
    _ = try resultOfTask { for task in holders { _ = try await task.value } }
  }
}

private func itemCount(_ db: Connection) throws -> Int {
  try db.scalar(Int.self, "SELECT count(*) FROM item") ?? -1
}
