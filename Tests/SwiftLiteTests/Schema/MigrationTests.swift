import Foundation
import SwiftLite
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: Versions of one "Item" table

private struct Item: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let primaryKey = ["id"]
}

private struct ItemAddNullable: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  var color: String?
  var tags: [String]?
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

private struct ItemAddDefault: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  var stock: Int
  var label: String
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "stock": [.default(5)], "label": [.default("it's new")],
  ]
}

private struct ItemAddNotNull: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  var stock: Int
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

private struct ItemWithoutNote: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

private struct ItemWithoutPrice: Model, Equatable {
  var id: Int64?
  var name: String
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

private struct ItemDroppingPrice: Model, Equatable {
  var id: Int64?
  var name: String
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let droppableColumns: Set<String> = ["price"]
}

private struct ItemRenamed: Model, Equatable {
  var id: Int64?
  var title: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name"]
}

private struct ItemRenamedPlusAdded: Model, Equatable {
  var id: Int64?
  var title: String
  var cost: Double
  var note: String?
  var stock: Int
  var tags: [String]?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name", "cost": "price"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["stock": [.default(1)]]
  static let indexes = [TableIndex(["title"])]
}

private struct ItemUniqueName: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
}

private struct ItemUniqueIndex: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["name"], unique: true)]
}

private struct ItemNoteRequired: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

private struct ItemCheck: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["price": [.check("price > 0")]]
}

private struct ItemNoCase: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.collate("NOCASE")]]
}

private struct ItemIndexed: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["name"], name: "item lookup")]
}

private struct ItemIndexChanged: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let indexes = [
    TableIndex(["name", "price"], unique: true, name: "item lookup"), TableIndex(["price"]),
  ]
}

private struct ItemByName: Model, Equatable {
  var id: Int64
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["name"]
}

private struct ItemByNameAndPrice: Model, Equatable {
  var id: Int64
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["name", "price"]
}

// MARK: Type changes

private struct Code: Model, Equatable {
  var id: Int64?
  var code: String
  static let primaryKey = ["id"]
}

private struct CodeAsInt: Model, Equatable {
  var id: Int64?
  var code: Int
  static let tableName = "Code"
  static let primaryKey = ["id"]
}

private struct CodeAsLossyInt: Model, Equatable {
  var id: Int64?
  var code: Int?
  static let tableName = "Code"
  static let primaryKey = ["id"]
  static let lossyConvertibleColumns: Set<String> = ["code"]
}

private struct Measure: Model, Equatable {
  var id: Int64?
  var count: Int
  var ratio: Double
  static let primaryKey = ["id"]
}

private struct MeasureAsReal: Model, Equatable {
  var id: Int64?
  var count: Double
  var ratio: Double
  static let tableName = "Measure"
  static let primaryKey = ["id"]
}

private struct MeasureAsText: Model, Equatable {
  var id: Int64?
  var count: Int
  var ratio: String
  static let tableName = "Measure"
  static let primaryKey = ["id"]
}

// MARK: Foreign keys

private struct Author: Model, Equatable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
}

private struct AuthorRenamed: Model, Equatable {
  var id: Int64?
  var fullName: String
  var born: Int?
  static let tableName = "Author"
  static let primaryKey = ["id"]
  static let renamedProperties = ["fullName": "name"]
}

private struct AuthorUnique: Model, Equatable {
  var id: Int64?
  var fullName: String
  var born: Int?
  static let tableName = "Author"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["fullName": [.unique]]
}

private struct Book: Model, Equatable {
  var id: Int64?
  var authorID: Int64
  var title: String
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["authorID"], references: "Author", onDelete: .cascade)]
  static let indexes = [TableIndex(["authorID"])]
}

private struct BookUniqueTitle: Model, Equatable {
  var id: Int64?
  var authorID: Int64
  var title: String
  static let tableName = "Book"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["authorID"], references: "Author", onDelete: .cascade)]
  static let indexes = [TableIndex(["authorID"])]
  static let columnConstraints: [String: [ColumnConstraint]] = ["title": [.unique]]
}

private struct AuthorByName: Model, Equatable {
  var id: Int64
  var name: String
  static let tableName = "Author"
  static let primaryKey = ["name"]
}

/// A tree: each category may have a parent category, deleted with it.
private struct Category: Model, Equatable {
  var id: Int64?
  var parentID: Int64?
  var name: String
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["parentID"], references: "Category", onDelete: .cascade)]
}

private struct CategoryV2: Model, Equatable {
  var id: Int64?
  var parentID: Int64?
  var title: String
  static let tableName = "Category"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name"]
  static let foreignKeys = [ForeignKey(["parentID"], references: "Category", onDelete: .cascade)]
}

// MARK: Five versions of "People"

private struct PeopleV1: Model, Equatable {
  var id: Int64?
  var name: String
  var age: Int
  var height: Double
  var email: String?
  static let tableName = "People"
  static let primaryKey = ["id"]
}

private struct PeopleV2: Model, Equatable {
  var id: Int64?
  var name: String
  var age: Int
  var height: Double
  var email: String?
  var nickname: String?
  static let tableName = "People"
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["name"])]
}

private struct PeopleV3: Model, Equatable {
  var id: Int64?
  var fullName: String
  var age: Int
  var height: Double
  var email: String?
  var nickname: String?
  var score: Int
  static let tableName = "People"
  static let primaryKey = ["id"]
  static let renamedProperties = ["fullName": "name"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["score": [.default(0)]]
  static let indexes = [TableIndex(["fullName"])]
}

private struct PeopleV4: Model, Equatable {
  var id: Int64?
  var fullName: String
  var age: Int
  var heightCM: Int
  var nickname: String?
  var score: Int
  static let tableName = "People"
  static let primaryKey = ["id"]
  static let renamedProperties = ["heightCM": "height"]
  static let droppableColumns: Set<String> = ["email"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["score": [.default(0)]]
  static let indexes = [TableIndex(["fullName"])]
}

private struct PeopleV5: Model, Equatable {
  var id: Int64?
  var fullName: String
  var age: String
  var heightCM: Int
  var nickname: String?
  var score: Int
  var active: Bool
  static let tableName = "People"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "score": [.default(0), .check("score >= 0")], "fullName": [.unique],
    "active": [.default(true)],
  ]
  static let indexes = [TableIndex(["score", "age"])]
}

// MARK: Other models

private struct Ticket: Model, Equatable {
  var id: Int64?
  var title: String
  static let primaryKey = ["id"]
  static let autoIncrement = true
}

private struct TicketV2: Model, Equatable {
  var id: Int64?
  var subject: String
  static let tableName = "Ticket"
  static let primaryKey = ["id"]
  static let autoIncrement = true
  static let renamedProperties = ["subject": "title"]
}

private struct Big: Model {
  var id: Int64?
  var name: String
  var value: Int
  var note: String?
  static let primaryKey = ["id"]
}

private struct BigV2: Model {
  var id: Int64?
  var title: String
  var value: Int
  var extra: Int
  static let tableName = "Big"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["extra": [.default(1)]]
  static let indexes = [TableIndex(["value"])]
}

private let items = [
  Item(id: 1, name: "apple", price: 1.5, note: nil),
  Item(id: 2, name: "pear", price: 2.25, note: nil),
  Item(id: 3, name: "plum", price: 0.5, note: nil),
]

final class MigrationTests: ModelTestCase {
  /// The Item table with three rows, written by a connection that is then closed.
  private func seedItems(_ rows: [Item] = items) throws {
    let db = try open()
    try db.save(rows)
    try db.close()
  }

  private func assertIntact(
    _ db: Connection, _ table: String = "Item", file: StaticString = #filePath, line: UInt = #line
  ) throws {
    XCTAssertEqual(
      try db.scalar(String.self, "PRAGMA integrity_check"), "ok", file: file, line: line)
    XCTAssertEqual(try db.query("PRAGMA foreign_key_check").count, 0, file: file, line: line)
    XCTAssertFalse(
      try SchemaInspector(db).tableNames().contains { $0.hasPrefix("swiftlite_new_") },
      "no half-built table is left", file: file, line: line)
  }

  // MARK: Adding columns

  func testAddNullableColumnsAlterTheTable() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrationPlan(for: ItemAddNullable.self)
    XCTAssertEqual(plan.strategy, .alter)
    XCTAssertEqual(plan.changes, ["column color added", "column tags added"])
    XCTAssertTrue(
      plan.steps.filter { $0.sql.hasPrefix("ALTER TABLE \"Item\" ADD COLUMN") }.count == 2)
    XCTAssertFalse(plan.steps.contains { $0.sql.hasPrefix("DROP TABLE") })
    try db.migrate(ItemAddNullable.self)
    let expected = items.map {
      ItemAddNullable(id: $0.id, name: $0.name, price: $0.price, note: nil, color: nil, tags: nil)
    }
    XCTAssertEqual(try db.findAll(ItemAddNullable.self, orderBy: "id"), expected)
    try db.save(ItemAddNullable(id: 4, name: "fig", price: 3, note: "n", color: "red", tags: ["a"]))

