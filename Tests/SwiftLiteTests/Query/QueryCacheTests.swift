import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

final class QueryCacheTests: TemporaryDirectoryTestCase {
  private var queue: DatabaseQueue!
  private let traced = Locked<[String]>([])

  override func setUpWithError() throws {
    try super.setUpWithError()
    queue = try DatabaseQueue(path: path())
    let traced = self.traced
    try queue.writeWithoutTransaction { db in
      try db.execute(
        """
        CREATE TABLE grade(id INTEGER PRIMARY KEY, name TEXT NOT NULL, year INTEGER);
        CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT);
        INSERT INTO grade(name, year) VALUES ('5A', 2024), ('5B', 2024), ('6A', 2023);
        """)
      db.trace = { sql in traced.mutate { $0.append(sql) } }
    }
  }

  override func tearDownWithError() throws {
    try queue?.close()
    queue = nil
    try super.tearDownWithError()
  }

  private static let gradesOfYear = "SELECT name FROM grade WHERE year = ? ORDER BY name"

  private func selectsRun() -> Int {
    traced.value.filter { $0 == Self.gradesOfYear }.count
  }

  private static func names(_ rows: [Row]) throws -> [String] {
    try rows.map { try $0.get(String.self, "name") }
  }

  func testACachedReadDoesNotReachSQLiteAndAWriteDropsIt() throws {
    let cache = try QueryCache(queue)
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A", "5B"])
    XCTAssertEqual(selectsRun(), 1)
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A", "5B"])
    XCTAssertEqual(selectsRun(), 1, "the second read came from memory")
    // Other arguments are another result.
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2023])), ["6A"])
    XCTAssertEqual(selectsRun(), 2)

    // A write to another table keeps the result; a rolled-back write too.
    try queue.write { db in try db.run("INSERT INTO note(text) VALUES ('x')") }
    XCTAssertThrowsError(
      try queue.write { db in
        try db.run("INSERT INTO grade(name, year) VALUES ('ghost', 2024)")
        throw TestError()
      })
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A", "5B"])
    XCTAssertEqual(selectsRun(), 2)

    // A committed write to the table drops it: the next read runs and sees the change.
    try queue.write { db in try db.run("UPDATE grade SET name = '5C' WHERE name = '5B'") }
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A", "5C"])
    XCTAssertEqual(selectsRun(), 3)
    let statistics = cache.statistics
    XCTAssertEqual(statistics.hits, 2)
    XCTAssertEqual(statistics.misses, 3)
  }

  func testAPoolsWritesDropTheResultsItsReadersCached() throws {
    let pool = try DatabasePool(path: path("pool.sqlite"))
    defer { try? pool.close() }
    try pool.write { db in
      try db.execute("CREATE TABLE grade(id INTEGER PRIMARY KEY, name TEXT, year INTEGER)")
      try db.run("INSERT INTO grade(name, year) VALUES ('5A', 2024)")
    }
    let cache = try QueryCache(pool)
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A"])
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A"])
    XCTAssertEqual(cache.statistics.hits, 1)
    try pool.write { db in try db.run("INSERT INTO grade(name, year) VALUES ('5B', 2024)") }
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A", "5B"])
    XCTAssertEqual(cache.statistics.misses, 2)
  }

  func testMemoryIsBoundedAndTheLeastRecentlyUsedResultsGoFirst() throws {
    try queue.write { db in
      for index in 0..<50 {
        try db.run(
          "INSERT INTO note(text) VALUES (?)", [String(repeating: "n", count: 200) + "\(index)"])
      }
    }
    let cache = try QueryCache(queue, maximumBytes: 2_000)
    let byID = "SELECT text FROM note WHERE id = ?"
    _ = try cache.query(byID, [1])
    for id in 2...50 {
      _ = try cache.query(byID, [id])
      _ = try cache.query(byID, [1])  // keeps id 1 recently used
      XCTAssertLessThanOrEqual(cache.statistics.bytes, 2_000)
    }
    let kept = cache.statistics.results
    XCTAssertGreaterThan(kept, 1)
    XCTAssertLessThan(kept, 49)
    let misses = cache.statistics.misses
    _ = try cache.query(byID, [1])
    XCTAssertEqual(cache.statistics.misses, misses, "the result used most often is still kept")
    _ = try cache.query(byID, [2])
    XCTAssertEqual(cache.statistics.misses, misses + 1, "an old result was dropped")

    // A result larger than the whole bound is read but not kept.
    let all = try cache.query("SELECT text FROM note")
    XCTAssertEqual(all.count, 50)
    XCTAssertLessThanOrEqual(cache.statistics.bytes, 2_000)
  }

  func testNamedArgumentsAndDecodingAndAWriteAttempt() throws {
    struct Grade: Decodable, Equatable {
      var name: String
      var year: Int
    }
    let cache = try QueryCache(queue)
    let sql = "SELECT name, year FROM grade WHERE year = :year AND name >= :from ORDER BY name"
    let first = try cache.fetchAll(Grade.self, sql, ["year": 2024, "from": "5B"])
    XCTAssertEqual(first, [Grade(name: "5B", year: 2024)])
    _ = try cache.fetchAll(Grade.self, sql, ["from": "5B", "year": 2024])
    XCTAssertEqual(cache.statistics.hits, 1, "the order of named arguments does not matter")
    // Reads only: a write through the cache fails and changes nothing.
    XCTAssertThrowsError(try cache.query("DELETE FROM grade")) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, .readOnly)
    }
    XCTAssertEqual(
      try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM grade") }, 3)
    cache.removeAll()
    XCTAssertEqual(cache.statistics.results, 0)
  }

  func testReadsInsideAWriteBypassTheCache() throws {
    let cache = try QueryCache(queue)
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A", "5B"])
    XCTAssertThrowsError(
      try queue.write { db in
        try db.run("INSERT INTO grade(name, year) VALUES ('5Z', 2024)")
        // The write sees its own row, not the cached result...
        XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A", "5B", "5Z"])
        throw TestError()
      })
    // ...and its uncommitted row was not kept.
    XCTAssertEqual(try Self.names(cache.query(Self.gradesOfYear, [2024])), ["5A", "5B"])
  }

  func testInterpolatedSQLIsBoundAndCached() throws {
    let cache = try QueryCache(queue)
    let year = 2024
    let hostile = "5A' OR '1'='1"
    let rows = try cache.query("SELECT name FROM grade WHERE year = \(year) AND name <> \(hostile)")
    XCTAssertEqual(try Self.names(rows), ["5A", "5B"])
    _ = try cache.query("SELECT name FROM grade WHERE year = \(year) AND name <> \(hostile)")
    XCTAssertEqual(cache.statistics.hits, 1)
    XCTAssertTrue(
      traced.value.contains("SELECT name FROM grade WHERE year = ? AND name <> ?"),
      "values are bound, never spliced: \(traced.value)")
    struct Name: Decodable, Equatable { var name: String }
    XCTAssertEqual(
      try cache.fetchAll(Name.self, "SELECT name FROM grade WHERE year = \(2023)"),
      [Name(name: "6A")])
  }

  func testAReleasedCacheStopsListening() throws {
    var cache: QueryCache? = try QueryCache(queue)
    XCTAssertEqual(queue.database.commitListenerCount, 1)
    _ = try cache?.query(Self.gradesOfYear, [2024])
    cache = nil
    XCTAssertEqual(queue.database.commitListenerCount, 0)
  }
}

