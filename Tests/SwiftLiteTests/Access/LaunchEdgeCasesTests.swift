import Dispatch
import Foundation
import SwiftLite
import XCTest

// Opening a file through the schema read and the foreign-key flag without a statement, the
// migrator's one-statement pending check, the thread mark of the queue that runs a closure,
// and rows read in place on another thread.

final class LaunchEdgeCasesTests: TemporaryDirectoryTestCase {
  /// Pins: a file of garbage bytes fails to open as not a database, for a connection, a
  /// queue and a pool, and is left as it was.
  func testAGarbageFileFailsToOpenEveryWay() throws {
    let garbage = path("garbage.sqlite")
    let bytes = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    XCTAssertTrue(FileManager.default.createFile(atPath: garbage, contents: bytes))
    for attempt in 0..<3 {
      XCTAssertThrowsError(
        try {
          switch attempt {
          case 0: _ = try Connection(path: garbage)
          case 1: _ = try DatabaseQueue(path: garbage)
          default: _ = try DatabasePool(path: garbage)
          }
        }()
      ) { error in
        XCTAssertEqual((error as? SQLiteError)?.code, .notADatabase, "attempt \(attempt): \(error)")
      }
    }
    XCTAssertEqual(FileManager.default.contents(atPath: garbage), bytes)
  }

  /// Pins: foreign keys are enforced by the writer of a pool and a queue, and stay so
  /// after a backup into the connection.
  func testForeignKeysAreEnforcedOnPoolQueueAndAfterABackup() throws {
    let schema =
      "CREATE TABLE p (id INTEGER PRIMARY KEY); "
      + "CREATE TABLE c (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES p(id))"
    let pool = try DatabasePool(path: path("pool.sqlite"))
    try pool.write { db in try db.execute(schema) }
    XCTAssertThrowsError(try pool.write { db in try db.execute("INSERT INTO c VALUES (1, 42)") })
    try pool.read { db in XCTAssertTrue(try db.foreignKeysEnabled()) }
    try pool.close()
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    try queue.write { db in try db.execute(schema) }
    XCTAssertThrowsError(try queue.write { db in try db.execute("INSERT INTO c VALUES (1, 42)") })
    try queue.close()
    let source = try Connection(path: path("source.sqlite"))
    try source.execute(schema)
    let target = try Connection(path: path("target.sqlite"))
    try source.backup(to: target)
    XCTAssertTrue(try target.foreignKeysEnabled())
    XCTAssertThrowsError(try target.execute("INSERT INTO c VALUES (1, 42)"))
    try source.close()
    try target.close()
  }

  /// Pins: a migrator whose record table another program changed (its `name` column
  /// renamed) reports the failure, not "nothing applied", so nothing runs twice.
  func testARecordTableChangedByAnotherProgramIsReportedNotTakenAsEmpty() throws {
    var migrator = Migrator()
    migrator.register("one") { db in try db.execute("CREATE TABLE a (x)") }
    let db = try Connection(path: path())
    _ = try migrator.migrate(db)
    let record = Migrator.recordTable
    try db.execute("ALTER TABLE \"\(record)\" RENAME COLUMN name TO title")
    XCTAssertThrowsError(try migrator.pendingMigrations(db))
    XCTAssertThrowsError(try migrator.migrate(db))
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'a'"), 1)
    try db.close()
  }

  /// A queue's closure that goes through a plain serial queue's `sync` (which runs on the
  /// same thread) and then reads through the same database queue: the read runs inline.
  /// Checked with a deadline: a deadlock fails the test instead of hanging it.
  func testAReadInsideAPlainQueueSyncInsideAWriteRunsInline() throws {
    let queue = try DatabaseQueue(path: path("nested.sqlite"))
    try queue.write { db in try db.execute("CREATE TABLE t (x)") }
    let plain = DispatchQueue(label: "plain")
    let done = DispatchSemaphore(value: 0)
    let result = Locked<Int?>(nil)
    let unchecked = Unchecked(queue)
    Thread {
      let count = try? unchecked.value.write { db -> Int in
        try db.execute("INSERT INTO t VALUES (1)")
        return try plain.sync {
          try unchecked.value.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") ?? -1 }
        }
      }
      result.mutate { $0 = count }
      done.signal()
    }.start()
    XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "deadlocked")
    XCTAssertEqual(result.value, 1)
  }

  /// Pins: a row read in place inside a queue's closure, read as Int on another thread
  /// while the closure still runs, throws `.misuse` (the inlined INTEGER read included);
  /// on a plain connection, a row read after its statement stepped on throws too. The
  /// first part holds for a cached statement (`forEachRow(_:_:_:)`) too, whose rows read
  /// the owner's thread like those of a prepared one.
  func testARowReadInPlaceOnAnotherThreadOrAfterTheNextStepThrowsMisuse() throws {
    let queue = try DatabaseQueue(path: path("rows.sqlite"))
    try queue.write { db in
      try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7), (8)")
    }
    let outcome = Locked<String?>(nil)
    try queue.read { db in
      try db.forEachRow("SELECT x, CAST(x AS TEXT) FROM t") { row in
        guard outcome.value == nil else { return }
        XCTAssertEqual(try row.get(Int.self, at: 0), 7)
        // The box holds the only reference to the row, and the thread lets it go before it
        // signals: the statement is not kept alive past the closure.
        let kept = Locked<Unchecked<Row>?>(Unchecked(row))
        let done = DispatchSemaphore(value: 0)
        Thread {
          let text = Self.readText(kept)
          kept.mutate { $0 = nil }
          outcome.mutate { $0 = text }
          done.signal()
        }.start()
        done.wait()
      }
    }
    XCTAssertEqual(outcome.value, "misuse")
    try queue.close()
    try plainConnectionRowAfterTheNextStep()
  }

  /// Reads column 1 of the kept row as text, or says how it failed.
  private static func readText(_ kept: Locked<Unchecked<Row>?>) -> String {
    do {
      guard let row = kept.value?.value else { return "no row" }
      return "read \(try row.get(String.self, at: 1))"
    } catch let error as SQLiteError {
      return error.code == .misuse ? "misuse" : "other \(error)"
    } catch {
      return "other \(error)"
    }
  }

  private func plainConnectionRowAfterTheNextStep() throws {

    let db = try Connection(path: path("plain.sqlite"))
    try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7), (8)")
    do {
      let statement = try db.prepare("SELECT x FROM t")
      XCTAssertTrue(try statement.step())
      let first = statement.row
      XCTAssertEqual(try first.get(Int.self, at: 0), 7)
      XCTAssertTrue(try statement.step())
      XCTAssertThrowsError(try first.get(Int.self, at: 0)) { error in
        XCTAssertEqual((error as? SQLiteError)?.code, .misuse, "\(error)")
      }
      XCTAssertThrowsError(try first.get(Int64.self, at: 0))
      statement.reset()
    }
    try db.close()
  }
}
