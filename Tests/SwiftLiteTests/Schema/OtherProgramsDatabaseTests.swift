import Foundation
import SwiftLite
import XCTest

// As a new user would go, from the README and the DocC articles: a database made by raw SQL as the sqlite3 CLI would make it, used through models.

private let storeSQL = """
  CREATE TABLE category(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
  CREATE TABLE product(
    id INTEGER PRIMARY KEY,
    category_id INTEGER NOT NULL REFERENCES category(id),
    name NVARCHAR(40) NOT NULL CHECK (length(name) > 0),
    price NUMERIC NOT NULL,
    day DATETIME NOT NULL,
    stamped DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    sold DATETIME,
    photo BLOB,
    note TEXT
  );
  INSERT INTO category VALUES (1, 'Tea');
  INSERT INTO product VALUES
    (1, 1, 'Green', 3, '2016-07-05', '2021-01-02 00:00:00', '2021-01-02', x'00ff', NULL),
    (2, 1, 'Black', 2.5, '2016-07-06', '2021-01-03 10:11:12', '2021-01-02 10:11:12', NULL,
     '{"b": 1,  "a": 2}'),
    (3, 1, 'Oolong', 10, '2016-07-07', '2021-01-04 23:59:59', 1609459200.5, NULL, 'x');
  """

private struct Product: Model {
  var id: Int64?
  var categoryID: Int64
  var name: String
  var price: Double
  var day: Date
  var stamped: Date?
  var sold: Date?
  var photo: Data?
  var note: String?
  static let primaryKey = ["id"]
  static let tableName = "product"
  enum CodingKeys: String, CodingKey {
    case id
    case categoryID = "category_id"
    case name, price, day, stamped, sold, photo, note
  }
}

final class OtherProgramsDatabaseTests: XCTestCase {
  var folder: URL!
  private var path: String { folder.appendingPathComponent("store.sqlite").path }

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lifecycle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let maker = try Connection(path: path)
    try maker.execute(storeSQL)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func quoted(_ db: Connection, _ table: String = "product") throws -> [String] {
    let columns = try db.query("SELECT name FROM pragma_table_info(?)", [table]).map {
      let name: String = try $0.get(at: 0)
      return "quote(\"\(name)\")"
    }
    let sql = "SELECT \(columns.joined(separator: " || '|' || ")) FROM \"\(table)\" ORDER BY 1"
    return try db.query(sql).map { try $0.get(at: 0) as String }
  }

  func testReadAndUpdateUnchangedKeepsEveryByteOfSingleFormatColumns() throws {
    let db = try Connection(path: path)
    // `sold` holds three formats: make it single-format for this test.
    try db.execute("UPDATE product SET sold = '2021-01-05' WHERE id IN (2, 3)")
    let before = try quoted(db)
    for product in try db.findAll(Product.self, orderBy: "id") {
      try db.update(product)
    }
    XCTAssertEqual(try quoted(db), before)
    for product in try db.findAll(Product.self, orderBy: "id") {
      try db.save(product)
    }
    XCTAssertEqual(try quoted(db), before)
  }

  func testUpdateFromOriginalWritesOnlyTheChangedColumn() throws {
    let db = try Connection(path: path)
    let before = try quoted(db)
    for original in try db.findAll(Product.self, orderBy: "id") {
      try db.update(original, from: original)
    }
    XCTAssertEqual(try quoted(db), before)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT total_changes()"), 0)  // nothing written
    let original = try XCTUnwrap(db.find(Product.self, id: 3))
    var changed = original
    changed.name = "Oolong tea"
    try db.update(changed, from: original)
    var expected = before
    expected[2] = expected[2].replacingOccurrences(of: "'Oolong'", with: "'Oolong tea'")
    XCTAssertEqual(try quoted(db), expected)
  }

