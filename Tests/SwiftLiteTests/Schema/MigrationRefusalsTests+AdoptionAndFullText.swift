import Foundation
import SwiftLite
import XCTest

// Refusals of adopted tables (a rebuild that would drop what SQLite cannot report names the
// changes that need it) and of full-text indexes, listed by the dry run as the others are.

/// A hand-made `line` table's model, as it is.
private struct Line: Model, Equatable {
  var id: Int64?
  var quantity: Int
  var note: String?
  static let tableName = "line"
  static let primaryKey = ["id"]
}

/// `line` without `note` (dropped on purpose, which needs a rebuild), with `code` NOT NULL
/// without a default, and `quantity` made a Bool over quantities that are not 0 or 1.
private struct LineRebuilt: Model, Equatable {
  var id: Int64?
  var quantity: Bool
  var code: String
  static let tableName = "line"
  static let primaryKey = ["id"]
  static let droppableColumns: Set<String> = ["note"]
}

/// A `Note` with a full-text index over its title and body.
private struct NoteV1: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let fullTextIndexes = [FullTextIndex(NoteV1.self, columns: ["title", "body"])]
}

/// `body` removed (its values not declared droppable), the index over `title` alone and
/// moved to the trigram tokenizer.
private struct NoteWithoutBody: Model, Equatable {
  var id: Int64?
  var title: String
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let fullTextIndexes = [
    FullTextIndex(NoteWithoutBody.self, columns: ["title"], tokenizer: .trigram())
  ]
}

/// `body` removed, the index left over it.
private struct NoteIndexStale: Model, Equatable {
  var id: Int64?
  var title: String
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let droppableColumns: Set<String> = ["body"]
  static let fullTextIndexes = [FullTextIndex(NoteIndexStale.self, columns: ["title", "body"])]
}

/// The fixed version: `body` dropped on purpose, the index over `title` alone.
private struct NoteTitleOnly: Model, Equatable {
  var id: Int64?
  var title: String
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let droppableColumns: Set<String> = ["body"]
  static let fullTextIndexes = [
    FullTextIndex(NoteTitleOnly.self, columns: ["title"], tokenizer: .trigram())
  ]
}

extension MigrationRefusalsTests {
  func testAnAdoptionRefusalNamesTheChangesThatNeedTheRebuild() throws {
    do {
      let db = try open()
      try db.execute(
        """
        CREATE TABLE line (id INTEGER PRIMARY KEY, quantity INTEGER NOT NULL CHECK (quantity > 0), note TEXT);
        INSERT INTO line VALUES (1, 2, 'x');
        """)
      try db.adopt(Line.self)
      try db.close()
    }
    let bytes = try fileBytes()
    let db = try open()
    let plan = try db.migrationPlan(for: LineRebuilt.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    guard
      case .rebuildWouldDropConstraints(let table, let changes, let clauses, _) = plan.refusals
        .last?.error
    else { return XCTFail("\(plan)") }
    XCTAssertEqual(table, "line")
    XCTAssertEqual(changes, ["column code added", "column note removed"])
    XCTAssertEqual(clauses, ["CHECK"])
    XCTAssertEqual(plan.refusals.last?.subject, "column code added, column note removed")
    XCTAssertTrue(
      plan.description.contains("must be rebuilt for column code added, column note removed"),
      plan.description)
    XCTAssertFalse(plan.description.contains("this change"), plan.description)
    // With the rebuild, the other refusals of an adopted table: a new NOT NULL column
    // without a default, values that do not decode as the new Swift type.
    XCTAssertEqual(
      plan.refusals.dropLast().map(\.error),
      [
        .notNullWithoutDefault(table: "line", column: "code"),
        .valuesDoNotDecode(table: "line", column: "quantity", type: "Bool"),
      ])
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(LineRebuilt.self) },
      .refused(table: "line", refusals: plan.refusals))
    try db.close()
    XCTAssertEqual(try fileBytes(), bytes, "file byte-identical")
  }

  func testAnAdoptionPlanListsItsRefusalInsteadOfThrowing() throws {
    do {
      let db = try open()
      try db.execute(
        """
        CREATE TABLE line (id INTEGER PRIMARY KEY, quantity INTEGER NOT NULL CHECK (quantity > 0), note TEXT);
        INSERT INTO line VALUES (1, 2, 'x');
        """)
      try db.close()
    }
    let bytes = try fileBytes()
    let db = try open()
    struct LineWithoutNote: Model {
      var id: Int64?
      var quantity: Int
      static let tableName = "line"
      static let primaryKey = ["id"]
      static let droppableColumns: Set<String> = ["note"]
    }
    let plan = try db.adoptionPlan(for: LineWithoutNote.self)
    XCTAssertEqual(
      plan.refusals.map(\.error),
      [
        .rebuildWouldDropConstraints(
          table: "line", changes: ["column note removed"], clauses: ["CHECK"],
          sql: "CREATE TABLE line (id INTEGER PRIMARY KEY, quantity INTEGER NOT NULL "
            + "CHECK (quantity > 0), note TEXT)")
      ])
    // One refusal is thrown as its own case, as before.
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.adopt(LineWithoutNote.self) },
      plan.refusals.first?.error)
    try db.close()
    XCTAssertEqual(try fileBytes(), bytes, "file byte-identical")
  }

  func testAFullTextDryRunRefusesARemovedIndexedColumnAndATriggerWithTheTokenizerChange()
    throws
  {
    try XCTSkipUnless(open().isFullTextSearchAvailable(), "FTS5 is not compiled in")
    do {
      let db = try open()
      try db.save([
        NoteV1(id: 1, title: "Garden", body: "roses and tulips"),
        NoteV1(id: 2, title: "Kitchen", body: "tomato sauce"),
      ])
      try db.execute(
        """
        CREATE TABLE audit (what TEXT);
        CREATE TRIGGER note_gone AFTER DELETE ON Note BEGIN INSERT INTO audit VALUES (old.body); END;
        """)
      try db.close()
    }
    let bytes = try fileBytes()
    let db = try open()
    // Removing an indexed column and leaving the index over it is a mistake in the model,
    // refused before the table is read.
    XCTAssertThrowsError(try db.migrationPlan(for: NoteIndexStale.self)) { error in
      XCTAssertTrue("\(error)".contains("'body'"), "\(error)")
    }
    XCTAssertThrowsError(try db.migrate(NoteIndexStale.self))

    let plan = try db.migrationPlan(for: NoteWithoutBody.self)
    XCTAssertEqual(
      Set(plan.changes),
      [
        "column body removed",
        "full-text index Note_fts changed (columns, tokenizer or prefix indexes)",
      ])
    XCTAssertEqual(
      plan.refusals.map(\.error),
      [
        .wouldLoseData(table: "Note", column: "body", rows: 2),
        .triggersWouldNotCompile(
          table: "Note", triggers: ["note_gone"], messages: ["no such column: old.body"]),
      ], "\(plan)")
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(NoteWithoutBody.self) }?.refusals,
      plan.refusals)
    try db.close()
    XCTAssertEqual(try fileBytes(), bytes, "file byte-identical")

    // Each fixed, the same tokenizer change goes through and the index searches again.
    let fixed = try open()
    try fixed.execute("DROP TRIGGER note_gone")
    let applied = try fixed.migrate(NoteTitleOnly.self)
    XCTAssertTrue(applied.canApply)
    let index = try XCTUnwrap(FullTextIndex.declared(by: NoteTitleOnly.self))
    XCTAssertEqual(
      try NoteTitleOnly.all().filter(index.matching(.allWords(in: "itche"))).fetchAll(fixed)
        .map(\.id), [2])
  }
}
