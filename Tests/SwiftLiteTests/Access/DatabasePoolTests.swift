import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

final class DatabasePoolTests: SQLiteTestCase {
  private var pool: DatabasePool!
  private var poolPath: String { path("pool.sqlite") }

  override func setUpWithError() throws {
    try super.setUpWithError()
    pool = try DatabasePool(path: poolPath, maximumReaderCount: 4)
    try pool.write { db in
      try db.execute("CREATE TABLE event(id INTEGER PRIMARY KEY, source TEXT, n INTEGER)")
    }
  }

  override func tearDownWithError() throws {
    try pool?.close()
    pool = nil
    try super.tearDownWithError()
  }

  private static func count(_ db: Connection) throws -> Int {
    try db.scalar(Int.self, "SELECT count(*) FROM event") ?? -1
  }

  func testTheFileIsInWALModeAndReadersAreReadOnly() throws {
    XCTAssertEqual(try pool.writeWithoutTransaction { try $0.journalMode() }, .wal)
    assertSQLiteError(try self.pool.read { try $0.run("INSERT INTO event(n) VALUES (1)") }) {
      XCTAssertEqual($0.code, .readOnly)
    }
    assertSQLiteError(try self.pool.read { _ in try self.pool.write { _ in } }) {
      XCTAssertEqual($0.code, .readOnly)
    }
    XCTAssertEqual(try pool.read { try Self.count($0) }, 0)
  }

  func testAnInMemoryPoolIsRefused() {
    assertSQLiteError(try DatabasePool(path: ":memory:")) { XCTAssertEqual($0.code, .misuse) }
  }

  /// Reads complete while a write is in progress: the write waits until they are done, so
  /// on a serial queue this test would never finish.
  func testReadersMakeProgressDuringALongWrite() throws {
    try pool.write { db in try db.run("INSERT INTO event(source, n) VALUES ('before', 0)") }
    let writeStarted = DispatchSemaphore(value: 0)
    let readsDone = DispatchSemaphore(value: 0)
    let writeDone = DispatchSemaphore(value: 0)
    let pool = self.pool!
    DispatchQueue.global().async {
      try? pool.write { db in
        try db.run("INSERT INTO event(source, n) VALUES ('long write', 1)")
        writeStarted.signal()
        readsDone.wait()
      }
      writeDone.signal()
    }
    writeStarted.wait()
    var timestamps: [Date] = []
    for _ in 0..<20 {
      XCTAssertEqual(try pool.read { try Self.count($0) }, 1, "a read saw an uncommitted row")
      timestamps.append(Date())
    }
    XCTAssertEqual(timestamps.count, 20)
    readsDone.signal()
    writeDone.wait()
    XCTAssertEqual(try pool.read { try Self.count($0) }, 2)
  }

