import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

final class BackupTests: SQLiteTestCase {
  private func fill(_ db: Connection, rows: Int) throws {
    try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    try db.savepoint { db in
      for n in 0..<rows {
        try db.run(
          "INSERT INTO item(id, text) VALUES (?, ?)", [n, String(repeating: "x", count: 200)])
      }
    }
  }

  private func count(_ path: String) throws -> Int {
    let db = try Connection(path: path)
    defer { try? db.close() }
    XCTAssertEqual(try db.scalar(String.self, "PRAGMA integrity_check"), "ok")
    return try db.scalar(Int.self, "SELECT count(*) FROM item") ?? -1
  }

  private func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path("")).filter { $0.contains(".backup-") }
  }

  /// An in-memory database (where VACUUM INTO writes nothing) backed up to a file, in
  /// steps, with progress, and reopened.
  func testAnInMemoryDatabaseBacksUpToAFile() throws {
    let memory = try Connection.inMemory()
    try fill(memory, rows: 2_000)
    var reports: [BackupProgress] = []
    try memory.backup(toPath: path("copy.sqlite"), pagesPerStep: 10) { reports.append($0) }
    XCTAssertGreaterThan(reports.count, 5)
    XCTAssertEqual(reports.last?.completedPages, reports.last?.totalPages)
    XCTAssertEqual(reports.map(\.completedPages), reports.map(\.completedPages).sorted())
    XCTAssertEqual(reports.first?.completedPages, 10)
    XCTAssertEqual(try count(path("copy.sqlite")), 2_000)
    XCTAssertEqual(try leftovers(), [])
  }

  func testCancellingLeavesNoPartialFileAndKeepsTheOldOne() throws {
    let memory = try Connection.inMemory()
    try fill(memory, rows: 2_000)
    var steps = 0
    XCTAssertThrowsError(
      try memory.backup(toPath: path("copy.sqlite"), pagesPerStep: 10) { _ in
        steps += 1
        if steps == 3 { throw CancellationError() }
      }
    ) { XCTAssertTrue($0 is CancellationError) }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("copy.sqlite")))
    XCTAssertEqual(try leftovers(), [])

    // Over an existing backup: cancelled, the old one stays; completed, it is replaced.
    let small = try Connection.inMemory()
    try fill(small, rows: 3)
    try small.backup(toPath: path("copy.sqlite"))
    XCTAssertThrowsError(
      try memory.backup(toPath: path("copy.sqlite"), pagesPerStep: 10) { _ in
        throw CancellationError()
      })
    XCTAssertEqual(try count(path("copy.sqlite")), 3)
    try memory.backup(toPath: path("copy.sqlite"))
    XCTAssertEqual(try count(path("copy.sqlite")), 2_000)
    XCTAssertEqual(try leftovers(), [])
  }

  func testBackupToAnotherConnectionAndCancelRollsItBack() throws {
    try fill(db, rows: 500)
    let other = try Connection(path: path("other.sqlite"))
    try other.execute("CREATE TABLE keep(x); INSERT INTO keep VALUES (1)")
    XCTAssertThrowsError(
      try db.backup(to: other, pagesPerStep: 2) { progress in
        if progress.completedPages >= 4 { throw CancellationError() }
      })
    XCTAssertEqual(try other.scalar(Int.self, "SELECT count(*) FROM keep"), 1)
    try db.backup(to: other, pagesPerStep: 0)
    XCTAssertEqual(try other.scalar(Int.self, "SELECT count(*) FROM item"), 500)
    assertSQLiteError(try other.scalar(Int.self, "SELECT count(*) FROM keep")) {
      XCTAssertTrue($0.message.contains("no such table"))
    }
    try other.close()
    assertSQLiteError(try db.backup(to: db)) { XCTAssertEqual($0.code, .misuse) }
  }

  /// A pool backs up one snapshot while a writer keeps committing pairs of rows: the copy
  /// is whole (an even count) and the writes all land.
  func testBackupWhileOthersWrite() throws {
    let pool = try DatabasePool(path: path("live.sqlite"))
    try pool.write { db in try fill(db, rows: 4_000) }
    let stop = Locked(false)
    let written = Locked(0)
    let writer = Thread {
      var n = 100_000
      while !stop.value {
        do {
          try pool.write { db in
            try db.run("INSERT INTO item(id, text) VALUES (?, 'a')", [n])
            try db.run("INSERT INTO item(id, text) VALUES (?, 'b')", [n + 1])
          }
          written.mutate { $0 += 2 }
        } catch { XCTFail("\(error)") }
        n += 2
      }
    }
    writer.start()
    var reports = 0
    try pool.backup(toPath: path("snapshot.sqlite"), pagesPerStep: 8) { _ in
      reports += 1
      usleep(200)  // let the writer commit between steps
    }
    stop.mutate { $0 = true }
    while writer.isExecuting { usleep(100) }
    let copied = try count(path("snapshot.sqlite"))
    XCTAssertGreaterThanOrEqual(copied, 4_000)
    XCTAssertEqual(copied % 2, 0, "the copy holds half a transaction")
    XCTAssertGreaterThan(reports, 10)
    XCTAssertEqual(
      try pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM item") }, 4_000 + written.value)

    // A queue copies the same way.
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    try queue.write { db in try fill(db, rows: 10) }
    try queue.backup(toPath: path("queue-copy.sqlite"))
    XCTAssertEqual(try count(path("queue-copy.sqlite")), 10)
    try pool.close()
    try queue.close()
  }
}

extension BackupTests {
  func testABackupOntoItsOwnFileIsRefusedAndLosesNothing() throws {
    let file = path("own.sqlite")
    let pool = try DatabasePool(path: file)
    try pool.write { try $0.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
    XCTAssertThrowsError(try pool.backup(toPath: file)) {
      XCTAssertEqual(($0 as? SQLiteError)?.code, .misuse, "\($0)")
    }
    try pool.write { try $0.run("INSERT INTO t VALUES (2)") }
    try pool.close()
    XCTAssertEqual(try Connection(path: file).scalar(Int.self, "SELECT count(*) FROM t"), 2)
  }
}

extension BackupTests {
  /// On a queue, the copy holds the queue's one connection: a write through the queue,
  /// started during the copy, lands only after the whole copy (which does not hold it), as
  /// the README and `DatabaseAccess.backup(toPath:)` say.
  func testAQueuesWritesWaitForTheWholeBackup() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    try queue.write { db in try fill(db, rows: 2_000) }
    let written = Locked(false)
    let writeDone = DispatchSemaphore(value: 0)
    var steps = 0
    try queue.backup(toPath: path("queue-copy.sqlite"), pagesPerStep: 8) { _ in
      steps += 1
      if steps == 1 {
        Thread {
          do {
            try queue.write { db in try db.run("INSERT INTO item(id, text) VALUES (-1, 'x')") }
          } catch { XCTFail("\(error)") }
          written.mutate { $0 = true }
          writeDone.signal()
        }.start()
      }
      XCTAssertFalse(written.value, "a write through the queue landed during its backup")
    }
    XCTAssertGreaterThan(steps, 10)
    writeDone.wait()
    XCTAssertEqual(try count(path("queue-copy.sqlite")), 2_000)
    XCTAssertEqual(try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM item") }, 2_001)
    try queue.close()

    let readme = try readmeText()
    XCTAssertTrue(
      readme.contains(
        "on a queue, the copy holds the queue's one connection, so writes "
          + "through the queue wait for the whole copy"))
    XCTAssertFalse(readme.contains("copies one snapshot while writes go on"))
  }
}
