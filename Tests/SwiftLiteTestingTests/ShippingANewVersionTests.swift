import Foundation
import SwiftLite
import SwiftLiteTesting
import XCTest

// The examples of the DocC article ShippingANewVersion.md, as written, one namespace per
// release. The one substitution: `snapshotFolder` (in the article, the app's resource) is a
// temporary folder the test records into, release by release.

/// Where the article's snapshots are recorded.
private let articleSnapshots = FileManager.default.temporaryDirectory
  .appendingPathComponent("ShippingANewVersion-\(ProcessInfo.processInfo.processIdentifier)")

private enum Release1 {
  struct Folder: Model {
    var id: Int64?
    var name: String
    static let primaryKey = ["id"]
  }

  struct Note: Model {
    var id: Int64?
    var folderID: Int64
    var title: String
    var body: String
    var tags: [String]  // a JSON array
    var pinned: Bool
    var createdAt: Date
    static let primaryKey = ["id"]
    static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
  }

  enum AppDatabase {
    static var migrator: Migrator {
      get throws {
        var migrator = try Migrator(snapshots: snapshotFolder)
        migrator.registerModels("v1-tables", Folder.self, Note.self)
        return migrator
      }
    }

    static var snapshotFolder: URL { articleSnapshots }
  }
}

private enum Release2 {
  typealias Folder = Release1.Folder
  typealias Note = Release1.Note

  enum AppDatabase {
    static var migrator: Migrator {
      get throws {
        var migrator = try Release1.AppDatabase.migrator
        migrator.register("v2-data: pin urgent notes") { db in
          try db.run(
            """
            UPDATE Note SET pinned = 1
            WHERE EXISTS (SELECT 1 FROM json_each(Note.tags) WHERE value = 'urgent')
            """)
        }
        return migrator
      }
    }
  }
}

private enum Release3 {
  typealias Folder = Release1.Folder

  struct Note: Model {
    var id: Int64?
    var folderID: Int64
    var title: String
    var body: String
    var tags: [String]
    var isPinned: Bool
    var createdAt: Date
    static let primaryKey = ["id"]
    static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
    static let renamedProperties = ["isPinned": "pinned"]  // new name -> old name
    static let fullTextIndexes = [FullTextIndex(Note.self, columns: ["title", "body"])]
  }

  enum AppDatabase {
    static var migrator: Migrator {
      get throws {
        var migrator = try Migrator(snapshots: articleSnapshots)
        migrator.registerModels("v1-tables", Folder.self, Note.self)
        Release2.AppDatabase.addDataStep(to: &migrator)
        migrator.registerModels("v3-notes", Note.self)
        return migrator
      }
    }
  }
}

private enum Release4 {
  typealias Folder = Release1.Folder

  struct Note: Model {
    var id: Int64?
    var folderID: Int64
    var title: String
    var content: String
    var tags: [String]
    var isPinned: Bool
    var createdAt: Date
    static let primaryKey = ["id"]
    static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
    static let renamedProperties = ["content": "body"]
    static let fullTextIndexes = [FullTextIndex(Note.self, columns: ["title", "content"])]
  }

  enum AppDatabase {
    static var migrator: Migrator {
      get throws {
        var migrator = try Migrator(snapshots: articleSnapshots)
        migrator.registerModels("v1-tables", Folder.self, Note.self)
        Release2.AppDatabase.addDataStep(to: &migrator)
        migrator.registerModels("v3-notes", Note.self)
        // ...after the steps of releases 1 to 3:
        migrator.registerModels("v4-notes", Note.self)
        return migrator
      }
    }
  }
}

private enum Release5 {
  typealias Folder = Release1.Folder

  struct Note: Model {
    var id: Int64?
    var folderID: Int64
    var title: String
    var content: String
    var tags: [String]
    var isStarred: Bool
    var createdAt: Date
    static let tableName = "Memo"
    static let previousTableNames = ["Note"]
    static let primaryKey = ["id"]
    static let foreignKeys = [ForeignKey(["folderID"], references: "Folder", onDelete: .cascade)]
    static let renamedProperties = ["isStarred": "isPinned"]
    static let previousPropertyNames = ["isStarred": ["pinned"]]  // older names, newest first
    static let fullTextIndexes = [FullTextIndex(Note.self, columns: ["title", "content"])]
  }

  enum AppDatabase {
    static var migrator: Migrator {
      get throws {
        var migrator = try Migrator(snapshots: articleSnapshots)
        migrator.registerModels("v1-tables", Folder.self, Note.self)
        Release2.AppDatabase.addDataStep(to: &migrator)
        migrator.registerModels("v3-notes", Note.self)
        migrator.registerModels("v4-notes", Note.self)
        // ...after the steps of releases 1 to 4:
        migrator.registerModels("v5-memos", Note.self)
        return migrator
      }
    }
  }
}

extension Release2.AppDatabase {
  /// Release 2's step, as the article writes it, for the later releases' migrators.
  static func addDataStep(to migrator: inout Migrator) {
    migrator.register("v2-data: pin urgent notes") { db in
      try db.run(
        """
        UPDATE Note SET pinned = 1
        WHERE EXISTS (SELECT 1 FROM json_each(Note.tags) WHERE value = 'urgent')
        """)
    }
  }
}

