import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

private struct Visitor: Model, Equatable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
}

/// A queue, a pool or a directory released without `close()` closes its connections once
/// the last reference goes: a thousand of them, each writing a model, leave the open file
/// descriptors and the resident memory where they were.
final class ReleasedDatabaseTests: TemporaryDirectoryTestCase {
  /// Commits skip the disk flush: the tests count descriptors, not durability, and a
  /// thousand flushes would make them slow.
  private var fastOptions: OpenOptions {
    var options = OpenOptions()
    options.connectionSetup = { db in try db.execute("PRAGMA synchronous = OFF") }
    return options
  }

  func testAQueueReleasedAfterAModelInsertClosesItsConnection() throws {
    let file = path("queue.sqlite")
    let options = fastOptions
    try assertDescriptorsAndMemoryStayFlat {
      let queue = try DatabaseQueue(path: file, options: options)
      try queue.write { db in _ = try db.insert(Visitor(id: nil, name: "Ann")) }
    }
  }

  func testAQueueReleasedAfterAModelSaveWithACacheClosesItsConnection() throws {
    let file = path("cached.sqlite")
    let options = fastOptions
    try assertDescriptorsAndMemoryStayFlat {
      let queue = try DatabaseQueue(path: file, options: options)
      let cache = try QueryCache(queue)
      _ = try cache.query("SELECT count(*) FROM sqlite_schema")
      // The write comes last: a read of the queue's connection after it would find the
      // schema changed and drop the model tables, with their statements, inside a closure.
      try queue.write { db in try db.save(Visitor(id: 1, name: "Ann")) }
    }
  }

  func testAPoolReleasedAfterAModelSaveAndAReadClosesEveryConnection() throws {
    let file = path("pool.sqlite")
    let options = fastOptions
    try assertDescriptorsAndMemoryStayFlat {
      let pool = try DatabasePool(path: file, options: options)
      try pool.write { db in try db.save(Visitor(id: 1, name: "Ann")) }
      XCTAssertEqual(try pool.read { db in try db.count(Visitor.self) }, 1)
    }
  }

  func testADirectoryReleasedAfterModelWritesClosesEveryDatabase() throws {
    let folder = path("folder")
    let options = fastOptions
    var migrator = Migrator()
    migrator.registerModels("v1", Visitor.self)
    let models = migrator
    func run<Database: DatabaseAccess>(
      _ open: @escaping @Sendable (String) throws -> Database
    ) throws {
      try assertDescriptorsAndMemoryStayFlat(iterations: 500) {
        let directory = try DatabaseDirectory(
          path: folder, prefix: "app", common: models, perUser: models, open: open)
        try directory.common?.write { db in try db.save(Visitor(id: 1, name: "common")) }
        let user = try XCTUnwrap(try directory.switchUser(to: "u1"))
        try user.write { db in _ = try db.save(Visitor(id: 1, name: "Ann")) }
        XCTAssertEqual(try user.read { db in try db.count(Visitor.self) }, 1)
      }
    }
    try run { try DatabaseQueue(path: $0, options: options) }
    try run { try DatabasePool(path: $0, options: options, maximumReaderCount: 2) }
  }

  /// An observation cancelled and released lets its queue go: nothing it registered keeps
  /// the queue alive.
  func testAQueueReleasedAfterAnObservationEndsClosesItsConnection() throws {
    let file = path("observed.sqlite")
    let options = fastOptions
    let live = { ObservationCounter.live.load(ordering: .relaxed) }
    let start = live()
    // A runner ends on a worker thread soon after it delivered its value; counting waits
    // for the last ones (the test fails on the descriptors if one never ends).
    let settle = {
      let deadline = Date().addingTimeInterval(10)
      while live() > start, Date() < deadline { usleep(1_000) }
    }
    try assertDescriptorsAndMemoryStayFlat(settle: settle) {
      let queue = try DatabaseQueue(path: file, options: options)
      try queue.write { db in try db.save(Visitor(id: 1, name: "Ann")) }
      let delivered = DispatchSemaphore(value: 0)
      let observation = queue.observe(
        { db in try db.count(Visitor.self) }, onChange: { _ in delivered.signal() })
      delivered.wait()
      observation.cancel()
    }
  }

  /// A statement that outlives its queue keeps the connection open (SQLite closes it once
  /// its last statement is finalized) until it is released, on any thread.
  func testAStatementOutlivingItsQueueClosesTheConnectionWhenReleased() throws {
    try skipUnlessProcessStatsExist()
    let file = path("outlived.sqlite")
    let before = try XCTUnwrap(openFileDescriptorCount())
    var statements: [Statement] = []
    for _ in 0..<50 {
      let queue = try DatabaseQueue(path: file, options: fastOptions)
      try queue.write { db in _ = try db.insert(Visitor(id: nil, name: "Ann")) }
      statements.append(try queue.read { db in try db.prepare("SELECT count(*) FROM Visitor") })
    }
    XCTAssertGreaterThanOrEqual(try XCTUnwrap(openFileDescriptorCount()), before + 50)
    let held = Unchecked(statements)  // released on another thread, the misuse under test
    statements = []
    let released = DispatchSemaphore(value: 0)
    Thread {
      held.value = []
      released.signal()
    }.start()
    released.wait()
    XCTAssertEqual(try XCTUnwrap(openFileDescriptorCount()), before)
  }
}
