import Foundation
import SwiftLite
import SwiftLiteTesting
import XCTest

final class MigrationHistoryCheckTests: XCTestCase {
  /// Rows as release 1's users had them: a folder and notes, one of them urgent.
  private let release1Rows = """
    INSERT INTO Folder (id, name) VALUES (1, 'Inbox');
    INSERT INTO Note (folderID, title, body, tags, pinned, createdAt) VALUES
      (1, 'Bank', 'call', '["urgent"]', 0, '2026-01-02 10:00:00.000'),
      (1, 'Milk', '', '[]', 0, '2026-01-03 10:00:00.000');
    """

  func testTheNotesHistoryReachesOneSchemaFromEveryStateAndFromRelease2sFile() throws {
    var check = MigrationHistoryCheck(NotesApp.today(snapshots: try NotesApp.shippedSnapshots()))
    check.seed(after: "v1-tables", sql: release1Rows)
    check.seed(after: "v3-notes") { db in
      _ = try db.insert(
        Note(
          id: nil, folderID: 1, title: "Taxes", body: "", tags: ["urgent"], isPinned: false,
          createdAt: Date(timeIntervalSince1970: 0)))
    }
    check.upgrade(fixture: try NotesApp.release2Fixture())
    check.verify { db in
      // Every urgent note that existed when the v2 step ran is pinned, whatever the path.
      let unpinned = try db.scalar(
        Int.self,
        "SELECT count(*) FROM Note WHERE title IN ('Bank', 'Call the bank') AND NOT isPinned")
      if unpinned != 0 { throw TestFailure("urgent notes left unpinned: \(unpinned ?? -1)") }
    }

    let report = try check.run()

    XCTAssertTrue(report.passed, report.description)
    XCTAssertEqual(
      report.paths.map(\.name),
      [
        "upgrade from \"v1-tables\"", "upgrade from \"\(NotesApp.pinUrgent)\"",
        "every step, one call each", "upgrade of notes-release2.sqlite",
      ])
    XCTAssertEqual(report.snapshotDifferences, ["v1-tables": [], "v3-notes": []])
    XCTAssertEqual(report.notes, [])
    let note = try XCTUnwrap(report.freshSchema?.table(named: "Note"))
    XCTAssertEqual(
      note.columns,
      [
        "id INTEGER PRIMARY KEY 1", "folderID INTEGER NOT NULL",
        "title TEXT NOT NULL COLLATE NOCASE", "body TEXT NOT NULL", "tags TEXT NOT NULL",
        "isPinned INTEGER NOT NULL DEFAULT 0", "createdAt TEXT NOT NULL",
      ])
    XCTAssertTrue(note.facts.contains("check (length(title) > 0) on title"), "\(note.facts)")
    XCTAssertTrue(note.facts.contains("index (ispinned)"), "\(note.facts)")
  }

  func testTheFixtureFromRelease2UpgradesWithEveryRow() throws {
    let database = try TemporaryDatabase.copy(of: try NotesApp.release2Fixture())
    let migrator = NotesApp.today(snapshots: try NotesApp.shippedSnapshots())
    XCTAssertEqual(try migrator.pendingMigrations(database.connection), ["v3-notes"])
    try migrator.migrate(database.connection)
    XCTAssertEqual(
      try database.connection.findAll(Note.self, orderBy: "id").map {
        "\($0.id ?? 0) \($0.title) \($0.tags) \($0.isPinned)"
      },
      [
        "1 Call the bank [\"urgent\", \"money\"] true", "2 Groceries [\"home\"] false",
        "3 Taxes [\"urgent\"] false",
      ])
  }

  func testWithoutSnapshotsTheCheckShowsTheFreshInstallFailing() throws {
    var check = MigrationHistoryCheck(NotesApp.today(snapshots: nil))
    check.upgrade(fixture: try NotesApp.release2Fixture())
    let report = try check.run()
    XCTAssertFalse(report.passed)
    XCTAssertNil(report.freshSchema)
    let failure = try XCTUnwrap(report.freshInstall.failure)
    XCTAssertTrue(failure.contains("no such column: pinned"), failure)
    XCTAssertTrue(
      report.description.contains("fresh install:\n  failed: migration"), report.description)
    XCTAssertEqual(report.notes.count, 1, "says the model steps apply today's models")
  }

