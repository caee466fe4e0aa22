import Foundation
import XCTest

@testable import SwiftLite

// A notes app through three releases: v1 creates its tables from its models, v2 fixes data
// in SQL against v1's columns, v3 renames Note.pinned to isPinned.

private struct Folder: Model, Equatable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
}

/// Note as release 1 and 2 declared it.
private struct NoteV1: Model, Equatable {
  var id: Int64?
  var folderID: Int64
  var title: String
  var tags: [String]
  var pinned: Bool
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "title": [.collate("NOCASE"), .check("length(title) > 0")],
    "pinned": [.default(.integer(0))],
  ]
  static let indexes = [TableIndex(["pinned"])]
  static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
}

/// Note today: `pinned` is `isPinned`.
private struct Note: Model, Equatable {
  var id: Int64?
  var folderID: Int64
  var title: String
  var tags: [String]
  var isPinned: Bool
  static let primaryKey = ["id"]
  static let renamedProperties = ["isPinned": "pinned"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "title": [.collate("NOCASE"), .check("length(title) > 0")],
    "isPinned": [.default(.integer(0))],
  ]
  static let indexes = [TableIndex(["isPinned"])]
  static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
}

/// Tags as text, then (today) as a JSON array: the same storage class, another Swift type.
private struct TaggedV1: Model {
  var id: Int64?
  var tags: String
  static let tableName = "Tagged"
  static let primaryKey = ["id"]
}

private struct Tagged: Model {
  var id: Int64?
  var tags: [String]
  static let primaryKey = ["id"]
}

/// A folder with a color, as a later step recorded it.
private struct FolderWithColor: Model {
  var id: Int64?
  var name: String
  var color: String?
  static let tableName = "Folder"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
}

private let pinUrgent = "v2-data: pin urgent notes"

final class MigrationSnapshotTests: SQLiteTestCase {
  /// The snapshots each release recorded when its step was written.
  private func recordedSnapshots() throws -> MigrationSnapshots {
    var release1 = Migrator()
    release1.registerModels("v1-tables", Folder.self, NoteV1.self)
    var release3 = Migrator()
    release3.registerModels("v3-notes", Note.self)
    return try MigrationSnapshots([
      SchemaSnapshot(
        step: "v1-tables", tables: try XCTUnwrap(release1.currentModelTables(ofStep: "v1-tables"))),
      SchemaSnapshot(
        step: "v3-notes", tables: try XCTUnwrap(release3.currentModelTables(ofStep: "v3-notes"))),
    ])
  }

  /// The app's migrator today: a model step, an SQL step written against the first shape,
  /// then the model again.
  private func todaysMigrator(snapshots: MigrationSnapshots?) -> Migrator {
    var migrator = Migrator()
    migrator.snapshots = snapshots
    migrator.registerModels("v1-tables", Folder.self, Note.self)
    migrator.register(pinUrgent) { db in
      _ = try db.run("UPDATE Note SET pinned = 1 WHERE tags LIKE '%\"urgent\"%'")
    }
    migrator.registerModels("v3-notes", Note.self)
    return migrator
  }

  /// A file as release 2 left it: its migrator run by release 2's code, with notes.
  private func release2File(_ name: String) throws -> Connection {
    var release2 = Migrator()
    release2.registerModels("v1-tables", Folder.self, NoteV1.self)
    release2.register(pinUrgent) { db in
      _ = try db.run("UPDATE Note SET pinned = 1 WHERE tags LIKE '%\"urgent\"%'")
    }
    let db = try open(name)
    try release2.migrate(db, upTo: "v1-tables")
    let inbox = try db.insert(Folder(id: nil, name: "Inbox"))
    _ = try db.insert(
      NoteV1(id: nil, folderID: inbox, title: "Bank", tags: ["urgent"], pinned: false))
    _ = try db.insert(NoteV1(id: nil, folderID: inbox, title: "Milk", tags: [], pinned: false))
    try release2.migrate(db)
    return db
  }

  private func schemaText(_ db: Connection) throws -> [String] {
    try db.query(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'"
        + " ORDER BY type, name"
    ).map { row in try row.values.map(\.description).joined(separator: " | ") }
  }

  // MARK: The scenario

