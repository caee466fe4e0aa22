import Dispatch
import XCTest

@testable import SwiftLite

/// Starting an observation in async code holds no thread while the writer is busy: the
/// first observation of a queue or pool turns change tracking on with the task suspended,
/// and no commit falls between the start and the first value.
final class ObservationStartTests: TemporaryDirectoryTestCase {
  /// The write holds the writer and waits (bounded, only so that the test ends) for the
  /// observer task to signal that `makeAsyncIterator()` returned: it returns while the
  /// writer is busy, and the first value comes once the write ends. For a queue and a pool.
  func testStartingTheFirstObservationDoesNotWaitForABusyWriter() throws {
    for database in try [
      DatabaseQueue(path: path("queue.sqlite")) as any DatabaseAccess,
      DatabasePool(path: path("pool.sqlite")),
    ] {
      try database.write { db in try db.execute("CREATE TABLE item(x)") }
      let writeStarted = DispatchSemaphore(value: 0)
      let iteratorMade = DispatchSemaphore(value: 0)
      let madeDuringWrite = Locked(false)
      let write = Task {
        try await database.write { _ in
          writeStarted.signal()
          let made = iteratorMade.wait(timeout: .now() + 10) == .success
          madeDuringWrite.mutate { $0 = made }
        }
      }
      writeStarted.wait()
      let observer = Task { () async throws -> Int in
        var iterator = database.observe { db in
          try db.scalar(Int.self, "SELECT count(*) FROM item") ?? 0
        }.makeAsyncIterator()
        iteratorMade.signal()
        return try await iterator.next() ?? -1
      }
      try resultOfTask { try await write.value }
      XCTAssertTrue(
        madeDuringWrite.value,
        "starting an observation on \(type(of: database)) blocked its task's thread until the "
          + "writer was free")
      XCTAssertEqual(try resultOfTask { try await observer.value }, 0)
      try database.close()
    }
  }

  /// A commit made after the iterator is created, before change tracking is on (the busy
  /// write commits it once the iterator exists), is in the first value; the next commit
  /// brings the next value.
  func testACommitMadeAsTheFirstObservationStartsIsObserved() throws {
    for database in try [
      DatabaseQueue(path: path("queue.sqlite")) as any DatabaseAccess,
      DatabasePool(path: path("pool.sqlite")),
    ] {
      try database.write { db in try db.execute("CREATE TABLE item(x)") }
      let writeStarted = DispatchSemaphore(value: 0)
      let iteratorMade = DispatchSemaphore(value: 0)
      let write = Task {
        try await database.write { db in
          writeStarted.signal()
          _ = iteratorMade.wait(timeout: .now() + 10)
          try db.run("INSERT INTO item VALUES (1)")
        }
      }
      writeStarted.wait()
      let observer = Task { () async throws -> [Int] in
        var iterator = database.observe { db in
          try db.scalar(Int.self, "SELECT count(*) FROM item") ?? 0
        }.makeAsyncIterator()
        iteratorMade.signal()
        guard let first = try await iterator.next() else { return [] }
        try await database.write { db in try db.run("INSERT INTO item VALUES (2)") }
        while let value = try await iterator.next() {
          if value == 2 { return [first, value] }
        }
        return [first]
      }
      try resultOfTask { try await write.value }
      XCTAssertEqual(try boundedValue(of: observer), [1, 2], "\(type(of: database))")
      try database.close()
    }
  }

  /// An observation cancelled while it waits for the busy writer to turn tracking on ends
  /// at once, leaves no listener, and never turns tracking on.
  func testAnObservationCancelledWhileWaitingForTheWriterEndsCleanly() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    try queue.write { db in try db.execute("CREATE TABLE item(x)") }
    let before = ObservationCounter.live.load(ordering: .relaxed)
    let writeStarted = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let write = Task {
      try await queue.write { _ in
        writeStarted.signal()
        _ = release.wait(timeout: .now() + 10)
      }
    }
    writeStarted.wait()
    let observer = Task { () async throws -> Int? in
      var iterator = queue.observe { db in
        try db.scalar(Int.self, "SELECT count(*) FROM item") ?? 0
      }.makeAsyncIterator()
      return try await iterator.next()
    }
    // The observation's hop to the writer waits behind the write.
    XCTAssertTrue(eventually { queue.database.queuedTaskCount == 1 })
    observer.cancel()
    let ended = boundedResult(of: observer)
    release.signal()
    try resultOfTask { try await write.value }
    switch ended {
    case .success(let value): XCTAssertNil(value, "a cancelled loop ends without a value")
    case .failure(let error): XCTFail("the cancelled loop threw \(error)")
    case nil: XCTFail("the cancelled observation did not end while the writer was busy")
    }
    XCTAssertTrue(eventually { ObservationCounter.live.load(ordering: .relaxed) == before })
    XCTAssertEqual(queue.database.commitListenerCount, 0)
    XCTAssertFalse(queue.database.isTrackingChanges)
    try queue.close()
  }

  /// The result of `task`, waited for up to 30 s (a deadlock guard, not a timing
  /// assertion); `nil`, the task cancelled, when it did not end by then.
  private func boundedResult<T: Sendable>(of task: Task<T, any Error>) -> Result<T, any Error>? {
    let result = Locked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let outcome = await task.result
      result.mutate { $0 = outcome }
      done.signal()
    }
    guard done.wait(timeout: .now() + 30) == .success else {
      task.cancel()
      return nil
    }
    return result.value
  }

  /// The value of `task`, waited for as ``boundedResult(of:)`` does.
  private func boundedValue<T: Sendable>(of task: Task<T, any Error>) throws -> T? {
    try boundedResult(of: task)?.get()
  }

  /// Whether `condition` holds within 10 s (a deadlock guard, not a timing assertion).
  private func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + 10
    while !condition() {
      if DispatchTime.now() > deadline { return false }
      sched_yield()
    }
    return true
  }
}
