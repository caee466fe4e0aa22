import Foundation
import SwiftLite
import XCTest

@testable import SwiftLiteCodeGen

/// The generator's output for `Fixtures/shop.sql` is `GeneratedShop.swift`, compiled into
/// this test target: the golden test diffs a fresh run against it, the others use it.
final class ModelGeneratorTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("CodeGenTests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  private static let fixture = here.appendingPathComponent("Fixtures/shop.sql").path
  private static let golden = here.appendingPathComponent("GeneratedShop.swift").path

  /// A database file made by the fixture script, as another program would have made it.
  private func shop() throws -> Connection {
    let db = try Connection(path: directory.appendingPathComponent("shop.sqlite").path)
    try db.execute(String(contentsOfFile: Self.fixture, encoding: .utf8))
    return db
  }

  func testOutputMatchesTheGoldenFile() throws {
    let generated = try ModelGenerator(path: Self.fixture).source()
    let golden = try String(contentsOfFile: Self.golden, encoding: .utf8)
    let pairs = zip(
      generated.split(separator: "\n", omittingEmptySubsequences: false),
      golden.split(separator: "\n", omittingEmptySubsequences: false))
    if let (line, (new, old)) = pairs.enumerated().first(where: { $0.element.0 != $0.element.1 }) {
      XCTFail(
        "line \(line + 1) differs:\n  generated: \(new)\n  golden:    \(old)\nregenerate with "
          + "`swift run swiftlite-gen Tests/CodeGenTests/Fixtures/shop.sql > Tests/CodeGenTests/GeneratedShop.swift`"
      )
    }
    XCTAssertEqual(generated, golden)
  }

  func testADatabaseFileGivesTheSameSourceAsItsScript() throws {
    _ = try shop()
    let path = directory.appendingPathComponent("shop.sqlite").path
    XCTAssertEqual(
      try ModelGenerator(path: path).source(), try ModelGenerator(path: Self.fixture).source())
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    _ = try ModelGenerator(path: path).source()
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: path)), before, "the generator only reads")
  }

  func testNamedTablesOnlyAndUnknownOnes() throws {
    let source = try ModelGenerator(path: Self.fixture).source(tables: ["CUSTOMER", "tags"])
    XCTAssertTrue(source.contains("struct Customer: Model"))
    XCTAssertTrue(source.contains("struct Tags: Model"))
    XCTAssertFalse(source.contains("struct Types"))
    XCTAssertThrowsError(try ModelGenerator(path: Self.fixture).source(tables: ["nope"])) {
      XCTAssertEqual($0 as? ModelGeneratorError, .noSuchTable("nope"))
    }
    let missing = directory.appendingPathComponent("missing.sqlite").path
    XCTAssertThrowsError(try ModelGenerator(path: missing)) {
      XCTAssertEqual($0 as? ModelGeneratorError, .noSuchFile(missing))
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
  }

  func testSwiftNames() {
    XCTAssertEqual(SwiftName.property("CustomerId", fallback: "x"), "customerId")
    XCTAssertEqual(SwiftName.property("first_name", fallback: "x"), "firstName")
    XCTAssertEqual(SwiftName.property("FIRST NAME", fallback: "x"), "firstName")
    XCTAssertEqual(SwiftName.property("2nd", fallback: "x"), "_2nd")
    XCTAssertEqual(SwiftName.property("!!!", fallback: "column3"), "column3")
    XCTAssertEqual(SwiftName.property("ünïcode", fallback: "x"), "unicode")
    XCTAssertEqual(SwiftName.property("日本", fallback: "column1"), "column1")
    XCTAssertEqual(SwiftName.type("order line", fallback: "x"), "OrderLine")
    XCTAssertEqual(SwiftName.escaped("class"), "`class`")
    XCTAssertEqual(SwiftName.escaped("name"), "name")
    XCTAssertEqual(SwiftName.literal("say \"hi\"\\\n\u{1}"), #""say \"hi\"\\\n\u{1}""#)
  }

  func testSwiftTypesFollowTheAffinityRules() {
    let expected: [(String, Bool, String)] = [
      ("INTEGER", false, "Int64"), ("BIGINT", false, "Int64"), ("FLOATING POINT", false, "Int64"),
      ("NVARCHAR(40)", false, "String"), ("CLOB", false, "String"), ("TEXT", false, "String"),
      ("BLOB", false, "Data"), ("", false, "Data"), ("REAL", false, "Double"),
      ("DOUBLE PRECISION", false, "Double"), ("FLOAT", false, "Double"),
      ("NUMERIC(10,2)", false, "Decimal"), ("DECIMAL", false, "Decimal"),
      ("STRING", false, "Decimal"), ("BOOLEAN", false, "Bool"), ("DATETIME", false, "Date"),
      ("DATE", false, "Date"), ("TIMESTAMP", false, "Date"), ("DATE_TEXT", false, "Date"),
      ("ANY", true, "Data"), ("INT", true, "Int64"),
    ]
    for (declared, strict, type) in expected {
      XCTAssertEqual(
        GeneratedProperty.swiftType(declaredType: declared, strict: strict), type, declared)
    }
  }

  func testGeneratedModelsRoundTripRows() throws {
    let db = try shop()
    let created = Date(timeIntervalSince1970: 1_700_000_000.25)
    var ann = Customer(
      customerId: nil, firstName: "Ann", email: nil, createdAt: created, balance: Decimal(12.5),
      active: true, photo: Data([0, 1, 255]), extra: Data("x".utf8))
    ann.customerId = try db.insert(ann)
    XCTAssertEqual(ann.customerId, 1)
    XCTAssertEqual(try db.find(Customer.self, id: 1), ann)
    XCTAssertEqual(
      try db.query("SELECT CustomerId, FirstName, Email, CreatedAt, Balance, Active FROM Customer")[
        0
      ]
      .values,
      [1, "Ann", nil, "2023-11-14 22:13:20.250", 12.5, 1])

    let lines = [
      OrderLine(orderId: 1, line: 1, class: "a", quantity: .max, unitPrice: 0.5, discount: nil),
      OrderLine(orderId: 1, line: 2, class: "", quantity: .min, unitPrice: -1e300, discount: 0),
    ]
    try db.save(lines)
    var changed = lines[1]
    changed.discount = 0.25
    try db.update(changed)
    XCTAssertEqual(try db.findAll(OrderLine.self, orderBy: "\"line#\""), [lines[0], changed])
    XCTAssertEqual(try db.find(OrderLine.self, key: [1, 2]), changed)

    let hostile = SelfRecord(
      type: "t", self2: "s", firstName: "a", firstName2: "b", firstName22: "c", _2nd: 2,
      column7: "!", sayHi: "\"", backSlash: "\\", init2: "i", default: 7, unicode: "ü")
    try db.save(hostile)
    XCTAssertEqual(try db.findAll(SelfRecord.self), [hostile])
    XCTAssertEqual(
      try db.query("SELECT \"say \"\"hi\"\"\", \"2nd\", \"default\" FROM \"Self\"")[0].values,
      ["\"", 2, 7])

    let empty = Types(
      id: nil, aInt: nil, aInteger: nil, aTinyint: nil, aSmallint: nil, aMediumint: nil,
      aBigint: nil, aUnsignedBigInt: nil, aInt2: nil, aInt8: nil, aCharacter: nil, aVarchar: nil,
      aVaryingCharacter: nil, aNchar: nil, aNativeCharacter: nil, aNvarchar: nil, aText: nil,
      aClob: nil, aBlob: nil, aNone: nil, aReal: nil, aDouble: nil, aDoublePrecision: nil,
      aFloat: nil, aNumeric: nil, aDecimal: nil, aBoolean: nil, aDate: nil, aDatetime: nil,
      aFloatingPoint: nil, aTimestamp: nil, aDateText: nil, aString: nil)
    var full = empty
    (full.aInt, full.aBigint, full.aFloatingPoint) = (.min, .max, 3)
    (full.aVarchar, full.aClob, full.aBlob, full.aNone) = ("v", "", Data(), Data([0]))
    (full.aReal, full.aFloat, full.aNumeric, full.aDecimal) = (-0.5, 1e-300, 42, Decimal(0.125))
    (full.aBoolean, full.aDate, full.aTimestamp) = (false, created, created)
    try db.insert(empty)
    try db.insert(full)
    let read = try db.findAll(Types.self, orderBy: "id")
    full.id = 2
    var stored = empty
    stored.id = 1
    XCTAssertEqual(read, [stored, full])

    try db.save(StrictThings(id: 1, payload: Data([9]), amount: 1.5))
    try db.save(Tags(label: "red", color: nil))
    try db.save(Tags(label: "red", color: "#f00"))
    XCTAssertEqual(try db.findAll(StrictThings.self).first?.payload, Data([9]))
    XCTAssertEqual(try db.findAll(Tags.self), [Tags(label: "red", color: "#f00")])
    // Mapped tables: nothing of SwiftLite's was created.
    XCTAssertFalse(try SchemaInspector(db).tableExists("swiftlite_schema"))
  }
}

extension ModelGeneratorTests {
  /// A table named like a protocol the struct conforms to gets another type name.
  func testTableNamesThatAreProtocolNamesGetAnotherTypeName() throws {
    let source = try ModelGenerator(
      script:
        "CREATE TABLE Sendable (id INTEGER PRIMARY KEY); CREATE TABLE equatable (id INTEGER PRIMARY KEY);"
    ).source()
    XCTAssertFalse(source.contains("struct Sendable:"), source)
    XCTAssertFalse(source.contains("struct Equatable:"), source)
    XCTAssertTrue(source.contains("struct SendableRecord:"), source)
  }
}

extension ModelGeneratorTests {
  /// The foreign keys the generator declares give working associations both ways, two
  /// keys to one parent told apart by `using:`, and `Columns` names the columns.
  func testGeneratedForeignKeysGiveAssociationsAndColumns() throws {
    let db = try shop()
    try db.execute("PRAGMA foreign_keys = ON")
    let ann = Customer(
      customerId: 1, firstName: "Ann", email: nil, createdAt: Date(timeIntervalSince1970: 0),
      balance: nil, active: true, photo: nil, extra: nil)
    let bob = Customer(
      customerId: 2, firstName: "Bob", email: nil, createdAt: Date(timeIntervalSince1970: 0),
      balance: nil, active: true, photo: nil, extra: nil)
    try db.save([ann, bob])
    let first = Bill(id: 10, customerId: 1, billedTo: 2, corrects: nil, total: 5)
    let second = Bill(id: 11, customerId: 1, billedTo: nil, corrects: 10, total: 20)
    try db.save([first, second])
    try db.save(BillLine(billId: 10, position: 1, label: "tea"))

    XCTAssertEqual(
      try Customer.customerBills.query(of: ann).order(Bill.Columns.id).fetchAll(db)
        .map(\.id), [10, 11])
    XCTAssertEqual(try Customer.billedToBills.query(of: bob).fetchAll(db).map(\.id), [10])
    XCTAssertEqual(try Bill.customer.query(of: second).fetchOne(db)?.firstName, "Ann")
    XCTAssertEqual(try Bill.billedToCustomer.query(of: first).fetchOne(db)?.firstName, "Bob")
    XCTAssertEqual(
      try BillLine.bill.query(
        of: BillLine(
          billId: 10, position: 1, label: "tea")
      ).fetchOne(db)?.total, 5)
    XCTAssertEqual(try Bill.billLines.query(of: first).fetchAll(db).map(\.label), ["tea"])
    XCTAssertEqual(
      try Bill.all().filter(Bill.Columns.total > 10).fetchAll(db).map(\.id), [11])
    // A key to its own table: both directions.
    XCTAssertEqual(try Bill.correctsBill.query(of: second).fetchOne(db)?.id, 10)
    XCTAssertEqual(try Bill.correctsBills.query(of: first).fetchAll(db).map(\.id), [11])
    XCTAssertEqual(Bill.foreignKeys.count, 3)
    // The declared actions are the table's: deleting Ann cascades to her bills.
    try db.delete(ann)
    XCTAssertEqual(try db.count(Bill.self), 0)
  }
  func testADateFormatIsDeclaredOnlyWhenEveryValueIsInIt() throws {
    let source = try ModelGenerator(
      script: """
        CREATE TABLE ev(id INTEGER PRIMARY KEY, day DATETIME, mixed DATETIME, other DATETIME);
        INSERT INTO ev VALUES (1, '2021-01-02', '2021-01-02', '2021-01-02T10:11:12'),
          (2, '2021-01-03', '2021-01-02 10:11:12', '2021-01-03T10:11:12');
        """
    ).source()
    XCTAssertTrue(source.contains(#""day": [.dateFormat(.date)]"#), source)
    // Several formats, or a form of none: the model writes the form it finds, losing nothing.
    XCTAssertFalse(source.contains(#""mixed": [.dateFormat"#), source)
    XCTAssertFalse(source.contains(#""other": [.dateFormat"#), source)
  }
}
