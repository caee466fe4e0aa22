import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

final class ObservationTests: TemporaryDirectoryTestCase {
  private var queue: DatabaseQueue!

  override func setUpWithError() throws {
    try super.setUpWithError()
    queue = try DatabaseQueue(path: path())
    try queue.write { db in
      try db.execute(
        """
        CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE other(id INTEGER PRIMARY KEY);
        CREATE TABLE tag(name TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID;
        """)
    }
  }

  override func tearDownWithError() throws {
    try queue?.close()
    queue = nil
    try super.tearDownWithError()
  }

  private static func names(_ db: Connection) throws -> [String] { try playerNames(db) }

  /// Collects the values of a callback observation; `waitFor` blocks until one matches.
  private final class Values<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private(set) var all: [T] = []
    func append(_ value: T) {
      condition.lock()
      all.append(value)
      condition.broadcast()
      condition.unlock()
    }
    var snapshot: [T] {
      condition.lock()
      defer { condition.unlock() }
      return all
    }
    /// Waits (up to 10 s, a deadlock guard, not a timing assertion) for a value matching.
    @discardableResult
    func waitFor(_ match: (T) -> Bool) -> Bool {
      condition.lock()
      defer { condition.unlock() }
      let deadline = Date().addingTimeInterval(10)
      while !all.contains(where: match) {
        if !condition.wait(until: deadline) { return false }
      }
      return true
    }
  }

  /// A write of a player that throws, so its transaction is rolled back.
  private static func writeAndRollBack(_ database: some DatabaseAccess) {
    XCTAssertThrowsError(
      try database.write { db in
        try db.run("INSERT INTO player(name) VALUES ('Ghost')")
        throw TestError()
      })
  }

  func testTheTablesAQueryReadsComeFromSQLite() throws {
    try queue.write { db in
      try db.execute("CREATE VIEW named AS SELECT name FROM player WHERE name <> ''")
    }
    let tables = try queue.read { db in
      try db.recordingTablesRead {
        _ = try db.query("SELECT count(*) FROM other")
        _ = try db.query("SELECT * FROM named")
      }.tables
    }
    XCTAssertTrue(tables.isSuperset(of: ["other", "player", "named"]), "\(tables)")
    XCTAssertFalse(tables.contains("tag"))
  }

  func testAnAsyncObservationYieldsNowAndAfterEachCommitButNotAfterARollback() async throws {
    let queue = self.queue!
    var iterator = queue.observe(Self.names).makeAsyncIterator()
    let first = try await iterator.next()
    XCTAssertEqual(first, [])
    try await queue.write { db in try db.run("INSERT INTO player(name) VALUES ('Ann')") }
    let second = try await iterator.next()
    XCTAssertEqual(second, ["Ann"])
    // A rolled-back write, then a write to a table the query does not read: no value.
    Self.writeAndRollBack(queue)
    try await queue.write { db in try db.run("INSERT INTO other DEFAULT VALUES") }
    try await queue.write { db in try db.run("INSERT INTO player(name) VALUES ('Bob')") }
    let third = try await iterator.next()
    XCTAssertEqual(third, ["Ann", "Bob"], "the rolled-back 'Ghost' never appears")
  }

  func testCallbacksSkipRollbacksAndUnrelatedTables() throws {
    let values = Values<[String]>()
    let observation = queue.observe(Self.names) { values.append($0) }
    XCTAssertTrue(values.waitFor { $0 == [] })
    XCTAssertThrowsError(
      try queue.write { db in
        try db.run("INSERT INTO player(name) VALUES ('Ghost')")
        throw TestError()
      })
    try queue.write { db in try db.run("INSERT INTO other DEFAULT VALUES") }
    try queue.write { db in try db.run("INSERT INTO player(name) VALUES ('Ann')") }
    XCTAssertTrue(values.waitFor { $0 == ["Ann"] })
    observation.cancel()
    // Exactly two values: nothing for the rollback, nothing for the other table.
    XCTAssertEqual(values.snapshot, [[], ["Ann"]])
  }

  func testDeleteWithoutWhereAndWithoutRowIDTablesAreSeen() throws {
    try queue.write { db in try db.run("INSERT INTO player(name) VALUES ('Ann'), ('Bob')") }
    let counts = Values<[Int]>()
    let fetch: @Sendable (Connection) throws -> [Int] = { db in
      [
        try db.scalar(Int.self, "SELECT count(*) FROM player") ?? -1,
        try db.scalar(Int.self, "SELECT count(*) FROM tag") ?? -1,
      ]
    }
    let observation = queue.observe(fetch) { counts.append($0) }
    XCTAssertTrue(counts.waitFor { $0 == [2, 0] })
    // SQLite empties a table without its update hook for DELETE without WHERE.
    try queue.write { db in try db.run("DELETE FROM player") }
    XCTAssertTrue(counts.waitFor { $0 == [0, 0] })
    // WITHOUT ROWID tables have no update hook at all.
    try queue.write { db in try db.run("INSERT INTO tag(name, n) VALUES ('a', 1)") }
    XCTAssertTrue(counts.waitFor { $0 == [0, 1] })
    // ...also through execute and outside a transaction.
    try queue.writeWithoutTransaction { db in try db.execute("INSERT INTO tag VALUES ('b', 2)") }
    XCTAssertTrue(counts.waitFor { $0 == [0, 2] })
    observation.cancel()
    XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM tag") }, 2)
  }

  func testABurstOfCommitsIsCoalescedAndEndsOnTheLastValue() throws {
    let values = Values<Int>()
    let fetch: @Sendable (Connection) throws -> Int = { db in
      try db.scalar(Int.self, "SELECT count(*) FROM player") ?? 0
    }
    let observation = queue.observe(fetch) { values.append($0) }
    XCTAssertTrue(values.waitFor { $0 == 0 })
    for index in 0..<200 {
      try queue.write { db in try db.run("INSERT INTO player(name) VALUES (?)", ["p\(index)"]) }
    }
    XCTAssertTrue(values.waitFor { $0 == 200 })
    observation.cancel()
    let seen = values.snapshot
    XCTAssertEqual(seen, seen.sorted(), "values arrive in commit order")
    XCTAssertLessThanOrEqual(seen.count, 201)
  }

  func testCancellingTheTaskEndsTheSequence() async throws {
    let queue = self.queue!
    let started = Locked(false)
    let task = Task { () async throws -> Int in
      var iterator = queue.observe(playerNames).makeAsyncIterator()
      var count = 0
      while try await iterator.next() != nil {
        count += 1
        started.mutate { $0 = true }
      }
      return count
    }
    while !started.value { await Task.yield() }
    task.cancel()
    let count = try await task.value
    XCTAssertGreaterThanOrEqual(count, 1)
    // Once the loop is over its observation is gone: no listener is left.
    XCTAssertEqual(queue.database.commitListenerCount, 0)
  }

  func testTenThousandObservationsStartedAndCancelledLeaveNothingBehind() throws {
    let before = ObservationCounter.live.load(ordering: .relaxed)
    for _ in 0..<10_000 {
      let observation = queue.observe(Self.names) { _ in }
      observation.cancel()
    }
    // Fetches already scheduled end on their own: wait for them (a deadlock guard only).
    let deadline = Date().addingTimeInterval(30)
    while ObservationCounter.live.load(ordering: .relaxed) > before, Date() < deadline {
      usleep(1000)
    }
    XCTAssertEqual(ObservationCounter.live.load(ordering: .relaxed), before)
    XCTAssertEqual(queue.database.commitListenerCount, 0)
  }

  func testDroppedAsyncIteratorsLeaveNothingBehind() throws {
    let before = ObservationCounter.live.load(ordering: .relaxed)
    let sequence = queue.observe(playerNames)
    for _ in 0..<2_000 {
      // Making the iterator starts the observation; dropping it ends it.
      _ = sequence.makeAsyncIterator()
    }
    let deadline = Date().addingTimeInterval(30)
    while ObservationCounter.live.load(ordering: .relaxed) > before, Date() < deadline {
      usleep(1000)
    }
    XCTAssertEqual(ObservationCounter.live.load(ordering: .relaxed), before)
    XCTAssertEqual(queue.database.commitListenerCount, 0)
  }

  func testAReleasedObservationStops() throws {
    var observation: ObservationCancellable? = queue.observe(Self.names) { _ in }
    XCTAssertEqual(queue.database.commitListenerCount, 1)
    observation = nil
    XCTAssertNil(observation)
    XCTAssertEqual(queue.database.commitListenerCount, 0)
  }

  func testAFailingFetchEndsTheObservationWithItsError() async throws {
    let queue = self.queue!
    do {
      for try await _ in queue.observe({ db in try db.query("SELECT * FROM missing").count }) {
        XCTFail("no value expected")
      }
      XCTFail("the loop should throw")
    } catch let error as SQLiteError {
      XCTAssertTrue(error.message.contains("no such table: missing"), error.message)
    }
  }

  func testAPoolsWriterObservesAndItsReadersFetch() throws {
    let pool = try DatabasePool(path: path("pool.sqlite"))
    defer { try? pool.close() }
    try pool.write { db in try db.execute("CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
    }
    let values = Values<[String]>()
    let observation = pool.observe(Self.names) { values.append($0) }
    XCTAssertTrue(values.waitFor { $0 == [] })
    XCTAssertThrowsError(
      try pool.write { db in
        try db.run("INSERT INTO player(name) VALUES ('Ghost')")
        throw TestError()
      })
    try pool.write { db in try db.run("INSERT INTO player(name) VALUES ('Ann')") }
    XCTAssertTrue(values.waitFor { $0 == ["Ann"] })
    observation.cancel()
    XCTAssertEqual(values.snapshot, [[], ["Ann"]])
    XCTAssertGreaterThanOrEqual(pool.readerCount, 1, "the fetches ran on a reader")
  }
}

/// The names of the players, in id order.
private func playerNames(_ db: Connection) throws -> [String] {
  try db.query("SELECT name FROM player ORDER BY id").map { try $0.get(String.self, "name") }
}
