import Foundation
import NotesSample
import SwiftLite
import SwiftLiteTesting
import XCTest

final class NotesTests: TemporaryDirectoryTestCase {
  private var snapshotDirectory: URL {
    MigrationSnapshotCheck.sourceDirectory("../../Samples/Notes/Sources/MigrationSnapshots")
  }

  private func runDemo() throws -> (equal: Bool, lines: [String]) {
    var lines: [String] = []
    var demo = NotesDemo(directory: directory)
    demo.output = { lines.append($0) }
    let equal = try demo.run()
    return (equal, lines)
  }

  /// Release by release on one file, then from scratch: the two reach one schema, and the
  /// upgraded file's first read of release 4 searches, counts and filters.
  func testTheFourReleasesReachTheSchemaOfAFreshInstall() throws {
    let (equal, lines) = try runDemo()
    XCTAssertTrue(equal, lines.joined(separator: "\n"))
    XCTAssertTrue(lines.contains("release 1: 3 notes"), "\(lines)")
    XCTAssertTrue(lines.contains("release 2: the data step pinned 1 urgent note"), "\(lines)")
    XCTAssertTrue(
      lines.contains("release 3: search \"report\": [\"Quarterly report\", \"Groceries\"]"),
      "\(lines)")
    for label in ["upgraded", "fresh"] {
      XCTAssertTrue(
        lines.contains(
          "release 4 (\(label)): search \"report\": Quarterly report Draft the [report] for the "
            + "board; Groceries Coffee, bread, and a [report] binder"),
        "\(lines)")
      XCTAssertTrue(lines.contains("release 4 (\(label)): folders: Home 1, Work 2"), "\(lines)")
      XCTAssertTrue(
        lines.contains(
          "release 4 (\(label)): tagged urgent: [\"Quarterly report\"], pinned: [true]"),
        "\(lines)")
    }
    XCTAssertEqual(lines.last, "schemas equal: true")
    let db = try Connection(path: directory.appendingPathComponent("notes-upgraded.sqlite").path)
    defer { try? db.close() }
    XCTAssertEqual(try NotesDatabase.migrator.pendingMigrations(db), [])
  }

  /// Today's snapshots are recorded and current. SWIFTLITE_RECORD_SNAPSHOTS=1 records the
  /// missing ones release by release (each release's migrator records its own new step,
  /// from that release's models), as each release's tests did when it shipped.
  func testTheMigrationSnapshotsAreCurrent() throws {
    let latest = NotesDatabase.latestRelease
    let releases = MigrationSnapshotCheck.isRecordingRequested ? Array(1...latest) : [latest]
    for release in releases {
      let report = try MigrationSnapshotCheck(
        NotesDatabase.migrator(release: release), directory: snapshotDirectory
      ).run()
      XCTAssertTrue(report.passed, "release \(release): \(report)")
    }
  }

  /// Every state of the history, seeded with notes before the data step, upgrades to the
  /// fresh install's schema with every row, and the urgent note pinned.
  func testTheMigrationHistoryReachesOneSchema() throws {
    var check = MigrationHistoryCheck(try NotesDatabase.migrator)
    check.seed(
      after: "v1-tables",
      sql: """
        INSERT INTO folder (id, name, createdAt) VALUES (1, 'Work', '2024-01-01 00:00:00.000');
        INSERT INTO note (folderID, title, body, tags, pinned, createdAt)
        VALUES (1, 'Report', 'Draft it', '["urgent"]', 0, '2024-01-02 00:00:00.000');
        """)
    check.verify { db in
      let pinned = try db.scalar(Int.self, "SELECT count(*) FROM note WHERE isPinned")
      let seeded = try db.scalar(Int.self, "SELECT count(*) FROM note")
      XCTAssertEqual(pinned, seeded == 0 ? 0 : 1)
      if seeded == 1 {
        let found = try Note.all().matching(.allWords(in: "draft")).fetchAll(db)
        XCTAssertEqual(found.map(\.content), ["Draft it"])
      }
    }
    let report = try check.run()
    XCTAssertTrue(report.passed, report.description)
    XCTAssertEqual(
      report.snapshotDifferences, ["v1-tables": [], "v3-notes": [], "v4-notes": []])
  }

  func testTheExecutableRuns() throws {
    let output = try runSample("Notes")
    XCTAssertTrue(output.hasSuffix("schemas equal: true\n"), output)
  }
}