    let reopened = try open()
    XCTAssertEqual(reopened.path, path())
    XCTAssertEqual(
      try reopened.columnNames("Item"), ["id", "name", "price", "note", "color", "tags"])
    XCTAssertEqual(
      try reopened.findAll(ItemAddNullable.self, orderBy: "id"),
      expected + [
        ItemAddNullable(id: 4, name: "fig", price: 3, note: "n", color: "red", tags: ["a"])
      ])
    XCTAssertFalse(try reopened.needsMigration(ItemAddNullable.self))
    try assertIntact(reopened)
  }

  func testAddColumnsWithDefaults() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemAddDefault.self)
    XCTAssertEqual(plan.strategy, .alter, "NOT NULL with a default can be added in place")
    XCTAssertEqual(
      try db.findAll(ItemAddDefault.self, orderBy: "id"),
      items.map {
        ItemAddDefault(
          id: $0.id, name: $0.name, price: $0.price, note: nil, stock: 5, label: "it's new")
      })
    let reopened = try open()
    XCTAssertEqual(
      try reopened.query("SELECT stock, label FROM Item ORDER BY id").map {
        "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
      }, Array(repeating: "5 it's new", count: 3))
    XCTAssertEqual(
      try reopened.scalar(
        Int.self, "SELECT \"notnull\" FROM pragma_table_info('Item') WHERE name = 'stock'"),
      1)
    XCTAssertFalse(try reopened.needsMigration(ItemAddDefault.self))
    try assertIntact(reopened)
  }

  func testAddNotNullWithoutDefaultIsRefusedUnlessTheTableIsEmpty() throws {
    try seedItems()
    let before = try snapshot(ofFile: path())
    let db = try open()
    let error = thrownError(MigrationError.self) { try db.migrate(ItemAddNotNull.self) }
    XCTAssertEqual(error, .notNullWithoutDefault(table: "Item", column: "stock"))
    XCTAssertTrue(error?.description.contains(".default") ?? false, "\(String(describing: error))")
    XCTAssertThrowsError(try db.findAll(ItemAddNotNull.self), "first use refuses too")
    XCTAssertThrowsError(try db.migrationPlan(for: ItemAddNotNull.self), "the plan refuses too")
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertEqual(try open().findAll(Item.self, orderBy: "id"), items)

    // An empty table has no row to fill: allowed.
    XCTAssertEqual(try db.deleteAll(Item.self), 3)
    try db.migrate(ItemAddNotNull.self)
    try db.save(ItemAddNotNull(id: nil, name: "x", price: 1, note: nil, stock: 2))
    let reopened = try open()
    XCTAssertEqual(
      try reopened.findAll(ItemAddNotNull.self),
      [ItemAddNotNull(id: 1, name: "x", price: 1, note: nil, stock: 2)])
    XCTAssertEqual(
      try reopened.scalar(
        Int.self, "SELECT \"notnull\" FROM pragma_table_info('Item') WHERE name = 'stock'"),
      1)
    try assertIntact(reopened)
  }

  // MARK: Removing columns

  func testRemoveEmptyColumn() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemWithoutNote.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(plan.changes, ["column note removed"])
    let expected = items.map { ItemWithoutNote(id: $0.id, name: $0.name, price: $0.price) }
    XCTAssertEqual(try db.findAll(ItemWithoutNote.self, orderBy: "id"), expected)
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Item"), ["id", "name", "price"])
    XCTAssertEqual(try reopened.findAll(ItemWithoutNote.self, orderBy: "id"), expected)
    try assertIntact(reopened)
  }

  func testRemoveColumnWithDataIsRefusedThenPermitted() throws {
    try seedItems()
    let before = try snapshot(ofFile: path())
    let db = try open()
    let error = thrownError(MigrationError.self) { try db.migrate(ItemWithoutPrice.self) }
    XCTAssertEqual(error, .wouldLoseData(table: "Item", column: "price", rows: 3))
    XCTAssertTrue(error?.description.contains("droppableColumns") ?? false)
    XCTAssertEqual(try snapshot(ofFile: path()), before)

    try db.migrate(ItemDroppingPrice.self)
    let expected = items.map { ItemDroppingPrice(id: $0.id, name: $0.name, note: $0.note) }
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Item"), ["id", "name", "note"])
    XCTAssertEqual(try reopened.findAll(ItemDroppingPrice.self, orderBy: "id"), expected)
    try assertIntact(reopened)
  }

  // MARK: Renaming

  func testRenameCarriesTheValues() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemRenamed.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(plan.changes, ["column name renamed to title"])
    let copy = try XCTUnwrap(
      plan.steps.first { $0.sql.hasPrefix("INSERT INTO \"swiftlite_new_Item\"") })
    XCTAssertTrue(
      copy.sql.contains("SELECT \"id\", \"name\", \"price\", \"note\" FROM \"Item\""), copy.sql)
    let expected = items.map { ItemRenamed(id: $0.id, title: $0.name, price: $0.price, note: nil) }
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Item"), ["id", "title", "price", "note"])
    XCTAssertEqual(try reopened.findAll(ItemRenamed.self, orderBy: "id"), expected)
    XCTAssertFalse(try reopened.needsMigration(ItemRenamed.self))
    try assertIntact(reopened)
  }

  func testRenamePlusAdd() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemRenamedPlusAdded.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(
      Set(plan.changes),
      [
        "column name renamed to title", "column price renamed to cost", "column stock added",
        "column tags added", "index Item_on_title added",
      ])
    let expected = items.map {
      ItemRenamedPlusAdded(
        id: $0.id, title: $0.name, cost: $0.price, note: nil, stock: 1, tags: nil)
    }
    XCTAssertEqual(try db.findAll(ItemRenamedPlusAdded.self, orderBy: "id"), expected)
    let reopened = try open()
    XCTAssertEqual(
      try reopened.columnNames("Item"), ["id", "title", "cost", "note", "stock", "tags"])
    XCTAssertEqual(try reopened.indexNames("Item"), ["Item_on_title"])
    XCTAssertEqual(try reopened.findAll(ItemRenamedPlusAdded.self, orderBy: "id"), expected)
    try assertIntact(reopened)
  }

  // MARK: Type changes

  func testConvertibleTypeChange() throws {
    let db = try open()
    try db.save([Code(id: 1, code: "123"), Code(id: 2, code: "-5"), Code(id: 3, code: "0")])
    try db.close()
    let later = try open()
    let plan = try later.migrate(CodeAsInt.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(plan.changes, ["column code type changed from TEXT to INTEGER"])
    let reopened = try open()
    XCTAssertEqual(
      try reopened.findAll(CodeAsInt.self, orderBy: "id"),
      [CodeAsInt(id: 1, code: 123), CodeAsInt(id: 2, code: -5), CodeAsInt(id: 3, code: 0)])
    XCTAssertEqual(
      try reopened.query("SELECT DISTINCT typeof(code) FROM Code").map {
        try $0.get(String.self, at: 0)
      },
      ["integer"])
    try assertIntact(reopened, "Code")
  }

  func testLossyTypeChangeIsRefusedThenPermitted() throws {
    let db = try open()
    try db.save([Code(id: 1, code: "123"), Code(id: 2, code: "abc"), Code(id: 3, code: "4.5")])
    try db.close()
    let before = try snapshot(ofFile: path())
    let later = try open()
    let error = thrownError(MigrationError.self) { try later.migrate(CodeAsInt.self) }
    XCTAssertEqual(error, .lossyTypeChange(table: "Code", column: "code", newType: "INTEGER"))
    XCTAssertTrue(error?.description.contains("lossyConvertibleColumns") ?? false)
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertEqual(try open().findAll(Code.self, orderBy: "id").map(\.code), ["123", "abc", "4.5"])

    try later.migrate(CodeAsLossyInt.self)
    let reopened = try open()
    XCTAssertEqual(
      try reopened.findAll(CodeAsLossyInt.self, orderBy: "id"),
      [
        CodeAsLossyInt(id: 1, code: 123), CodeAsLossyInt(id: 2, code: nil),
        CodeAsLossyInt(id: 3, code: nil),
      ])
    try assertIntact(reopened, "Code")
  }

  func testTypeChangesThatWouldRoundAreRefused() throws {
    // INTEGER -> REAL rounds integers above 2^53; REAL -> TEXT keeps 15 digits.
    let db = try open()
    try db.save([
      Measure(id: 1, count: 3, ratio: 0.5),
      Measure(id: 2, count: 9_007_199_254_740_993, ratio: 0.25),
    ])
    try db.close()
    let before = try snapshot(ofFile: path())
    let later = try open()
    XCTAssertEqual(
      thrownError(MigrationError.self) { try later.migrate(MeasureAsReal.self) },
      .lossyTypeChange(table: "Measure", column: "count", newType: "REAL"))
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    try later.run("UPDATE Measure SET ratio = 0.1 + 0.2 WHERE id = 1")
    let changed = try snapshot(ofFile: path())
    XCTAssertEqual(
      thrownError(MigrationError.self) { try later.migrate(MeasureAsText.self) },
      .lossyTypeChange(table: "Measure", column: "ratio", newType: "TEXT"))
    XCTAssertEqual(try snapshot(ofFile: path()), changed)

    // Values that convert exactly do.
    try later.run("UPDATE Measure SET count = 4, ratio = 0.75 WHERE id = 2")
    try later.run("UPDATE Measure SET ratio = 0.5 WHERE id = 1")
    try later.migrate(MeasureAsReal.self)
    XCTAssertEqual(
      try open().findAll(MeasureAsReal.self, orderBy: "id"),
      [MeasureAsReal(id: 1, count: 3, ratio: 0.5), MeasureAsReal(id: 2, count: 4, ratio: 0.75)])
    let last = try open()
    try last.migrate(MeasureAsText.self)
    XCTAssertEqual(
      try open().findAll(MeasureAsText.self, orderBy: "id"),
      [MeasureAsText(id: 1, count: 3, ratio: "0.5"), MeasureAsText(id: 2, count: 4, ratio: "0.75")])
  }

  // MARK: Constraints

  func testConstraintThatExistingRowsViolateIsRefused() throws {
    try seedItems(items + [Item(id: 4, name: "apple", price: 9, note: nil)])
    let before = try snapshot(ofFile: path())
    let db = try open()
    for attempt in [
      { try db.migrate(ItemUniqueName.self) },  // rebuild
      { try db.migrate(ItemUniqueIndex.self) },  // alter: CREATE UNIQUE INDEX
      { try db.migrate(ItemNoteRequired.self) },  // NULL notes into NOT NULL
    ] as [() throws -> MigrationPlan] {
      let error = thrownError(MigrationError.self) { _ = try attempt() }
      guard case .constraintViolated(let table, _, let message)? = error else {
        XCTFail("expected constraintViolated, got \(String(describing: error))")
        continue
      }
      XCTAssertEqual(table, "Item")
      XCTAssertTrue(message.contains("constraint failed"), message)
      XCTAssertFalse(db.isInTransaction)
      XCTAssertEqual(try snapshot(ofFile: path()), before)
    }
    // The connection still works, with the old model.
    XCTAssertEqual(try db.count(Item.self), 4)
    try assertIntact(try open())
  }

  func testCheckAndCollationChangesAreDetected() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrationPlan(for: ItemCheck.self)
    XCTAssertEqual(plan.strategy, .rebuild, "SQLite's pragmas do not report CHECK: the record does")
    XCTAssertEqual(plan.changes.count, 1)
    XCTAssertTrue(plan.changes[0].contains("CHECK"), plan.changes[0])
    try db.migrate(ItemCheck.self)
    XCTAssertTrue(try XCTUnwrap(db.storedSQL("Item")).contains("CHECK (price > 0)"))
    XCTAssertThrowsError(try db.save(ItemCheck(id: 9, name: "free", price: 0, note: nil))) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .check, "\($0)")
    }
    XCTAssertEqual(try db.count(ItemCheck.self), 3)

    let other = try open()
    try other.migrate(ItemNoCase.self)
    XCTAssertEqual(try other.find(ItemNoCase.self, where: "name = ?", ["APPLE"]).map(\.id), [1])
    XCTAssertFalse(try XCTUnwrap(other.storedSQL("Item")).contains("CHECK"))

    // A CHECK the rows violate is refused, leaving the file as it was.
    try other.save(ItemNoCase(id: 4, name: "gift", price: 0, note: nil))
    let before = try snapshot(ofFile: path())
    let error = thrownError(MigrationError.self) { try other.migrate(ItemCheck.self) }
    if case .constraintViolated(_, _, let message)? = error {
      XCTAssertTrue(message.contains("CHECK"), message)
    } else {
      XCTFail("expected constraintViolated, got \(String(describing: error))")
    }
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    try assertIntact(try open())
  }

  func testPrimaryKeyChange() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemByName.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(
      Set(plan.changes), ["primary key changed from (id) to (name)", "column id became NOT NULL"])
    let reopened = try open()
    XCTAssertEqual(
      try reopened.query("SELECT name FROM pragma_table_info('Item') WHERE pk > 0").map {
        try $0.get(String.self, at: 0)
      }, ["name"])
    XCTAssertEqual(
      try reopened.find(ItemByName.self, id: "pear"), ItemByName(id: 2, name: "pear", price: 2.25))
    XCTAssertThrowsError(try reopened.insert(ItemByName(id: 7, name: "pear", price: 1, note: nil)))
    {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .primaryKey, "\($0)")
    }
    try reopened.save(ItemByName(id: 2, name: "pear", price: 3, note: "upserted by name"))
    XCTAssertEqual(try reopened.count(ItemByName.self), 3)

    let third = try open()
    try third.migrate(ItemByNameAndPrice.self)
    XCTAssertEqual(
      try third.query("SELECT name FROM pragma_table_info('Item') WHERE pk > 0 ORDER BY pk").map {
        try $0.get(String.self, at: 0)
      }, ["name", "price"])
    XCTAssertEqual(
      try third.find(ItemByNameAndPrice.self, key: ["pear", 3.0])?.note, "upserted by name")
    XCTAssertEqual(
      try third.findAll(ItemByNameAndPrice.self, orderBy: "id").map(\.name),
      ["apple", "pear", "plum"])
    try assertIntact(third)
  }

  // MARK: Indexes

  func testIndexesAddedChangedAndRemoved() throws {
    try seedItems()
    let rows = try open().dump("Item")
    func indexes(_ db: Connection) throws -> [String] {
      try db.query(
        "SELECT il.name, il.\"unique\", group_concat(ii.name) FROM pragma_index_list('Item') AS il, pragma_index_info(il.name) AS ii GROUP BY il.name ORDER BY il.name"
      ).map { try $0.values.map(\.description).joined(separator: " ") }
    }

    let db = try open()
    var plan = try db.migrate(ItemIndexed.self)
    XCTAssertEqual(plan.strategy, .alter)
    XCTAssertEqual(plan.changes, ["index item lookup added"])
    XCTAssertEqual(try indexes(try open()), ["'item lookup' 0 'name'"])

    let second = try open()
    plan = try second.migrate(ItemIndexChanged.self)
    XCTAssertEqual(plan.strategy, .alter)
    XCTAssertEqual(
      Set(plan.changes),
      ["index item lookup removed", "index item lookup added", "index Item_on_price added"])
    XCTAssertEqual(
      try indexes(try open()), ["'Item_on_price' 0 'price'", "'item lookup' 1 'name,price'"])
    XCTAssertThrowsError(
      try second.save(ItemIndexChanged(id: 9, name: "pear", price: 2.25, note: nil)))

    let third = try open()
    plan = try third.migrate(Item.self)
    XCTAssertEqual(Set(plan.changes), ["index item lookup removed", "index Item_on_price removed"])
    XCTAssertEqual(try indexes(try open()), [])
    XCTAssertEqual(try open().dump("Item"), rows, "index changes keep every row")
    try assertIntact(try open())
  }

  // MARK: Foreign keys

  func testRebuildingAParentKeepsChildrenAndCascades() throws {
    do {
      let db = try open()
      try db.save([
        Author(id: 1, name: "Ann"), Author(id: 2, name: "Bob"), Author(id: 3, name: "Cy"),
      ])
      let written = (Int64(1)...3).flatMap { author in
        (Int64(1)...2).map {
          Book(id: author * 10 + $0, authorID: author, title: "b\(author)-\($0)")
        }
      }
      try db.save(written)
      // The cascade works before the migration.
      XCTAssertTrue(try db.delete(Author.self, id: 3))
      XCTAssertEqual(try db.count(Book.self), 4)
      try db.close()
    }
    let books = try open().dump("Book")
    let before = try snapshot(ofFile: path())

    // Inside a transaction foreign keys cannot be paused: refused, nothing changed.
    let db = try open()
    let error = thrownError(MigrationError.self) {
      _ = try db.transaction { db in try db.migrate(AuthorRenamed.self) }
    }
    XCTAssertEqual(error, .mustRunOutsideTransaction(table: "Author"))
    XCTAssertEqual(try snapshot(ofFile: path()), before)

    // Outside, the parent is rebuilt and no child is cascade-deleted.
    XCTAssertEqual(try db.migrate(AuthorRenamed.self).strategy, .rebuild)
    XCTAssertTrue(try db.foreignKeysEnabled(), "foreign keys are on again")
    XCTAssertEqual(try db.dump("Book"), books)
    XCTAssertEqual(
      try db.findAll(AuthorRenamed.self, orderBy: "id"),
      [
        AuthorRenamed(id: 1, fullName: "Ann", born: nil),
        AuthorRenamed(id: 2, fullName: "Bob", born: nil),
      ])
    try assertIntact(db, "Author")

    // The cascade still works afterwards, and a dangling child is still refused.
    XCTAssertTrue(try db.delete(AuthorRenamed.self, id: 1))
    XCTAssertEqual(try db.findAll(Book.self, orderBy: "id").map(\.id), [21, 22])
    XCTAssertThrowsError(try db.save(Book(id: 99, authorID: 42, title: "orphan"))) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .foreignKey, "\($0)")
    }

    // Through a Repository (its queue migrates outside a transaction) on a new connection.
    let queue = try DatabaseQueue(path: path())
    let authors = try Repository<AuthorUnique>(queue)
    XCTAssertEqual(try authors.findAll().map(\.fullName), ["Bob"])
    XCTAssertEqual(try queue.read { try $0.count(Book.self) }, 2)
    try queue.read { db in try self.assertIntact(db, "Author") }
    // A write() is a transaction: a parent rebuild there is refused.
    XCTAssertThrowsError(try queue.write { db in try db.migrate(AuthorRenamed.self) }) {
      XCTAssertEqual($0 as? MigrationError, .mustRunOutsideTransaction(table: "Author"))
    }
  }

  func testRebuildingAChildWithDanglingRowsIsRefused() throws {
    do {
      let db = try open()
      try db.save(Author(id: 1, name: "Ann"))
      try db.save(Book(id: 1, authorID: 1, title: "kept"))
      try db.close()
    }
    do {
      // A dangling row written with enforcement off, as an older app might have.
      var options = OpenOptions()
      options.foreignKeys = false
      let unchecked = try Connection(path: path(), options: options)
      try unchecked.run("INSERT INTO Book (id, authorID, title) VALUES (2, 42, 'orphan')")
      try unchecked.close()
    }
    let before = try snapshot(ofFile: path())
    let db = try open()
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(BookUniqueTitle.self) },
      .foreignKeyViolation(table: "Book"))
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertTrue(try db.foreignKeysEnabled())
  }

  func testRebuildingATableThatReferencesItself() throws {
    let tree = [
      Category(id: 1, parentID: nil, name: "root"), Category(id: 2, parentID: 1, name: "child"),
      Category(id: 3, parentID: 2, name: "grandchild"),
    ]
    do {
      let db = try open()
      try db.save(tree)
      try db.close()
    }
    let before = try snapshot(ofFile: path())
    let expected = tree.map { CategoryV2(id: $0.id, parentID: $0.parentID, title: $0.name) }

    // Inside a transaction foreign keys stay on: dropping the old table would cascade into
    // the copy, which references it. Refused rather than losing the rows.
    let db = try open()
    XCTAssertThrowsError(try db.transaction { db in try db.migrate(CategoryV2.self) }) {
      XCTAssertEqual($0 as? MigrationError, .mustRunOutsideTransaction(table: "Category"))
    }
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    let queue = try DatabaseQueue(path: path())
    XCTAssertThrowsError(
      try queue.write { db in try db.save(CategoryV2(id: 4, parentID: 1, title: "x")) })
    XCTAssertEqual(try snapshot(ofFile: path()), before)

    // Outside, every row is kept, and the tree still cascades.
    try db.migrate(CategoryV2.self)
    XCTAssertEqual(try open().findAll(CategoryV2.self, orderBy: "id"), expected)
    XCTAssertTrue(try db.delete(CategoryV2.self, id: 2))
    XCTAssertEqual(try db.findAll(CategoryV2.self).map(\.id), [1])
    try assertIntact(try open(), "Category")
  }

  func testParentKeyChangeThatStrandsChildrenIsRefused() throws {
    do {
      let db = try open()
      try db.save([Author(id: 1, name: "Ann"), Author(id: 2, name: "Bob")])
      try db.save(Book(id: 1, authorID: 1, title: "kept"))
      try db.close()
    }
    let before = try snapshot(ofFile: path())
    // Book references Author's primary key: making `name` the key leaves authorID 1
    // pointing at no author.
    let db = try open()
    XCTAssertThrowsError(try db.migrate(AuthorByName.self)) {
      XCTAssertEqual($0 as? MigrationError, .foreignKeyViolation(table: "Author"), "\($0)")
    }
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    try assertIntact(try open(), "Author")
  }

  // MARK: A chain of versions

  func testChainOfFiveVersions() throws {
    // V1
    do {
      let db = try open()
      try db.save([
        PeopleV1(id: nil, name: "Ann", age: 30, height: 170, email: "ann@x.org"),
        PeopleV1(id: nil, name: "Bob", age: 40, height: 182, email: nil),
      ])
      try db.close()
    }
    // V2: a nullable column and an index: altered in place.
    do {
      let db = try open()
      XCTAssertEqual(try db.migrate(PeopleV2.self).strategy, .alter)
      try db.save(
        PeopleV2(id: nil, name: "Cy", age: 50, height: 165, email: "cy@x.org", nickname: "C"))
      try db.close()
      XCTAssertEqual(
        try open().findAll(PeopleV2.self, orderBy: "id"),
        [
          PeopleV2(id: 1, name: "Ann", age: 30, height: 170, email: "ann@x.org", nickname: nil),
          PeopleV2(id: 2, name: "Bob", age: 40, height: 182, email: nil, nickname: nil),
          PeopleV2(id: 3, name: "Cy", age: 50, height: 165, email: "cy@x.org", nickname: "C"),
        ])
    }
    // V3: a rename and a defaulted column: rebuilt.
    do {
      let db = try open()
      XCTAssertEqual(try db.migrate(PeopleV3.self).strategy, .rebuild)
      try db.save(
        PeopleV3(
          id: nil, fullName: "Dee", age: 20, height: 158, email: nil, nickname: nil, score: 9))
      try db.close()
      XCTAssertEqual(
        try open().findAll(PeopleV3.self, orderBy: "id"),
        [
          PeopleV3(
            id: 1, fullName: "Ann", age: 30, height: 170, email: "ann@x.org", nickname: nil,
            score: 0),
          PeopleV3(
            id: 2, fullName: "Bob", age: 40, height: 182, email: nil, nickname: nil, score: 0),
          PeopleV3(
            id: 3, fullName: "Cy", age: 50, height: 165, email: "cy@x.org", nickname: "C", score: 0),
          PeopleV3(
            id: 4, fullName: "Dee", age: 20, height: 158, email: nil, nickname: nil, score: 9),
        ])
      XCTAssertEqual(try open().indexNames("People"), ["People_on_fullName"])
    }
    // V4: a column with data dropped (permitted), a rename with a REAL -> INTEGER change.
    do {
      let db = try open()
      let plan = try db.migrate(PeopleV4.self)
      XCTAssertEqual(plan.strategy, .rebuild)
      XCTAssertTrue(plan.changes.contains("column height renamed to heightCM"), "\(plan.changes)")
      XCTAssertTrue(plan.changes.contains("column email removed"), "\(plan.changes)")
      try db.close()
      XCTAssertEqual(
        try open().findAll(PeopleV4.self, orderBy: "id"),
        [
          PeopleV4(id: 1, fullName: "Ann", age: 30, heightCM: 170, nickname: nil, score: 0),
          PeopleV4(id: 2, fullName: "Bob", age: 40, heightCM: 182, nickname: nil, score: 0),
          PeopleV4(id: 3, fullName: "Cy", age: 50, heightCM: 165, nickname: "C", score: 0),
          PeopleV4(id: 4, fullName: "Dee", age: 20, heightCM: 158, nickname: nil, score: 9),
        ])
    }
    // V5: INTEGER -> TEXT, UNIQUE, CHECK, a new defaulted Bool and a different index.
    do {
      let db = try open()
      XCTAssertEqual(try db.migrate(PeopleV5.self).strategy, .rebuild)
      try db.save(
        PeopleV5(
          id: nil, fullName: "Eve", age: "unknown", heightCM: 160, nickname: nil, score: 1,
          active: false))
      try db.close()
    }
    let db = try open()
    XCTAssertEqual(
      try db.findAll(PeopleV5.self, orderBy: "id"),
      [
        PeopleV5(
          id: 1, fullName: "Ann", age: "30", heightCM: 170, nickname: nil, score: 0, active: true),
        PeopleV5(
          id: 2, fullName: "Bob", age: "40", heightCM: 182, nickname: nil, score: 0, active: true),
        PeopleV5(
          id: 3, fullName: "Cy", age: "50", heightCM: 165, nickname: "C", score: 0, active: true),
        PeopleV5(
          id: 4, fullName: "Dee", age: "20", heightCM: 158, nickname: nil, score: 9, active: true),
        PeopleV5(
          id: 5, fullName: "Eve", age: "unknown", heightCM: 160, nickname: nil, score: 1,
          active: false),
      ])
    XCTAssertEqual(
      try db.columnNames("People"),
      ["id", "fullName", "age", "heightCM", "nickname", "score", "active"])
    XCTAssertEqual(
      try db.indexNames("People").filter { !$0.hasPrefix("sqlite_autoindex") },
      ["People_on_score_age"])
    XCTAssertThrowsError(
      try db.save(
        PeopleV5(
          id: nil, fullName: "Ann", age: "1", heightCM: 1, nickname: nil, score: 0, active: true)))
    XCTAssertThrowsError(
      try db.save(
        PeopleV5(
          id: nil, fullName: "Neg", age: "1", heightCM: 1, nickname: nil, score: -1, active: true)))
    XCTAssertFalse(try db.needsMigration(PeopleV5.self))
    XCTAssertEqual(
      try db.scalar(
        String.self, "SELECT definition FROM swiftlite_schema WHERE table_name = 'People'"),
      try TableSchema(PeopleV5.self).createTableSQL())
    try assertIntact(db, "People")
  }

  // MARK: Dry run

  func testDryRunPrintsThePlanAndChangesNothing() throws {
    try seedItems()
    let before = try snapshot(ofFile: path())
    let db = try open()
    XCTAssertTrue(try db.needsMigration(ItemRenamedPlusAdded.self))
    let plan = try db.migrationPlan(for: ItemRenamedPlusAdded.self)
    print(plan)
    let text = plan.description
    XCTAssertTrue(text.hasPrefix("Migration plan for Item (rebuild):"), text)
    for change in plan.changes { XCTAssertTrue(text.contains("  - " + change), change) }
    for (number, step) in plan.steps.enumerated() {
      XCTAssertTrue(text.contains("  \(number + 1). \(step.reason)\n     \(step.sql)"), step.sql)
    }
    XCTAssertEqual(
      plan.steps.map { $0.sql.prefix(while: { $0 != " " }) },
      ["CREATE", "INSERT", "DROP", "ALTER", "CREATE", "PRAGMA", "INSERT"])
    XCTAssertEqual(try snapshot(ofFile: path()), before, "planning changes nothing")
    XCTAssertEqual(try db.migrationPlan(for: ItemRenamedPlusAdded.self).description, text)

    try db.migrate(ItemRenamedPlusAdded.self)
    let after = try db.migrationPlan(for: ItemRenamedPlusAdded.self)
    XCTAssertTrue(after.isEmpty)
    XCTAssertEqual(after.strategy, .none)
    XCTAssertEqual(after.description, "Table Item matches the model: nothing to do.")
    XCTAssertFalse(try open().needsMigration(ItemRenamedPlusAdded.self))

    // A missing table plans its creation.
    let create = try db.migrationPlan(for: Code.self)
    XCTAssertEqual(create.strategy, .create)
    XCTAssertFalse(try SchemaInspector(db).tableExists("Code"))
  }

  // MARK: Failures half-way

  func testFailureInTheLastStepLeavesTheFileAsBefore() throws {
    try seedItems()
    do {
      // Refuse any change to SwiftLite's record: the rebuild fails after dropping, renaming
      // and indexing, in its very last step.
      let db = try open()
      try db.execute(
        """
        CREATE TRIGGER refuse_record BEFORE UPDATE ON swiftlite_schema
        BEGIN SELECT RAISE(ABORT, 'injected failure'); END
        """)
      try db.close()
    }
    let before = try snapshot(ofFile: path())
    let db = try open()
    let error = thrownError(MigrationError.self) { try db.migrate(ItemRenamedPlusAdded.self) }
    if case .constraintViolated(let table, let step, let message)? = error {
      XCTAssertEqual(table, "Item")
      XCTAssertTrue(step.contains("record"), step)
      XCTAssertTrue(message.contains("injected failure"), message)
    } else {
      XCTFail("expected constraintViolated, got \(String(describing: error))")
    }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertEqual(try open().findAll(Item.self, orderBy: "id"), items)

    try db.execute("DROP TRIGGER refuse_record")
    try db.migrate(ItemRenamedPlusAdded.self)
    XCTAssertEqual(
      try open().findAll(ItemRenamedPlusAdded.self, orderBy: "id").map(\.title),
      ["apple", "pear", "plum"])
  }

  func testFailureAfterTheOldTableIsDroppedLeavesTheFileAsBefore() throws {
    try seedItems()
    do {
      // Another table already owns the index name the model wants: CREATE INDEX fails after
      // the old table was dropped and the new one renamed.
      let db = try open()
      try db.execute("CREATE TABLE other (x); CREATE INDEX \"Item_on_title\" ON other (x)")
      try db.close()
    }
    let before = try snapshot(ofFile: path())
    let db = try open()
    XCTAssertThrowsError(try db.migrate(ItemRenamedPlusAdded.self)) { error in
      XCTAssertTrue("\(error)".contains("Item_on_title"), "\(error)")
    }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertEqual(try db.findAll(Item.self, orderBy: "id"), items, "the connection still works")
    try assertIntact(try open())
  }

  // MARK: What the rebuild must keep

  func testRebuildKeepsViewsAndTriggers() throws {
    try seedItems()
    do {
      let db = try open()
      try db.execute(
        """
        CREATE VIEW cheap AS SELECT id FROM Item WHERE price < 2;
        CREATE TABLE log (message TEXT);
        CREATE TRIGGER item_logged AFTER INSERT ON Item BEGIN INSERT INTO log VALUES (new.id); END;
        CREATE TABLE inbox (id INTEGER);
        CREATE TRIGGER inbox_to_item AFTER INSERT ON inbox
        BEGIN INSERT INTO Item (id, name, price) VALUES (new.id, 'from inbox', 1); END;
        """)
      try db.close()
    }
    let db = try open()
    XCTAssertEqual(try db.migrate(ItemWithoutNote.self).strategy, .rebuild)
    XCTAssertEqual(
      try db.query("SELECT id FROM cheap ORDER BY id").map { try $0.get(Int.self, at: 0) }, [1, 3])
    try db.run("INSERT INTO inbox VALUES (7)")
    XCTAssertEqual(try db.find(ItemWithoutNote.self, id: 7)?.name, "from inbox")
    XCTAssertEqual(
      try db.query("SELECT message FROM log").map { try $0.get(String.self, at: 0) }, ["7"])
    try assertIntact(try open())
  }

  func testHandMadeTableWithAnotherCase() throws {
    struct User: Model, Equatable {
      var id: Int64?
      var name: String
      static let primaryKey = ["id"]
    }
    struct UserV2: Model, Equatable {
      var id: Int64?
      var name: String
      var age: Int?
      static let tableName = "User"
      static let primaryKey = ["id"]
      static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
    }
    do {
      // An older app's table, its name in lower case, with a trigger.
      let db = try open()
      try db.execute(
        """
        CREATE TABLE user (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO user VALUES (1, 'ann');
        CREATE TABLE log (message TEXT);
        CREATE TRIGGER user_logged AFTER INSERT ON user BEGIN INSERT INTO log VALUES (new.name); END;
        """)
      try db.close()
    }
    let db = try open()
    XCTAssertEqual(try db.adoptionPlan(for: User.self).strategy, .none, "the table is found")
    XCTAssertEqual(try db.findAll(User.self), [User(id: 1, name: "ann")])
    let later = try open()
    XCTAssertEqual(try later.adopt(UserV2.self).strategy, .rebuild)
    try later.save(UserV2(id: nil, name: "bob", age: 3))
    XCTAssertEqual(
      try later.findAll(UserV2.self, orderBy: "id"),
      [UserV2(id: 1, name: "ann", age: nil), UserV2(id: 2, name: "bob", age: 3)])
    XCTAssertEqual(
      try later.query("SELECT message FROM log").map { try $0.get(String.self, at: 0) }, ["bob"],
      "the table's trigger survived the rebuild")
    try assertIntact(try open(), "User")
  }

  func testFirstUseInAReadOfAHandMadeTable() throws {
    struct User: Model, Equatable {
      var id: Int64?
      var name: String
      static let primaryKey = ["id"]
    }
    do {
      let db = try open()
      try db.execute(
        "CREATE TABLE User (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO User VALUES (1, 'ann')"
      )
      try db.close()
    }
    // The table matches the model: reading it needs no write, not even SwiftLite's record.
    let queue = try DatabaseQueue(path: path())
    XCTAssertEqual(try queue.read { try $0.findAll(User.self) }, [User(id: 1, name: "ann")])
    let readOnly = try Connection(path: path(), options: .readOnly)
    XCTAssertEqual(try readOnly.find(User.self, id: 1), User(id: 1, name: "ann"))
    // A missing table is not created by a read: there is nothing to find.
    let other = try DatabaseQueue(path: path("other.sqlite"))
    XCTAssertEqual(try other.read { try $0.findAll(User.self) }, [])
    XCTAssertFalse(try SchemaInspector(open("other.sqlite")).tableExists("User"))
  }

  func testConstraintsOnlyTheRecordShowsAreAppliedToAHandMadeTable() throws {
    struct Account: Model, Equatable {
      var id: Int64?
      var email: String
      var age: Int
      static let primaryKey = ["id"]
      static let autoIncrement = true
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "email": [.unique, .collate("NOCASE")], "age": [.check("age >= 0")],
      ]
    }
    do {
      // Made by an older app: the same columns, without CHECK, COLLATE or AUTOINCREMENT.
      let db = try open()
      try db.execute(
        """
        CREATE TABLE Account (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, age INTEGER NOT NULL);
        INSERT INTO Account VALUES (1, 'ann@x.org', 30);
        """)
      try db.close()
    }
    let db = try open()
    let plan = try db.adoptionPlan(for: Account.self)
    XCTAssertEqual(plan.strategy, .rebuild, plan.description)
    try db.adopt(Account.self)
    XCTAssertEqual(try db.findAll(Account.self), [Account(id: 1, email: "ann@x.org", age: 30)])
    XCTAssertThrowsError(try db.save(Account(id: nil, email: "x@x.org", age: -1)), "CHECK applies")
    XCTAssertThrowsError(
      try db.save(Account(id: nil, email: "ANN@X.ORG", age: 1)), "NOCASE applies")
    XCTAssertTrue(try XCTUnwrap(db.storedSQL("Account")).contains("AUTOINCREMENT"))
    XCTAssertFalse(try open().needsMigration(Account.self))

    // A table SwiftLite made itself, whose record was lost, is mapped; adopting it again
    // only records it, since its CREATE statement is the one SwiftLite would write.
    try db.execute("DELETE FROM swiftlite_schema")
    let again = try open()
    XCTAssertEqual(
      thrownError(MigrationError.self) { _ = try again.migrationPlan(for: Account.self) },
      .notManaged(table: "Account"))
    XCTAssertEqual(try again.adoptionPlan(for: Account.self).strategy, .none)
  }

  func testRebuildKeepsTheAutoincrementSequence() throws {
    do {
      let db = try open()
      XCTAssertEqual(
        try (1...3).map { _ in try db.insert(Ticket(id: nil, title: "t")) }, [1, 2, 3])
      try db.delete(Ticket.self, id: 3)
      try db.close()
    }
    let db = try open()
    XCTAssertEqual(try db.migrate(TicketV2.self).strategy, .rebuild)
    XCTAssertEqual(
      try db.insert(TicketV2(id: nil, subject: "after")), 4, "a used key is never given again")
    XCTAssertEqual(
      try db.scalar(
        Int.self, "SELECT count(*) FROM sqlite_sequence WHERE name LIKE 'swiftlite_new_%'"), 0)
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM sqlite_sequence WHERE name = 'Ticket'"), 1)

    // An empty table keeps its sequence too.
    do {
      let other = try open("empty.sqlite")
      try other.insert(Ticket(id: nil, title: "gone"))
      try other.deleteAll(Ticket.self)
      try other.close()
    }
    let empty = try open("empty.sqlite")
    try empty.migrate(TicketV2.self)
    XCTAssertEqual(try empty.insert(TicketV2(id: nil, subject: "after")), 2)
  }

  // MARK: A process killed mid-migration

  func testProcessKilledDuringLargeMigration() throws {
    let rowCount = 300_000
    let template = path("template.sqlite")
    do {
      let db = try Connection(path: template)
      try db.createTable(for: Big.self)
      try db.run(
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
        INSERT INTO Big (id, name, value, note) SELECT i, 'name ' || i, i * 7, NULL FROM n
        """, [rowCount])
      // Warm up everything the child will run, so it touches no lazily built state.
      let warm = try Connection.inMemory()
      try warm.createTable(for: Big.self)
      try warm.save(Big(id: nil, name: "x", value: 1, note: nil))
      try warm.migrate(BigV2.self)
      try db.close()
    }
    let valueSum = 7 * rowCount * (rowCount + 1) / 2
    let oldDefinition = try TableSchema(Big.self).createTableSQL()
    let newDefinition = try TableSchema(BigV2.self).createTableSQL()

    var measured: Double = 0
    var outcomes: [String] = []
    for attempt in 0..<8 {
      let file = path("killed-\(attempt).sqlite")
      try FileManager.default.copyItem(atPath: template, toPath: file)
      let wal = attempt % 2 == 1
      if wal { try Connection(path: file).setJournalMode(.wal) }

      // Attempt 0 runs to the end, to learn how long a migration takes; the others are
      // killed at a random moment within that time.
      let delay: UInt32? = attempt == 0 ? nil : UInt32.random(in: 0...UInt32(measured * 1.3e6))
      let run = try runMigrationInChild(file: file, killAfter: delay)
      if attempt == 0 {
        XCTAssertEqual(run.report, "SD", "the child migrates when left alone")
        XCTAssertEqual(run.status, 0)
        measured = max(run.seconds, 0.05)
      }

      let db = try Connection(path: file)
      XCTAssertEqual(try db.scalar(String.self, "PRAGMA integrity_check"), "ok", file)
      XCTAssertEqual(try SchemaInspector(db).tableNames(), ["Big", "swiftlite_schema"], file)
      let columns = try db.columnNames("Big")
      let definition = try db.scalar(
        String.self, "SELECT definition FROM swiftlite_schema WHERE table_name = 'Big'")
      let outcome: String
      if columns == ["id", "name", "value", "note"] {
        outcome = "old"
        XCTAssertEqual(definition, oldDefinition)
        XCTAssertEqual(
          try db.scalar(
            Int.self, "SELECT count(*) FROM Big WHERE name = 'name ' || id AND note IS NULL"),
          rowCount)
        XCTAssertFalse(try db.needsMigration(Big.self))
        XCTAssertNotEqual(run.report, "SD", "a migration reported done must be in the file")
      } else if columns == ["id", "title", "value", "extra"] {
        outcome = "new"
        XCTAssertEqual(definition, newDefinition)
        XCTAssertEqual(
          try db.scalar(
            Int.self, "SELECT count(*) FROM Big WHERE title = 'name ' || id AND extra = 1"),
          rowCount)
        XCTAssertEqual(try db.indexNames("Big"), ["Big_on_value"])
        XCTAssertFalse(try db.needsMigration(BigV2.self))
      } else {
        outcome = "neither"
        XCTFail("\(file): unexpected columns \(columns)")
      }
      XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM Big"), rowCount)
      XCTAssertEqual(try db.scalar(Int.self, "SELECT sum(value) FROM Big"), valueSum)
      XCTAssertEqual(try db.scalar(Int.self, "SELECT min(id) FROM Big"), 1)
      XCTAssertEqual(try db.scalar(Int.self, "SELECT max(id) FROM Big"), rowCount)
      outcomes.append(
        "\(wal ? "wal" : "rollback journal"), killed after \(delay.map { "\($0) µs" } ?? "-"): \(outcome) (child said \(run.report))"
      )
      try db.close()
    }
    print("migration of \(rowCount) rows took \(measured) s in the child; outcomes:")
    for line in outcomes { print("  " + line) }
  }

  /// Forks a child that opens `file` and migrates `Big` to `BigV2`, writing `S` to a pipe when
  /// it starts, `D` when done (`E` on an error); the parent kills it with SIGKILL `killAfter`
  /// microseconds after the `S`, or waits for it to finish when `nil`.
  private func runMigrationInChild(file: String, killAfter: UInt32?) throws -> (
    report: String, status: Int32, seconds: Double
  ) {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let pid = fork()
    if pid == 0 {
      close(fds[0])
      func say(_ letter: String) {
        var byte = letter.utf8.first!
        _ = write(fds[1], &byte, 1)
      }
      do {
        let db = try Connection(path: file)
        say("S")
        try db.migrate(BigV2.self)
        try db.close()
        say("D")
        _exit(0)
      } catch {
        say("E")
        _exit(1)
      }
    }
    XCTAssertGreaterThan(pid, 0, "fork failed")
    close(fds[1])
    defer { close(fds[0]) }

    var report = ""
    func readLetter(timeout: Int32) -> Bool {
      var descriptor = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, timeout) == 1 else { return false }
      var byte: UInt8 = 0
      guard read(fds[0], &byte, 1) == 1 else { return false }
      report.append(Character(UnicodeScalar(byte)))
      return true
    }
    let started = readLetter(timeout: 30_000)
    let start = Date()
    if !started {
      XCTFail("the child did not start within 30 s")
      kill(pid, SIGKILL)
    } else if let killAfter {
      usleep(killAfter)
      kill(pid, SIGKILL)
    } else if !readLetter(timeout: 60_000) {
      XCTFail("the child did not finish within 60 s")
      kill(pid, SIGKILL)
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let seconds = Date().timeIntervalSince(start)
    while readLetter(timeout: 0) {}
    return (report, status, seconds)
  }
}

private struct Ordered: Model, Equatable {
  var id: Int64
  var a: String
  var b: Int
  static let primaryKey = ["id"]
}

private struct Reordered: Model, Equatable {
  var id: Int64
  var b: Int
  var a: String
  static let tableName = "Ordered"
  static let primaryKey = ["id"]
}

final class MigrationEdgeTests: ModelTestCase {
  func testReorderingPropertiesIsNoReasonToRebuild() throws {
    let db = try open()
    try db.save(Ordered(id: 1, a: "x", b: 2))
    XCTAssertTrue(try open().migrationPlan(for: Reordered.self).isEmpty)
    let later = try open()
    XCTAssertEqual(try later.findAll(Reordered.self), [Reordered(id: 1, b: 2, a: "x")])
    try later.save(Reordered(id: 2, b: 3, a: "y"))
    XCTAssertEqual(try later.columnNames("Ordered"), ["id", "a", "b"])
    // Adding a column to the reordered model appends it and records that order.
    XCTAssertTrue(try open().migrationPlan(for: Ordered.self).isEmpty)
  }

  func testAReadOfAMissingTableFindsNothingAndCreatesNothing() throws {
    let queue = try DatabaseQueue(path: path())
    XCTAssertEqual(try queue.read { db in try db.findAll(Ordered.self) }, [])
    XCTAssertEqual(try queue.read { db in try db.count(Ordered.self) }, 0)
    XCTAssertNil(try queue.read { db in try db.find(Ordered.self, id: 1) })
    XCTAssertFalse(try SchemaInspector(open()).tableExists("Ordered"))
    XCTAssertFalse(try SchemaInspector(open()).tableExists(AutoMigration.recordTable))
    // Created in a write, it then reads fine.
    try queue.write { db in try db.createTable(for: Ordered.self) }
    XCTAssertEqual(try queue.read { db in try db.findAll(Ordered.self) }, [])
  }

  func testAHandMadeTableThatMatchesNeedsNoMigration() throws {
    let db = try open()
    try db.execute(
      "CREATE TABLE \"Ordered\" (\"id\" INTEGER PRIMARY KEY, \"a\" TEXT NOT NULL, \"b\" INTEGER NOT NULL)"
    )
    XCTAssertFalse(try db.needsMigration(Ordered.self))
    XCTAssertFalse(try db.needsMigration(Reordered.self))
  }
}

private struct Journal: Model, Equatable {
  var id: Int64
  var note: String?
  static let primaryKey = ["id"]
}

private struct JournalWithoutNote: Model, Equatable {
  var id: Int64
  static let tableName = "Journal"
  static let primaryKey = ["id"]
}

final class MigrationRaceTests: ModelTestCase {
  /// A value written by another connection between planning and applying must not be
  /// dropped: migrate plans again inside its write transaction.
  func testAValueWrittenAfterPlanningIsNotDropped() throws {
    do {
      let db = try open()
      try db.save([Journal(id: 1, note: nil), Journal(id: 2, note: nil)])
      try db.close()
    }
    let migrating = try open()
    let other = try open()
    var wroteInBetween = false
    migrating.trace = { sql in
      guard sql.hasPrefix("BEGIN IMMEDIATE"), !wroteInBetween else { return }
      wroteInBetween = true
      // The first plan saw an empty column; another writer fills it before the lock.
      do {
        try other.run("UPDATE Journal SET note = 'kept' WHERE id = 2")
      } catch {
        XCTFail("the other writer failed: \(error)")
      }
    }
    XCTAssertTrue(try migrating.migrationPlan(for: JournalWithoutNote.self).strategy == .rebuild)
    let error = thrownError(MigrationError.self) {
      try migrating.migrate(JournalWithoutNote.self)
    }
    XCTAssertTrue(wroteInBetween)
    XCTAssertEqual(error, .wouldLoseData(table: "Journal", column: "note", rows: 1))
    XCTAssertEqual(
      try open().findAll(Journal.self, orderBy: "id"),
      [Journal(id: 1, note: nil), Journal(id: 2, note: "kept")])
  }
}

// MARK: Adversarial: STRICT type changes, renamed parent keys

private struct Reading: Model, Equatable {
  var id: Int64
  var value: Double
  static let primaryKey = ["id"]
  static let isStrict = true
}

private struct ReadingAsInt: Model, Equatable {
  var id: Int64
  var value: Int?
  static let tableName = "Reading"
  static let primaryKey = ["id"]
  static let isStrict = true
}

private struct ReadingAsLossyInt: Model, Equatable {
  var id: Int64
  var value: Int?
  static let tableName = "Reading"
  static let primaryKey = ["id"]
  static let isStrict = true
  static let lossyConvertibleColumns: Set<String> = ["value"]
}

private struct Vendor: Model, Equatable {
  var id: Int64
  var code: String
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["code": [.unique]]
}

private struct VendorRenamed: Model, Equatable {
  var id: Int64
  var sku: String
  var country: String?
  static let tableName = "Vendor"
  static let primaryKey = ["id"]
  static let renamedProperties = ["sku": "code"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["sku": [.unique]]
}

private struct Supply: Model, Equatable {
  var id: Int64
  var vendorCode: String
  static let primaryKey = ["id"]
  static let foreignKeys = [
    ForeignKey(["vendorCode"], references: "Vendor", ["code"], onDelete: .cascade)
  ]
}

private struct SupplyOfRenamedVendor: Model, Equatable {
  var id: Int64
  var vendorCode: String
  static let tableName = "Supply"
  static let primaryKey = ["id"]
  static let foreignKeys = [
    ForeignKey(["vendorCode"], references: "Vendor", ["sku"], onDelete: .cascade)
  ]
}

final class MigrationAdversarialTests: ModelTestCase {
  /// A STRICT table refuses, at the copy, a value that does not convert: the change must
  /// still be reported as lossy (naming lossyConvertibleColumns), and permitted when declared.
  func testStrictTableLossyTypeChangeIsReportedThenPermitted() throws {
    let db = try open()
    try db.save([Reading(id: 1, value: 2), Reading(id: 2, value: 2.5)])
    let before = try db.snapshot()
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(ReadingAsInt.self) },
      .lossyTypeChange(table: "Reading", column: "value", newType: "INTEGER"))
    XCTAssertEqual(try db.snapshot(), before)

    try db.migrate(ReadingAsLossyInt.self)
    XCTAssertEqual(
      try open().findAll(ReadingAsLossyInt.self, orderBy: "id"),
      [ReadingAsLossyInt(id: 1, value: 2), ReadingAsLossyInt(id: 2, value: nil)])
    XCTAssertEqual(
      try db.scalar(Bool.self, "SELECT strict FROM pragma_table_list('Reading')"), true)
    XCTAssertFalse(
      try SchemaInspector(db).tableNames().contains {
        $0.hasPrefix("swiftlite_") && $0 != "swiftlite_schema"
      })
    XCTAssertEqual(try db.scalar(String.self, "PRAGMA integrity_check"), "ok")
  }

  /// Renaming a parent's column that a child's foreign key references: the child must
  /// follow the rename (as ALTER TABLE RENAME COLUMN does) and keep its rows, and the
  /// child model naming the new column then needs no migration.
  func testRenamingAColumnAChildReferencesKeepsTheChild() throws {
    let db = try open()
    try db.save([Vendor(id: 1, code: "acme"), Vendor(id: 2, code: "bolt")])
    try db.save([Supply(id: 10, vendorCode: "acme"), Supply(id: 11, vendorCode: "bolt")])
    try db.close()

    let later = try open()
    let plan = try later.migrate(VendorRenamed.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(
      try later.findAll(VendorRenamed.self, orderBy: "id"),
      [
        VendorRenamed(id: 1, sku: "acme", country: nil),
        VendorRenamed(id: 2, sku: "bolt", country: nil),
      ])
    XCTAssertEqual(try later.query("PRAGMA foreign_key_check").count, 0)
    XCTAssertFalse(try later.needsMigration(SupplyOfRenamedVendor.self))
    XCTAssertEqual(
      try later.findAll(SupplyOfRenamedVendor.self, orderBy: "id"),
      [
        SupplyOfRenamedVendor(id: 10, vendorCode: "acme"),
        SupplyOfRenamedVendor(id: 11, vendorCode: "bolt"),
      ])
    // The cascade still works through the renamed column.
    try later.delete(VendorRenamed.self, id: 1)
    XCTAssertEqual(try later.count(SupplyOfRenamedVendor.self), 1)
  }
}

private struct Memo: Model, Equatable {
  var id: Int64
  var text: String?
  static let primaryKey = ["id"]
}

private struct MemoRequired: Model, Equatable {
  var id: Int64
  var text: String
  static let tableName = "Memo"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["text": [.default("")]]
}

final class MigrationBackfillTests: ModelTestCase {
  /// An optional property made required with a default: the rows where it was NULL take
  /// the default, as a new column's rows would; without a default it stays refused.
  func testOptionalMadeRequiredWithADefaultBackfillsTheNulls() throws {
    let db = try open()
    try db.save([Memo(id: 1, text: nil), Memo(id: 2, text: "kept")])
    let plan = try db.migrate(MemoRequired.self)
    XCTAssertEqual(
      plan.changes,
      ["column text became NOT NULL (NULLs take its default)", "column text default changed"])
    XCTAssertEqual(
      try open().findAll(MemoRequired.self, orderBy: "id"),
      [MemoRequired(id: 1, text: ""), MemoRequired(id: 2, text: "kept")])
    XCTAssertFalse(try db.needsMigration(MemoRequired.self))
  }
}

private struct Entry: Model, Equatable {
  var id: Int64
  var name: String
  static let primaryKey = ["id"]
}

private struct EntryRenamed: Model, Equatable {
  var id: Int64
  var title: String
  static let tableName = "Entry"
  static let primaryKey = ["id"]
  static let renamedProperties = ["title": "name"]
}

final class MigrationTriggerTests: ModelTestCase {
  /// A trigger on the table that names a renamed column cannot be recreated as it was: the
  /// migration must fail and change nothing, not commit and leave every write failing.
  func testATriggerNamingARenamedColumnFailsTheMigrationInsteadOfEveryWrite() throws {
    let db = try open()
    try db.save([Entry(id: 1, name: "a")])
    try db.execute("CREATE TABLE audit (what TEXT)")
    try db.execute(
      "CREATE TRIGGER entry_audit AFTER UPDATE ON Entry BEGIN "
        + "INSERT INTO audit VALUES (NEW.name); END")
    let before = try db.snapshot()
    XCTAssertThrowsError(try db.migrate(EntryRenamed.self)) { error in
      XCTAssertTrue("\(error)".contains("NEW.name"), "\(error)")
    }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertEqual(try db.findAll(Entry.self), [Entry(id: 1, name: "a")])

    // With the trigger rewritten by the app, the migration goes through.
    try db.execute("DROP TRIGGER entry_audit")
    try db.migrate(EntryRenamed.self)
    try db.execute(
      "CREATE TRIGGER entry_audit AFTER UPDATE ON Entry BEGIN "
        + "INSERT INTO audit VALUES (NEW.title); END")
    try db.save(EntryRenamed(id: 1, title: "b"))
    XCTAssertEqual(try db.scalar(String.self, "SELECT what FROM audit"), "b")
  }
}

private struct Gauge: Model, Equatable {
  var id: Int64
  static let primaryKey = ["id"]
}

private struct GaugeWithNullDefault: Model, Equatable {
  var id: Int64
  var level: Int
  static let tableName = "Gauge"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["level": [.default(nil)]]
}

final class MigrationNullDefaultTests: ModelTestCase {
  /// `.default(nil)` gives a new NOT NULL column nothing for the existing rows: the
  /// refusal must say so (notNullWithoutDefault), not surface a raw constraint failure.
  func testANullDefaultIsNoDefaultForANewNotNullColumn() throws {
    let db = try open()
    try db.save([Gauge(id: 1)])
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(GaugeWithNullDefault.self) },
      .notNullWithoutDefault(table: "Gauge", column: "level"))
  }
}

private struct Tag: Model, Equatable {
  var code: String
  var label: String
  static let primaryKey = ["code"]
}

private struct TagRenamed: Model, Equatable {
  var code: String
  var title: String
  static let tableName = "Tag"
  static let primaryKey = ["code"]
  static let renamedProperties = ["title": "label"]
}

private struct TagWithRowidColumn: Model, Equatable {
  var code: String
  var rowid: Int?
  var name: String
  static let tableName = "Tag"
  static let primaryKey = ["code"]
  static let renamedProperties = ["name": "title"]
}

final class MigrationRowIDTests: ModelTestCase {
  /// A table whose key is not an integer still has rowids (insert returns them, an FTS
  /// table may point at them): a rebuild must keep each row's rowid, not renumber them.
  func testARebuildKeepsTheRowIDsOfATableWithoutAnIntegerKey() throws {
    let db = try open()
    try db.save([
      Tag(code: "a", label: "A"), Tag(code: "b", label: "B"), Tag(code: "c", label: "C"),
    ])
    XCTAssertTrue(try db.delete(Tag.self, id: "a"))
    let before = try db.query("SELECT rowid, code FROM Tag ORDER BY code").map {
      "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
    }
    XCTAssertEqual(before, ["2 b", "3 c"])
    XCTAssertEqual(try db.migrate(TagRenamed.self).strategy, .rebuild)
    XCTAssertEqual(
      try db.query("SELECT rowid, code FROM Tag ORDER BY code").map {
        "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
      }, before)

    // A column named rowid hides that name: the rowid is still kept, under another.
    try db.migrate(TagWithRowidColumn.self)
    XCTAssertEqual(
      try db.query("SELECT _rowid_, code FROM Tag ORDER BY code").map {
        "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
      }, before)
  }
}

private struct Account: Model, Equatable {
  var id: Int64
  var userID: String
  var nickName: String?
  static let primaryKey = ["id"]
}

private struct AccountRecased: Model, Equatable {
  var id: Int64
  var userId: String
  var nickname: String?
  static let tableName = "Account"
  static let primaryKey = ["id"]
}

final class MigrationCaseTests: ModelTestCase {
  /// SQLite's column names ignore ASCII case: a property renamed only in case (userID ->
  /// userId) is the same column. It must keep its values, not be refused as a removed
  /// column whose fix (droppableColumns) would drop them.
  func testAPropertyRenamedOnlyInCaseKeepsItsValues() throws {
    let db = try open()
    try db.save([
      Account(id: 1, userID: "u1", nickName: "Ann"), Account(id: 2, userID: "u2", nickName: nil),
    ])
    try db.migrate(AccountRecased.self)
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Account"), ["id", "userId", "nickname"])
    XCTAssertEqual(
      try reopened.findAll(AccountRecased.self, orderBy: "id"),
      [
        AccountRecased(id: 1, userId: "u1", nickname: "Ann"),
        AccountRecased(id: 2, userId: "u2", nickname: nil),
      ])
    XCTAssertFalse(try reopened.needsMigration(AccountRecased.self))
  }
}

private struct MemoRequiredWithoutDefault: Model, Equatable {
  var id: Int64
  var text: String
  static let tableName = "Memo"
  static let primaryKey = ["id"]
}

final class MigrationMessageTests: ModelTestCase {
  /// A violated constraint is reported on the model's table, not on the rebuild's
  /// internal copy (`swiftlite_new_<table>`) that the user never made.
  func testAConstraintFailureNamesTheTableNotTheInternalCopy() throws {
    let db = try open()
    try db.save([Memo(id: 1, text: nil)])
    let error = thrownError(MigrationError.self) {
      try db.migrate(MemoRequiredWithoutDefault.self)
    }
    guard case .constraintViolated(let table, _, let message)? = error else {
      return XCTFail("expected constraintViolated, got \(String(describing: error))")
    }
    XCTAssertEqual(table, "Memo")
    XCTAssertTrue(message.contains("Memo.text"), message)
    XCTAssertFalse(message.contains("swiftlite_"), message)
  }
}

private enum TaskState: String, Codable, CaseIterable, SQLiteValueConvertible {
  case open, done, archived
}

private enum TaskStateWithoutArchived: String, Codable, CaseIterable, SQLiteValueConvertible {
  case open, done
}

private struct TaskV1: Model, Equatable {
  var id: Int64
  var tags: String
  var flag: Int
  var state: TaskState
  static let tableName = "Task"
  static let primaryKey = ["id"]
}

private struct TaskTagsAsArray: Model, Equatable {
  var id: Int64
  var tags: [String]
  var flag: Int
  var state: TaskState
  static let tableName = "Task"
  static let primaryKey = ["id"]
}

private struct TaskFlagAsBool: Model, Equatable {
  var id: Int64
  var tags: String
  var flag: Bool
  var state: TaskState
  static let tableName = "Task"
  static let primaryKey = ["id"]
}

private struct TaskFewerStates: Model, Equatable {
  var id: Int64
  var tags: String
  var flag: Int
  var state: TaskStateWithoutArchived
  static let tableName = "Task"
  static let primaryKey = ["id"]
}

final class MigrationSwiftTypeTests: ModelTestCase {
  private func seed(_ rows: [TaskV1]) throws {
    let db = try open()
    try db.save(rows)
    try db.close()
  }

  /// String -> [String] keeps the TEXT column: SQLite sees no change, but "a,b" is not JSON.
  func testAStringThatBecomesAnArrayIsCheckedRowByRow() throws {
    try seed([TaskV1(id: 1, tags: "a,b", flag: 0, state: .open)])
    let db = try open()
    let plan = try db.migrationPlan(for: TaskTagsAsArray.self)
    XCTAssertTrue(
      plan.changes.contains("column tags Swift type changed from String to Array<String>"),
      "\(plan.changes)")
    // A read never migrates: it reports that the table must be migrated first.
    guard
      case .needsMigration(let table, _, _) = thrownError(
        MigrationError.self, { _ = try db.findAll(TaskTagsAsArray.self) })
    else { return XCTFail("expected needsMigration") }
    XCTAssertEqual(table, "Task")
    let error = thrownError(MigrationError.self) { try db.createTable(for: TaskTagsAsArray.self) }
    XCTAssertEqual(error, .valuesDoNotDecode(table: "Task", column: "tags", type: "Array<String>"))
    // Nothing changed, and the old model still reads its rows.
    XCTAssertEqual(
      try open().findAll(TaskV1.self), [TaskV1(id: 1, tags: "a,b", flag: 0, state: .open)])

    // Once the stored values are converted, the change goes through.
    try open().run("UPDATE Task SET tags = json_array('a', 'b')")
    try open().migrate(TaskTagsAsArray.self)
    XCTAssertEqual(try open().findAll(TaskTagsAsArray.self).map(\.tags), [["a", "b"]])
  }

  func testAnIntThatBecomesABoolIsCheckedRowByRow() throws {
    try seed([
      TaskV1(id: 1, tags: "", flag: 1, state: .open),
      TaskV1(id: 2, tags: "", flag: 5, state: .done),
    ])
    let error = thrownError(MigrationError.self) { try open().migrate(TaskFlagAsBool.self) }
    XCTAssertEqual(error, .valuesDoNotDecode(table: "Task", column: "flag", type: "Bool"))
    try open().run("UPDATE Task SET flag = 0 WHERE flag = 5")
    try open().migrate(TaskFlagAsBool.self)
    XCTAssertEqual(
      try open().findAll(TaskFlagAsBool.self, orderBy: "id").map(\.flag), [true, false])
  }

  func testAnEnumThatLostACaseStillInUseIsRefused() throws {
    try seed([TaskV1(id: 1, tags: "", flag: 0, state: .archived)])
    let error = thrownError(MigrationError.self) {
      try open().save(TaskFewerStates(id: 2, tags: "", flag: 0, state: .open))
    }
    XCTAssertEqual(
      error, .valuesDoNotDecode(table: "Task", column: "state", type: "TaskStateWithoutArchived"))
  }

  func testTheSameSwiftTypesNeedNoCheck() throws {
    try seed([TaskV1(id: 1, tags: "x", flag: 0, state: .open)])
    XCTAssertTrue(try open().migrationPlan(for: TaskV1.self).isEmpty)
  }
}
