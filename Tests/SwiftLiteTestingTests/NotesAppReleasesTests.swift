import Foundation
import SwiftLite
import SwiftLiteTesting
import XCTest

// As a new user would go, from the README and the DocC articles: the notes app of "Shipping a New Version of Your App", four releases on one real file and
// from scratch at each release, through `DatabaseQueue(path:options:preparation:)`.

private struct LRFolder: Model {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
  static let tableName = "Folder"
}

private struct LRNote1: Model {
  var id: Int64?
  var folderID: Int64
  var title: String
  var body: String
  var tags: [String]
  var pinned: Bool
  var createdAt: Date
  static let primaryKey = ["id"]
  static let tableName = "Note"
  static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
}

private struct LRNote3: Model {
  var id: Int64?
  var folderID: Int64
  var title: String
  var body: String
  var tags: [String]
  var isPinned: Bool
  var createdAt: Date
  static let primaryKey = ["id"]
  static let tableName = "Note"
  static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
  static let renamedProperties = ["isPinned": "pinned"]
  static let fullTextIndexes = [FullTextIndex(LRNote3.self, columns: ["title", "body"])]
}

private struct LRNote4: Model {
  var id: Int64?
  var folderID: Int64
  var title: String
  var content: String
  var tags: [String]
  var isPinned: Bool
  var createdAt: Date
  static let primaryKey = ["id"]
  static let tableName = "Note"
  static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
  static let renamedProperties = ["content": "body"]
  static let fullTextIndexes = [FullTextIndex(LRNote4.self, columns: ["title", "content"])]
}

private let pinUrgentSQL = """
  UPDATE Note SET pinned = 1
  WHERE EXISTS (SELECT 1 FROM json_each(Note.tags) WHERE value = 'urgent')
  """

/// The migrator each release ships: every model step names that release's types.
private func releaseMigrator(_ release: Int, snapshots: URL?) throws -> Migrator {
  var migrator = try snapshots.map { try Migrator(snapshots: $0) } ?? Migrator()
  switch release {
  case 1, 2: migrator.registerModels("v1-tables", LRFolder.self, LRNote1.self)
  case 3: migrator.registerModels("v1-tables", LRFolder.self, LRNote3.self)
  default: migrator.registerModels("v1-tables", LRFolder.self, LRNote4.self)
  }
  if release >= 2 {
    migrator.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
  }
  if release == 3 { migrator.registerModels("v3-notes", LRNote3.self) }
  if release >= 4 {
    migrator.registerModels("v3-notes", LRNote4.self)
    migrator.registerModels("v4-notes", LRNote4.self)
  }
  return migrator
}