  func testWithoutSnapshotsAFreshInstallRunsTheSQLStepAgainstTodaysShapeAndFails() throws {
    // Kept for compatibility and documented: a model step applies today's model.
    let error = thrownError(MigratorError.self) {
      try todaysMigrator(snapshots: nil).migrate(db)
    }
    guard case .migrationFailed(let name, let underlying) = error else {
      return XCTFail("expected migrationFailed, got \(String(describing: error))")
    }
    XCTAssertEqual(name, pinUrgent)
    XCTAssertTrue("\(underlying)".contains("no such column: pinned"), "\(underlying)")
  }

  func testAFreshInstallReplaysTheRecordedShapes() throws {
    let migrator = todaysMigrator(snapshots: try recordedSnapshots())
    XCTAssertEqual(try migrator.migrate(db), ["v1-tables", pinUrgent, "v3-notes"])
    XCTAssertEqual(try db.columnNames("Note"), ["id", "folderID", "title", "tags", "isPinned"])
    XCTAssertEqual(try db.indexNames("Note"), ["Note_on_folderID", "Note_on_isPinned"])
    // The table is today's model's: nothing left to migrate, and the model reads and writes.
    XCTAssertTrue(try db.migrationPlan(for: Note.self).isEmpty)
    XCTAssertTrue(try db.migrationPlan(for: Folder.self).isEmpty)
    let inbox = try db.insert(Folder(id: nil, name: "Inbox"))
    _ = try db.insert(Note(id: nil, folderID: inbox, title: "A", tags: [], isPinned: true))
    XCTAssertEqual(try db.findAll(Note.self).map(\.isPinned), [true])
    try assertIntact(db)
  }

  func testAnUpgradeFromRelease2KeepsEveryRowAndReachesTheFreshInstallsSchema() throws {
    let migrator = todaysMigrator(snapshots: try recordedSnapshots())
    let upgraded = try release2File("release2.sqlite")
    XCTAssertEqual(try migrator.pendingMigrations(upgraded), ["v3-notes"])
    XCTAssertEqual(try migrator.migrate(upgraded), ["v3-notes"])
    XCTAssertEqual(
      try upgraded.findAll(Note.self, orderBy: "id").map { "\($0.title) \($0.isPinned)" },
      ["Bank true", "Milk false"])
    try assertIntact(upgraded)

    try migrator.migrate(db)
    XCTAssertEqual(try schemaText(upgraded), try schemaText(db))
    try upgraded.close()
  }

  func testEveryIntermediateStateUpgradesToTheFreshInstallsSchema() throws {
    let migrator = todaysMigrator(snapshots: try recordedSnapshots())
    try migrator.migrate(db)
    let fresh = try schemaText(db)
    for (position, step) in migrator.names.enumerated() {
      let partial = try open("upTo\(position).sqlite")
      try migrator.migrate(partial, upTo: step)
      try migrator.migrate(partial)
      XCTAssertEqual(try schemaText(partial), fresh, "from \(step)")
      try partial.close()
    }
  }

  // MARK: Recorded tables and models

  func testATableEqualToTodaysModelIsMigratedThroughTheModelSoRowsAreDecoded() throws {
    var release1 = Migrator()
    release1.registerModels("v1", TaggedV1.self)
    var today = Migrator()
    today.registerModels("v1", TaggedV1.self)
    today.registerModels("v2", Tagged.self)
    today.snapshots = try MigrationSnapshots([
      SchemaSnapshot(step: "v1", tables: try XCTUnwrap(release1.currentModelTables(ofStep: "v1"))),
      SchemaSnapshot(step: "v2", tables: try XCTUnwrap(today.currentModelTables(ofStep: "v2"))),
    ])
    try release1.migrate(db)
    try db.run("INSERT INTO Tagged (tags) VALUES ('not a JSON array')")
    let before = try db.snapshot()
    guard
      case .migrationFailed("v2", let underlying) = thrownError(
        MigratorError.self, { try today.migrate(db) })
    else { return XCTFail("expected v2 to fail") }
    XCTAssertEqual(
      underlying as? MigrationError,
      .valuesDoNotDecode(table: "Tagged", column: "tags", type: "Array<String>"))
    XCTAssertEqual(try db.snapshot(), before)
  }

