import Foundation
import XCTest

@testable import SwiftLite

/// Sessions held by a queue or a pool, and applies through them that observers and the
/// query cache hear of.
final class DatabaseSessionTests: TemporaryDirectoryTestCase {
  static let schema =
    "CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, body TEXT, updatedAt INTEGER)"

  override func setUpWithError() throws {
    try super.setUpWithError()
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
  }

  private func queue(_ name: String) throws -> DatabaseQueue {
    let queue = try DatabaseQueue(path: path(name))
    try queue.write { db in try db.execute(Self.schema) }
    return queue
  }

  private func rows(_ database: some DatabaseAccess) throws -> [String] {
    try database.read { db in
      try db.query("SELECT id || ':' || body FROM note ORDER BY id").map {
        try $0.get(String.self, at: 0)
      }
    }
  }

  func testAQueueSessionRecordsAcrossManyWriteClosures() throws {
    let source = try queue("source.sqlite")
    let target = try queue("target.sqlite")
    let session = try source.makeSession(attaching: ["note"])
    XCTAssertEqual(try session.tables(), ["note"])
    XCTAssertTrue(try session.isEmpty())
    try source.write { db in try db.run("INSERT INTO note VALUES ('a', 'one', 1)") }
    try source.write { db in try db.run("INSERT INTO note VALUES ('b', 'two', 1)") }
    try source.write { db in try db.run("UPDATE note SET body = 'ONE' WHERE id = 'a'") }
    XCTAssertThrowsError(
      try source.write { db in
        try db.run("INSERT INTO note VALUES ('c', 'rolled back', 1)")
        throw TestError()
      })
    let changeset = try session.changeset()
    try target.apply(changeset)
    XCTAssertEqual(try rows(target), ["a:ONE", "b:two"])
    XCTAssertEqual(try rows(target), try rows(source))
  }

  func testManyTasksWriteWhileOneSessionRecordsThemAll() async throws {
    let source = try queue("source.sqlite")
    let session = try source.makeSession(attaching: ["note"])
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for row in 0..<10 {
            try await source.write { db in
              try db.run("INSERT INTO note VALUES (?, 'x', 0)", ["\(task)-\(row)"])
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let changeset = try await session.changeset()
    XCTAssertEqual(try changeset.changes().count, 80)
  }

  func testAPoolSessionRecordsOnTheWriterAndAPatchsetAppliesToAPool() throws {
    let source = try DatabasePool(path: path("source.sqlite"))
    let target = try DatabasePool(path: path("target.sqlite"))
    for pool in [source, target] { try pool.write { db in try db.execute(Self.schema) } }
    let session = try source.makeSession()
    try session.attachAllTables()
    try source.write { db in try db.run("INSERT INTO note VALUES ('a', 'one', 1)") }
    try source.write { db in try db.run("INSERT INTO note VALUES ('b', 'two', 1)") }
    try session.setEnabled(false)
    try source.write { db in try db.run("INSERT INTO note VALUES ('paused', 'x', 1)") }
    try session.setEnabled(true)
    try source.write { db in try db.execute("CREATE TABLE later(v); INSERT INTO later VALUES (1)") }
    XCTAssertEqual(try session.unrecordedTables(), ["later"])
    let patchset = try session.patchset()
    XCTAssertTrue(patchset.isPatchset)
    try target.apply(patchset)
    XCTAssertEqual(try rows(target), ["a:one", "b:two"], "the paused insert is not recorded")
    try source.close()
    try target.close()
  }

  func testAnObservationOnTheReceivingQueueSeesTheAppliedRows() async throws {
    let source = try queue("source.sqlite")
    let target = try queue("target.sqlite")
    let session = try source.makeSession(attaching: ["note"])
    try await source.write { db in
      try db.run("INSERT INTO note VALUES ('a', 'one', 1)")
      try db.run("INSERT INTO note VALUES ('b', 'two', 1)")
    }
    let changeset = try await session.changeset()
    let cache = try QueryCache(target)
    XCTAssertEqual(try cache.query("SELECT count(*) FROM note").first?[0], 0)
    var values = target.observe { db in try db.scalar(Int.self, "SELECT count(*) FROM note") ?? 0 }
      .makeAsyncIterator()
    let first = try await values.next()
    XCTAssertEqual(first, 0)
    try await target.apply(changeset)
    let second = try await values.next()
    XCTAssertEqual(second, 2, "the observation saw the applied rows")
    XCTAssertEqual(
      try cache.query("SELECT count(*) FROM note").first?[0], 2,
      "the cached count was dropped by the apply's commit")
  }

  func testReleasingTheHandleEndsTheSessionOnTheWritersQueue() throws {
    let source = try DatabaseQueue(path: path("source.sqlite"))
    try source.write { db in try db.execute("CREATE TABLE loose(k TEXT PRIMARY KEY, v)") }
    var session: DatabaseSession? = try source.makeSession(attaching: ["loose"])
    func temporaryObjects() throws -> Int {
      try source.read { db in try db.scalar(Int.self, "SELECT count(*) FROM sqlite_temp_schema") }
        ?? 0
    }
    XCTAssertEqual(try temporaryObjects(), 4, "a copy table and three triggers for NULL keys")
    try source.write { db in try db.run("INSERT INTO loose VALUES (NULL, 'skipped')") }
    XCTAssertEqual(try session?.changeset().skippedRows.count, 1)
    session = nil
    // The session ended on the queue, before this read, which queues after it.
    XCTAssertEqual(try temporaryObjects(), 0)
  }

  func testClosingTheDatabaseEndsTheSession() throws {
    let source = try queue("source.sqlite")
    let session = try source.makeSession(attaching: ["note"])
    try source.close()
    XCTAssertThrowsError(try session.changeset()) {
      XCTAssertEqual(($0 as? SQLiteError)?.code, .misuse)
    }
  }

  /// The README's example ("More than one machine"), run as written.
  func testTheReadmeExample() throws {
    let laptop = try queue("laptop.sqlite")
    let phone = try queue("phone.sqlite")
    for queue in [laptop, phone] {
      try queue.write { db in try db.run("INSERT INTO note VALUES ('n', 'milk', 1)") }
    }
    let (id, body) = ("n", "milk, eggs")
    let outbox = directory.appendingPathComponent("1.changeset")
    let inbox = outbox

    let session = try laptop.makeSession(attaching: ["note"])  // a DatabaseQueue or a DatabasePool
    try laptop.write { db in try db.run("UPDATE note SET body = ? WHERE id = ?", [body, id]) }
    let changeset = try session.changeset()  // every write since, as Data
    try changeset.data.write(to: outbox)

    let received = Changeset(data: try Data(contentsOf: inbox))
    try phone.apply(received) { conflict in  // one transaction: all or nothing
      switch conflict.kind {
      case .data, .conflict: return .replace  // the incoming row wins
      case .notFound: return .omit  // already deleted here
      case .constraint, .foreignKey: return .abort  // throws ChangesetError.aborted
      }
    }
    XCTAssertEqual(try rows(phone), ["n:milk, eggs"])
  }
}
