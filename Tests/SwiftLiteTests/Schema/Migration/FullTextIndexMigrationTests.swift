import Foundation
import SwiftLite
import XCTest

// Full-text indexes declared by the model: created with its table, carried by renames,
// removals, rebuilds and tokenizer changes in the same transaction, and upgraded from the
// triggers of earlier versions.

private struct NoteV1: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  var isPinned = false
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let fullTextIndexes = [FullTextIndex(NoteV1.self, columns: ["title", "body"])]
}

/// `body` renamed `content`; the index follows.
private struct NoteV2: Model, Equatable {
  var id: Int64?
  var title: String
  var content: String
  var isPinned = false
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let renamedProperties = ["content": "body"]
  static let fullTextIndexes = [FullTextIndex(NoteV2.self, columns: ["title", "content"])]
}

/// `body` removed (with its values), the index over `title` alone.
private struct NoteV3: Model, Equatable {
  var id: Int64?
  var title: String
  var isPinned = false
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let droppableColumns: Set<String> = ["body"]
  static let fullTextIndexes = [FullTextIndex(NoteV3.self, columns: ["title"])]
}

/// V1 with a trigram tokenizer and prefix indexes.
private struct NoteV4: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  var isPinned = false
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let fullTextIndexes = [
    FullTextIndex(NoteV4.self, columns: ["title", "body"], tokenizer: .trigram(), prefixes: [2])
  ]
}

/// V1 with a new NOT NULL column without a default's worth of rebuild: `isPinned` retyped.
private struct NoteV5: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  var isPinned = 0.0
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let fullTextIndexes = [FullTextIndex(NoteV5.self, columns: ["title", "body"])]
}

/// V1 without the declaration (an app of the previous version made the index by hand).
private struct NoteV0: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  var isPinned = false
  static let tableName = "Note"
  static let primaryKey = ["id"]
}