// MARK: Inside a read

extension QueryCacheTests {
  /// `cache.query` called inside a pool's `read` reads through that read's snapshot, which
  /// may predate a commit whose invalidation already ran: it keeps nothing, so later reads
  /// of the cache, outside any read, do not get the old result.
  func testACacheQueryInsideAPoolReadReadsThroughAndKeepsNothing() throws {
    let pool = try DatabasePool(path: path("snap.sqlite"))
    try pool.write { db in try db.execute("CREATE TABLE a(x); INSERT INTO a VALUES (1)") }
    let cache = try QueryCache(pool)
    let shared = Unchecked(pool)
    try pool.read { db in
      XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM a"), 1)  // the snapshot
      let written = DispatchSemaphore(value: 0)
      Thread {
        try? shared.value.write { db in try db.execute("INSERT INTO a VALUES (2)") }
        written.signal()
      }.start()
      written.wait()
      // This read's snapshot: 1, read through.
      XCTAssertEqual(try cache.query("SELECT count(*) FROM a").first?.get(Int.self, at: 0), 1)
    }
    XCTAssertEqual(cache.statistics.results, 0, "a result of a read's snapshot was kept")
    // Another thread holds the reader of that read, so the next look uses a new reader.
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    Thread {
      try? shared.value.read { _ in
        holding.signal()
        release.wait()
      }
      ended.signal()
    }.start()
    holding.wait()
    let cached = try cache.query("SELECT count(*) FROM a").first?.get(Int.self, at: 0)
    release.signal()
    ended.wait()
    XCTAssertEqual(cached, 2, "the cache kept the result of a snapshot older than a commit")
    try pool.close()
  }

  /// Inside a queue's `read`, the cache reads through too, and keeps nothing.
  func testACacheQueryInsideAQueueReadKeepsNothing() throws {
    let cache = try QueryCache(queue)
    let inside = try queue.read { _ in try cache.query(Self.gradesOfYear, [2024]) }
    XCTAssertEqual(inside.count, 2)
    XCTAssertEqual(cache.statistics.results, 0)
    XCTAssertEqual(try cache.query(Self.gradesOfYear, [2024]).count, 2)
    XCTAssertEqual(cache.statistics.results, 1)
  }
}