final class ShippingANewVersionTests: XCTestCase {
  private var databasePath: String { articleSnapshots.appendingPathComponent("app.sqlite").path }

  override func setUpWithError() throws {
    try super.setUpWithError()
    try? FileManager.default.removeItem(at: articleSnapshots)
    try FileManager.default.createDirectory(at: articleSnapshots, withIntermediateDirectories: true)
    // Each release's tests recorded its new step, in order.
    let migrators = [
      try Release1.AppDatabase.migrator, try Release2.AppDatabase.migrator,
      try Release3.AppDatabase.migrator, try Release4.AppDatabase.migrator,
      try Release5.AppDatabase.migrator,
    ]
    for migrator in migrators {
      _ = try MigrationSnapshotCheck(migrator, directory: articleSnapshots).run(record: true)
    }
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: articleSnapshots)
    try super.tearDownWithError()
  }

  /// The article's snapshot test, over release 5.
  func testMigrationSnapshots() throws {
    let check = MigrationSnapshotCheck(
      try Release5.AppDatabase.migrator, directory: articleSnapshots)
    let report = try check.run(record: false)
    XCTAssertTrue(report.passed, report.description)
    let files = try FileManager.default.contentsOfDirectory(atPath: articleSnapshots.path)
    XCTAssertEqual(
      files.filter { $0.hasSuffix(".json") }.sorted(),
      ["v1-tables.json", "v3-notes.json", "v4-notes.json", "v5-memos.json"])
    let v5 = try SchemaSnapshot(
      jsonData: Data(contentsOf: articleSnapshots.appendingPathComponent("v5-memos.json")))
    XCTAssertEqual(v5.formatVersion, 2)
    XCTAssertEqual(v5.tables.first?.previousNames, ["Note"])
    let v1 = try SchemaSnapshot(
      jsonData: Data(contentsOf: articleSnapshots.appendingPathComponent("v1-tables.json")))
    XCTAssertEqual(v1.formatVersion, 1)
  }

  /// Each release launches on one file; release 4's first calls are reads.
  func testEachReleaseLaunchesWithItsMigrator() throws {
    do {
      let dbQueue = try DatabaseQueue(
        path: databasePath, preparation: try Release1.AppDatabase.migrator)
      let notes = try dbQueue.read { db in try db.findAll(Release1.Note.self) }
      XCTAssertEqual(notes.count, 0)
      try dbQueue.write { db in
        let folder = try db.insertAndFetch(Release1.Folder(id: nil, name: "Work"))
        _ = try db.insert(
          Release1.Note(
            id: nil, folderID: folder.id!, title: "Quarterly report", body: "Draft it",
            tags: ["urgent"], pinned: false, createdAt: Date(timeIntervalSince1970: 0)))
      }
      try dbQueue.close()
    }
    for migrator in [try Release2.AppDatabase.migrator, try Release3.AppDatabase.migrator] {
      try DatabaseQueue(path: databasePath, preparation: migrator).close()
    }
    let dbQueue = try DatabaseQueue(
      path: databasePath, preparation: try Release4.AppDatabase.migrator)
    defer { try? dbQueue.close() }
    let hits = try dbQueue.read { db in
      try Release4.Note.all().matching(.allWords(in: "report")).fetchHits(db)
    }
    XCTAssertEqual(hits.map(\.model.title), ["Quarterly report"])
    XCTAssertEqual(hits.map(\.model.isPinned), [true])
    XCTAssertEqual(hits.map(\.model.content), ["Draft it"])
    try dbQueue.close()

    // Release 5 renames the table and the property again: the row and its values stay.
    let release5 = try DatabaseQueue(
      path: databasePath, preparation: try Release5.AppDatabase.migrator)
    defer { try? release5.close() }
    let memos = try release5.read { db in
      try Release5.Note.all().matching(.allWords(in: "report")).fetchHits(db)
    }
    XCTAssertEqual(memos.map(\.model.title), ["Quarterly report"])
    XCTAssertEqual(memos.map(\.model.isStarred), [true])
    let tables = try release5.read { db in
      try db.query(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('Note', 'Memo')"
      )
      .map { try $0.get(String.self, at: 0) }
    }
    XCTAssertEqual(tables, ["Memo"])
  }

  /// The article's history test, over release 5.
  func testMigrationHistory() throws {
    var check = MigrationHistoryCheck(try Release5.AppDatabase.migrator)
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

  /// Space: the article's reclaiming launch over a pool.
  func testReclaimingSpaceAtLaunch() throws {
    var migrator = try Release4.AppDatabase.migrator
    migrator.reclaimsSpace = true
    let pool = try DatabasePool(path: databasePath, preparation: migrator)
    defer { try? pool.close() }
    XCTAssertEqual(try pool.read { db in try db.scalar(Int.self, "PRAGMA freelist_count") }, 0)
  }

  /// Models as a preparation, as the article shows.
  func testModelPreparation() throws {
    let dbQueue = try DatabaseQueue(
      path: databasePath,
      preparation: ModelPreparation(Release4.Folder.self, Release4.Note.self))
    defer { try? dbQueue.close() }
    XCTAssertEqual(try dbQueue.read { db in try db.count(Release4.Note.self) }, 0)
  }
}
