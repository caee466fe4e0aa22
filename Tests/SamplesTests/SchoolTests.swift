import Foundation
import SchoolSample
import SwiftLite
import SwiftLiteTesting
import XCTest

final class SchoolTests: TemporaryDirectoryTestCase {
  private var path: String { directory.appendingPathComponent("School.sqlite").path }

  private func runDemo() throws -> [String] {
    var lines: [String] = []
    try SchoolDemo(path: path, output: { lines.append($0) }).run()
    return lines
  }

  func testTheDemoRunsTwiceWithTheSameResults() throws {
    let first = try runDemo()
    XCTAssertEqual(first.first, "migrations applied now: v1-tables, v2-trim-names")
    XCTAssertTrue(first.contains("Grade 1: 1A, 1B"))
    XCTAssertTrue(first.contains("search \"100%\": [\"100% Sure Sam\"]"))
    XCTAssertTrue(first.contains("deleted Grade 1: people 11 -> 6, classes left 1"))
    XCTAssertEqual(first.last, "observed after the last commit: 6 people")
    let second = try runDemo()
    XCTAssertEqual(second.first, "migrations applied now: none")
    XCTAssertEqual(Array(second.dropFirst()), Array(first.dropFirst()))
    let db = try Connection(path: path, options: .readOnly)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM SchoolClass"), 1)
  }

  /// The snapshots of the model steps are recorded and current: a model changed without a
  /// new step fails here (SWIFTLITE_RECORD_SNAPSHOTS=1 records a new step's snapshot).
  func testTheMigrationSnapshotsAreCurrent() throws {
    let report = try MigrationSnapshotCheck(
      SchoolDemo.migrator,
      directory: MigrationSnapshotCheck.sourceDirectory(
        "../../Samples/School/Sources/MigrationSnapshots")
    ).run()
    XCTAssertTrue(report.passed, report.description)
  }

  /// Every state of the history, with people seeded before the names are trimmed, upgrades
  /// to the fresh install's schema with every row, names trimmed.
  func testTheMigrationHistoryReachesOneSchema() throws {
    var check = MigrationHistoryCheck(try SchoolDemo.migrator)
    check.seed(
      after: "v1-tables",
      sql: "INSERT INTO Grade (name) VALUES ('Grade 1'); INSERT INTO Person (name) VALUES (' Ann ')"
    )
    check.verify { db in
      let untrimmed = try db.scalar(
        Int.self, "SELECT count(*) FROM Person WHERE name <> trim(name)")
      XCTAssertEqual(untrimmed, 0)
    }
    let report = try check.run()
    XCTAssertTrue(report.passed, report.description)
    XCTAssertEqual(report.snapshotDifferences, ["v1-tables": []])
  }

  func testTheExecutableRunsTwice() throws {
    let executable = productsDirectory.appendingPathComponent("School")
    guard FileManager.default.fileExists(atPath: executable.path) else {
      throw XCTSkip("the School executable is not built")
    }
    for _ in 0..<2 {
      let process = Process()
      process.executableURL = executable
      process.arguments = [directory.path]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 0, output)
      XCTAssertTrue(output.contains("deleted Grade 1"), output)
    }
  }

  private var productsDirectory: URL {
    Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }.map {
      $0.bundleURL.deletingLastPathComponent()
    } ?? URL(fileURLWithPath: ".build/debug")
  }
}
