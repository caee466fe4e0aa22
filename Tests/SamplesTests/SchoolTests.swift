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
    XCTAssertEqual(first.first, "migrations applied now: v1-tables, v2-trim-names, v3-topics")
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
    XCTAssertEqual(report.snapshotDifferences, ["v1-tables": [], "v3-topics": []])
  }

  /// Counts by annotation, the topic tree by a recursive common table, and ranked search
  /// with snippets from SQL and through fetchHits, as the demo prints them.
  func testCountsTreeAndRankedSearch() throws {
    let lines = try runDemo()
    XCTAssertTrue(lines.contains("class sizes: 1A 3, 1B 2, 2A 3"), "\(lines)")
    XCTAssertTrue(lines.contains("grades with 2 classes or more: Grade 1 2"), "\(lines)")
    let tree = try XCTUnwrap(lines.firstIndex(of: "topic tree:"))
    XCTAssertEqual(
      Array(lines[(tree + 1)...(tree + 8)]),
      [
        "  Mathematics", "    Algebra", "      Linear equations", "      Quadratic equations",
        "    Geometry", "      Triangles", "  Reading", "    Poetry",
      ])
    XCTAssertTrue(
      lines.contains(
        "hit Linear equations (score < 0: true): Solve [equations] with one unknown, then..."),
      "\(lines)")
    XCTAssertTrue(
      lines.contains(
        "search \"equations\" from SQL: [\"Linear equations\", \"Quadratic equations\", \"Algebra\"]"
      ), "\(lines)")
    XCTAssertTrue(
      lines.contains(
        "search \"equations\" by fetchHits: [\"Linear equations\", \"Quadratic equations\", \"Algebra\"]"
      ), "\(lines)")
    // The annotated counts are the hand-written GROUP BY's, and the topics are what the
    // demo seeded (a dump of the table, in key order).
    let db = try Connection(path: path, options: .readOnly)
    let grouped = try db.fetchAll(
      Int.self,
      """
      SELECT count(Person.id) FROM SchoolClass LEFT JOIN Person ON Person.classID = SchoolClass.id
      GROUP BY SchoolClass.id ORDER BY SchoolClass.name
      """)
    let annotated = try SchoolClass.all()
      .annotated(with: SchoolClass.students.count.aliased("n")).order(Column("name"))
      .fetchRows(db).map { try $0.get(Int.self, "n") }
    XCTAssertEqual(annotated, grouped)
    XCTAssertEqual(annotated, [3])  // after the demo's last step only 2A is left
    XCTAssertNil(
      TextDifference(
        expected: "title|parentTitle\n'Algebra'|'Mathematics'\n'Triangles'|'Geometry'",
        actual: try db.dump(
          """
          SELECT child.title, parent.title AS parentTitle FROM Topic child
          JOIN Topic parent ON parent.id = child.parentID
          WHERE child.title IN (\("Algebra"), \("Triangles")) ORDER BY child.title
          """)))
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
