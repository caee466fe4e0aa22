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

/// ``OpenOptions/checkpoints``: SQLite's own, a threshold, or left to a replicator.
final class CheckpointPolicyTests: TemporaryDirectoryTestCase {
  private func walConnection(_ policy: CheckpointPolicy) throws -> Connection {
    var options = OpenOptions()
    options.journalMode = .wal
    options.checkpoints = policy
    return try Connection(path: path(), options: options)
  }

  func testThePolicySetsTheAutomaticThreshold() throws {
    for (policy, pages) in [
      (CheckpointPolicy.sqlite, 1_000), (.automatic(pages: 250), 250), (.automatic(pages: 0), 0),
      (.external(), 0), (.external(automaticPages: 4_000), 4_000),
    ] {
      let db = try walConnection(policy)
      XCTAssertEqual(try db.scalar(Int.self, "PRAGMA wal_autocheckpoint"), pages, "\(policy)")
      try db.close()
    }
  }

  func testAnExternalReplicatorKeepsTheLogOnCloseAndRefusesResets() throws {
    let db = try walConnection(.external())
    try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
    for mode in [CheckpointMode.restart, .truncate] {
      XCTAssertThrowsError(try db.checkpoint(mode)) { error in
        XCTAssertEqual((error as? SQLiteError)?.code, .misuse)
        XCTAssertTrue("\(error)".contains("external replicator"), "\(error)")
      }
    }
    XCTAssertNoThrow(try db.checkpoint(.passive))
    try db.execute("INSERT INTO t VALUES (2)")
    try db.close()
    // The last connection closed without checkpointing: the log is still there.
    let wal = try FileManager.default.attributesOfItem(atPath: path() + "-wal")
    XCTAssertGreaterThan((wal[.size] as? Int) ?? 0, 0)
    let reopened = try Connection(path: path())
    XCTAssertEqual(try reopened.scalar(Int.self, "SELECT count(*) FROM t"), 2)
    try reopened.close()
  }

  func testSQLitesPolicyCheckpointsOnCloseAndAllowsTruncate() throws {
    let db = try walConnection(.sqlite)
    try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
    XCTAssertNoThrow(try db.checkpoint(.truncate))
    try db.execute("INSERT INTO t VALUES (2)")
    try db.close()
    XCTAssertFalse(FileManager.default.fileExists(atPath: path() + "-wal"))
  }
}
