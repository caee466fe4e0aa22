import Foundation
import SwiftLite
import SwiftLiteTesting
import XCTest

final class MigrationSnapshotCheckTests: XCTestCase {
  private var scratch: URL!

  override func setUpWithError() throws {
    scratch = try NotesApp.scratchDirectory()
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: scratch)
  }

  /// The committed snapshots against today's migrator, and v1-tables.json against
  /// release 1's, which recorded it from its own Note (release 3 recorded v3-notes.json).
  func testTheCommittedSnapshotsAreCurrent() throws {
    let report = try MigrationSnapshotCheck(
      NotesApp.today(snapshots: nil), directory: NotesApp.snapshotSource
    ).run()
    XCTAssertTrue(report.passed, report.description)

    try FileManager.default.copyItem(
      at: NotesApp.snapshotSource.appendingPathComponent("v1-tables.json"),
      to: scratch.appendingPathComponent("v1-tables.json"))
    let release1 = try MigrationSnapshotCheck(NotesApp.release1(), directory: scratch).run()
    XCTAssertTrue(release1.passed, release1.description)
  }

  func testAMissingSnapshotFailsAndSaysHowToRecordIt() throws {
    let report = try MigrationSnapshotCheck(NotesApp.today(snapshots: nil), directory: scratch)
      .run(record: false)
    XCTAssertFalse(report.passed)
    XCTAssertEqual(
      report.problems,
      [
        .missing(step: "v1-tables", file: scratch.appendingPathComponent("v1-tables.json").path),
        .missing(step: "v3-notes", file: scratch.appendingPathComponent("v3-notes.json").path),
      ])
    XCTAssertTrue(report.description.contains("SWIFTLITE_RECORD_SNAPSHOTS=1"), report.description)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [])
  }

  func testRecordingWritesTheMissingSnapshotsOnceAndReportsEachFile() throws {
    let check = MigrationSnapshotCheck(NotesApp.release1(), directory: scratch)
    let first = try check.run(record: true)
    let file = scratch.appendingPathComponent("v1-tables.json")
    XCTAssertEqual(
      first.problems, [.recorded(step: "v1-tables", file: file.path, tablesRegisteredLater: [])])
    XCTAssertFalse(first.passed, "a recording run never passes")
    let bytes = try Data(contentsOf: file)
    XCTAssertEqual(
      bytes, try Data(contentsOf: NotesApp.snapshotSource.appendingPathComponent("v1-tables.json")),
      "the same models give the same file")

    let second = try check.run(record: true)
    XCTAssertTrue(second.passed, second.description)
    XCTAssertEqual(try Data(contentsOf: file), bytes, "a recorded snapshot is never rewritten")
  }

  func testRecordingAnOldStepFromTodaysModelsSaysTheShapeMayBeWrong() throws {
    let report = try MigrationSnapshotCheck(NotesApp.today(snapshots: nil), directory: scratch)
      .run(record: true)
    XCTAssertEqual(
      report.problems.first,
      .recorded(
        step: "v1-tables", file: scratch.appendingPathComponent("v1-tables.json").path,
        tablesRegisteredLater: ["Note"]))
    XCTAssertTrue(
      report.description.contains("SchemaSnapshot.Table(recordedIn:table:)"), report.description)
  }

  func testAModelChangedWithoutANewStepFailsWithWhatChangedAndTheFix() throws {
    for name in ["v1-tables.json", "v3-notes.json"] {
      try FileManager.default.copyItem(
        at: NotesApp.snapshotSource.appendingPathComponent(name),
        to: scratch.appendingPathComponent(name))
    }
    /// Note with a CHECK changed and a column added, and no new step.
    struct EditedNote: Model {
      var id: Int64?
      var folderID: Int64
      var title: String
      var body: String
      var tags: [String]
      var isPinned: Bool
      var createdAt: Date
      var color: String?
      static let tableName = "Note"
      static let primaryKey = ["id"]
      static let renamedProperties = ["isPinned": "pinned"]
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "title": [.collate("NOCASE"), .check("length(title) > 1")],
        "isPinned": [.default(.integer(0))],
      ]
      static let indexes = [TableIndex(["isPinned"])]
      static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
    }
    var migrator = Migrator()
    migrator.registerModels("v1-tables", Folder.self, Note.self)
    NotesApp.registerPinUrgent(&migrator)
    migrator.registerModels("v3-notes", EditedNote.self)

    let report = try MigrationSnapshotCheck(migrator, directory: scratch).run(record: true)
    guard case .modelChanged(let table, let step, _, let changes) = report.problems.first,
      report.problems.count == 1
    else { return XCTFail(report.description) }
    XCTAssertEqual(table, "Note")
    XCTAssertEqual(step, "v3-notes")
    XCTAssertEqual(
      changes,
      [
        "- recorded: column 3: title TEXT NOT NULL COLLATE NOCASE CHECK (length(title) > 0)"
          + " (Swift String)",
        "+ now:      column 3: title TEXT NOT NULL COLLATE NOCASE CHECK (length(title) > 1)"
          + " (Swift String)",
        "+ now:      column 8: color TEXT (Swift String)",
      ])
    XCTAssertTrue(report.description.contains("Add a step for the change"), report.description)
    XCTAssertTrue(report.description.contains("has never shipped, delete its file"))
  }

  func testAFileOfAStepThatIsNotAModelStepAndABrokenFileAreReported() throws {
    try SchemaSnapshot(step: "v0-gone", tables: []).jsonData()
      .write(to: scratch.appendingPathComponent("v0-gone.json"))
    try Data("{".utf8).write(to: scratch.appendingPathComponent("broken.json"))
    let report = try MigrationSnapshotCheck(NotesApp.release1(), directory: scratch)
      .run(record: true)
    XCTAssertTrue(
      report.problems.contains(
        .notAModelStep(step: "v0-gone", file: scratch.appendingPathComponent("v0-gone.json").path)),
      report.description)
    XCTAssertTrue(
      report.problems.contains {
        if case .unreadable(let file, _) = $0 { return file.hasSuffix("broken.json") }
        return false
      }, report.description)
  }

  func testStepsThatWouldShareAFileAreReported() throws {
    var migrator = Migrator()
    migrator.registerModels("v1: tables", Folder.self)
    migrator.registerModels("v1 tables", Note.self)
    let report = try MigrationSnapshotCheck(migrator, directory: scratch).run(record: false)
    XCTAssertTrue(
      report.problems.contains(
        .sharedFileName(steps: ["v1: tables", "v1 tables"], file: "v1-tables.json")),
      report.description)
  }
}