  func testARecordedTableOverAnAdoptedTableKeepsWhatTheTableHas() throws {
    try db.execute(
      """
      CREATE TABLE Folder (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, legacy TEXT);
      INSERT INTO Folder VALUES (1, 'Inbox', 'kept');
      """)
    try db.adopt(Folder.self)
    var migrator = Migrator()
    migrator.registerModels("v2-colors", Folder.self)
    var recorder = Migrator()
    recorder.registerModels("v2-colors", FolderWithColor.self)
    migrator.snapshots = try MigrationSnapshots([
      SchemaSnapshot(
        step: "v2-colors", tables: try XCTUnwrap(recorder.currentModelTables(ofStep: "v2-colors")))
    ])
    try migrator.migrate(db)
    XCTAssertEqual(try db.columnNames("Folder"), ["id", "name", "legacy", "color"])
    XCTAssertEqual(try db.dump("Folder"), ["INTEGER:1|TEXT:'Inbox'|TEXT:'kept'|NULL:NULL"])
  }

  func testATableAsAnEarlierReleaseLeftItGivesTheSnapshotThatReleaseRecorded() throws {
    let release2 = try release2File("release2.sqlite")
    var release1 = Migrator()
    release1.registerModels("v1-tables", Folder.self, NoteV1.self)
    let recorded = try XCTUnwrap(release1.currentModelTables(ofStep: "v1-tables"))
    let fromFile = [
      try SchemaSnapshot.Table(recordedIn: release2, table: "Folder"),
      try SchemaSnapshot.Table(recordedIn: release2, table: "Note"),
    ]
    XCTAssertEqual(fromFile.map(\.columns), recorded.map(\.columns))
    XCTAssertEqual(fromFile.map(\.foreignKeys), recorded.map(\.foreignKeys))
    XCTAssertEqual(fromFile.map { Set($0.indexes) }, recorded.map { Set($0.indexes) })
    XCTAssertEqual(
      fromFile.map { Set($0.createStatements) }, recorded.map { Set($0.createStatements) })

    // Snapshots made that way replay the history as well as those recorded at the time.
    let migrator = todaysMigrator(
      snapshots: try MigrationSnapshots([
        SchemaSnapshot(step: "v1-tables", tables: fromFile),
        try XCTUnwrap(recordedSnapshots()["v3-notes"]),
      ]))
    try migrator.migrate(db)
    try migrator.migrate(release2)
    XCTAssertEqual(try schemaText(release2), try schemaText(db))
    XCTAssertThrowsError(try SchemaSnapshot.Table(recordedIn: db, table: "Nothing"))
    try release2.close()
  }

  func testChecksAreReadFromACreateStatementWhateverTheyHoldInside() {
    XCTAssertEqual(
      SchemaSnapshot.Table.columnChecks(
        in: """
          CREATE TABLE "t" ("a" TEXT CHECK (a IN ('x)', "y(") AND length(a) > 0), b INTEGER \
          NOT NULL check(b > 0), [c d] TEXT, CHECK (a <> b))
          """
      ).reduce(into: [String: String]()) { $0[$1.key.string] = $1.value },
      ["a": "a IN ('x)', \"y(\") AND length(a) > 0", "b": "b > 0"])
  }

  // MARK: Refusals

  func testAModelStepWithoutASnapshotIsRefusedBeforeAnythingRuns() throws {
    var snapshots = try recordedSnapshots()
    snapshots = try MigrationSnapshots(snapshots.byStep.values.filter { $0.step != "v3-notes" })
    let migrator = todaysMigrator(snapshots: snapshots)
    let before = try db.snapshot()
    XCTAssertEqual(
      thrownError(MigrationSnapshotError.self) { try migrator.migrate(db) },
      .missingSnapshots(["v3-notes"]))
    XCTAssertEqual(
      thrownError(MigrationSnapshotError.self) { _ = try migrator.pendingMigrations(db) },
      .missingSnapshots(["v3-notes"]))
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertTrue(
      MigrationSnapshotError.missingSnapshots(["v3-notes"]).description.contains(
        "SWIFTLITE_RECORD_SNAPSHOTS=1"))
  }

  func testASnapshotFromANewerFormatIsRefused() throws {
    var snapshot = SchemaSnapshot(step: "v9", tables: [])
    snapshot.formatVersion = SchemaSnapshot.currentFormatVersion + 1
    XCTAssertEqual(
      thrownError(MigrationSnapshotError.self) {
        _ = try SchemaSnapshot(jsonData: snapshot.jsonData())
      },
      .newerFormat(step: "v9", version: 3, supported: 2))
  }

