import Foundation
import SwiftLite
import XCTest

// As a new user would go, from the README and the DocC articles: complete dry runs, table and property renames over several releases on one file,
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

// Snapshot releases of one searchable table that is renamed twice.
private struct L2SContactV1: Model {
  var id: Int64?
  var name: String
  static let tableName = "Contact"
  static let primaryKey = ["id"]
  static let fullTextIndexes = [FullTextIndex(L2SContactV1.self, columns: ["name"])]
}

private struct L2SClientV2: Model {
  var id: Int64?
  var fullName: String
  static let tableName = "Client"
  static let previousTableNames = ["Contact"]
  static let primaryKey = ["id"]
  static let renamedProperties = ["fullName": "name"]
  static let fullTextIndexes = [FullTextIndex(L2SClientV2.self, columns: ["fullName"])]
}

private struct L2SPersonV3: Model {
  var id: Int64?
  var displayName: String
  var email: String?
  static let tableName = "Person"
  static let previousTableNames = ["Client", "Contact"]
  static let primaryKey = ["id"]
  static let renamedProperties = ["displayName": "fullName"]
  static let previousPropertyNames = ["displayName": ["name"]]
  static let fullTextIndexes = [FullTextIndex(L2SPersonV3.self, columns: ["displayName"])]
}

// Models adopting tables made by the sqlite3 CLI, their keys spelled otherwise.
private struct L2AdoptedLine: Model {
  var id: Int64?
  var orderID: Int64
  var lineNo: Int64
  var qty: Int
  static let tableName = "line_item"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["order_id", "line_no"], references: "order_line")]
  enum CodingKeys: String, CodingKey {
    case id
    case orderID = "order_id"
    case lineNo = "line_no"
    case qty
  }
}

private struct L2AdoptedShipper: Model {
  var id: Int64?
  var regionID: Int64
  static let tableName = "shipper"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["region_id"], references: "region")]
  enum CodingKeys: String, CodingKey {
    case id
    case regionID = "region_id"
  }
}

private struct L2AdoptedProduct: Model {
  var id: Int64?
  var categoryID: Int64
  var name: String
  static let tableName = "product"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["category_id"], references: "category")]
  enum CodingKeys: String, CodingKey {
    case id
    case categoryID = "category_id"
    case name
  }
}

private struct L2PersonLower: Model {
  var id: Int64?
  var name: String
  static let tableName = "Person"
  static let previousTableNames = ["CONTACT"]
  static let primaryKey = ["id"]
}

final class RenamesAcrossReleasesTests: XCTestCase {
  private var folder: URL!
  private var path: String { folder.appendingPathComponent("app.sqlite").path }

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("renames-across-releases-\(UUID().uuidString)")
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