final class NotesAppReleasesTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lifecycle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Records the snapshots of a release as the article says (a recording run fails, the
  /// next one passes), then returns the release's migrator with its snapshots.
  private func shipRelease(_ release: Int, snapshots: URL) throws -> Migrator {
    let unsnapshotted = try releaseMigrator(release, snapshots: nil)
    let check = MigrationSnapshotCheck(unsnapshotted, directory: snapshots)
    _ = try check.run(record: true)
    let verify = try MigrationSnapshotCheck(unsnapshotted, directory: snapshots).run(record: false)
    XCTAssertTrue(verify.passed, "release \(release): \(verify.description)")
    return try releaseMigrator(release, snapshots: snapshots)
  }

  private func schema(at path: String) throws -> DatabaseSchema {
    try DatabaseSchema(Connection(path: path, options: .readOnly))
  }

  private func masterRows(_ path: String) throws -> [String] {
    let db = try Connection(path: path, options: .readOnly)
    return try db.query(
      "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name"
    ).map { try $0.get(at: 0) as String }
  }

  func testFourReleasesOnOneFileAndFromScratchReachOneSchema() throws {
    let snapshots = folder.appendingPathComponent("MigrationSnapshots")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    let upgraded = folder.appendingPathComponent("app.sqlite").path
    let day = Date(timeIntervalSince1970: 1_704_153_600)  // 2024-01-02

    // Release 1.
    let m1 = try shipRelease(1, snapshots: snapshots)
    do {
      let queue = try DatabaseQueue(path: upgraded, preparation: m1)
      try queue.write { db in
        let work = try db.insert(LRFolder(id: nil, name: "Work"))
        try db.insert(
          LRNote1(
            id: nil, folderID: work, title: "Report", body: "Draft the quarterly report",
            tags: ["urgent", "q1"], pinned: false, createdAt: day))
        try db.insert(
          LRNote1(
            id: nil, folderID: work, title: "Lunch", body: "Sandwiches", tags: [],
            pinned: false, createdAt: day))
      }
    }

    // Release 2: the SQL step pins the urgent note.
    let m2 = try shipRelease(2, snapshots: snapshots)
    do {
      let queue = try DatabaseQueue(path: upgraded, preparation: m2)
      let notes = try queue.read { db in try db.findAll(LRNote1.self, orderBy: "id") }
      XCTAssertEqual(notes.map(\.pinned), [true, false])
    }

    // Release 3: a rename and a full-text index; the first read after the upgrade works.
    let m3 = try shipRelease(3, snapshots: snapshots)
    do {
      let queue = try DatabaseQueue(path: upgraded, preparation: m3)
      let notes = try queue.read { db in try db.findAll(LRNote3.self, orderBy: "id") }
      XCTAssertEqual(notes.map(\.isPinned), [true, false])
      let hits = try queue.read { db in
        try LRNote3.all().matching(.allWords(in: "quarterly")).fetchAll(db)
      }
      XCTAssertEqual(hits.map(\.title), ["Report"])
    }

    // Release 4: renaming an indexed column.
    let m4 = try shipRelease(4, snapshots: snapshots)
    do {
      let queue = try DatabaseQueue(path: upgraded, preparation: m4)
      let hits = try queue.read { db in
        try LRNote4.all().matching(.allWords(in: "quarterly")).fetchAll(db)
      }
      XCTAssertEqual(hits.map(\.content), ["Draft the quarterly report"])
      try queue.write { db in
        try db.insert(
          LRNote4(
            id: nil, folderID: 1, title: "Later", content: "quarterly review", tags: [],
            isPinned: false, createdAt: day))
      }
      let after = try queue.read { db in
        try LRNote4.all().matching(.allWords(in: "quarterly")).fetchAll(db)
      }
      XCTAssertEqual(Set(after.map(\.title)), ["Report", "Later"])
      // Cascade still holds after the rebuilds.
      try queue.write { db in try db.execute("DELETE FROM Folder WHERE id = 1") }
      XCTAssertEqual(try queue.read { db in try db.count(LRNote4.self) }, 0)
    }

    // Fresh installs at each release equal the file upgraded to that release.
    let upgradedAt = folder.appendingPathComponent("stepwise.sqlite").path
    for (release, migrator) in [(1, m1), (2, m2), (3, m3), (4, m4)] {
      _ = try DatabaseQueue(path: upgradedAt, preparation: migrator)
      let fresh = folder.appendingPathComponent("fresh\(release).sqlite").path
      _ = try DatabaseQueue(path: fresh, preparation: migrator)
      let differences = try schema(at: fresh).differences(from: schema(at: upgradedAt))
      XCTAssertTrue(differences.isEmpty, "release \(release): \(differences)")
      XCTAssertEqual(
        try masterRows(fresh), try masterRows(upgradedAt), "release \(release): sqlite_master")
    }

    // The history check agrees.
    var check = MigrationHistoryCheck(m4)
    check.seed(
      after: "v1-tables",
      sql: """
        INSERT INTO Folder (id, name) VALUES (1, 'Work');
        INSERT INTO Note (folderID, title, body, tags, pinned, createdAt)
        VALUES (1, 'Report', 'Draft it', '["urgent"]', 0, '2024-01-02 00:00:00.000');
        """)
    let report = try check.run()
    XCTAssertTrue(report.passed, report.description)
  }

  /// Ships releases 1 and 2 on `path` with a few notes; returns the snapshot folder.
  private func shipTwoReleases(at path: String, notes: Int = 2) throws -> URL {
    let snapshots = folder.appendingPathComponent("MigrationSnapshots")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    let m1 = try shipRelease(1, snapshots: snapshots)
    let queue = try DatabaseQueue(path: path, preparation: m1)
    try queue.write { db in
      let work = try db.insert(LRFolder(id: nil, name: "Work"))
      for n in 0..<notes {
        try db.insert(
          LRNote1(
            id: nil, folderID: work, title: "Note \(n)",
            body: String(repeating: "words of note \(n) ", count: 20),
            tags: n == 0 ? ["urgent"] : [],
            pinned: false, createdAt: Date(timeIntervalSince1970: 1_704_153_600)))
      }
    }
    _ = try DatabaseQueue(path: path, preparation: try shipRelease(2, snapshots: snapshots))
    return snapshots
  }

  func testModelChangedWithoutANewStepFailsTheSnapshotCheck() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    // Release 3's Note, but the developer forgot `v3-notes`.
    var forgot = Migrator()
    forgot.registerModels("v1-tables", LRFolder.self, LRNote3.self)
    forgot.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
    let report = try MigrationSnapshotCheck(forgot, directory: snapshots).run(record: false)
    XCTAssertFalse(report.passed)
    var withSnapshots = try Migrator(snapshots: snapshots)
    withSnapshots.registerModels("v1-tables", LRFolder.self, LRNote3.self)
    withSnapshots.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
    XCTAssertThrowsError(try withSnapshots.checkSnapshots())
    // At launch the covered table is not migrated by a first write.
    let queue = try DatabaseQueue(path: path, preparation: withSnapshots)
    XCTAssertThrowsError(
      try queue.write { db in
        try db.insert(
          LRNote3(
            id: nil, folderID: 1, title: "x", body: "y", tags: [], isPinned: false,
            createdAt: Date()))
      }
    ) { error in
      guard case MigrationError.needsMigration? = error as? MigrationError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
    }
  }

  func testRefusedModelStepAtLaunchLeavesTheFileByteForByte() throws {
    struct NoteNeedsValue: Model {
      var id: Int64?
      var folderID: Int64
      var title: String
      var body: String
      var tags: [String]
      var pinned: Bool
      var createdAt: Date
      var priority: Int  // NOT NULL, no default, on a table with rows: refused
      static let primaryKey = ["id"]
      static let tableName = "Note"
      static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
    }
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    // Record v4's snapshot as the article says.
    var plain = Migrator()
    plain.registerModels("v1-tables", LRFolder.self, LRNote1.self)
    plain.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
    plain.register("v3-touch") { db in try db.run("UPDATE Folder SET name = 'Job'") }
    plain.registerModels("v4-priority", NoteNeedsValue.self)
    _ = try MigrationSnapshotCheck(plain, directory: snapshots).run(record: true)
    var migrator = try Migrator(snapshots: snapshots)
    migrator.registerModels("v1-tables", LRFolder.self, LRNote1.self)
    migrator.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
    migrator.register("v3-touch") { db in try db.run("UPDATE Folder SET name = 'Job'") }
    migrator.registerModels("v4-priority", NoteNeedsValue.self)

    // A dry run first: it writes nothing.
    let dryRun = try Connection(path: path)
    _ = try? migrator.pendingMigrations(dryRun)
    XCTAssertEqual(try migrator.pendingMigrations(dryRun), ["v3-touch", "v4-priority"])
    XCTAssertFalse(try dryRun.migrationPlan(for: NoteNeedsValue.self).canApply)
    try dryRun.close()
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)

    XCTAssertThrowsError(try DatabaseQueue(path: path, preparation: migrator)) { error in
      guard case MigratorError.migrationFailed(let name, let underlying)? = error as? MigratorError
      else { return XCTFail("\(type(of: error)): \(error)") }
      XCTAssertEqual(name, "v4-priority")
      guard case MigrationError.notNullWithoutDefault? = underlying as? MigrationError else {
        return XCTFail("\(type(of: underlying)): \(underlying)")
      }
    }
    // `v3-touch` committed before the refusal (steps before it stay applied, as documented).
    let after = try Connection(path: path, options: .readOnly)
    XCTAssertEqual(try after.scalar(String.self, "SELECT name FROM Folder"), "Job")
    XCTAssertEqual(try migrator.pendingMigrations(after), ["v4-priority"])
  }

  func testReclaimsSpaceAfterARebuildAtLaunch() throws {
    struct NoteRetyped: Model {
      var id: Int64?
      var folderID: Int64
      var title: String
      var body: String?  // nullability changed: a rebuild
      var tags: [String]
      var pinned: Bool
      var createdAt: Date
      static let primaryKey = ["id"]
      static let tableName = "Note"
      static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
    }
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path, notes: 3000)
    let sizeBefore = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    var plain = Migrator()
    plain.registerModels("v1-tables", LRFolder.self, NoteRetyped.self)
    plain.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
    plain.registerModels("v3-nullable-body", NoteRetyped.self)
    _ = try MigrationSnapshotCheck(plain, directory: snapshots).run(record: true)
    var migrator = try Migrator(snapshots: snapshots)
    migrator.registerModels("v1-tables", LRFolder.self, NoteRetyped.self)
    migrator.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
    migrator.registerModels("v3-nullable-body", NoteRetyped.self)

    let plan = try Connection(path: path).migrationPlan(for: NoteRetyped.self)
    XCTAssertGreaterThan(plan.freedPages ?? 0, 0, "\(plan)")
    migrator.reclaimsSpace = true
    let pool = try DatabasePool(path: path, preparation: migrator)
    let count = try pool.read { db in try db.count(NoteRetyped.self) }
    XCTAssertEqual(count, 3000)
    try pool.close()
    let sizeAfter = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    XCTAssertLessThanOrEqual(
      sizeAfter, sizeBefore + sizeBefore / 10, "\(sizeBefore) -> \(sizeAfter)")
    let db = try Connection(path: path, options: .readOnly)
    XCTAssertEqual(try db.scalar(Int.self, "PRAGMA freelist_count"), 0)
  }

  /// Records the snapshots of `plain`'s model steps and returns the migrator built by `build`
  /// with them.
  private func withSnapshots(
    _ build: (inout Migrator) -> Void, in snapshots: URL
  ) throws -> Migrator {
    var plain = Migrator()
    build(&plain)
    _ = try MigrationSnapshotCheck(plain, directory: snapshots).run(record: true)
    var migrator = try Migrator(snapshots: snapshots)
    build(&migrator)
    return migrator
  }

  func testUserTriggerOnAManagedTableSurvivesTheRenameOfRelease4() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    let m3 = try shipRelease(3, snapshots: snapshots)
    let queue = try DatabaseQueue(path: path, preparation: m3)
    try queue.write { db in
      try db.execute(
        """
        CREATE TABLE audit(noteID INTEGER, at TEXT);
        CREATE TRIGGER note_audit AFTER UPDATE OF title ON Note
        BEGIN INSERT INTO audit VALUES (new.id, 'x'); END;
        """)
    }
    try queue.close()
    let m4 = try shipRelease(4, snapshots: snapshots)
    let upgraded = try DatabaseQueue(path: path, preparation: m4)
    try upgraded.write { db in try db.run("UPDATE Note SET title = 'T' WHERE id = 1") }
    XCTAssertEqual(
      try upgraded.read { db in try db.scalar(Int.self, "SELECT count(*) FROM audit") }, 1)
    let hits = try upgraded.read { db in
      try LRNote4.all().matching(.allWords(in: "words")).fetchAll(db)
    }
    XCTAssertEqual(hits.count, 2)
  }

  func testUserTriggerThatNoLongerCompilesRefusesRelease4AndLeavesTheFile() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    let m3 = try shipRelease(3, snapshots: snapshots)
    let queue = try DatabaseQueue(path: path, preparation: m3)
    try queue.write { db in
      try db.execute(
        """
        CREATE TABLE audit(noteID INTEGER, body TEXT);
        CREATE TRIGGER note_audit AFTER UPDATE ON Note
        BEGIN INSERT INTO audit VALUES (new.id, new.body); END;
        """)
    }
    try queue.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let m4 = try shipRelease(4, snapshots: snapshots)
    XCTAssertThrowsError(try DatabaseQueue(path: path, preparation: m4)) { error in
      guard case MigratorError.migrationFailed(_, let underlying)? = error as? MigratorError,
        case MigrationError.triggersWouldNotCompile? = underlying as? MigrationError
      else { return XCTFail("\(type(of: error)): \(error)") }
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
  }

  func testDefaultExpressionOnAnOwnModelFillsNilOnInsertOnBothPaths() throws {
    struct Stamp: Model {
      var id: Int64?
      var label: String
      var createdAt: Date?
      static let primaryKey = ["id"]
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "createdAt": [.notNull(true), .defaultExpression("CURRENT_TIMESTAMP")]
      ]
    }
    let snapshots = folder.appendingPathComponent("Snaps")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    let migrator = try withSnapshots({ $0.registerModels("v1", Stamp.self) }, in: snapshots)
    let path = folder.appendingPathComponent("stamps.sqlite").path
    let queue = try DatabaseQueue(path: path, preparation: migrator)
    let stored = try queue.write { db in try db.insertAndFetch(Stamp(id: nil, label: "a")) }
    XCTAssertNotNil(stored.createdAt)
    let text = try queue.read { db in try db.scalar(String.self, "SELECT createdAt FROM Stamp") }
    XCTAssertEqual(text?.count, 19, text ?? "nil")
    // An update with nil keeps the stored value.
    var changed = stored
    changed.label = "b"
    changed.createdAt = nil
    try queue.write { db in try db.update(changed) }
    XCTAssertEqual(
      try queue.read { db in try db.scalar(String.self, "SELECT createdAt FROM Stamp") }, text)
  }

  func testVacuumAfterARebuildKeepsSearchOverATableWithoutIntegerPrimaryKey() throws {
    struct Doc: Model {
      var slug: String
      var title: String
      var text: String
      static let primaryKey = ["slug"]
      static let fullTextIndexes = [FullTextIndex(Doc.self, columns: ["title", "text"])]
    }
    struct Doc2: Model {
      var slug: String
      var title: String
      var text: String
      static let primaryKey = ["slug"]
      static let tableName = "Doc"
      static let columnConstraints: [String: [ColumnConstraint]] = ["title": [.collate("NOCASE")]]
      static let fullTextIndexes = [FullTextIndex(Doc2.self, columns: ["title", "text"])]
    }
    let snapshots = folder.appendingPathComponent("DocSnaps")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("docs.sqlite").path
    let m1 = try withSnapshots({ $0.registerModels("v1", Doc.self) }, in: snapshots)
    let queue = try DatabaseQueue(path: path, preparation: m1)
    try queue.write { db in
      for n in 0..<2000 {
        try db.insert(
          Doc(slug: "d\(n)", title: "title \(n)", text: n == 1998 ? "needle" : "hay \(n)"))
      }
      try db.run("DELETE FROM Doc WHERE rowid % 2 = 0 OR rowid < 1500")
    }
    let before = try queue.read { db in
      try Doc.all().matching(.allWords(in: "needle")).fetchAll(db)
    }
    XCTAssertEqual(before.map(\.slug), ["d1998"])
    try queue.close()
    let m2 = try withSnapshots(
      {
        $0.registerModels("v1", Doc2.self)
        $0.registerModels("v2", Doc2.self)
      }, in: snapshots)
    var reclaiming = m2
    reclaiming.reclaimsSpace = true
    let upgraded = try DatabaseQueue(path: path, preparation: reclaiming)
    let hits = try upgraded.read { db in
      try Doc2.all().matching(.allWords(in: "needle")).fetchAll(db)
    }
    XCTAssertEqual(hits.map(\.slug), ["d1998"])
    XCTAssertEqual(
      try upgraded.read { db in try db.scalar(Int.self, "SELECT count(*) FROM Doc") }, 250)
  }

  func testDryRunOfRelease4ListsTheFullTextIndexAndWritesNothing() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    _ = try DatabaseQueue(path: path, preparation: try shipRelease(3, snapshots: snapshots))
    let m4 = try shipRelease(4, snapshots: snapshots)
    XCTAssertNoThrow(try m4.checkSnapshots())
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let db = try Connection(path: path)
    XCTAssertEqual(try m4.pendingMigrations(db), ["v4-notes"])
    let plan = try db.migrationPlan(for: LRNote4.self)
    XCTAssertTrue(plan.description.contains("content"), plan.description)
    XCTAssertTrue(plan.description.contains("Note_fts"), plan.description)
    try db.close()
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
  }

  func testARecordingRunFailsAndTheNextPasses() throws {
    let snapshots = folder.appendingPathComponent("S")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    let plain = try releaseMigrator(1, snapshots: nil)
    let recording = try MigrationSnapshotCheck(plain, directory: snapshots).run(record: true)
    XCTAssertFalse(recording.passed, "a recording run is never taken for a passing one")
    XCTAssertTrue(
      FileManager.default.fileExists(
        atPath: snapshots.appendingPathComponent("v1-tables.json").path))
    XCTAssertTrue(try MigrationSnapshotCheck(plain, directory: snapshots).run(record: false).passed)
    let missing = try MigrationSnapshotCheck(
      try releaseMigrator(3, snapshots: nil), directory: snapshots
    ).run(record: false)
    XCTAssertFalse(missing.passed)
    XCTAssertTrue(missing.description.contains("v3-notes"), missing.description)
  }

  func testAFailedStepAtLaunchOfAPoolLeavesTheFileAndNoLock() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    try DatabasePool(path: path).close()  // a pool turns the file to WAL, once
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    var migrator = try shipRelease(2, snapshots: snapshots)
    migrator.register("v3-bad") { db in
      try db.run("UPDATE Note SET title = 'changed'")
      try db.run(
        "INSERT INTO Note (folderID, title, body, tags, pinned, createdAt) VALUES (99, 'x', '', '[]', 0, '')"
      )
    }
    XCTAssertThrowsError(try DatabasePool(path: path, preparation: migrator)) { error in
      XCTAssertNotNil(error as? MigratorError, "\(type(of: error)): \(error)")
      XCTAssertTrue("\(error)".contains("v3-bad"), "\(error)")
    }
    let after = try Data(contentsOf: URL(fileURLWithPath: path))
    let differing = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(
      \.offset)
    XCTAssertEqual(after, before, "bytes differ at \(differing.prefix(40))")
    let writer = try Connection(path: path)
    try writer.run("UPDATE Folder SET name = 'after'")  // not locked by the failed open
  }

  func testHistoryCheckWithASeedingStepOnAFreshInstall() throws {
    let snapshots = folder.appendingPathComponent("S")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    func build(_ m: inout Migrator) {
      m.registerModels("v1-tables", LRFolder.self, LRNote4.self)
      m.register("v2-seed: inbox") { db in try db.run("INSERT INTO Folder (name) VALUES ('Inbox')")
      }
    }
    let migrator = try withSnapshots(build, in: snapshots)
    let fresh = folder.appendingPathComponent("fresh.sqlite").path
    let queue = try DatabaseQueue(path: fresh, preparation: migrator)
    XCTAssertEqual(try queue.read { db in try db.findAll(LRFolder.self).map(\.name) }, ["Inbox"])
    let report = try MigrationHistoryCheck(migrator).run()
    XCTAssertTrue(report.passed, report.description)
  }

  func testATagsTypeChangeThatDoesNotDecodeIsRefusedAndLeavesTheFile() throws {
    struct NoteIntTags: Model {
      var id: Int64?
      var folderID: Int64
      var title: String
      var body: String
      var tags: [Int]  // was [String]: same storage class, values no longer decode
      var pinned: Bool
      var createdAt: Date
      static let primaryKey = ["id"]
      static let tableName = "Note"
      static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
    }
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let migrator = try withSnapshots(
      {
        $0.registerModels("v1-tables", LRFolder.self, NoteIntTags.self)
        $0.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
        $0.registerModels("v3-int-tags", NoteIntTags.self)
      }, in: snapshots)
    XCTAssertThrowsError(try DatabaseQueue(path: path, preparation: migrator)) { error in
      guard
        case MigratorError.migrationFailed("v3-int-tags", let underlying)? = error as? MigratorError,
        case MigrationError.valuesDoNotDecode? = underlying as? MigrationError
      else { return XCTFail("\(type(of: error)): \(error)") }
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
  }

  func testAnOlderReleaseOpeningANewerFileIsRefusedBeforeAnythingRuns() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    _ = try DatabaseQueue(path: path, preparation: try shipRelease(3, snapshots: snapshots))
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let m2 = try releaseMigrator(2, snapshots: snapshots)
    XCTAssertThrowsError(try DatabaseQueue(path: path, preparation: m2)) { error in
      guard case MigratorError.unknownAppliedMigrations(let names)? = error as? MigratorError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
      XCTAssertEqual(names, ["v3-notes"])
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
  }

  func testReadOnlyLaunchWithNothingPendingOpensAndReads() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    let m2 = try releaseMigrator(2, snapshots: snapshots)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let queue = try DatabaseQueue(path: path, options: .readOnly, preparation: m2)
    XCTAssertEqual(try queue.read { db in try db.count(LRNote1.self) }, 2)
    try queue.close()
    try DatabasePool(path: path).close()  // a pool needs WAL: a writable one sets it, once
    let before2 = try Data(contentsOf: URL(fileURLWithPath: path))
    let pool = try DatabasePool(path: path, options: .readOnly, preparation: m2)
    XCTAssertEqual(try pool.read { db in try db.count(LRNote1.self) }, 2)
    try pool.close()
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before2)
    XCTAssertEqual(before.count, before2.count)
    // Pending steps: a typed error.
    let m3 = try shipRelease(3, snapshots: snapshots)
    XCTAssertThrowsError(try DatabasePool(path: path, options: .readOnly, preparation: m3)) {
      error in
      guard case MigratorError.readOnlyDatabase(let pending)? = error as? MigratorError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
      XCTAssertEqual(pending, ["v3-notes"])
    }
  }

  func testReadOnlyLaunchWithModelPreparationThatWouldMigrateIsATypedError() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    _ = try shipTwoReleases(at: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    XCTAssertThrowsError(
      try DatabaseQueue(
        path: path, options: .readOnly, preparation: ModelPreparation(LRFolder.self, LRNote3.self))
    ) { error in
      XCTAssertTrue(
        error is MigratorError || error is MigrationError, "\(type(of: error)): \(error)")
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    // Writable: brought to the model at launch, the first read works.
    let queue = try DatabaseQueue(
      path: path, preparation: ModelPreparation(LRFolder.self, LRNote3.self))
    XCTAssertEqual(try queue.read { db in try db.findAll(LRNote3.self).count }, 2)
  }

  func testAFileMigratedWithoutSnapshotsUpgradesWithThem() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let m1 = try releaseMigrator(1, snapshots: nil)
    let queue = try DatabaseQueue(path: path, preparation: m1)
    try queue.write { db in
      let work = try db.insert(LRFolder(id: nil, name: "Work"))
      try db.insert(
        LRNote1(
          id: nil, folderID: work, title: "Report", body: "quarterly", tags: ["urgent"],
          pinned: false, createdAt: Date()))
    }
    try queue.close()
    let snapshots = folder.appendingPathComponent("MigrationSnapshots")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    _ = try shipRelease(1, snapshots: snapshots)
    _ = try shipRelease(2, snapshots: snapshots)
    _ = try shipRelease(3, snapshots: snapshots)
    let m4 = try shipRelease(4, snapshots: snapshots)
    let upgraded = try DatabaseQueue(path: path, preparation: m4)
    let notes = try upgraded.read { db in try db.findAll(LRNote4.self) }
    XCTAssertEqual(notes.map(\.isPinned), [true])
    XCTAssertEqual(notes.map(\.content), ["quarterly"])
    let fresh = folder.appendingPathComponent("fresh.sqlite").path
    _ = try DatabaseQueue(path: fresh, preparation: m4)
    let differences = try DatabaseSchema(Connection(path: fresh, options: .readOnly))
      .differences(from: DatabaseSchema(Connection(path: path, options: .readOnly)))
    XCTAssertTrue(differences.isEmpty, "\(differences)")
  }

  func testReclaimingSpaceOnAnOpenPoolWithAReaderSaysWhatWasApplied() throws {
    struct NoteRetyped: Model {
      var id: Int64?
      var folderID: Int64
      var title: String
      var body: String?
      var tags: [String]
      var pinned: Bool
      var createdAt: Date
      static let primaryKey = ["id"]
      static let tableName = "Note"
      static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
    }
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path, notes: 2000)
    var migrator = try withSnapshots(
      {
        $0.registerModels("v1-tables", LRFolder.self, NoteRetyped.self)
        $0.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
        $0.registerModels("v3-nullable-body", NoteRetyped.self)
      }, in: snapshots)
    migrator.reclaimsSpace = true
    let pool = try DatabasePool(path: path)
    XCTAssertEqual(
      try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM Note") }, 2000)
    XCTAssertThrowsError(try migrator.migrate(pool)) { error in
      guard case MigratorError.cannotReclaimSpace? = error as? MigratorError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
    }
    XCTAssertEqual(try migrator.pendingMigrations(pool), ["v3-nullable-body"])  // refused first
  }

  func testTheHistoryCheckLeavesACommittedFixtureFileAsItIs() throws {
    let path = folder.appendingPathComponent("release2.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    let fixtureBytes = try Data(contentsOf: URL(fileURLWithPath: path))
    _ = try shipRelease(3, snapshots: snapshots)  // v3-notes is recorded when release 3 ships
    var check = MigrationHistoryCheck(try shipRelease(4, snapshots: snapshots))
    check.upgrade(fixture: URL(fileURLWithPath: path))
    let report = try check.run()
    XCTAssertTrue(report.passed, report.description)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), fixtureBytes)
  }

  func testRemovingAnIndexedColumnKeepsSearchOverTheOthers() throws {
    struct NoteNoBody: Model {
      var id: Int64?
      var folderID: Int64
      var title: String
      var tags: [String]
      var isPinned: Bool
      var createdAt: Date
      static let primaryKey = ["id"]
      static let tableName = "Note"
      static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
      static let droppableColumns: Set<String> = ["body"]
      static let fullTextIndexes = [FullTextIndex(NoteNoBody.self, columns: ["title"])]
    }
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    _ = try DatabaseQueue(path: path, preparation: try shipRelease(3, snapshots: snapshots))
    let migrator = try withSnapshots(
      {
        $0.registerModels("v1-tables", LRFolder.self, NoteNoBody.self)
        $0.register("v2-data: pin urgent notes") { db in try db.run(pinUrgentSQL) }
        $0.registerModels("v3-notes", NoteNoBody.self)
        $0.registerModels("v4-no-body", NoteNoBody.self)
      }, in: snapshots)
    let queue = try DatabaseQueue(path: path, preparation: migrator)
    let hits = try queue.read { db in
      try NoteNoBody.all().matching(.allWords(in: "note 1")).fetchAll(db)
    }
    XCTAssertEqual(hits.map(\.title), ["Note 1"])
    try queue.write { db in
      try db.insert(
        NoteNoBody(
          id: nil, folderID: 1, title: "fresh words", tags: [], isPinned: false,
          createdAt: Date()))
    }
    XCTAssertEqual(
      try queue.read { db in
        try NoteNoBody.all().matching(.allWords(in: "fresh")).fetchAll(db).count
      }, 1)
  }

  func testSchemaDifferencesSeeCheckOnlyCollateOnlyAndViews() throws {
    func schema(_ sql: String) throws -> DatabaseSchema {
      let db = try Connection(path: ":memory:")
      try db.execute(sql)
      return try DatabaseSchema(db)
    }
    let base = try schema("CREATE TABLE t(a TEXT, b INTEGER)")
    let check = try schema("CREATE TABLE t(a TEXT, b INTEGER CHECK (b > 0))")
    let collate = try schema("CREATE TABLE t(a TEXT COLLATE NOCASE, b INTEGER)")
    let view = try schema("CREATE TABLE t(a TEXT, b INTEGER); CREATE VIEW v AS SELECT a FROM t")
    XCTAssertFalse(check.differences(from: base).isEmpty)
    XCTAssertFalse(collate.differences(from: base).isEmpty)
    XCTAssertFalse(view.differences(from: base).isEmpty)
    let otherView = try schema(
      "CREATE TABLE t(a TEXT, b INTEGER); CREATE VIEW v AS SELECT b FROM t")
    XCTAssertFalse(otherView.differences(from: view).isEmpty)
    let spaced = try schema(
      "CREATE TABLE t(a TEXT, b INTEGER); CREATE VIEW v AS   SELECT a\n FROM t")
    XCTAssertTrue(spaced.differences(from: view).isEmpty, "\(spaced.differences(from: view))")
  }

  func testAnAppThatShippedWithoutSnapshotsRecordsItsOldStepsFromReleaseFiles() throws {
    // Releases 1 to 3 shipped without snapshots; each left a file.
    let release1 = folder.appendingPathComponent("r1.sqlite").path
    let release3 = folder.appendingPathComponent("r3.sqlite").path
    _ = try DatabaseQueue(path: release1, preparation: try releaseMigrator(1, snapshots: nil))
    for release in 1...3 {
      let queue = try DatabaseQueue(
        path: release3, preparation: try releaseMigrator(release, snapshots: nil))
      if release == 1 {
        try queue.write { db in
          let work = try db.insert(LRFolder(id: nil, name: "Work"))
          try db.insert(
            LRNote1(
              id: nil, folderID: work, title: "Report", body: "quarterly", tags: ["urgent"],
              pinned: false, createdAt: Date()))
        }
      }
    }
    // Release 4 records the old steps from those files, as the article says.
    let snapshots = folder.appendingPathComponent("MigrationSnapshots")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    let r1 = try Connection(path: release1, options: .readOnly)
    try SchemaSnapshot(
      step: "v1-tables",
      tables: [
        try SchemaSnapshot.Table(recordedIn: r1, table: "Folder"),
        try SchemaSnapshot.Table(recordedIn: r1, table: "Note"),
      ]
    ).jsonData().write(to: snapshots.appendingPathComponent("v1-tables.json"))
    let r3 = try Connection(path: release3, options: .readOnly)
    try SchemaSnapshot(
      step: "v3-notes",
      tables: [
        try SchemaSnapshot.Table(
          recordedIn: r3, table: "Note", renamedColumns: ["isPinned": "pinned"])
      ]
    ).jsonData().write(to: snapshots.appendingPathComponent("v3-notes.json"))
    try r1.close()
    try r3.close()
    let m4 = try shipRelease(4, snapshots: snapshots)
    let upgraded = try DatabaseQueue(path: release3, preparation: m4)
    XCTAssertEqual(try upgraded.read { db in try db.findAll(LRNote4.self).map(\.isPinned) }, [true])
    try upgraded.close()
    let fresh = folder.appendingPathComponent("fresh.sqlite").path
    _ = try DatabaseQueue(path: fresh, preparation: m4)
    let differences = try DatabaseSchema(Connection(path: fresh, options: .readOnly))
      .differences(from: DatabaseSchema(Connection(path: release3, options: .readOnly)))
    XCTAssertTrue(differences.isEmpty, "\(differences)")
    var check = MigrationHistoryCheck(m4)
    check.upgrade(fixture: URL(fileURLWithPath: release1))
    let report = try check.run()
    XCTAssertTrue(report.passed, report.description)
  }

  func testFullTextIndexStaysInSyncThroughEveryWrite() throws {
    let path = folder.appendingPathComponent("app.sqlite").path
    let snapshots = try shipTwoReleases(at: path)
    _ = try DatabaseQueue(path: path, preparation: try shipRelease(3, snapshots: snapshots))
    let queue = try DatabaseQueue(path: path, preparation: try shipRelease(4, snapshots: snapshots))
    func search(_ words: String) throws -> [String] {
      try queue.read { db in
        try LRNote4.all().matching(.allWords(in: words)).fetchAll(db).map(\.title).sorted()
      }
    }
    try queue.write { db in
      var note = try XCTUnwrap(db.find(LRNote4.self, id: 1))
      note.content = "alpha"
      try db.save(note)  // an UPSERT
      let original = try XCTUnwrap(db.find(LRNote4.self, id: 2))
      var other = original
      other.content = "beta"
      try db.update(other, from: original)
      var renamed = other
      renamed.title = "Gamma"
      try db.update(renamed)
    }
    XCTAssertEqual(try search("alpha"), ["Note 0"])
    XCTAssertEqual(try search("beta"), ["Gamma"])
    XCTAssertEqual(try search("words"), [])
    try queue.write { db in
      try db.run("INSERT INTO Note_fts(Note_fts) VALUES ('integrity-check')")
      try db.run("DELETE FROM Folder")  // cascades to Note
      try db.run("INSERT INTO Note_fts(Note_fts) VALUES ('integrity-check')")
    }
    XCTAssertEqual(try search("alpha"), [])
    XCTAssertEqual(
      try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM Note_fts") }, 0)
  }

  func testAModelWriteInsideAnOldStepSaysToWriteSQLForThatStepsShape() throws {
    // Release 4's code writes a welcome note through today's Note inside release 2's data
    // step. On a fresh install that step runs against release 1's shape, so the write is
    // refused: the refusal said "register a new step for this change: call migrate(_:)
    // (or run your migrations) first", a fix for another problem.
    let snapshots = folder.appendingPathComponent("MigrationSnapshots")
    try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    for release in 1...4 { _ = try shipRelease(release, snapshots: snapshots) }
    var migrator = try Migrator(snapshots: snapshots)
    migrator.registerModels("v1-tables", LRFolder.self, LRNote4.self)
    migrator.register("v2-data: pin urgent notes") { db in
      let inbox = try db.insert(LRFolder(id: nil, name: "Inbox"))
      try db.insert(
        LRNote4(
          id: nil, folderID: inbox, title: "Welcome", content: "hi", tags: [], isPinned: true,
          createdAt: Date()))
    }
    migrator.registerModels("v3-notes", LRNote4.self)
    migrator.registerModels("v4-notes", LRNote4.self)
    let path = folder.appendingPathComponent("fresh.sqlite").path
    XCTAssertThrowsError(try DatabaseQueue(path: path, preparation: migrator)) { error in
      guard case MigratorError.migrationFailed(_, let underlying)? = error as? MigratorError,
        case MigrationError.needsMigration(_, _, let reason)? = underlying as? MigrationError
      else { return XCTFail("\(type(of: error)): \(error)") }
      XCTAssertTrue(reason.contains("SQL"), reason)
      XCTAssertTrue(reason.contains("migration step"), reason)
    }
  }
}
