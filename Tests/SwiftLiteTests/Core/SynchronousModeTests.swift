import XCTest

@testable import SwiftLite

/// `PRAGMA synchronous`: NORMAL wherever the journal mode is WAL after open, unless the
/// options say otherwise; the build's default elsewhere.
final class SynchronousModeTests: TemporaryDirectoryTestCase {
  func testAPoolSetsNormalOnItsWriterAndEveryReader() throws {
    let pool = try DatabasePool(path: path(), maximumReaderCount: 2)
    defer { try? pool.close() }
    try pool.write { db in
      XCTAssertEqual(try db.synchronous(), .normal)
      try db.execute("CREATE TABLE t(x)")
    }
    // Two reads held open together (each waits inside its read until both arrived), so
    // both readers are open.
    let done = DispatchGroup()
    let arrived = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let levels = Locked<[String]>([])
    for _ in 0..<2 {
      done.enter()
      DispatchQueue.global().async {
        defer { done.leave() }
        let level = try? pool.read { db -> SynchronousMode in
          arrived.signal()
          go.wait()
          return try db.synchronous()
        }
        levels.mutate { $0.append(level.map(\.rawValue) ?? "error") }
      }
    }
    arrived.wait()
    arrived.wait()
    go.signal()
    go.signal()
    done.wait()
    XCTAssertEqual(levels.value, ["normal", "normal"])
  }

  func testAFileAlreadyInWALGetsNormalOnAPlainConnection() throws {
    let first = try Connection(path: path())
    try first.setJournalMode(.wal)
    try first.close()
    let db = try Connection(path: path())
    XCTAssertEqual(try db.journalMode(), .wal)
    XCTAssertEqual(try db.synchronous(), .normal)
    try db.close()
  }

  func testTurningWALOnLaterSetsNormal() throws {
    let queue = try DatabaseQueue(path: path())
    defer { try? queue.close() }
    try queue.writeWithoutTransaction { db in
      XCTAssertEqual(try db.synchronous(), .full, "a rollback journal keeps the build's default")
      try db.setJournalMode(.wal)
      XCTAssertEqual(try db.synchronous(), .normal)
    }
  }

  func testOptionsKeepFull() throws {
    var options = OpenOptions()
    options.synchronous = .full
    let pool = try DatabasePool(path: path(), options: options)
    defer { try? pool.close() }
    try pool.writeWithoutTransaction { db in
      XCTAssertEqual(try db.synchronous(), .full)
      try db.setJournalMode(.wal)
      XCTAssertEqual(try db.synchronous(), .full, "an explicit level stays")
    }
    XCTAssertEqual(try pool.read { db in try db.synchronous() }, .full)
  }

  func testAnExplicitLevelAppliesOutsideWAL() throws {
    var options = OpenOptions()
    options.synchronous = .off
    let db = try Connection(path: path(), options: options)
    XCTAssertEqual(try db.synchronous(), .off)
    try db.close()
  }
}
