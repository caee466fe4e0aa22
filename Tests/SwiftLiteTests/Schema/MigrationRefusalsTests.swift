import Foundation
import SwiftLite
import XCTest

// Dry runs list every refusal: a plan names each change it refuses with its fix, cannot be
// applied while it has any, and `migrate` throws the same list without writing a byte.

/// The `Gadget` table as first written.
private struct GadgetV1: Model, Equatable {
  var id: Int64?
  var name: String
  var note: String?
  var code: String
  var tags: String
  static let tableName = "Gadget"
  static let primaryKey = ["id"]
}

/// Every refusal a table SwiftLite manages can meet, at once: `note` removed with its
/// values, `code` retyped from TEXT to INTEGER over a value that is no number, `tags` a
/// JSON array over text that is none, `stock` NOT NULL without a default, `name` UNIQUE
/// over names that repeat (and a trigger of the user's that names `note`).
private struct GadgetV2: Model, Equatable {
  var id: Int64?
  var name: String
  var code: Int
  var tags: [String]
  var stock: Int
  static let tableName = "Gadget"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
}

/// `Item` with three refusals: `note` removed with its values, `price` made an integer
/// over prices with cents, `stock` NOT NULL without a default.
private struct ItemThreeRefusals: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Int
  var stock: Int
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

/// `Item` with three constraints its rows break: `name` UNIQUE, `note` required without a
/// default, a unique index on `price`.
private struct ItemConstrained: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String
  static let tableName = "Item"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["name": [.unique]]
  static let indexes = [TableIndex(["price"], unique: true)]
}

/// A `Tag` list kept as optional text.
private struct ShelfV1: Model, Equatable {
  var id: Int64?
  var tags: String?
  static let tableName = "Shelf"
  static let primaryKey = ["id"]
}

/// The list as a JSON array, required, its NULLs taking the empty array.
private struct ShelfV2: Model, Equatable {
  var id: Int64?
  var tags: [String]
  static let tableName = "Shelf"
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["tags": [.default("[]")]]
}

final class MigrationRefusalsTests: ModelTestCase {
  /// The bytes of the database file (and that no journal or WAL is left beside it).
  func fileBytes() throws -> Data {
    for suffix in ["-journal", "-wal"] {
      XCTAssertFalse(FileManager.default.fileExists(atPath: path() + suffix), suffix)
    }
    return try Data(contentsOf: URL(fileURLWithPath: path()))
  }

  /// The name of each refusal's case.
  func kinds(_ refusals: [MigrationRefusal]) -> [String] {
    refusals.map { Mirror(reflecting: $0.error).children.first?.label ?? "?" }
  }

  func testADryRunWithThreeRefusalsListsAllThree() throws {
    do {
      let db = try open()
      try db.save([
        ItemThreeRefusalsSeed(id: 1, name: "apple", price: 1.5, note: "red"),
        ItemThreeRefusalsSeed(id: 2, name: "pear", price: 2, note: nil),
      ])
      try db.close()
    }
    let bytes = try fileBytes()
    let db = try open()
    let plan = try db.migrationPlan(for: ItemThreeRefusals.self)
    XCTAssertFalse(plan.canApply)
    XCTAssertEqual(plan.strategy, .rebuild, "the steps are still planned")
    XCTAssertEqual(
      plan.refusals.map(\.error),
      [
        .wouldLoseData(table: "Item", column: "note", rows: 1),
        .notNullWithoutDefault(table: "Item", column: "stock"),
        .lossyTypeChange(table: "Item", column: "price", newType: "INTEGER"),
      ])
    XCTAssertEqual(plan.refusals.map(\.subject), ["column note", "column stock", "column price"])
    XCTAssertTrue(plan.refusals.allSatisfy { $0.table == "Item" && !$0.fix.isEmpty })
    let text = plan.description
    for fix in ["droppableColumns", ".default(...)", "lossyConvertibleColumns"] {
      XCTAssertTrue(text.contains(fix), "\(fix) in \(text)")
    }
    XCTAssertTrue(text.contains("refused (3)"), text)

    // migrate throws the same list, and so does the first write; nothing is written.
    let error = thrownError(MigrationError.self) { try db.migrate(ItemThreeRefusals.self) }
    XCTAssertEqual(error, .refused(table: "Item", refusals: plan.refusals))
    XCTAssertEqual(error?.refusals, plan.refusals)
    XCTAssertTrue(error?.description.contains("lossyConvertibleColumns") ?? false)
    XCTAssertEqual(
      thrownError(MigrationError.self) {
        try db.save(ItemThreeRefusals(id: 3, name: "plum", price: 1, stock: 1))
      }, error)
    XCTAssertFalse(db.isInTransaction)
    try db.close()
    XCTAssertEqual(try fileBytes(), bytes, "file byte-identical")
  }

