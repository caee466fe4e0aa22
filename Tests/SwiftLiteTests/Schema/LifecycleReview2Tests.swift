import Foundation
import SwiftLite
import XCTest

// A second review of issue 14 as a new user would try it, from the README and the DocC
// articles: complete dry runs, table and property renames over several releases on one file,
// and generated columns, on real files.

// Release 1, 2 and 3 of one table, renamed twice.
private struct L2ContactV1: Model {
  var id: Int64?
  var name: String
  static let tableName = "Contact"
  static let primaryKey = ["id"]
}

private struct L2ClientV2: Model {
  var id: Int64?
  var fullName: String
  static let tableName = "Client"
  static let previousTableNames = ["Contact"]
  static let primaryKey = ["id"]
  static let renamedProperties = ["fullName": "name"]
}

private struct L2PersonV3: Model {
  var id: Int64?
  var displayName: String
  var email: String?
  static let tableName = "Person"
  static let previousTableNames = ["Client", "Contact"]
  static let primaryKey = ["id"]
  static let renamedProperties = ["displayName": "fullName"]
  static let previousPropertyNames = ["displayName": ["name"]]
}

// A child that references the table under its first name.
private struct L2NoteV1: Model {
  var id: Int64?
  var contactID: Int64
  var text: String
  static let tableName = "Note"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["contactID"], references: "Contact", onDelete: .cascade)]
}

// A release that renames the table and refuses at once (a NOT NULL column without default).
private struct L2PersonRefused: Model {
  var id: Int64?
  var displayName: String
  var age: Int
  static let tableName = "Person"
  static let previousTableNames = ["Client", "Contact"]
  static let primaryKey = ["id"]
  static let renamedProperties = ["displayName": "fullName"]
  static let previousPropertyNames = ["displayName": ["name"]]
}

// Two tables of one model step that both refuse.
private struct L2ItemV1: Model {
  var id: Int64?
  var name: String
  var note: String?
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

private struct L2ItemV2: Model {
  var id: Int64?
  var name: String
  static let tableName = "Item"
  static let primaryKey = ["id"]
}

private struct L2TagV1: Model {
  var id: Int64?
  var label: String
  static let tableName = "Tag"
  static let primaryKey = ["id"]
}

private struct L2TagV2: Model {
  var id: Int64?
  var label: String
  var weight: Int
  static let tableName = "Tag"
  static let primaryKey = ["id"]
}

// A mapped table with generated columns.
private struct L2Line: Model, Equatable {
  var id: Int64?
  var price: Double
  var quantity: Int
  var total: Double?
  var label: String?
  static let tableName = "line"
  static let primaryKey = ["id"]
}

final class LifecycleReview2Tests: XCTestCase {
  private var folder: URL!
  private var path: String { folder.appendingPathComponent("app.sqlite").path }

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lifecycle-review2-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  private func bytes() throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  private func releaseOne() throws {
    let db = try Connection(path: path)
    try db.save(L2ContactV1(id: 1, name: "Ann"))
    try db.save(L2ContactV1(id: 2, name: "Bob"))
    try db.save(L2NoteV1(id: 1, contactID: 2, text: "call"))
    try db.close()
  }

  // Review2 finding 1
  /// A savepoint rolled back outside a transaction (as the dry run of a table rename does)
  /// leaves the file as it was: its header's change counter too.
  func testASavepointRolledBackOutsideATransactionWritesNothing() throws {
    do {
      let db = try Connection(path: path)
      try db.execute("CREATE TABLE t(a); INSERT INTO t VALUES (1)")
      try db.close()
    }
    let before = try bytes()
    let db = try Connection(path: path)
    XCTAssertThrowsError(
      try db.savepoint { db in
        try db.execute("ALTER TABLE t RENAME TO u")
        throw CancellationError()
      })
    XCTAssertFalse(db.isInTransaction)
    try db.close()
    XCTAssertEqual(try bytes(), before)
  }

  // Review2 finding 1
  /// A file of release 1 opened by release 3: two table renames and two property renames
  /// in one go; the child's key follows; rows kept; the dry run writes nothing.
  func testAFileOfReleaseOneUpgradesToReleaseThree() throws {
    try releaseOne()
    let before = try bytes()
    do {
      let db = try Connection(path: path)
      let plan = try db.migrationPlan(for: L2PersonV3.self)
      XCTAssertTrue(plan.canApply, "\(plan)")
      XCTAssertTrue("\(plan)".contains("Contact"), "\(plan)")
      try db.close()
    }
    XCTAssertEqual(try bytes(), before, "a dry run writes nothing")
    let db = try Connection(path: path)
    try db.migrate(L2PersonV3.self)
    XCTAssertEqual(
      try db.findAll(L2PersonV3.self, orderBy: "id").map(\.displayName), ["Ann", "Bob"])
    XCTAssertEqual(
      try db.scalar(
        Int.self, "SELECT count(*) FROM sqlite_schema WHERE name IN ('Contact', 'Client')"),
      0)
    let references: [String] = try db.query(
      "SELECT \"table\" FROM pragma_foreign_key_list('Note')"
    ).map { try $0.get(at: 0) }
    XCTAssertEqual(references, ["Person"])
    try db.delete(L2PersonV3.self, id: 2)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM Note"), 0, "cascade kept")
  }

  /// Release 2 then release 3 on one file.
  func testReleaseTwoThenReleaseThreeOnOneFile() throws {
    try releaseOne()
    do {
      let db = try Connection(path: path)
      try db.migrate(L2ClientV2.self)
      XCTAssertEqual(
        try db.findAll(L2ClientV2.self, orderBy: "id").map(\.fullName), ["Ann", "Bob"])
      try db.close()
    }
    let db = try Connection(path: path)
    try db.save(L2PersonV3(id: 3, displayName: "Cy", email: nil))
    XCTAssertEqual(
      try db.findAll(L2PersonV3.self, orderBy: "id").map(\.displayName), ["Ann", "Bob", "Cy"])
  }