  func testNilOverNotNullDefaultCurrentTimestampGetsTheDefault() throws {
    let db = try Connection(path: path)
    let stored = try db.insertAndFetch(
      Product(
        id: nil, categoryID: 1, name: "White", price: 4, day: Date(timeIntervalSince1970: 0),
        stamped: nil, sold: nil, photo: nil, note: nil))
    XCTAssertNotNil(stored.id)
    XCTAssertNotNil(stored.stamped)
    let text: String = try XCTUnwrap(
      db.query("SELECT stamped FROM product WHERE id = ?", [stored.id]).first?.get(at: 0))
    XCTAssertEqual(text.count, 19, text)  // CURRENT_TIMESTAMP: YYYY-MM-DD HH:MM:SS
    let day: String = try XCTUnwrap(
      db.query("SELECT day FROM product WHERE id = ?", [stored.id]).first?.get(at: 0))
    XCTAssertEqual(day, "1970-01-01")  // the format the column already uses
  }

  func testStringOverDatetimeReadsTextAsStored() throws {
    struct Raw: Model {
      var id: Int64?
      var day: String
      var stamped: String
      static let primaryKey = ["id"]
      static let tableName = "product"
    }
    let db = try Connection(path: path)
    let rows = try db.findAll(Raw.self, orderBy: "id")
    XCTAssertEqual(rows.map(\.day), ["2016-07-05", "2016-07-06", "2016-07-07"])
    XCTAssertEqual(rows.first?.stamped, "2021-01-02 00:00:00")
  }

  func testCheckViolationIsATypedConstraintError() throws {
    let db = try Connection(path: path)
    var product = try XCTUnwrap(db.find(Product.self, id: 1))
    product.name = ""
    XCTAssertThrowsError(try db.update(product)) { error in
      XCTAssertNotNil(error as? SQLiteError, "\(type(of: error)): \(error)")
    }
  }

  func testAdoptionPlanTakesImpliedParentColumnsAsThePrimaryKey() throws {
    struct Adopted: Model {
      var id: Int64?
      var categoryID: Int64
      var name: String
      static let primaryKey = ["id"]
      static let tableName = "product"
      static let foreignKeys = [ForeignKey(["category_id"], references: "category")]
      enum CodingKeys: String, CodingKey {
        case id
        case categoryID = "category_id"
        case name
      }
    }
    let db = try Connection(path: path)
    let plan = try db.adoptionPlan(for: Adopted.self)
    XCTAssertFalse(plan.schemaChanges.contains(where: \.needsRebuild), "\(plan)")
    let before = try quoted(db)
    try db.adopt(Adopted.self)
    XCTAssertEqual(try quoted(db), before)
  }

  func testReadOnlyOpenWithPendingStepsThrowsTypedError() throws {
    var migrator = Migrator()
    migrator.register("add index") { db in
      try db.execute("CREATE INDEX product_day ON product(day)")
    }
    XCTAssertThrowsError(try DatabaseQueue(path: path, options: .readOnly, preparation: migrator)) {
      error in
      guard case MigratorError.readOnlyDatabase(let pending)? = error as? MigratorError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
      XCTAssertEqual(pending, ["add index"])
    }
  }