  func testASeedingStepsRowsAppearOnAFreshInstallAndSurviveEveryUpgrade() throws {
    var migrator = NotesApp.today(snapshots: try NotesApp.shippedSnapshots())
    migrator.register("v4-seed: welcome note") { db in
      try db.execute(
        """
        INSERT OR IGNORE INTO Folder (name) VALUES ('Inbox');
        INSERT INTO Note (folderID, title, body, tags, isPinned, createdAt)
          SELECT id, 'Welcome', 'Notes are kept here.', '[]', 1, '2026-12-01 00:00:00.000'
          FROM Folder WHERE name = 'Inbox';
        """)
    }
    var check = MigrationHistoryCheck(migrator)
    check.seed(after: "v1-tables", sql: release1Rows)
    check.upgrade(fixture: try NotesApp.release2Fixture())
    var verified: [Int] = []
    check.verify { db in
      let welcome = try db.scalar(Int.self, "SELECT count(*) FROM Note WHERE title = 'Welcome'")
      verified.append(welcome ?? 0)
    }
    let report = try check.run()
    XCTAssertTrue(report.passed, report.description)
    XCTAssertEqual(verified, [1, 1, 1, 1, 1, 1], "the fresh install and every upgrade")

    let fresh = try TemporaryDatabase.inMemory()
    try migrator.migrate(fresh.connection)
    XCTAssertEqual(
      try fresh.connection.findAll(Note.self).map(\.title), ["Welcome"],
      "a fresh install has the seeding step's rows")
  }

  func testRowsAStepLosesAreReportedPathByPath() throws {
    var migrator = NotesApp.today(snapshots: try NotesApp.shippedSnapshots())
    migrator.register("v4: drop unpinned notes") { db in
      try db.execute("DELETE FROM Note WHERE NOT isPinned")
    }
    var check = MigrationHistoryCheck(migrator)
    check.seed(after: "v1-tables", sql: release1Rows)
    let report = try check.run()
    XCTAssertFalse(report.passed)
    let path = try XCTUnwrap(report.paths.first)
    XCTAssertEqual(
      path.missingRows, ["1 row(s) of note seeded after \"v1-tables\" are gone (rowid 2)"])
    XCTAssertEqual(path.schemaDifferences, [])
  }

  func testAnUpgradedFileWhoseTableLacksACheckDiffersFromAFreshInstall() throws {
    // A file where the migrations are recorded as applied but Note was made by hand,
    // without its CHECK: nothing is left to run, and only the schema check can tell.
    let migrator = NotesApp.today(snapshots: try NotesApp.shippedSnapshots())
    let fresh = try TemporaryDatabase.file()
    try migrator.migrate(fresh.connection)
    let url = try XCTUnwrap(fresh.url)
    try fresh.connection.execute(
      """
      PRAGMA legacy_alter_table = ON;
      CREATE TABLE "Note2" ("id" INTEGER PRIMARY KEY, "folderID" INTEGER NOT NULL, "title" TEXT NOT NULL COLLATE "NOCASE", "body" TEXT NOT NULL, "tags" TEXT NOT NULL, "isPinned" INTEGER NOT NULL DEFAULT 0, "createdAt" TEXT NOT NULL, FOREIGN KEY ("folderID") REFERENCES "Folder" ON DELETE CASCADE ON UPDATE NO ACTION);
      DROP TABLE Note;
      ALTER TABLE Note2 RENAME TO Note;
      CREATE INDEX "Note_on_isPinned" ON "Note" ("isPinned");
      CREATE INDEX "Note_on_folderID" ON "Note" ("folderID");
      PRAGMA journal_mode = DELETE;
      """)
    var check = MigrationHistoryCheck(migrator)
    check.upgrade(fixture: url)
    let report = try check.run()
    XCTAssertFalse(report.passed)
    let path = try XCTUnwrap(report.paths.last)
    XCTAssertEqual(
      path.schemaDifferences,
      [
        SchemaDifference(
          object: "table note", expected: ["check (length(title) > 0) on title"], actual: [])
      ])
    XCTAssertTrue(
      report.description.contains("- expected: check (length(title) > 0) on title"),
      report.description)
  }

  func testASeedAfterAnUnknownStepIsRefused() throws {
    var check = MigrationHistoryCheck(NotesApp.release1())
    check.seed(after: "v9", sql: "SELECT 1")
    XCTAssertThrowsError(try check.run()) { error in
      XCTAssertEqual("\(error)", "\(MigratorError.unknownTarget("v9"))")
    }
  }
}