final class FullTextIndexMigrationTests: ModelTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try XCTSkipUnless(
      open().isFullTextSearchAvailable(), "FTS5 is not compiled into this libsqlite3")
  }

  private func ids<M: Model>(_ model: M.Type, _ text: String, _ db: Connection) throws -> [Int64?] {
    let index = try XCTUnwrap(FullTextIndex.declared(by: M.self))
    return try M.all().filter(index.matching(.allWords(in: text))).order(Column("id")).fetchRows(db)
      .map { try $0.get(Int64?.self, "id") }
  }

  private func assertIndexMatchesContent(
    _ db: Connection, _ name: String = "Note_fts", file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertNoThrow(
      try db.execute(
        "INSERT INTO \"\(name)\"(\"\(name)\", rank) VALUES ('integrity-check', 1)"),
      file: file, line: line)
  }

  private func seed(_ db: Connection) throws {
    try db.save([
      NoteV1(id: 1, title: "Garden", body: "roses and tulips"),
      NoteV1(id: 2, title: "Kitchen", body: "tomato sauce"),
    ])
  }

  func testCreatingTheTableCreatesTheIndex() throws {
    let db = try open()
    let plan = try db.migrationPlan(for: NoteV1.self)
    XCTAssertEqual(plan.strategy, .create)
    XCTAssertTrue(plan.steps.contains { $0.sql.hasPrefix("CREATE VIRTUAL TABLE \"Note_fts\"") })
    try seed(db)
    XCTAssertEqual(try ids(NoteV1.self, "tulips", db), [1])
    XCTAssertNotNil(try db.storedSQL("Note_fts_au"))
    assertIndexMatchesContent(db)
  }

  /// Renaming an indexed column used to fail the rebuild with `no such column: new.body`:
  /// the index's triggers still named the old column.
  func testRenamingAnIndexedColumnCarriesTheIndex() throws {
    let db = try open()
    try seed(db)
    let plan = try db.migrationPlan(for: NoteV2.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertTrue(plan.changes.contains("column body renamed to content"), "\(plan.changes)")
    XCTAssertTrue(
      plan.changes.contains(
        "full-text index Note_fts changed (columns, tokenizer or prefix indexes)"),
      "\(plan.changes)")
    XCTAssertTrue(
      plan.steps.contains { $0.sql.contains("USING fts5(\"title\", \"content\"") }, "\(plan)")
    XCTAssertTrue(plan.steps.contains { $0.sql.contains("VALUES ('rebuild')") }, "\(plan)")

    let applied = try db.migrate(NoteV2.self)
    XCTAssertEqual(applied.strategy, .rebuild)
    XCTAssertEqual(try ids(NoteV2.self, "tulips", db), [1], "search works right after")
    try db.save(NoteV2(id: 3, title: "Shed", content: "spades and tulips"))
    XCTAssertEqual(Set(try ids(NoteV2.self, "tulips", try open())), [1, 3])
    assertIndexMatchesContent(db)
    XCTAssertEqual(try db.migrationPlan(for: NoteV2.self).strategy, .none)
  }

  func testRemovingAnIndexedColumnRecreatesTheIndexOverTheOthers() throws {
    let db = try open()
    try seed(db)
    let plan = try db.migrationPlan(for: NoteV3.self)  // the dry run
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(
      Set(plan.changes),
      [
        "column body removed",
        "full-text index Note_fts changed (columns, tokenizer or prefix indexes)",
      ])
    XCTAssertTrue(
      plan.steps.contains { $0.sql.contains("USING fts5(\"title\", content=") }, "\(plan)")
    try db.migrate(NoteV3.self)
    XCTAssertEqual(try ids(NoteV3.self, "kitchen", db), [2])
    XCTAssertEqual(try ids(NoteV3.self, "tulips", db), [])
    assertIndexMatchesContent(db)
  }

  func testATokenizerChangeIsAPlannedChangeWithoutRebuildingTheTable() throws {
    let db = try open()
    try seed(db)
    XCTAssertEqual(try ids(NoteV1.self, "ulip", db), [], "unicode61 matches words")
    let plan = try db.migrationPlan(for: NoteV4.self)  // the dry run
    XCTAssertEqual(plan.strategy, .alter)
    XCTAssertEqual(
      plan.changes, ["full-text index Note_fts changed (columns, tokenizer or prefix indexes)"])
    XCTAssertTrue(
      plan.steps.contains { $0.sql.contains("tokenize='trigram case_sensitive 0', prefix='2'") },
      "\(plan)")
    XCTAssertFalse(plan.steps.contains { $0.sql.contains("swiftlite_new_") }, "no table rebuild")
    try db.migrate(NoteV4.self)
    XCTAssertEqual(try ids(NoteV4.self, "ulip", db), [1], "trigram matches substrings")
    assertIndexMatchesContent(db)
  }

  func testEveryRebuildCarriesTheIndex() throws {
    let db = try open()
    try seed(db)
    let plan = try db.migrate(NoteV5.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(plan.changes, ["column isPinned type changed from INTEGER to REAL"])
    XCTAssertTrue(plan.steps.contains { $0.reason == "index every row in Note_fts" }, "\(plan)")
    XCTAssertEqual(try ids(NoteV5.self, "sauce", db), [2])
    try db.save(NoteV5(id: 2, title: "Kitchen", body: "pesto", isPinned: 1))
    XCTAssertEqual(try ids(NoteV5.self, "sauce", db), [])
    XCTAssertEqual(try ids(NoteV5.self, "pesto", db), [2])
    assertIndexMatchesContent(db)
  }

  func testAMigratorCarriesTheIndexThroughEachStep() throws {
    var migrator = Migrator()
    migrator.registerModels("v1", NoteV1.self)
    migrator.register("v1-data") { db in
      _ = try db.run(
        "INSERT INTO Note (id, title, body, isPinned) VALUES (1, 'Garden', 'tulips', 0)")
    }
    migrator.registerModels("v2", NoteV2.self)
    let db = try open()
    try migrator.migrate(db)
    XCTAssertEqual(try ids(NoteV2.self, "tulips", db), [1])
    assertIndexMatchesContent(db)

    // The index and its triggers are those a fresh table of the last shape gets.
    func fullTextSchema(_ db: Connection) throws -> [String] {
      try db.query(
        "SELECT type || ' ' || name || ' ' || sql FROM sqlite_schema WHERE name LIKE 'Note_fts%'"
          + " AND sql IS NOT NULL ORDER BY name"
      ).map { try $0.get(String.self, at: 0) }
    }
    let fresh = try Connection(path: path("fresh.sqlite"))
    try fresh.createTable(for: NoteV2.self)
    XCTAssertEqual(try fullTextSchema(db), try fullTextSchema(fresh))
    XCTAssertEqual(
      try fullTextSchema(fresh).count, 8, "the FTS5 table, 4 shadow tables, 3 triggers")
  }

  /// The update trigger is `AFTER UPDATE OF` the indexed columns and the key: a change of
  /// another column leaves the index alone (SQLite counts the rows triggers change).
  func testTheUpdateTriggerFiresOnlyForIndexedColumnsAndTheKey() throws {
    let db = try open()
    try seed(db)
    XCTAssertEqual(
      try db.storedSQL("Note_fts_au")?.hasPrefix(
        "CREATE TRIGGER \"Note_fts_au\" AFTER UPDATE OF \"title\", \"body\", \"id\" ON \"Note\""),
      true)
    func changes(_ sql: String) throws -> Int {
      let before = try db.scalar(Int.self, "SELECT total_changes()") ?? 0
      try db.execute(sql)
      return (try db.scalar(Int.self, "SELECT total_changes()") ?? 0) - before
    }
    XCTAssertEqual(try changes("UPDATE Note SET isPinned = 1 WHERE id = 1"), 1)
    XCTAssertGreaterThan(try changes("UPDATE Note SET title = 'Yard' WHERE id = 1"), 1)
    XCTAssertGreaterThan(try changes("UPDATE Note SET id = 10 WHERE id = 1"), 1)
    XCTAssertEqual(try ids(NoteV1.self, "yard", db), [10])
    assertIndexMatchesContent(db)
  }

  /// A file of the previous version: the index made by hand, with an update trigger that
  /// fired on every update. Declaring the index upgrades the triggers and keeps the content.
  func testAFileOfThePreviousVersionGetsTheNewTriggers() throws {
    let db = try open()
    try db.save([NoteV0(id: 1, title: "Garden", body: "tulips")])
    // What createFullTextIndex wrote before this version.
    try db.execute(
      """
      CREATE VIRTUAL TABLE IF NOT EXISTS "Note_fts" USING fts5("title", "body", content='Note', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER IF NOT EXISTS "Note_fts_ai" AFTER INSERT ON "Note" BEGIN INSERT INTO "Note_fts" (rowid, "title", "body") VALUES (new."rowid", new."title", new."body"); END;
      CREATE TRIGGER IF NOT EXISTS "Note_fts_ad" AFTER DELETE ON "Note" BEGIN INSERT INTO "Note_fts" ("Note_fts", rowid, "title", "body") VALUES ('delete', old."rowid", old."title", old."body"); END;
      CREATE TRIGGER IF NOT EXISTS "Note_fts_au" AFTER UPDATE ON "Note" BEGIN INSERT INTO "Note_fts" ("Note_fts", rowid, "title", "body") VALUES ('delete', old."rowid", old."title", old."body"); INSERT INTO "Note_fts" (rowid, "title", "body") VALUES (new."rowid", new."title", new."body"); END;
      INSERT INTO "Note_fts" ("Note_fts") VALUES ('rebuild');
      """)
    let plan = try open().migrationPlan(for: NoteV1.self)
    XCTAssertEqual(plan.strategy, .alter)
    XCTAssertEqual(plan.changes, ["triggers of full-text index Note_fts updated"])
    XCTAssertFalse(plan.steps.contains { $0.sql.contains("'rebuild'") }, "the content is kept")
    let upgraded = try open()
    try upgraded.migrate(NoteV1.self)
    XCTAssertEqual(
      try upgraded.storedSQL("Note_fts_au")?.contains(
        "AFTER UPDATE OF \"title\", \"body\", \"id\""),
      true)
    XCTAssertEqual(try ids(NoteV1.self, "tulips", upgraded), [1])
    XCTAssertEqual(try upgraded.migrationPlan(for: NoteV1.self).strategy, .none)
    assertIndexMatchesContent(upgraded)
  }

  func testAUserTriggerThatCompilesIsRecreatedAndOneThatDoesNotIsRefusedBeforeAnyWrite() throws {
    do {
      let db = try open()
      try seed(db)
      try db.execute(
        """
        CREATE TABLE audit (what TEXT);
        CREATE TRIGGER note_titled AFTER UPDATE OF title ON Note BEGIN INSERT INTO audit VALUES (new.title); END;
        CREATE TRIGGER note_bodied AFTER UPDATE ON Note BEGIN INSERT INTO audit VALUES (new.body); END;
        CREATE TRIGGER note_gone AFTER DELETE ON Note BEGIN INSERT INTO audit VALUES (old.body || '!'); END;
        """)
      try db.close()
    }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path()))
    let db = try open()
    // The dry run names both triggers that would not compile, and SQLite's reasons.
    let plan = try db.migrationPlan(for: NoteV2.self)
    guard
      case .triggersWouldNotCompile(let table, let triggers, let messages) = plan.refusals.first?
        .error, plan.refusals.count == 1
    else { return XCTFail("\(plan)") }
    XCTAssertEqual(table, "Note")
    XCTAssertEqual(Set(triggers), ["note_bodied", "note_gone"])
    XCTAssertEqual(messages.count, 2)
    XCTAssertTrue(messages.allSatisfy { $0.contains("body") }, "\(messages)")
    XCTAssertThrowsError(try db.migrate(NoteV2.self)) { error in
      XCTAssertTrue("\(error)".contains("note_bodied"), "\(error)")
    }
    XCTAssertFalse(db.isInTransaction)
    try db.close()
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path())), bytes, "file byte-identical")

    // Without them, the one that compiles is recreated against the new columns.
    let fixed = try open()
    try fixed.execute("DROP TRIGGER note_bodied; DROP TRIGGER note_gone")
    try fixed.migrate(NoteV2.self)
    try fixed.save(NoteV2(id: 1, title: "Yard", content: "tulips"))
    XCTAssertEqual(try fixed.scalar(String.self, "SELECT what FROM audit"), "Yard")
    XCTAssertEqual(try ids(NoteV2.self, "yard", fixed), [1])
  }
}
