import Foundation
import XCTest

@testable import SwiftLite

/// The cache keeps one result per argument values as SQLite tells them apart: by bytes.
final class QueryCacheTextTests: TemporaryDirectoryTestCase {
  func testArgumentsThatDifferOnlyInNormalizationAreTwoResults() throws {
    let queue = try DatabaseQueue(path: path())
    try queue.write { db in
      try db.execute("CREATE TABLE t(name TEXT)")
      try db.run("INSERT INTO t VALUES (?)", ["caf\u{E9}"])
    }
    let cache = try QueryCache(queue)
    let sql = "SELECT count(*) FROM t WHERE name = ?"
    XCTAssertEqual(try cache.query(sql, ["caf\u{E9}"]).first?.get(Int.self, at: 0), 1)
    XCTAssertEqual(try cache.query(sql, ["cafe\u{301}"]).first?.get(Int.self, at: 0), 0)
    XCTAssertEqual(try cache.query(sql, ["caf\u{E9}"]).first?.get(Int.self, at: 0), 1)
    XCTAssertEqual(cache.statistics.hits, 1)
    XCTAssertEqual(cache.statistics.results, 2)
    let interpolated: SQL = "SELECT count(*) FROM t WHERE name = \("cafe\u{301}")"
    XCTAssertEqual(try cache.query(interpolated).first?.get(Int.self, at: 0), 0)

    // The other direction: the NFD result cached first does not answer for NFC.
    let other = try QueryCache(queue)
    XCTAssertEqual(try other.query(sql, ["cafe\u{301}"]).first?.get(Int.self, at: 0), 0)
    XCTAssertEqual(try other.query(sql, ["caf\u{E9}"]).first?.get(Int.self, at: 0), 1)
    XCTAssertEqual(other.statistics.hits, 0)
    try queue.close()
  }

  func testSQLTextsThatDifferOnlyInNormalizationAreTwoResults() throws {
    let queue = try DatabaseQueue(path: path())
    try queue.write { db in
      try db.execute("CREATE TABLE t(name TEXT)")
      try db.run("INSERT INTO t VALUES (?)", ["caf\u{E9}"])
    }
    let composed = "SELECT count(*) FROM t WHERE name = 'caf\u{E9}'"
    let decomposed = "SELECT count(*) FROM t WHERE name = 'cafe\u{301}'"
    XCTAssertEqual(composed, decomposed, "Swift calls them equal; SQLite compares bytes")
    let cache = try QueryCache(queue)
    for _ in 0..<2 {
      XCTAssertEqual(try cache.query(composed).first?.get(Int.self, at: 0), 1)
      XCTAssertEqual(try cache.query(decomposed).first?.get(Int.self, at: 0), 0)
    }
    XCTAssertEqual(cache.statistics.results, 2)
    XCTAssertEqual(cache.statistics.misses, 2)
    XCTAssertEqual(cache.statistics.hits, 2)
    // The other direction: the decomposed text cached first does not answer the composed.
    let other = try QueryCache(queue)
    XCTAssertEqual(try other.query(decomposed).first?.get(Int.self, at: 0), 0)
    XCTAssertEqual(try other.query(composed).first?.get(Int.self, at: 0), 1)
    XCTAssertEqual(other.statistics.hits, 0)
    try queue.close()
  }
}

extension QueryCacheTextTests {
  /// `.real(0) == .real(-0.0)` (as SQLite compares them), but SQL functions tell them apart:
  /// `atan2(0, -1)` is pi, `atan2(-0.0, -1)` is -pi. The cache keys REAL arguments by bits.
  func testMinusZeroAndZeroAreTwoArguments() throws {
    let queue = try DatabaseQueue(path: path())
    let cache = try QueryCache(queue)
    let sql = "SELECT printf('%.3f', atan2(?, -1))"
    let plus = try cache.query(sql, [0.0]).first?.get(String.self, at: 0)
    let minus = try cache.query(sql, [-0.0]).first?.get(String.self, at: 0)
    XCTAssertEqual(plus, "3.142")
    XCTAssertEqual(try queue.read { db in try db.scalar(String.self, sql, [-0.0]) }, "-3.142")
    XCTAssertEqual(minus, "-3.142", "the cache answered for +0.0")
    XCTAssertEqual(try cache.query(sql, [-0.0]).first?.get(String.self, at: 0), "-3.142")
    XCTAssertEqual(cache.statistics.hits, 1)
    XCTAssertEqual(cache.statistics.results, 2)
    try queue.close()
  }
}