  func testFailedStepAtLaunchLeavesTheFileByteForByte() throws {
    _ = try DatabaseQueue(path: path)  // the file as the app opens it (WAL)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    var migrator = Migrator()
    migrator.register("reprice") { db in
      try db.run("UPDATE product SET price = price * 2")
      try db.execute("CREATE INDEX product_day ON product(day)")
      try db.execute("UPDATE product SET name = ''")  // the CHECK refuses it
    }
    XCTAssertThrowsError(try DatabaseQueue(path: path, preparation: migrator)) { error in
      guard case MigratorError.migrationFailed(let name, _)? = error as? MigratorError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
      XCTAssertEqual(name, "reprice")
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")))?.count ?? 0
    XCTAssertEqual(wal, 0)
  }

  func testPlainUpdateOverAMixedFormatDateColumnKeepsTheTimeOfDay() throws {
    // `sold` is '2021-01-02' in row 1 and '2021-01-02 10:11:12' in row 2 (as another
    // program wrote them). The docs promise mixed formats are kept by update(_:from:) only,
    // but a plain update must not lose data: row 2 comes back as '2021-01-02', 10:11:12 lost.
    let db = try Connection(path: path)
    let black = try XCTUnwrap(db.find(Product.self, id: 2))
    try db.update(black)
    let reread = try XCTUnwrap(db.find(Product.self, id: 2))
    XCTAssertEqual(reread.sold, black.sold)
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT sold FROM product WHERE id = 2"), "2021-01-02 10:11:12")
  }

  private struct AdoptedProduct: Model {
    var id: Int64?
    var categoryID: Int64
    var name: String
    var price: Double
    var day: Date
    var stamped: Date?
    var sold: Date?
    var photo: Data?
    var note: String?
    static let primaryKey = ["id"]
    static let tableName = "product"
    static let foreignKeys = [ForeignKey(["category_id"], references: "category")]
    enum CodingKeys: String, CodingKey {
      case id
      case categoryID = "category_id"
      case name, price, day, stamped, sold, photo, note
    }
  }

  private struct RebuiltProduct: Model {
    var id: Int64?
    var categoryID: Int64
    var name: String
    var price: Double
    var day: Date
    var stamped: Date?
    var sold: Date?
    var photo: Data?
    var note: String  // now NOT NULL: a rebuild
    static let primaryKey = ["id"]
    static let tableName = "product"
    static let foreignKeys = [ForeignKey(["category_id"], references: "category")]
    static let columnConstraints: [String: [ColumnConstraint]] = [
      "name": [.check("length(name) > 0")], "note": [.default("")],
    ]
    static let allowsRebuildingAdoptedTable = true
    static let lossyConvertibleColumns: Set<String> = ["note"]
    enum CodingKeys: String, CodingKey {
      case id
      case categoryID = "category_id"
      case name, price, day, stamped, sold, photo, note
    }
  }

  func testRebuildOfAnAdoptedTableKeepsItsDefaultsForeignKeyAndCheck() throws {
    let db = try Connection(path: path)
    try db.execute("UPDATE product SET note = '' WHERE note IS NULL")
    try db.adopt(AdoptedProduct.self)
    let before = try quoted(db)
    let plan = try db.migrationPlan(for: RebuiltProduct.self)
    XCTAssertTrue(plan.schemaChanges.contains(where: \.needsRebuild), "\(plan)")
    try db.migrate(RebuiltProduct.self)
    XCTAssertEqual(try quoted(db), before)
    // What adoption kept: the DEFAULT CURRENT_TIMESTAMP, the NVARCHAR type, the foreign key.
    let columns = try db.query("SELECT name, type, dflt_value FROM pragma_table_info('product')")
      .map { row -> String in
        let name: String = try row.get(at: 0)
        let type: String = try row.get(at: 1)
        let dflt: String? = try row.get(at: 2)
        return "\(name) \(type) \(dflt ?? "-")"
      }
    XCTAssertTrue(columns.contains("stamped DATETIME CURRENT_TIMESTAMP"), "\(columns)")
    XCTAssertTrue(columns.contains("name NVARCHAR(40) -"), "\(columns)")
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM pragma_foreign_key_list('product')"), 1)
    XCTAssertThrowsError(try db.run("UPDATE product SET name = '' WHERE id = 1"))
  }

  func testRebuildOfAnAdoptedTableWithACheckIsRefusedUntilDeclared() throws {
    struct Undeclared: Model {
      var id: Int64?
      var categoryID: Int64
      var name: String
      var price: Double
      var day: Date
      var stamped: Date?
      var sold: Date?
      var photo: Data?
      var note: String
      static let primaryKey = ["id"]
      static let tableName = "product"
      static let foreignKeys = [ForeignKey(["category_id"], references: "category")]
      static let columnConstraints: [String: [ColumnConstraint]] = ["note": [.default("")]]
      enum CodingKeys: String, CodingKey {
        case id
        case categoryID = "category_id"
        case name, price, day, stamped, sold, photo, note
      }
    }
    let db = try Connection(path: path)
    try db.execute("UPDATE product SET note = '' WHERE note IS NULL")
    try db.adopt(AdoptedProduct.self)
    try db.close()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let again = try Connection(path: path)
    XCTAssertThrowsError(try again.migrate(Undeclared.self)) { error in
      guard case MigrationError.rebuildWouldDropConstraints? = error as? MigrationError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
    }
    try again.close()
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
  }

  func testRowMappedModelSavedUnchangedKeepsEveryByte() throws {
    struct Mapped: Model, RowMapped {
      var id: Int64?
      var price: Double
      var day: Date
      var photo: Data?
      static let primaryKey = ["id"]
      static let tableName = "product"
      static let mappedColumns = ["id", "price", "day", "photo"]
      init(id: Int64?, price: Double, day: Date, photo: Data?) {
        (self.id, self.price, self.day, self.photo) = (id, price, day, photo)
      }
      init(row: MappedRow) throws {
        id = try row.get(0)
        price = try row.get(1)
        day = try row.get(2)
        photo = try row.get(3)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(id, at: 0)
        try row.set(price, at: 1)
        try row.set(day, at: 2)
        try row.set(photo, at: 3)
      }
    }
    let db = try Connection(path: path)
    let before = try quoted(db)
    for row in try db.findAll(Mapped.self, orderBy: "id") { try db.update(row) }
    XCTAssertEqual(try quoted(db), before)
  }

  func testADeclarationNamingAPropertyRenamedByCodingKeysSaysToUseTheCodingKey() throws {
    // The struct has a stored property `categoryID`, coded as "category_id": the refusal
    // said "'categoryID' ... is not a stored property", which it is.
    struct Renamed: Model {
      var id: Int64?
      var categoryID: Int64
      static let primaryKey = ["id"]
      static let tableName = "product"
      static let foreignKeys = [ForeignKey(["categoryID"], references: "category")]
      enum CodingKeys: String, CodingKey {
        case id
        case categoryID = "category_id"
      }
    }
    let db = try Connection(path: path)
    XCTAssertThrowsError(try db.adoptionPlan(for: Renamed.self)) { error in
      guard case ModelError.invalidDeclaration(_, let reason)? = error as? ModelError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
      XCTAssertFalse(reason.contains("is not a stored property"), reason)
      XCTAssertTrue(reason.contains("coding key"), reason)
      XCTAssertTrue(reason.contains("category_id"), reason)
    }
  }

  func testPlainUpdateKeepsSingleFormatDateColumnsOfOtherCommonForms() throws {
    // Each column holds one format only, as SQLite's date functions read it and other
    // programs write it (Python's isoformat, .NET, microseconds); the docs say "a plain save
    // or update keeps the dates of a column that uses one format".
    let db = try Connection(path: path)
    try db.execute(
      """
      CREATE TABLE ev(id INTEGER PRIMARY KEY, a DATETIME, b DATETIME, c DATETIME, d DATETIME);
      INSERT INTO ev(a, b, c, d) VALUES
        ('2016-07-05T10:11:12', '2016-07-05 10:11', '2016-07-05 10:11:12+02:00',
         '2016-07-05 10:11:12.123456');
      """)
    struct Ev: Model {
      var id: Int64?
      var a: Date
      var b: Date
      var c: Date
      var d: Date
      static let primaryKey = ["id"]
      static let tableName = "ev"
    }
    let before = try quoted(db, "ev")
    try db.update(try XCTUnwrap(db.find(Ev.self, id: 1)))
    // Today: '2016-07-05 10:11:12.000', '2016-07-05 10:11:00.000', '2016-07-05 08:11:12.000'
    // and '2016-07-05 10:11:12.123' (the microseconds lost).
    XCTAssertEqual(try quoted(db, "ev"), before)
  }

  func testMappedTableIsNotManagedForPlansAndMigrations() throws {
    let db = try Connection(path: path)
    XCTAssertFalse(try db.needsMigration(Product.self))
    XCTAssertThrowsError(try db.migrationPlan(for: Product.self)) { error in
      guard case MigrationError.notManaged? = error as? MigrationError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
    }
  }

  func testUpdateFromKeepsJSONTextWithSpaces() throws {
    struct Tagged: Model {
      var id: Int64?
      var name: String
      var tags: [String]
      var meta: [String: Int]
      static let primaryKey = ["id"]
      static let tableName = "tagged"
    }
    let db = try Connection(path: path)
    try db.execute(
      """
      CREATE TABLE tagged(id INTEGER PRIMARY KEY, name TEXT NOT NULL, tags TEXT NOT NULL,
        meta TEXT NOT NULL);
      INSERT INTO tagged VALUES (1, 'a', '[ "x", "y" ]', '{"b": 2, "a": 1}');
      """)
    let before = try quoted(db, "tagged")
    let original = try XCTUnwrap(db.find(Tagged.self, id: 1))
    XCTAssertEqual(original.tags, ["x", "y"])
    var changed = original
    changed.name = "b"
    try db.update(changed, from: original)
    XCTAssertEqual(
      try quoted(db, "tagged"), [before[0].replacingOccurrences(of: "'a'", with: "'b'")])
  }

  func testAReadOnlyPoolOnAFileNotInWALModeIsACannotOpenErrorThatSaysWhy() throws {
    // The sqlite3 CLI's file is in rollback-journal mode. DatabasePool's documentation says
    // `.cannotOpen` when SQLite cannot put the file in WAL mode; a read-only pool threw
    // `SQLiteError` 8 "attempt to write a readonly database (while running: PRAGMA
    // journal_mode = wal)" instead, naming neither the cause nor the way out.
    XCTAssertThrowsError(try DatabasePool(path: path, options: .readOnly)) { error in
      guard let error = error as? SQLiteError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
      XCTAssertEqual(error.code, .cannotOpen, "\(error)")
      XCTAssertTrue("\(error)".contains("WAL"), "\(error)")
      XCTAssertTrue("\(error)".contains("read-only"), "\(error)")
    }
    let db = try Connection(path: path, options: .readOnly)
    XCTAssertEqual(try db.journalMode(), .delete)  // left as it was
  }

  func testNilOverNotNullDefaultKeepsTheStoredValueOnUpdateAndSave() throws {
    let db = try Connection(path: path)
    let before = try quoted(db)
    var green = try XCTUnwrap(db.find(Product.self, id: 1))
    green.stamped = nil
    try db.update(green)
    XCTAssertEqual(try quoted(db), before)
    try db.save(green)
    XCTAssertEqual(try quoted(db), before)
    try db.save([green])
    XCTAssertEqual(try quoted(db), before)
    let original = try XCTUnwrap(db.find(Product.self, id: 1))
    try db.update(green, from: original)
    XCTAssertEqual(try quoted(db), before)
  }

  func testDroppableColumnsWrittenAsAnArrayLiteralIsTakenAsTheDeclaration() throws {
    // `primaryKey = ["id"]` is an array; `droppableColumns`, `lossyConvertibleColumns` and
    // `ignoredProperties` are `Set<String>` requirements with defaults, so the same spelling
    // declares an unrelated static property, which Swift accepts without a word (one
    // requirement has one type). The refusal then shows the declaration with its type, and
    // says why; written so, the column is dropped.
    struct Before: Model {
      var id: Int64?
      var title: String
      var body: String
      static let primaryKey = ["id"]
      static let tableName = "memo"
    }
    struct Untyped: Model {
      var id: Int64?
      var title: String
      static let primaryKey = ["id"]
      static let tableName = "memo"
      static let droppableColumns = ["body"]
    }
    struct Typed: Model {
      var id: Int64?
      var title: String
      static let primaryKey = ["id"]
      static let tableName = "memo"
      static let droppableColumns: Set<String> = ["body"]
    }
    let db = try Connection(path: ":memory:")
    try db.save(Before(id: 1, title: "t", body: "b"))
    XCTAssertEqual(Untyped.droppableColumns, ["body"])
    XCTAssertEqual((Untyped.self as any Model.Type).droppableColumns, [], "not the requirement")
    XCTAssertThrowsError(try db.migrate(Untyped.self)) { error in
      XCTAssertEqual(
        error as? MigrationError, .wouldLoseData(table: "memo", column: "body", rows: 1))
      let fix = (error as? MigrationError)?.refusals.first?.fix ?? ""
      XCTAssertTrue(
        fix.contains("static let droppableColumns: Set<String> = [\"body\"]"), fix)
      XCTAssertTrue(fix.contains("[String]"), fix)
    }
    XCTAssertEqual(try db.scalar(String.self, "SELECT body FROM memo"), "b")
    let lossy = MigrationError.lossyTypeChange(table: "memo", column: "title", newType: "INTEGER")
    XCTAssertTrue(
      lossy.refusals[0].fix.contains(
        "static let lossyConvertibleColumns: Set<String> = [\"title\"]"), lossy.refusals[0].fix)

    try db.migrate(Typed.self)
    XCTAssertEqual(
      try db.query("SELECT name FROM pragma_table_info('memo')").map {
        try $0.get(String.self, at: 0)
      }, ["id", "title"])
    XCTAssertEqual(try db.find(Typed.self, id: 1)?.title, "t")
  }

  func testDataOverAColumnHoldingTextKeepsItsStorageClassOnAPlainUpdate() throws {
    // A column without a type (or BLOB) that another program filled with text: the docs
    // say to read such a column as Data to get its exact bytes. Saved unchanged, 'abc'
    // becomes X'616263': same bytes, another storage class, and `WHERE v = 'abc'` no
    // longer finds the row.
    struct Raw: Model {
      var id: Int64?
      var v: Data
      static let primaryKey = ["id"]
      static let tableName = "raw"
    }
    let db = try Connection(path: path)
    try db.execute(
      "CREATE TABLE raw(id INTEGER PRIMARY KEY, v NOT NULL); INSERT INTO raw(v) VALUES ('abc')")
    let before = try quoted(db, "raw")
    try db.update(try XCTUnwrap(db.find(Raw.self, id: 1)))
    XCTAssertEqual(try quoted(db, "raw"), before)
  }

  func testModelsOverAnotherProgramsDatabaseCreateNoTableOfTheirOwn() throws {
    let db = try Connection(path: path)
    let original = try XCTUnwrap(db.find(Product.self, id: 1))
    var changed = original
    changed.price = 4
    try db.update(changed, from: original)
    try db.update(changed)
    try db.save(changed)
    _ = try db.insertAndFetch(
      Product(
        id: nil, categoryID: 1, name: "New", price: 1, day: Date(), stamped: nil, sold: nil,
        photo: nil, note: nil))
    try db.delete(Product.self, id: 3)
    XCTAssertEqual(
      try db.scalar(
        Int.self, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'swiftlite%'"), 0)
  }

  func testAdoptionPlanIsADryRunAndAMisfitListsEveryProblem() throws {
    try Connection(path: path).close()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let db = try Connection(path: path)
    _ = try db.adoptionPlan(for: Product.self)
    struct Misfit: Model {
      var id: Int64?
      var name: Int  // TEXT affinity
      var missing: String
      static let primaryKey = ["id"]
      static let tableName = "product"
    }
    XCTAssertThrowsError(try db.findAll(Misfit.self)) { error in
      guard case ModelError.incompatibleTable(_, _, let problems)? = error as? ModelError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
      XCTAssertEqual(problems.count, 2, "\(problems)")
    }
    try db.close()
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
  }

  func testUpdateFromComparesTextByBytes() throws {
    struct Titled: Model {
      var id: Int64?
      var title: String
      var tags: [String]
      static let primaryKey = ["id"]
      static let tableName = "titled"
    }
    let db = try Connection(path: path)
    let nfd = "cafe\u{301}"
    let nfc = "caf\u{E9}"
    XCTAssertEqual(nfd, nfc)  // Swift's String equality
    try db.execute(
      "CREATE TABLE titled(id INTEGER PRIMARY KEY, title TEXT NOT NULL, tags TEXT NOT NULL)")
    try db.run("INSERT INTO titled VALUES (1, ?, ?)", [nfd, "[\"\(nfd)\"]"])
    let original = try XCTUnwrap(db.find(Titled.self, id: 1))
    var changed = original
    changed.title = nfc
    changed.tags = [nfc]
    try db.update(changed, from: original)
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT hex(title) FROM titled"),
      nfc.utf8.map { String(format: "%02X", $0) }.joined())
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT hex(tags) FROM titled"),
      "[\"\(nfc)\"]".utf8.map { String(format: "%02X", $0) }.joined())
  }

  func testNorthwindStyleTablesRoundTrip() throws {
    struct OrderDetail: Model {
      var orderID: Int64
      var productID: Int64
      var unitPrice: Decimal
      var quantity: Int
      var discount: Double
      static let primaryKey = ["orderID", "productID"]
      static let tableName = "Order Details"
      enum CodingKeys: String, CodingKey {
        case orderID = "OrderID"
        case productID = "ProductID"
        case unitPrice = "UnitPrice"
        case quantity = "Quantity"
        case discount = "Discount"
      }
    }
    struct Customer: Model {
      var customerID: String
      var companyName: String
      var since: Date?
      static let primaryKey = ["customerID"]
      static let tableName = "Customers"
      enum CodingKeys: String, CodingKey {
        case customerID = "CustomerID"
        case companyName = "CompanyName"
        case since = "Since"
      }
    }
    struct Shipper: Model {
      var code: String
      var name: String
      static let primaryKey = ["code"]
      static let tableName = "it's shippers"
    }
    let db = try Connection(path: path)
    try db.execute(
      """
      CREATE TABLE "Order Details" ("OrderID" INTEGER NOT NULL, "ProductID" INTEGER NOT NULL,
        "UnitPrice" NUMERIC NOT NULL DEFAULT 0, "Quantity" INTEGER NOT NULL DEFAULT 1,
        "Discount" REAL NOT NULL DEFAULT 0, PRIMARY KEY ("OrderID", "ProductID"));
      INSERT INTO "Order Details" VALUES (10248, 11, 14, 12, 0), (10248, 42, 9.8, 10, 0.15);
      CREATE TABLE "Customers" ("CustomerID" NCHAR(5) NOT NULL PRIMARY KEY,
        "CompanyName" NVARCHAR(40) NOT NULL, "Since" DATETIME);
      INSERT INTO "Customers" VALUES ('ALFKI', 'Alfreds Futterkiste', '1996-07-04 00:00:00'),
        ('ANATR', 'Ana Trujillo', NULL);
      CREATE TABLE "it's shippers" (code TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
      INSERT INTO "it's shippers" VALUES ('SP', 'Speedy');
      """)
    for table in ["Order Details", "Customers", "it's shippers"] {
      let before = try quoted(db, table)
      switch table {
      case "Order Details":
        for row in try db.findAll(OrderDetail.self) { try db.update(row) }
        for row in try db.findAll(OrderDetail.self) { try db.save(row) }
      case "Customers":
        for row in try db.findAll(Customer.self) { try db.update(row) }
        for row in try db.findAll(Customer.self) { try db.save(row) }
      default:
        for row in try db.findAll(Shipper.self) { try db.update(row) }
        for row in try db.findAll(Shipper.self) { try db.save(row) }
      }
      XCTAssertEqual(try quoted(db, table), before, table)
    }
    XCTAssertEqual(
      try db.find(OrderDetail.self, key: [10248, 42])?.unitPrice, Decimal(string: "9.8"))
    try db.delete(Customer.self, id: "ANATR")
    XCTAssertEqual(try db.count(Customer.self), 1)
  }
}
