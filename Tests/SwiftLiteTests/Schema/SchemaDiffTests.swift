import XCTest

@testable import SwiftLite

/// The diff between a stored table and a desired schema: exactly which ``SchemaChange``
/// values it lists, which stored column feeds each desired column, and the strategy the
/// list calls for.
final class SchemaDiffTests: SQLiteTestCase {
  /// The stored table as the planner reads it from ``db``.
  private func stored(_ table: String, for desired: TableSchema) throws
    -> SchemaDiff.StoredTable
  {
    try XCTUnwrap(SchemaDiff.StoredTable.read(table, for: desired, in: db))
  }

  private func column(
    _ name: String, _ type: String, notNull: Bool = false, default value: String? = nil,
    swiftType: String? = nil
  ) -> ColumnDefinition {
    ColumnDefinition(
      name: name, type: type, isNotNull: notNull, defaultSQL: value, swiftType: swiftType)
  }

  func testRenamedAndRetypedColumnYieldsExactlyTheseChanges() throws {
    try db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, code TEXT, price REAL)")
    let desired = TableSchema(
      name: "item",
      columns: [column("id", "INTEGER"), column("sku", "INTEGER"), column("price", "REAL")],
      primaryKey: ["id"])

    let diff = SchemaDiff(
      from: try stored("item", for: desired), to: desired, renamed: ["sku": ["code"]])

