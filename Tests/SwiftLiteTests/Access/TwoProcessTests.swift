import Foundation
import XCTest

@testable import SwiftLite

/// Two processes writing one file: this test process and a helper executable built with
/// the package (`SwiftLiteProcessHelper`), each through a queue or a pool.
final class TwoProcessTests: SQLiteTestCase {
  private let rowsPerWriter = 300

  private func run(_ mode: String) throws {
    let file = path("\(mode).sqlite")
    let setup = try Connection(path: file)
    try setup.execute(
      "CREATE TABLE event(id INTEGER PRIMARY KEY, writer TEXT NOT NULL, n INTEGER NOT NULL)")
    try setup.close()

    let helper = try processHelperURL()
    var children: [(Process, Pipe)] = []
    for child in 0..<2 {
      let process = Process()
      let errors = Pipe()
      process.executableURL = helper
      process.arguments = [mode, file, "child\(child)", String(rowsPerWriter)]
      process.standardError = errors
      try process.run()
      children.append((process, errors))
    }
    // This process writes beside them.
    // As the helper does: a minute's busy timeout, so a loaded machine cannot make a
    // writer give up while the others take turns at the lock.
    var options = OpenOptions()
    options.busyTimeout = 60
    let database: any DatabaseAccess =
      mode == "pool"
      ? try DatabasePool(path: file, options: options)
      : try DatabaseQueue(path: file, options: options)
    for n in 0..<rowsPerWriter {
      try database.write { db in
        try db.run("INSERT INTO event(writer, n) VALUES ('parent', ?)", [n])
      }
    }
    for (process, errors) in children {
      process.waitUntilExit()
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      XCTAssertEqual(process.terminationStatus, 0, "a child failed: \(message)")
      XCTAssertFalse(message.contains("locked"), message)
    }
    let counts = try database.read { db in
      try db.query("SELECT writer, count(DISTINCT n) FROM event GROUP BY writer ORDER BY writer")
        .map { "\(try $0.get(String.self, at: 0))=\(try $0.get(Int.self, at: 1))" }
    }
    XCTAssertEqual(
      counts, ["child0=\(rowsPerWriter)", "child1=\(rowsPerWriter)", "parent=\(rowsPerWriter)"])
    XCTAssertEqual(
      try database.read { try $0.scalar(Int.self, "SELECT count(*) FROM event") },
      3 * rowsPerWriter)
    try database.close()
  }

  func testTwoProcessesWriteOneFileThroughQueues() throws { try run("queue") }

  func testTwoProcessesWriteOneFileThroughPools() throws { try run("pool") }
}
