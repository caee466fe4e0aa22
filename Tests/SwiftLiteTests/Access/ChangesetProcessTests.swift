import Foundation
import XCTest

@testable import SwiftLite

/// Two processes: this one writes through a queue with a session and drops a changeset
/// into a folder after each batch; the helper executable applies each as it appears.
final class ChangesetProcessTests: TemporaryDirectoryTestCase {
  func testASecondProcessAppliesTheChangesetsOfTheFirstAsTheyAppear() throws {
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
    #if os(Linux)
      let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    #else
      let testBinary = Bundle(for: Self.self).bundleURL
    #endif
    let helper = testBinary.deletingLastPathComponent().appendingPathComponent(
      "SwiftLiteProcessHelper")
    guard FileManager.default.isExecutableFile(atPath: helper.path) else {
      throw TestError(id: 404)  // build with `swift build --build-tests` first
    }
    let schema = "CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, body TEXT, n INTEGER)"
    let source = try DatabaseQueue(path: path("source.sqlite"))
    let target = try DatabaseQueue(path: path("target.sqlite"))
    for queue in [source, target] { try queue.write { db in try db.execute(schema) } }
    try target.close()
    let folder = directory.appendingPathComponent("outbox")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

    let batches = 10
    let process = Process()
    let errors = Pipe()
    process.executableURL = helper
    process.arguments = [
      "apply-changesets", path("target.sqlite"), folder.path, String(batches),
    ]
    process.standardError = errors
    try process.run()

    for batch in 1...batches {
      let session = try source.makeSession(attaching: ["note"])
      try source.write { db in
        for n in 0..<20 {
          try db.run("INSERT INTO note VALUES (?, 'new', ?)", ["\(batch)-\(n)", n])
        }
        // An update and a delete of rows the earlier batches sent.
        try db.run("UPDATE note SET body = 'changed' WHERE id = ?", ["\(batch - 1)-0"])
        try db.run("DELETE FROM note WHERE id = ?", ["\(batch - 1)-1"])
      }
      let temporary = folder.appendingPathComponent(".\(batch).changeset")
      try session.changeset().data.write(to: temporary)
      try FileManager.default.moveItem(
        at: temporary, to: folder.appendingPathComponent("\(batch).changeset"))
      try session.close()
    }
    process.waitUntilExit()
    let message = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(process.terminationStatus, 0, message)
    let rows = "SELECT id || ':' || body || ':' || n FROM note ORDER BY id"
    let expected = try source.read { db in try db.query(rows).map { try $0.get(String.self, at: 0) }
    }
    let applied = try Connection(path: path("target.sqlite")).query(rows).map {
      try $0.get(String.self, at: 0)
    }
    XCTAssertEqual(applied, expected)
    XCTAssertEqual(expected.count, batches * 20 - (batches - 1))
  }
}
