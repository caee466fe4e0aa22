import Foundation
import SwiftLite
import XCTest

// A parent's key column renamed or removed while a managed
// child's foreign key names it, across two releases (separate model types) on real files
// with foreign keys enforced.
extension OtherProgramsDatabaseTests {
  func testRenamingAParentKeyThatAChildNamesIsPlannedOrKeepsTheChildWorking() throws {
    // Folder renames its key `id` to `folderKey`; Note, a managed child, declares
    // `ForeignKey(["folderID"], references: "Folder", ["id"])`. The parent's plan renames
    // the column in place, so that SQLite rewrites Note's REFERENCES, and names Note; Note's
    // model of the next release names the new column and finds nothing to migrate; a model
    // of Note still naming `id` is refused, typed, before anything is written.
    let file = folder.appendingPathComponent("keys.sqlite").path
    let db = try Connection(path: file)
    try db.save(FolderR1(id: 1, name: "Work"))
    try db.save([NoteR1(id: nil, folderID: 1), NoteR1(id: nil, folderID: 1)])

    let release2 = try Connection(path: file)
    XCTAssertEqual(try release2.scalar(Int.self, "PRAGMA foreign_keys"), 1)
    let plan = try release2.migrationPlan(for: FolderR2.self)
    XCTAssertTrue(plan.canApply, "\(plan)")
    XCTAssertTrue(
      plan.steps.contains { $0.reason.contains("Note") && $0.sql.contains("RENAME COLUMN") }
        || plan.steps.contains { $0.reason.contains("foreign key of Note") }, "\(plan)")
    try release2.migrate(FolderR2.self)
    let noteSQL = try XCTUnwrap(
      release2.scalar(String.self, "SELECT sql FROM sqlite_schema WHERE name = 'Note'"))
    XCTAssertTrue(noteSQL.contains("REFERENCES \"Folder\" (\"folderKey\")"), noteSQL)
    XCTAssertFalse(try release2.needsMigration(NoteR2.self))
    XCTAssertTrue(try release2.migrationPlan(for: NoteR2.self).isEmpty)

    // A stale child model: refused, typed, naming the child and the key; the file is intact.
    let stale = try Connection(path: file)
    let refused = try stale.migrationPlan(for: NoteR1.self)
    XCTAssertEqual(
      refused.refusals.map(\.error),
      [.foreignKeyMismatch(table: "Note", child: "Note", parent: "Folder", columns: ["id"])])
    XCTAssertTrue(refused.refusals[0].fix.contains("foreignKeys"), refused.refusals[0].fix)
    XCTAssertThrowsError(try stale.save(NoteR1(id: nil, folderID: 1))) { error in
      XCTAssertEqual(
        error as? MigrationError,
        .foreignKeyMismatch(table: "Note", child: "Note", parent: "Folder", columns: ["id"]))
    }
    XCTAssertEqual(
      try stale.scalar(String.self, "SELECT sql FROM sqlite_schema WHERE name = 'Note'"),
      noteSQL)

    // The next release's models work, on another connection, with foreign keys enforced.
    let next = try Connection(path: file)
    XCTAssertNoThrow(try next.save(NoteR2(id: nil, folderID: 1)))
    XCTAssertThrowsError(try next.save(NoteR2(id: nil, folderID: 9)), "the key is enforced")
    XCTAssertEqual(try next.count(NoteR2.self), 3)
    try next.delete(FolderR2(folderKey: 1, name: "Work"))
    XCTAssertEqual(try next.count(NoteR2.self), 0, "the cascade follows the rename")
    XCTAssertEqual(try next.query("PRAGMA foreign_key_check").count, 0)
  }

  // A parent rebuilt (not a rename): a referenced column removed is
  // refused naming the child; another column removed keeps the child's key working.
  func testRebuildingAParentKeepsChildKeysOrRefusesRemovingTheirColumn() throws {
    let file = folder.appendingPathComponent("shelves.sqlite").path
    let db = try Connection(path: file)
    try db.save(ShelfR1(id: 1, code: "A1", label: "top"))
    try db.save(BookR1(id: nil, shelfCode: "A1"))

    let release2 = try Connection(path: file)
    let plan = try release2.migrationPlan(for: ShelfWithoutCode.self)
    XCTAssertEqual(
      plan.refusals.map(\.error),
      [.foreignKeyMismatch(table: "Shelf", child: "Book", parent: "Shelf", columns: ["code"])])
    XCTAssertTrue(plan.refusals[0].reason.contains("Book"), plan.refusals[0].reason)
    let before = try quoted(release2, "Shelf")
    XCTAssertThrowsError(try release2.migrate(ShelfWithoutCode.self)) { error in
      XCTAssertEqual(
        error as? MigrationError,
        .foreignKeyMismatch(table: "Shelf", child: "Book", parent: "Shelf", columns: ["code"]))
    }
    XCTAssertEqual(try quoted(release2, "Shelf"), before)

    // Rebuilt for another column: the child's key still resolves, and cascades.
    let plan2 = try release2.migrationPlan(for: ShelfWithoutLabel.self)
    XCTAssertEqual(plan2.strategy, .rebuild)
    XCTAssertTrue(plan2.canApply, "\(plan2)")
    try release2.migrate(ShelfWithoutLabel.self)
    let next = try Connection(path: file)
    XCTAssertFalse(try next.needsMigration(BookR1.self))
    XCTAssertNoThrow(try next.save(BookR1(id: nil, shelfCode: "A1")))
    XCTAssertThrowsError(try next.save(BookR1(id: nil, shelfCode: "Z9")))
    try next.delete(ShelfWithoutLabel(id: 1, code: "A1"))
    XCTAssertEqual(try next.count(BookR1.self), 0)
  }
}

private struct FolderR1: Model {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
  static let tableName = "Folder"
}

private struct FolderR2: Model {
  var folderKey: Int64?
  var name: String
  static let primaryKey = ["folderKey"]
  static let tableName = "Folder"
  static let renamedProperties = ["folderKey": "id"]
}

private struct NoteR1: Model {
  var id: Int64?
  var folderID: Int64
  static let primaryKey = ["id"]
  static let tableName = "Note"
  static let foreignKeys = [
    ForeignKey(["folderID"], references: "Folder", ["id"], onDelete: .cascade)
  ]
}

private struct NoteR2: Model {
  var id: Int64?
  var folderID: Int64
  static let primaryKey = ["id"]
  static let tableName = "Note"
  static let foreignKeys = [
    ForeignKey(["folderID"], references: "Folder", ["folderKey"], onDelete: .cascade)
  ]
}

private struct ShelfR1: Model {
  var id: Int64?
  var code: String
  var label: String
  static let primaryKey = ["id"]
  static let tableName = "Shelf"
  static let indexes = [TableIndex(["code"], unique: true)]
}

private struct ShelfWithoutCode: Model {
  var id: Int64?
  var label: String
  static let primaryKey = ["id"]
  static let tableName = "Shelf"
  static let droppableColumns: Set<String> = ["code"]
}

private struct ShelfWithoutLabel: Model {
  var id: Int64?
  var code: String
  static let primaryKey = ["id"]
  static let tableName = "Shelf"
  static let indexes = [TableIndex(["code"], unique: true)]
  static let droppableColumns: Set<String> = ["label"]
}

private struct BookR1: Model {
  var id: Int64?
  var shelfCode: String
  static let primaryKey = ["id"]
  static let tableName = "Book"
  static let foreignKeys = [
    ForeignKey(["shelfCode"], references: "Shelf", ["code"], onDelete: .cascade)
  ]
}