  /// A read sees one snapshot from start to end while writes commit beside it.
  func testAReadSeesOneSnapshotThroughout() throws {
    let pool = self.pool!
    let seen = try pool.read { db -> [Int] in
      var counts = [try Self.count(db)]
      for n in 0..<5 {
        // A write from another thread commits while this read is open.
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          _ = try? pool.write { db in
            try db.run("INSERT INTO event(source, n) VALUES ('w', ?)", [n])
          }
          done.signal()
        }
        done.wait()
        counts.append(try Self.count(db))
      }
      return counts
    }
    XCTAssertEqual(seen, [0, 0, 0, 0, 0, 0])
    XCTAssertEqual(try pool.read { try Self.count($0) }, 5)
  }

  func testAReadInsideAWriteSeesThatWrite() throws {
    let counts = try pool.write { db -> (Int, Int) in
      try db.run("INSERT INTO event(n) VALUES (1)")
      return (try self.pool.read { try Self.count($0) }, try Self.count(db))
    }
    XCTAssertEqual(counts.0, 1)
    XCTAssertEqual(counts.1, 1)
    // A nested write is a savepoint; a nested read inside a read runs inline.
    try pool.write { _ in try self.pool.write { try $0.run("INSERT INTO event(n) VALUES (2)") } }
    XCTAssertEqual(try pool.read { _ in try self.pool.read { try Self.count($0) } }, 2)
  }

  func testEightWriterThreadsAndEightReaderTasksLoseNothing() async throws {
    let pool = self.pool!
    let perWriter = 150
    let writers = Task.detached {
      DispatchQueue.concurrentPerform(iterations: 8) { writer in
        for n in 0..<perWriter {
          _ = try? pool.write { db in
            try db.run("INSERT INTO event(source, n) VALUES (?, ?)", ["w\(writer)", n])
          }
        }
      }
    }
    let maxSeen = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          var last = 0
          for _ in 0..<40 {
            let seen = try await pool.read { db in
              try db.scalar(Int.self, "SELECT count(*) FROM event") ?? 0
            }
            XCTAssertGreaterThanOrEqual(seen, last, "a later read saw fewer rows")
            last = seen
          }
          return last
        }
      }
      return try await group.reduce(0, max)
    }
    await writers.value
    XCTAssertLessThanOrEqual(maxSeen, 8 * perWriter)
    let total = try await pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM event") }
    XCTAssertEqual(total, 8 * perWriter)
    let distinct = try await pool.read { db in
      try db.scalar(Int.self, "SELECT count(DISTINCT source || '/' || n) FROM event")
    }
    XCTAssertEqual(distinct, 8 * perWriter)
    XCTAssertLessThanOrEqual(pool.readerCount, 4)
    XCTAssertGreaterThanOrEqual(pool.readerCount, 1)
  }

  /// close() waits for the work already running, then refuses more: every write that
  /// reported success is in the file, and every later call throws `.misuse`.
  func testClosingWithWorkInFlight() throws {
    let pool = self.pool!
    let succeeded = Locked(0)
    let refused = Locked(0)
    let group = DispatchGroup()
    let started = DispatchSemaphore(value: 0)
    for index in 0..<8 {
      DispatchQueue.global().async(group: group) {
        if index == 0 { started.signal() }
        for n in 0..<100 {
          do {
            if index % 2 == 0 {
              try pool.write { db in try db.run("INSERT INTO event(n) VALUES (?)", [n]) }
              succeeded.mutate { $0 += 1 }
            } else {
              _ = try pool.read { db in try Self.count(db) }
            }
          } catch let error as SQLiteError {
            XCTAssertEqual(error.code, .misuse, "\(error)")
            refused.mutate { $0 += 1 }
          } catch {
            XCTFail("unexpected \(error)")
          }
        }
      }
    }
    started.wait()
    try pool.close()
    group.wait()
    assertSQLiteError(try pool.read { _ in 1 }) { XCTAssertEqual($0.code, .misuse) }
    assertSQLiteError(try pool.write { _ in 1 }) { XCTAssertEqual($0.code, .misuse) }
    let reopened = try Connection(path: poolPath)
    XCTAssertEqual(try reopened.scalar(Int.self, "SELECT count(*) FROM event"), succeeded.value)
    try reopened.close()
    self.pool = nil
  }

  func testCheckpoints() throws {
    try pool.write { db in
      for n in 0..<500 { try db.run("INSERT INTO event(source, n) VALUES (?, ?)", ["x", n]) }
    }
    let wal = poolPath + "-wal"
    let size = { (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? -1 }
    XCTAssertGreaterThan(size(), 0)
    let passive = try pool.checkpoint()
    XCTAssertEqual(passive.logFrameCount, passive.checkpointedFrameCount)
    try pool.checkpoint(.truncate)
    XCTAssertEqual(size(), 0)
    XCTAssertEqual(try pool.read { try Self.count($0) }, 500)
    // Closed, the pool leaves one self-contained file.
    try pool.write { db in try db.run("INSERT INTO event(n) VALUES (1)") }
    try pool.close()
    XCTAssertFalse(FileManager.default.fileExists(atPath: wal))
    XCTAssertFalse(FileManager.default.fileExists(atPath: poolPath + "-shm"))
    pool = nil
  }

  func testAConnectionEscapingAReadThrowsMisuse() throws {
    let escaped = try pool.read { $0 }
    assertSQLiteError(try escaped.query("SELECT 1")) { XCTAssertEqual($0.code, .misuse) }
    let writer = try pool.write { $0 }
    assertSQLiteError(try writer.execute("DELETE FROM event")) { XCTAssertEqual($0.code, .misuse) }
  }

  /// Model reads on readers never write; the repository makes its table on the writer, and
  /// readers see tables the writer creates or changes later.
  func testRepositoryAndMigratorOverAPool() throws {
    let people = try Repository<PoolPerson>(pool)
    try people.create(PoolPerson(id: 1, name: "Ann"))
    try people.create(PoolPerson(id: 2, name: "Bob"))
    XCTAssertEqual(try people.findAll(orderBy: "id").map(\.name), ["Ann", "Bob"])
    XCTAssertEqual(try people.findById(2)?.name, "Bob")
    XCTAssertEqual(try people.count(), 2)

    // A per-target table made after the readers looked.
    XCTAssertEqual(try pool.read { try $0.count(PoolPerson.self, target: "late") }, 0)
    let late = try Repository<PoolPerson>(pool, target: "late")
    try late.save(PoolPerson(id: 7, name: "Eve"))
    XCTAssertEqual(try late.findAll().map(\.name), ["Eve"])

    var migrator = Migrator()
    migrator.register("add note") { db in try db.execute("CREATE TABLE note(text TEXT)") }
    XCTAssertEqual(try migrator.pendingMigrations(pool), ["add note"])
    XCTAssertEqual(try migrator.migrate(pool), ["add note"])
    XCTAssertEqual(try migrator.pendingMigrations(pool), [])
    XCTAssertEqual(try pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM note") }, 0)
  }

  func testRepositoryAsyncOverAPool() async throws {
    let people = try Repository<PoolPerson>(pool)
    try await people.create(PoolPerson(id: 1, name: "Ann"))
    try await people.save([PoolPerson(id: 2, name: "Bob"), PoolPerson(id: 3, name: "Cy")])
    try await people.modify(PoolPerson(id: 3, name: "Cyd"))
    let bob = try await people.findById(2)
    XCTAssertEqual(bob?.name, "Bob")
    let count = try await people.count(where: "id > ?", [1])
    XCTAssertEqual(count, 2)
    try await people.remove(1)
    let left = try await people.findAll(where: "id >= ?", [2], orderBy: "id", limit: 5)
    XCTAssertEqual(left.map(\.name), ["Bob", "Cyd"])
    do {
      try await people.remove(1)
      XCTFail("removing a missing row should throw")
    } catch let error as ModelError {
      XCTAssertEqual(error, .notFound(table: "PoolPerson", key: [.integer(1)]))
    }
  }

  func testAsyncReadsAndWrites() async throws {
    let pool = self.pool!
    try await pool.write { db in try db.run("INSERT INTO event(n) VALUES (1)") }
    try await pool.writeWithoutTransaction { db in try db.run("INSERT INTO event(n) VALUES (2)") }
    let total = try await pool.read { db in try db.scalar(Int.self, "SELECT sum(n) FROM event") }
    XCTAssertEqual(total, 3)
  }
}

private struct PoolPerson: Model, Equatable {
  var id: Int64
  var name: String
  static let primaryKey = ["id"]
}

extension DatabasePoolTests {
  func testTwoThreadsClosingAPoolAtOnceBothReturn() throws {
    let pool = try DatabasePool(path: path("close.sqlite"), maximumReaderCount: 4)
    try pool.write { try $0.execute("CREATE TABLE t(x)") }
    for _ in 0..<4 { _ = try pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") } }
    let group = DispatchGroup()
    let errors = Locked<[String]>([])
    for _ in 0..<2 {
      DispatchQueue.global().async(group: group) {
        do { try pool.close() } catch { errors.mutate { $0.append("\(error)") } }
      }
    }
    XCTAssertEqual(group.wait(timeout: .now() + 20), .success, "close() deadlocked")
    XCTAssertEqual(errors.value, [])
  }
}