  func testCheckingSnapshotsFindsAModelChangedWithoutANewStep() throws {
    XCTAssertNoThrow(try todaysMigrator(snapshots: try recordedSnapshots()).checkSnapshots())
    XCTAssertNoThrow(try todaysMigrator(snapshots: nil).checkSnapshots())
    var stale = Migrator(snapshots: try recordedSnapshots())
    stale.registerModels("v1-tables", Folder.self, NoteV1.self)
    stale.registerModels("v3-notes", NoteV1.self)  // Note went back to `pinned`, no new step
    let error = thrownError(MigrationSnapshotError.self) { try stale.checkSnapshots() }
    XCTAssertEqual(error, .modelsChanged(["Note": "v3-notes"]))
    XCTAssertTrue(
      error?.description.contains("Note (step \"v3-notes\")") == true,
      "\(String(describing: error))")
    var missing = Migrator(snapshots: try MigrationSnapshots())
    missing.registerModels("v1-tables", Folder.self)
    XCTAssertEqual(
      thrownError(MigrationSnapshotError.self) { try missing.checkSnapshots() },
      .missingSnapshots(["v1-tables"]))
  }

  // MARK: The file

  func testTheFileIsSortedPrettyJSONThatReadsBackTheSameSnapshot() throws {
    let snapshots = try recordedSnapshots()
    let v1 = try XCTUnwrap(snapshots["v1-tables"])
    let data = try v1.jsonData()
    XCTAssertEqual(try SchemaSnapshot(jsonData: data), v1)
    XCTAssertEqual(try v1.jsonData(), data, "the same snapshot gives the same bytes")
    let text = String(decoding: data, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("{\n  \"formatVersion\" : 1,\n  \"step\" : \"v1-tables\",\n"))
    XCTAssertTrue(text.contains("\"check\" : \"length(title) > 0\""), text)
    XCTAssertTrue(text.contains("\"collation\" : \"NOCASE\""), text)
    XCTAssertTrue(text.contains("\"onDelete\" : \"CASCADE\""), text)
    let v3 = try XCTUnwrap(snapshots["v3-notes"])
    XCTAssertEqual(v3.tables.map(\.renamedColumns), [["isPinned": "pinned"]])
    XCTAssertEqual(
      v1.tables[1].columns.map(\.name), ["id", "folderID", "title", "tags", "pinned"])
  }

  func testADirectoryOfFilesGivesTheSnapshotsByTheStepTheyRecord() throws {
    let folder = directory.appendingPathComponent("MigrationSnapshots", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for snapshot in try recordedSnapshots().byStep.values {
      try snapshot.jsonData().write(
        to: folder.appendingPathComponent(MigrationSnapshots.fileName(forStep: snapshot.step)))
    }
    try Data("notes".utf8).write(to: folder.appendingPathComponent("README.md"))
    let loaded = try MigrationSnapshots(directory: folder)
    XCTAssertEqual(loaded, try recordedSnapshots())
    XCTAssertEqual(loaded.steps, ["v1-tables", "v3-notes"])
    XCTAssertEqual(try Migrator(snapshots: folder).snapshots, loaded)
    XCTAssertEqual(
      try MigrationSnapshots(directory: directory.appendingPathComponent("none")),
      try MigrationSnapshots())

    try Data("{}".utf8).write(to: folder.appendingPathComponent("broken.json"))
    guard
      case .unreadable(let file, _) = thrownError(
        MigrationSnapshotError.self,
        {
          _ = try MigrationSnapshots(directory: folder)
        })
    else { return XCTFail("expected unreadable") }
    XCTAssertTrue(file.hasSuffix("broken.json"))
  }

  func testFileNamesKeepLettersDigitsAndDashes() {
    XCTAssertEqual(MigrationSnapshots.fileName(forStep: "v1-tables"), "v1-tables.json")
    XCTAssertEqual(
      MigrationSnapshots.fileName(forStep: "v2-data: pin urgent notes"),
      "v2-data-pin-urgent-notes.json")
    XCTAssertEqual(MigrationSnapshots.fileName(forStep: "../étape 3"), "tape-3.json")
    XCTAssertEqual(MigrationSnapshots.fileName(forStep: "   "), "step.json")
  }

  func testModelStepsAreKnownByName() throws {
    let migrator = todaysMigrator(snapshots: nil)
    XCTAssertEqual(migrator.modelStepNames, ["v1-tables", "v3-notes"])
    XCTAssertNil(try migrator.currentModelTables(ofStep: pinUrgent))
    XCTAssertEqual(
      try migrator.currentModelTables(ofStep: "v1-tables")?.map(\.name), ["Folder", "Note"])
  }
}