  func testOnePlanShowsEveryKindOfRefusalOfAManagedTable() throws {
    do {
      let db = try open()
      try db.save([
        GadgetV1(id: 1, name: "lamp", note: "blue", code: "abc", tags: "[\"a\"]"),
        GadgetV1(id: 2, name: "lamp", note: nil, code: "12", tags: "a,b"),
      ])
      try db.execute(
        """
        CREATE TABLE audit (what TEXT);
        CREATE TRIGGER gadget_noted AFTER UPDATE ON Gadget BEGIN INSERT INTO audit VALUES (new.note); END;
        """)
      try db.close()
    }
    let bytes = try fileBytes()
    let db = try open()
    let plan = try db.migrationPlan(for: GadgetV2.self)
    XCTAssertEqual(
      kinds(plan.refusals),
      [
        "wouldLoseData", "notNullWithoutDefault", "constraintViolated", "lossyTypeChange",
        "triggersWouldNotCompile", "valuesDoNotDecode",
      ], "\(plan)")
    XCTAssertEqual(
      plan.refusals.map(\.subject),
      [
        "column note", "column stock", "column name became UNIQUE", "column code",
        "trigger(s) gadget_noted", "column tags",
      ])
    XCTAssertEqual(
      plan.refusals[5].error,
      .valuesDoNotDecode(table: "Gadget", column: "tags", type: "Array<String>"))
    for refusal in plan.refusals {
      XCTAssertTrue(plan.description.contains(refusal.fix), refusal.fix)
    }
    let error = thrownError(MigrationError.self) { try db.migrate(GadgetV2.self) }
    XCTAssertEqual(error?.refusals, plan.refusals)
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.createTable(for: GadgetV2.self) }, error)
    try db.close()
    XCTAssertEqual(try fileBytes(), bytes, "file byte-identical")
  }

  func testRowsThatBreakNewConstraintsAreRefusalsOfThePlan() throws {
    do {
      let db = try open()
      try db.save([
        ItemThreeRefusalsSeed(id: 1, name: "apple", price: 1, note: nil),
        ItemThreeRefusalsSeed(id: 2, name: "apple", price: 1, note: "x"),
        ItemThreeRefusalsSeed(id: 3, name: "pear", price: 2, note: "y"),
      ])
      try db.close()
    }
    let bytes = try fileBytes()
    let db = try open()
    let plan = try db.migrationPlan(for: ItemConstrained.self)
    XCTAssertEqual(
      plan.refusals.map(\.error),
      [
        .constraintViolated(
          table: "Item", step: "column name became UNIQUE",
          message: "UNIQUE constraint failed: Item.name"),
        .constraintViolated(
          table: "Item", step: "column note became NOT NULL",
          message: "NOT NULL constraint failed: Item.note"),
        .constraintViolated(
          table: "Item", step: "create index Item_on_price",
          message: "UNIQUE constraint failed: Item.price"),
      ], "\(plan)")
    XCTAssertTrue(plan.refusals.allSatisfy { $0.fix.contains("delete the rows") })
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(ItemConstrained.self) }?.refusals,
      plan.refusals)
    try db.close()
    XCTAssertEqual(try fileBytes(), bytes, "file byte-identical")
  }

  /// The dry run decodes the rows as the migration would write them: a NULL that takes the
  /// column's default is decoded as the default, not refused.
  func testADryRunDecodesTheValuesTheMigrationWrites() throws {
    let db = try open()
    try db.save([ShelfV1(id: 1, tags: nil), ShelfV1(id: 2, tags: "[\"a\"]")])
    let plan = try db.migrationPlan(for: ShelfV2.self)
    XCTAssertTrue(plan.canApply, "\(plan)")
    try db.migrate(ShelfV2.self)
    XCTAssertEqual(try db.findAll(ShelfV2.self, orderBy: "id").map(\.tags), [[], ["a"]])

    // A value that does not decode is still refused, before anything is written.
    try db.execute("INSERT INTO Shelf (id, tags) VALUES (3, 'a,b')")
    try db.close()
    let bytes = try fileBytes()
    struct ShelfV3: Model, Equatable {
      var id: Int64?
      var tags: Set<String>
      static let tableName = "Shelf"
      static let primaryKey = ["id"]
    }
    let reopened = try open()
    XCTAssertEqual(
      try reopened.migrationPlan(for: ShelfV3.self).refusals.map(\.subject), ["column tags"])
    XCTAssertThrowsError(try reopened.migrate(ShelfV3.self))
    try reopened.close()
    XCTAssertEqual(try fileBytes(), bytes, "file byte-identical")
  }

  /// A read cannot write even its TEMP schema: the dry run says what it could not check
  /// there, and a write connection's lists it.
  func testADryRunInAReadSaysWhatItCouldNotCheck() throws {
    do {
      let db = try open()
      try db.save([GadgetV1(id: 1, name: "lamp", note: nil, code: "abc", tags: "[]")])
      try db.execute(
        """
        CREATE TABLE audit (what TEXT);
        CREATE TRIGGER gadget_noted AFTER UPDATE ON Gadget BEGIN INSERT INTO audit VALUES (new.note); END;
        """)
      try db.close()
    }
    struct GadgetRetyped: Model {
      var id: Int64?
      var name: String
      var code: Int
      var tags: String
      static let tableName = "Gadget"
      static let primaryKey = ["id"]
    }
    let queue = try DatabaseQueue(path: path())
    let read = try queue.read { db in try db.migrationPlan(for: GadgetRetyped.self) }
    XCTAssertEqual(read.refusals, [])
    XCTAssertEqual(
      read.unchecked,
      [
        "whether every value of code converts to INTEGER (only rounding was checked)",
        "whether the triggers gadget_noted compile against the new columns",
      ])
    XCTAssertTrue(read.description.contains("not checked on this read-only connection"))
    let written = try queue.write { db in try db.migrationPlan(for: GadgetRetyped.self) }
    XCTAssertEqual(written.unchecked, [])
    XCTAssertEqual(
      kinds(written.refusals), ["lossyTypeChange", "triggersWouldNotCompile"])
  }

  func testAMigratorModelStepThrowsTheWholeList() throws {
    do {
      let db = try open()
      try db.save([ItemThreeRefusalsSeed(id: 1, name: "apple", price: 1.5, note: "red")])
      try db.close()
    }
    let bytes = try fileBytes()
    var migrator = Migrator()
    migrator.registerModels("items", ItemThreeRefusals.self)
    let db = try open()
    let error = thrownError(MigratorError.self) { _ = try migrator.migrate(db) }
    guard case .migrationFailed(let name, let underlying) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(name, "items")
    XCTAssertEqual(
      (underlying as? MigrationError)?.refusals,
      try db.migrationPlan(for: ItemThreeRefusals.self).refusals)
    XCTAssertEqual((underlying as? MigrationError)?.refusals.count, 3)
    try db.close()
    XCTAssertEqual(try fileBytes(), bytes, "file byte-identical")
  }
}

/// `Item` as the three-refusal test first writes it: notes and prices with cents.
private struct ItemThreeRefusalsSeed: Model, Equatable {
  var id: Int64?
  var name: String
  var price: Double
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
}