  // Review2 finding 1
  /// A release that renames the table and also refuses: the plan lists the refusal, migrate
  /// throws it, and the table is not renamed (the file is byte for byte as it was).
  func testARefusedMigrationWithATableRenameLeavesTheFileUnchanged() throws {
    try releaseOne()
    let before = try bytes()
    let db = try Connection(path: path)
    let plan = try db.migrationPlan(for: L2PersonRefused.self)
    XCTAssertFalse(plan.canApply)
    XCTAssertEqual(
      plan.refusals.map(\.error), [.notNullWithoutDefault(table: "Person", column: "age")])
    XCTAssertThrowsError(try db.migrate(L2PersonRefused.self)) { error in
      XCTAssertEqual((error as? MigrationError)?.refusals, plan.refusals)
    }
    XCTAssertThrowsError(try db.save(L2PersonRefused(id: 9, displayName: "Z", age: 1)))
    XCTAssertFalse(db.isInTransaction)
    try db.close()
    XCTAssertEqual(try bytes(), before)
  }

  /// A file with both the old and the new table: the plan says so, as migrate does.
  func testAPlanOverBothTablesListsTheConflict() throws {
    try releaseOne()
    do {
      let db = try Connection(path: path)
      try db.execute("CREATE TABLE Person(id INTEGER PRIMARY KEY, displayName TEXT NOT NULL)")
      try db.close()
    }
    let before = try bytes()
    let db = try Connection(path: path)
    let migrateError = thrownError(MigrationError.self) { try db.migrate(L2PersonV3.self) }
    XCTAssertNotNil(migrateError)
    var planned: [MigrationRefusal] = []
    do {
      planned = try db.migrationPlan(for: L2PersonV3.self).refusals
    } catch let error as MigrationError {
      XCTAssertEqual(error, migrateError)
    }
    if !planned.isEmpty {
      XCTAssertEqual(planned.map(\.error), migrateError?.refusals.map(\.error))
    }
    try db.close()
    XCTAssertEqual(try bytes(), before)
  }

  /// A read of the model on a file that still has the table under an old name, through a
  /// queue's read: a typed error, and nothing written.
  func testAReadBeforeTheRenameThrowsAndWritesNothing() throws {
    try releaseOne()
    let before = try bytes()
    let queue = try DatabaseQueue(path: path)
    XCTAssertThrowsError(try queue.read { db in try db.findAll(L2PersonV3.self) }) { error in
      guard case .needsMigration? = error as? MigrationError else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(try queue.read { db in try db.count(L2PersonV3.self) })
    try queue.close()
    XCTAssertEqual(try bytes(), before)
  }

  // Review2 finding 2
  /// One model step over two tables that both refuse: every refusal of both, and neither
  /// table changed.
  func testAModelStepOverTwoRefusingTablesListsBothAndWritesNothing() throws {
    throw XCTSkip(
      "Review2 finding 2: a model step over several tables throws the first table's refusals only")
    do {
      let db = try Connection(path: path)
      try db.save(L2ItemV1(id: 1, name: "a", note: "kept"))
      try db.save(L2TagV1(id: 1, label: "x"))
      try db.close()
    }
    let before = try bytes()
    var migrator = Migrator()
    migrator.registerModels("v2", L2ItemV2.self, L2TagV2.self)
    let db = try Connection(path: path)
    XCTAssertThrowsError(try migrator.migrate(db)) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("note"), text)
      XCTAssertTrue(text.contains("weight"), text)
    }
    try db.close()
    XCTAssertEqual(try bytes(), before)
  }

  /// Generated columns are never written, by any write.
  func testGeneratedColumnsAreNeverWritten() throws {
    do {
      let db = try Connection(path: path)
      try db.execute(
        """
        CREATE TABLE line(id INTEGER PRIMARY KEY, price REAL NOT NULL, quantity INTEGER NOT NULL,
          total REAL GENERATED ALWAYS AS (price * quantity) STORED,
          label TEXT GENERATED ALWAYS AS ('x' || quantity) VIRTUAL);
        INSERT INTO line(id, price, quantity) VALUES (1, 2.5, 2);
        """)
      try db.close()
    }
    let db = try Connection(path: path)
    let line = L2Line(id: 2, price: 1, quantity: 3, total: 99, label: "wrong")
    try db.insert(line)
    try db.save(L2Line(id: 3, price: 2, quantity: 2, total: 1, label: "no"))
    try db.save([L2Line(id: 4, price: 1, quantity: 1, total: 5, label: "no")])
    try db.save(L2Line(id: 1, price: 3, quantity: 2, total: 0, label: "no"))
    var changed = try XCTUnwrap(db.find(L2Line.self, id: 2))
    let original = changed
    changed.total = 1234
    changed.label = "other"
    try db.update(changed, from: original)
    try db.update(L2Line(id: 3, price: 2, quantity: 5, total: nil, label: nil))
    let fetched = try db.insertAndFetch(
      L2Line(id: nil, price: 4, quantity: 4, total: 7, label: "q"))
    XCTAssertEqual(fetched.total, 16)
    XCTAssertEqual(fetched.label, "x4")
    XCTAssertEqual(
      try db.findAll(L2Line.self, orderBy: "id").map { [$0.total ?? -1, Double($0.quantity)] },
      [[6, 2], [3, 3], [10, 5], [1, 1], [16, 4]])
  }
}