    XCTAssertEqual(
      diff.changes,
      [
        .columnRenamed(from: "code", to: "sku"),
        .columnRetyped("sku", from: "TEXT", to: "INTEGER"),
      ])
    XCTAssertEqual(
      diff.changes.map(\.description),
      ["column code renamed to sku", "column sku type changed from TEXT to INTEGER"])
    XCTAssertEqual(diff.sources.map(\.source), ["id", "code", "price"])
    XCTAssertEqual(diff.sources.map(\.target.name), ["id", "sku", "price"])
    XCTAssertEqual(diff.added, [])
    XCTAssertEqual(diff.removed, [])
    XCTAssertTrue(diff.carriesRenames)
    XCTAssertEqual(MigrationPlan.Strategy(for: diff.changes), .rebuild)
  }

  func testColumnWhoseNameDiffersOnlyInCaseIsRenamedNotReplaced() throws {
    try db.execute("CREATE TABLE account (id INTEGER PRIMARY KEY, userID INTEGER)")
    let desired = TableSchema(
      name: "account", columns: [column("id", "INTEGER"), column("userId", "INTEGER")],
      primaryKey: ["id"])

    let diff = SchemaDiff(from: try stored("account", for: desired), to: desired, renamed: [:])

    XCTAssertEqual(diff.changes, [.columnRenamed(from: "userID", to: "userId")])
    XCTAssertEqual(diff.sources.map(\.source), ["id", "userID"])
  }

  func testAddedColumnsAndIndexAlterInPlaceUnlessAddColumnCannot() throws {
    try db.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)")
    let index = TableSchema.IndexDefinition(
      name: "note_on_body", columns: ["body"], isUnique: false)
    let nullable = column("tag", "TEXT")
    let defaulted = column("rank", "INTEGER", notNull: true, default: "0")
    var desired = TableSchema(
      name: "note",
      columns: [column("id", "INTEGER"), column("body", "TEXT"), nullable, defaulted],
      primaryKey: ["id"], indexes: [index])

    var diff = SchemaDiff(from: try stored("note", for: desired), to: desired, renamed: [:])

    XCTAssertEqual(
      diff.changes, [.columnAdded(nullable), .columnAdded(defaulted), .indexAdded(index)])
    XCTAssertEqual(diff.changes.filter(\.needsRebuild), [])
    XCTAssertEqual(MigrationPlan.Strategy(for: diff.changes), .alter)
    XCTAssertEqual(
      diff.alteredDefinition,
      "CREATE TABLE \"note\" (\"id\" INTEGER PRIMARY KEY, \"body\" TEXT, \"tag\" TEXT, "
        + "\"rank\" INTEGER NOT NULL DEFAULT 0)")

    // NOT NULL without a default: ADD COLUMN cannot add it.
    let required = column("due", "TEXT", notNull: true)
    desired.columns.append(required)
    diff = SchemaDiff(from: try stored("note", for: desired), to: desired, renamed: [:])
    XCTAssertEqual(diff.changes.filter(\.needsRebuild), [.columnAdded(required)])
    XCTAssertEqual(MigrationPlan.Strategy(for: diff.changes), .rebuild)
  }

  func testRemovedColumnAndColumnMadeNotNullWithADefault() throws {
    try db.execute("CREATE TABLE job (id INTEGER PRIMARY KEY, state TEXT, legacy BLOB)")
    let desired = TableSchema(
      name: "job",
      columns: [column("id", "INTEGER"), column("state", "TEXT", notNull: true, default: "'new'")],
      primaryKey: ["id"])

    let diff = SchemaDiff(from: try stored("job", for: desired), to: desired, renamed: [:])

    XCTAssertEqual(
      diff.changes,
      [
        .columnRemoved("legacy"),
        .nullabilityChanged("state", isNotNull: true, nullsTakeDefault: true),
        .defaultChanged("state", from: nil, to: "'new'"),
      ])
    XCTAssertEqual(
      diff.changes.map(\.description),
      [
        "column legacy removed", "column state became NOT NULL (NULLs take its default)",
        "column state default changed",
      ])
    XCTAssertEqual(diff.removed.map(\.name), ["legacy"])
  }

  /// The diff reads nothing itself: a stored table given as values is enough.
  func testSwiftTypeAndRecordedConstraintChangesComeFromTheRecord() throws {
    let tags = column("tags", "TEXT", swiftType: "Array<String>")
    var desired = TableSchema(
      name: "post", columns: [column("id", "INTEGER", swiftType: "Int64"), tags],
      primaryKey: ["id"])
    let storedSchema = TableSchema(
      name: "post", columns: [column("id", "INTEGER"), column("tags", "TEXT")], primaryKey: ["id"])
    let record = desired.createTableSQL()
    let storedTable = SchemaDiff.StoredTable(
      schema: storedSchema, definition: record,
      swiftTypes: #"{"id":"Int64","tags":"String"}"#)

    var diff = SchemaDiff(from: storedTable, to: desired, renamed: [:])
    XCTAssertEqual(diff.changes, [.swiftTypeChanged("tags", from: "String", to: "Array<String>")])
    XCTAssertEqual(diff.swiftTypeChanges, ["tags"])
    XCTAssertEqual(MigrationPlan.Strategy(for: diff.changes), .alter)
    XCTAssertFalse(diff.recordIsCurrent)

    // A CHECK the pragmas cannot see differs from the recorded definition.
    desired.columns[1].check = "json_valid(tags)"
    diff = SchemaDiff(from: storedTable, to: desired, renamed: [:])
    XCTAssertEqual(
      diff.changes,
      [.constraintsChanged, .swiftTypeChanged("tags", from: "String", to: "Array<String>")])
    XCTAssertEqual(MigrationPlan.Strategy(for: diff.changes), .rebuild)
  }

  func testUnchangedTableHasNoChangesAndACurrentRecord() throws {
    let desired = TableSchema(
      name: "tag", columns: [column("id", "INTEGER"), column("label", "TEXT", notNull: true)],
      primaryKey: ["id"])
    try AutoMigration.apply(AutoMigration.plan(to: desired, in: db), in: db)

    let diff = SchemaDiff(from: try stored("tag", for: desired), to: desired, renamed: [:])

    XCTAssertEqual(diff.changes, [])
    XCTAssertTrue(diff.recordIsCurrent)
    XCTAssertEqual(MigrationPlan.Strategy(for: diff.changes), .none)
  }

  func testPlanListsTheTypedChangesBehindItsLines() throws {
    try db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, code TEXT, note TEXT)")
    try db.execute("INSERT INTO item (id, code) VALUES (1, '42')")
    let desired = TableSchema(
      name: "item", columns: [column("id", "INTEGER"), column("code", "INTEGER")],
      primaryKey: ["id"])

    let plan = try AutoMigration.plan(to: desired, in: db)

    XCTAssertEqual(
      plan.schemaChanges,
      [.columnRemoved("note"), .columnRetyped("code", from: "TEXT", to: "INTEGER")])
    XCTAssertEqual(plan.changes, plan.schemaChanges.map(\.description))
    XCTAssertEqual(plan.strategy, .rebuild)
    try AutoMigration.apply(plan, in: db)
    XCTAssertEqual(try db.scalar(String.self, "SELECT typeof(code) FROM item"), "integer")
  }
}