  /// One model step over two tables that both refuse: every refusal of both, and neither
  /// table changed.
  func testAModelStepOverTwoRefusingTablesListsBothAndWritesNothing() throws {
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

  private func snapshots() throws -> MigrationSnapshots {
    var one = Migrator()
    one.registerModels("v1", L2SContactV1.self)
    var two = Migrator()
    two.registerModels("v2", L2SClientV2.self)
    var three = Migrator()
    three.registerModels("v3", L2SPersonV3.self)
    return try MigrationSnapshots([
      SchemaSnapshot(step: "v1", tables: try XCTUnwrap(one.currentModelTables(ofStep: "v1"))),
      SchemaSnapshot(step: "v2", tables: try XCTUnwrap(two.currentModelTables(ofStep: "v2"))),
      SchemaSnapshot(step: "v3", tables: try XCTUnwrap(three.currentModelTables(ofStep: "v3"))),
    ])
  }

  private func todaysMigrator() throws -> Migrator {
    var migrator = Migrator(snapshots: try snapshots())
    migrator.registerModels("v1", L2SPersonV3.self)
    migrator.register("v1-seed") { db in
      try db.execute("INSERT INTO Contact(name) VALUES ('Seeded Sam')")
    }
    migrator.registerModels("v2", L2SPersonV3.self)
    migrator.register("v2-upper") { db in
      try db.execute("UPDATE Client SET fullName = fullName || '!'")
    }
    migrator.registerModels("v3", L2SPersonV3.self)
    return migrator
  }

  private func schemaText(_ db: Connection) throws -> [String] {
    try db.query(
      "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name"
    ).map { try $0.get(at: 0) }
  }

  /// A fresh install and an upgrade from release 1 (made by release 1's own migrator) reach
  /// the same schema, keep the rows, and search under the newest name.
  func testSnapshotsReplayTwoTableRenamesWithTheirFullTextIndexes() throws {
    let freshPath = folder.appendingPathComponent("fresh.sqlite").path
    let fresh = try Connection(path: freshPath)
    try todaysMigrator().migrate(fresh)
    XCTAssertEqual(try fresh.findAll(L2SPersonV3.self).map(\.displayName), ["Seeded Sam!"])
    XCTAssertEqual(
      try L2SPersonV3.all().matching(.allWords(in: "sam")).fetchAll(fresh).count, 1)

    do {
      var releaseOne = Migrator()
      releaseOne.registerModels("v1", L2SContactV1.self)
      releaseOne.register("v1-seed") { db in
        try db.execute("INSERT INTO Contact(name) VALUES ('Seeded Sam')")
      }
      let db = try Connection(path: path)
      try releaseOne.migrate(db)
      try db.save(L2SContactV1(id: nil, name: "Ann Lee"))
      try db.close()
    }
    let upgraded = try Connection(path: path)
    try todaysMigrator().migrate(upgraded)
    XCTAssertEqual(
      try upgraded.findAll(L2SPersonV3.self, orderBy: "id").map(\.displayName),
      ["Seeded Sam!", "Ann Lee!"])
    XCTAssertEqual(
      try L2SPersonV3.all().matching(.allWords(in: "lee")).fetchAll(upgraded).map(\.id), [2])
    XCTAssertEqual(try schemaText(upgraded), try schemaText(fresh))
  }

  /// Implied parent columns over a two-column key: the table's own key, adopted by
  /// recording it.
  func testAdoptionTakesAnImpliedCompositeKeyAsTheTablesKey() throws {
    do {
      let db = try Connection(path: path)
      try db.execute(
        """
        CREATE TABLE order_line(order_id INTEGER NOT NULL, line_no INTEGER NOT NULL,
          PRIMARY KEY (order_id, line_no));
        CREATE TABLE line_item(id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL,
          line_no INTEGER NOT NULL, qty INTEGER NOT NULL,
          FOREIGN KEY (order_id, line_no) REFERENCES order_line(order_id, line_no));
        INSERT INTO order_line VALUES (1, 1);
        INSERT INTO line_item VALUES (1, 1, 1, 5);
        """)
      try db.close()
    }
    let db = try Connection(path: path)
    let line = try db.adoptionPlan(for: L2AdoptedLine.self)
    XCTAssertFalse(line.schemaChanges.contains(where: \.needsRebuild), "\(line)")
    XCTAssertTrue(line.canApply, "\(line)")
  }

  /// A dry run in a queue's read (which cannot rename even in a savepoint) of a release that
  /// renames the table and refuses a change: the plan must not look complete. It lists the
  /// refusal, or says in `unchecked` what it did not plan.
  func testADryRunInAReadOfARenameSaysWhatItDidNotPlan() throws {
    try releaseOne()
    let before = try bytes()
    let queue = try DatabaseQueue(path: path)
    let plan = try queue.read { db in try db.migrationPlan(for: L2PersonRefused.self) }
    XCTAssertTrue(
      !plan.refusals.isEmpty || !plan.unchecked.isEmpty,
      "a plan that looks complete, yet migrate refuses: \(plan)")
    XCTAssertThrowsError(try queue.write { db in try db.migrate(L2PersonRefused.self) })
    try queue.close()
    XCTAssertEqual(try bytes(), before)
  }

  /// A key written `REFERENCES CATEGORY(ID)` by the other program and declared
  /// `ForeignKey(["category_id"], references: "category")` by the model is the same key:
  /// SQLite compares names without case. Adoption should record it, not rebuild the table.
  func testAdoptionTakesAParentNamedInOtherCasesAsTheTablesKey() throws {
    do {
      let db = try Connection(path: path)
      try db.execute(
        """
        CREATE TABLE CATEGORY(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE product(id INTEGER PRIMARY KEY,
          category_id INTEGER NOT NULL REFERENCES CATEGORY(ID), name TEXT NOT NULL);
        CREATE TABLE region(id INTEGER PRIMARY KEY);
        CREATE TABLE shipper(id INTEGER PRIMARY KEY, region_id INTEGER NOT NULL REFERENCES REGION);
        INSERT INTO CATEGORY VALUES (1, 'Tea');
        INSERT INTO product VALUES (1, 1, 'Green');
        """)
      try db.close()
    }
    let db = try Connection(path: path)
    let shipper = try db.adoptionPlan(for: L2AdoptedShipper.self)
    XCTAssertFalse(shipper.schemaChanges.contains(where: \.needsRebuild), "\(shipper)")
    let product = try db.adoptionPlan(for: L2AdoptedProduct.self)
    XCTAssertFalse(product.schemaChanges.contains(where: \.needsRebuild), "\(product)")
    XCTAssertTrue(product.canApply, "\(product)")
  }

  /// A previous name in other letter cases finds the table, as SQLite would.
  func testAPreviousTableNameInOtherCasesFindsTheTable() throws {
    try releaseOne()
    let db = try Connection(path: path)
    try db.execute("PRAGMA foreign_keys = OFF; DROP TABLE Note")
    try db.migrate(L2PersonLower.self)
    XCTAssertEqual(try db.findAll(L2PersonLower.self, orderBy: "id").map(\.name), ["Ann", "Bob"])
  }

  /// A launch whose preparation refuses: a typed error listing the refusal, and the file
  /// byte for byte as it was (not even the rename).
  func testALaunchWhosePreparationRefusesLeavesTheFile() throws {
    try releaseOne()
    let before = try bytes()
    for pool in [false, true] {
      XCTAssertThrowsError(
        try pool
          ? {
            _ = try DatabasePool(path: path, preparation: ModelPreparation(L2PersonRefused.self))
          }()
          : {
            _ = try DatabaseQueue(path: path, preparation: ModelPreparation(L2PersonRefused.self))
          }()
      ) { error in
        XCTAssertEqual(
          (error as? MigrationError)?.refusals.map(\.error),
          [.notNullWithoutDefault(table: "Person", column: "age")], "\(error)")
      }
      if !pool { XCTAssertEqual(try bytes(), before) }
    }
  }

  /// Only a generated column changed: update(_:from:) writes nothing.
  func testUpdateFromWithOnlyAGeneratedColumnChangedWritesNothing() throws {
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
    let before = try bytes()
    let db = try Connection(path: path)
    let original = try XCTUnwrap(db.find(L2Line.self, id: 1))
    var changed = original
    changed.total = 1
    changed.label = "y"
    try db.update(changed, from: original)
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
