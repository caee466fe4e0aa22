import Foundation
import SwiftLite
import XCTest

/// Every scalar type of the explicit mapping, plain and optional, mapped by hand.
private struct FastRecord: Model, RowMapped, Equatable {
  var id: Int64
  var int: Int
  var int8: Int8
  var int32: Int32
  var uint64: UInt64
  var bool: Bool
  var double: Double
  var float: Float
  var string: String
  var data: Data
  var bytes: [UInt8]
  var date: Date
  var uuid: UUID
  var url: URL
  var decimal: Decimal
  var mood: ModelMood
  var level: ModelLevel
  var count: Int?
  var note: String?
  var score: Double?
  var payload: Data?
  var due: Date?
  var maybeMood: ModelMood?

  static let tableName = "record"
  static let primaryKey = ["id"]
  static let mappedColumns = [
    "id", "int", "int8", "int32", "uint64", "bool", "double", "float", "string", "data", "bytes",
    "date", "uuid", "url", "decimal", "mood", "level", "count", "note", "score", "payload", "due",
    "maybeMood",
  ]

  init(
    id: Int64, int: Int, int8: Int8, int32: Int32, uint64: UInt64, bool: Bool, double: Double,
    float: Float, string: String, data: Data, bytes: [UInt8], date: Date, uuid: UUID, url: URL,
    decimal: Decimal, mood: ModelMood, level: ModelLevel, count: Int?, note: String?,
    score: Double?, payload: Data?, due: Date?, maybeMood: ModelMood?
  ) {
    (self.id, self.int, self.int8, self.int32, self.uint64) = (id, int, int8, int32, uint64)
    (self.bool, self.double, self.float, self.string) = (bool, double, float, string)
    (self.data, self.bytes, self.date, self.uuid, self.url) = (data, bytes, date, uuid, url)
    (self.decimal, self.mood, self.level, self.count) = (decimal, mood, level, count)
    (self.note, self.score, self.payload, self.due) = (note, score, payload, due)
    self.maybeMood = maybeMood
  }

  init(row: MappedRow) throws {
    id = try row.get(0)
    int = try row.get(1)
    int8 = try row.get(2)
    int32 = try row.get(3)
    uint64 = try row.get(4)
    bool = try row.get(5)
    double = try row.get(6)
    float = try row.get(7)
    string = try row.get(8)
    data = try row.get(9)
    bytes = try row.get(10)
    date = try row.get(11)
    uuid = try row.get(12)
    url = try row.get(13)
    decimal = try row.get(14)
    mood = try row.get(15)
    level = try row.get(16)
    count = try row.get(17)
    note = try row.get(18)
    score = try row.get(19)
    payload = try row.get(20)
    due = try row.get(21)
    maybeMood = try row.get(22)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(int, at: 1)
    try row.set(int8, at: 2)
    try row.set(int32, at: 3)
    try row.set(uint64, at: 4)
    try row.set(bool, at: 5)
    try row.set(double, at: 6)
    try row.set(float, at: 7)
    try row.set(string, at: 8)
    try row.set(data, at: 9)
    try row.set(bytes, at: 10)
    try row.set(date, at: 11)
    try row.set(uuid, at: 12)
    try row.set(url, at: 13)
    try row.set(decimal, at: 14)
    try row.set(mood, at: 15)
    try row.set(level, at: 16)
    try row.set(count, at: 17)
    try row.set(note, at: 18)
    try row.set(score, at: 19)
    try row.set(payload, at: 20)
    try row.set(due, at: 21)
    try row.set(maybeMood, at: 22)
  }
}

/// The same model through `Codable`, on the same table.
private struct CodableRecord: Model, Equatable {
  var id: Int64
  var int: Int
  var int8: Int8
  var int32: Int32
  var uint64: UInt64
  var bool: Bool
  var double: Double
  var float: Float
  var string: String
  var data: Data
  var bytes: [UInt8]
  var date: Date
  var uuid: UUID
  var url: URL
  var decimal: Decimal
  var mood: ModelMood
  var level: ModelLevel
  var count: Int?
  var note: String?
  var score: Double?
  var payload: Data?
  var due: Date?
  var maybeMood: ModelMood?

  static let tableName = "record"
  static let primaryKey = ["id"]

  init(_ r: FastRecord) {
    (id, int, int8, int32, uint64) = (r.id, r.int, r.int8, r.int32, r.uint64)
    (bool, double, float, string) = (r.bool, r.double, r.float, r.string)
    (data, bytes, date, uuid, url) = (r.data, r.bytes, r.date, r.uuid, r.url)
    (decimal, mood, level, count) = (r.decimal, r.mood, r.level, r.count)
    (note, score, payload, due, maybeMood) = (r.note, r.score, r.payload, r.due, r.maybeMood)
  }
}

/// A model whose mapping leaves out a stored property.
private struct IncompleteMapping: Model, RowMapped {
  var id: Int64
  var name: String
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "nmae"]
  init(id: Int64, name: String) { (self.id, self.name) = (id, name) }
  init(row: MappedRow) throws {
    id = try row.get(0)
    name = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(name, at: 1)
  }
}

/// A model whose mapping writes its note only when it is not empty, and may throw midway.
private struct SkippingWriter: Model, RowMapped, Equatable {
  var id: Int
  var note: String?
  var score: Double
  var fail = false
  static let primaryKey = ["id"]
  static let ignoredProperties: Set<String> = ["fail"]
  static let mappedColumns = ["id", "note", "score"]
  init(id: Int, note: String?, score: Double, fail: Bool = false) {
    (self.id, self.note, self.score, self.fail) = (id, note, score, fail)
  }
  init(row: MappedRow) throws {
    id = try row.get(0)
    note = try row.get(1)
    score = try row.get(2)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    if fail { throw TestError(id: id) }
    if let note, !note.isEmpty { try row.set(note, at: 1) }
    try row.set(score, at: 2)
  }
}

/// Mapped onto a table another program made, whose columns are spelled differently.
private struct FastCustomer: Model, RowMapped, Equatable {
  var customerId: Int64
  var firstName: String
  var fax: String?
  static let tableName = "Customer"
  static let primaryKey = ["customerId"]
  static let schemaPolicy = SchemaPolicy.mapped
  static let mappedColumns = ["customerId", "firstName", "fax"]
  init(customerId: Int64, firstName: String, fax: String?) {
    (self.customerId, self.firstName, self.fax) = (customerId, firstName, fax)
  }
  init(row: MappedRow) throws {
    customerId = try row.get(0)
    firstName = try row.get(1)
    fax = try row.get(2)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(customerId, at: 0)
    try row.set(firstName, at: 1)
    try row.set(fax, at: 2)
  }
}

private struct CodableCustomer: Model, Equatable {
  var customerId: Int64
  var firstName: String
  var fax: String?
  static let tableName = "Customer"
  static let primaryKey = ["customerId"]
  static let schemaPolicy = SchemaPolicy.mapped
}

/// Version 2 of a model whose `kind` column changed from `String` to an enum.
private struct FastKind: Model, RowMapped {
  var id: Int64
  var kind: ModelMood
  static let tableName = "kinds"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "kind"]
  init(row: MappedRow) throws {
    id = try row.get(0)
    kind = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(kind, at: 1)
  }
}

private struct CodableKind: Model {
  var id: Int64
  var kind: ModelMood
  static let tableName = "kinds"
  static let primaryKey = ["id"]
}

private struct KindV1: Model {
  var id: Int64
  var kind: String
  static let tableName = "kinds"
  static let primaryKey = ["id"]
}

private let posix = Locale(identifier: "en_US_POSIX")

private let extremes = FastRecord(
  id: 1, int: .max, int8: .min, int32: .min, uint64: UInt64(Int64.max), bool: true,
  double: .greatestFiniteMagnitude, float: -.greatestFiniteMagnitude, string: "",
  data: Data(), bytes: [], date: Date(timeIntervalSince1970: 1_700_000_000.5), uuid: UUID(),
  url: URL(string: "https://example.com/a%20b?q=1&r=%C3%A9#frag")!,
  decimal: Decimal(string: "-12345678901234567890.123456789", locale: posix)!, mood: .grumpy,
  level: .high, count: .min, note: "", score: -0.0, payload: Data(),
  due: Date(timeIntervalSince1970: -62_135_596_800),
  maybeMood: .happy)

private let others = FastRecord(
  id: Int64.min, int: .min, int8: .max, int32: .max, uint64: 0, bool: false,
  double: -.infinity, float: .leastNonzeroMagnitude,
  string: "héllo 👋\u{0} nul \"q\" 'a' \n", data: Data([0, 255, 0]), bytes: [0, 1, 255],
  date: Date(timeIntervalSince1970: -1_000_000.25), uuid: UUID(),
  url: URL(string: "file:///tmp/a%20b")!,
  decimal: Decimal(string: "0.000000000000000001", locale: posix)!, mood: .happy, level: .low,
  count: .max, note: "x\u{0}y", score: .infinity, payload: Data([1]),
  due: Date(timeIntervalSince1970: 253_402_300_799.999),
  maybeMood: nil)

private let nulls = FastRecord(
  id: Int64.max, int: 0, int8: 0, int32: 0, uint64: 0, bool: false, double: 0, float: 0,
  string: "a", data: Data([7]), bytes: [7], date: Date(timeIntervalSince1970: 0), uuid: UUID(),
  url: URL(string: "x:y")!, decimal: 0, mood: .happy, level: .low, count: nil, note: nil,
  score: nil, payload: nil, due: nil, maybeMood: nil)

private let samples = [extremes, others, nulls]

final class RowMappedTests: SQLiteTestCase {
  func testWritesTheSameRowsAsCodable() throws {
    for sample in samples { try db.insert(sample) }
    let codable = try Connection(path: path("codable.sqlite"))
    for sample in samples { try codable.insert(CodableRecord(sample)) }
    XCTAssertEqual(try db.dump("record"), try codable.dump("record"))
    XCTAssertEqual(try db.snapshot(), try codable.snapshot())
  }

  func testReadsTheSameModelsAsCodable() throws {
    for sample in samples { try db.insert(CodableRecord(sample)) }
    let fast = try db.findAll(FastRecord.self, orderBy: "id")
    let slow = try db.findAll(CodableRecord.self, orderBy: "id")
    XCTAssertEqual(fast.map(CodableRecord.init), slow)
    XCTAssertEqual(fast, [others, extremes, nulls])
    XCTAssertEqual(try db.find(FastRecord.self, id: Int64.max), nulls)
    XCTAssertEqual(try db.find(FastRecord.self, key: [.integer(1)]), extremes)
    XCTAssertNil(try db.find(FastRecord.self, id: 5))
    XCTAssertEqual(try db.findAll(FastRecord.self, where: "count IS NULL"), [nulls])
    XCTAssertEqual(try db.findAll(FastRecord.self, where: "id > ?", [0], limit: 1), [extremes])
  }

  func testUpdatesSavesAndDeletesThroughTheMapping() throws {
    try db.save(samples)
    var changed = others
    changed.note = nil
    changed.string = "changed"
    try db.update(changed)
    try db.save(changed)
    XCTAssertEqual(try db.find(CodableRecord.self, id: others.id), CodableRecord(changed))
    var missing = nulls
    missing.id = 42
    guard
      case .notFound(let table, let key)? = thrownError(ModelError.self, { try db.update(missing) })
    else { return }
    XCTAssertEqual(table, "record")
    XCTAssertEqual(key, [.integer(42)])
    try db.delete(changed)
    guard case .notFound = thrownError(ModelError.self, { try db.delete(changed) }) else {
      return XCTFail("expected notFound")
    }
    XCTAssertEqual(try db.count(FastRecord.self), 2)
  }

  func testRepositoryUsesTheMapping() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    let records = try Repository<FastRecord>(queue)
    try records.create(extremes)
    try records.save([others, nulls])
    XCTAssertEqual(try records.findById(others.id), others)
    XCTAssertEqual(try records.findAll(orderBy: "id"), [others, extremes, nulls])
    try records.remove(nulls.id)
    XCTAssertEqual(try records.count(), 2)
  }

  func testNullInANonOptionalColumnFailsAsCodableDoes() throws {
    try db.execute("CREATE TABLE kinds (id INTEGER PRIMARY KEY, kind TEXT)")
    try db.execute("INSERT INTO kinds VALUES (1, NULL)")
    try assertSameReadError(FastKind.self, CodableKind.self, column: "kind")
  }

  func testAnotherStorageClassFailsAsCodableDoes() throws {
    try db.execute("CREATE TABLE kinds (id INTEGER PRIMARY KEY, kind)")
    try db.execute("INSERT INTO kinds VALUES (1, 2.5)")
    try assertSameReadError(FastKind.self, CodableKind.self, column: "kind")
    try db.execute("UPDATE kinds SET kind = 'sleepy'")
    try assertSameReadError(FastKind.self, CodableKind.self, column: "kind")
  }

  func testAnOutOfRangeIntegerFailsAsCodableDoes() throws {
    try db.insert(CodableRecord(extremes))
    try db.execute("UPDATE record SET int8 = 300, uint64 = -1")
    try assertSameReadError(FastRecord.self, CodableRecord.self, column: "int8")
    try db.execute("UPDATE record SET int8 = 3")
    try assertSameReadError(FastRecord.self, CodableRecord.self, column: "uint64")
  }

  func testUnstorableValuesFailAsCodableDoes() throws {
    var nan = nulls
    nan.double = .nan
    let fast = thrownError(EncodingError.self) { try db.insert(nan) }
    let slow = thrownError(EncodingError.self) { try db.insert(CodableRecord(nan)) }
    XCTAssertEqual(fast.map(describe), slow.map(describe))
    XCTAssertEqual(fast.flatMap(context)?.codingPath.map(\.stringValue), ["double"])
    var big = nulls
    big.uint64 = .max
    let fastBig = thrownError(EncodingError.self) { try db.insert(big) }
    let slowBig = thrownError(EncodingError.self) { try db.insert(CodableRecord(big)) }
    XCTAssertEqual(fastBig.map(describe), slowBig.map(describe))
    XCTAssertEqual(fastBig.flatMap(context)?.codingPath.map(\.stringValue), ["uint64"])
    var ancient = nulls
    ancient.due = .distantPast
    let fastDate = thrownError(EncodingError.self) { try db.insert(ancient) }
    let slowDate = thrownError(EncodingError.self) { try db.insert(CodableRecord(ancient)) }
    XCTAssertEqual(fastDate.map(describe), slowDate.map(describe))
    XCTAssertEqual(fastDate.flatMap(context)?.codingPath.map(\.stringValue), ["due"])
    XCTAssertEqual(try db.count(FastRecord.self), 0)
  }

  func testAPositionTheMappingLeavesUnwrittenIsNullNotThePreviousValue() throws {
    try db.insert(SkippingWriter(id: 1, note: "kept", score: 1.5))
    try db.insert(SkippingWriter(id: 2, note: "", score: -2))
    XCTAssertThrowsError(try db.insert(SkippingWriter(id: 3, note: "lost", score: 3, fail: true)))
    try db.insert(SkippingWriter(id: 4, note: nil, score: 4))
    try db.save(SkippingWriter(id: 5, note: "saved", score: 5))
    try db.save(SkippingWriter(id: 5, note: "", score: 6))
    let rows = try db.query("SELECT id, note, score FROM SkippingWriter ORDER BY id")
    XCTAssertEqual(
      try rows.map { try $0.values },
      [
        [1, "kept", 1.5], [2, .null, -2.0], [4, .null, 4.0], [5, .null, 6.0],
      ])
    XCTAssertEqual(
      try db.findAll(SkippingWriter.self, orderBy: "id").map(\.note), ["kept", nil, nil, nil])
    // A NaN still fails through the mapping, naming its column.
    let nan = thrownError(EncodingError.self) {
      try db.insert(SkippingWriter(id: 6, note: "x", score: .nan))
    }
    XCTAssertEqual(nan.flatMap(context)?.codingPath.map(\.stringValue), ["score"])
    XCTAssertEqual(try db.count(SkippingWriter.self), 4)
  }

  func testAMappingThatMissesAPropertyIsRefused() throws {
    guard
      case .invalidDeclaration(let model, let reason)? = thrownError(
        ModelError.self, { try db.save(IncompleteMapping(id: 1, name: "a")) })
    else { return }
    XCTAssertEqual(model, "IncompleteMapping")
    XCTAssertTrue(reason.contains("'nmae' is not a stored property"), reason)
    XCTAssertTrue(reason.contains("missing: name"), reason)
    XCTAssertFalse(try SchemaInspector(db).tableExists("IncompleteMapping"))
  }

  func testMapsAnExistingTableAsCodableDoes() throws {
    try db.execute(
      """
      CREATE TABLE [Customer] ([CustomerId] INTEGER NOT NULL, [FirstName] NVARCHAR(40) NOT NULL,
        [Fax] NVARCHAR(24), [Country] TEXT NOT NULL DEFAULT 'USA',
        CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]))
      """)
    let before = try db.storedSQL("Customer")
    try db.insert(FastCustomer(customerId: 1, firstName: "Ann", fax: nil))
    try db.save(FastCustomer(customerId: 2, firstName: "Bob", fax: "555"))
    try db.save(FastCustomer(customerId: 2, firstName: "Bo", fax: "556"))
    XCTAssertEqual(
      try db.findAll(FastCustomer.self, orderBy: "CustomerId").map {
        CodableCustomer(customerId: $0.customerId, firstName: $0.firstName, fax: $0.fax)
      },
      try db.findAll(CodableCustomer.self, orderBy: "CustomerId"))
    XCTAssertEqual(try db.find(FastCustomer.self, id: 2)?.firstName, "Bo")
    XCTAssertEqual(
      try db.dump("Customer"),
      ["INTEGER:1|TEXT:'Ann'|NULL:NULL|TEXT:'USA'", "INTEGER:2|TEXT:'Bo'|TEXT:'556'|TEXT:'USA'"])
    XCTAssertEqual(try db.storedSQL("Customer"), before)
    XCTAssertFalse(try SchemaInspector(db).tableExists("swiftlite_schema"))
  }

  func testMigrationChecksRowsThroughTheMapping() throws {
    try db.save(KindV1(id: 1, kind: "happy"))
    try db.save(KindV1(id: 2, kind: "sleepy"))
    let snapshot = try db.snapshot()
    let fast = thrownError(MigrationError.self) { try db.migrate(FastKind.self) }
    let slow = thrownError(MigrationError.self) { try db.migrate(CodableKind.self) }
    XCTAssertEqual(fast.map { "\($0)" }, slow.map { "\($0)" })
    guard case .valuesDoNotDecode(let table, let column, _)? = fast else {
      return XCTFail("expected valuesDoNotDecode, got \(String(describing: fast))")
    }
    XCTAssertEqual(table, "kinds")
    XCTAssertEqual(column, "kind")
    XCTAssertEqual(try db.snapshot(), snapshot)
    try db.run("UPDATE kinds SET kind = 'grumpy' WHERE id = 2")
    try db.migrate(FastKind.self)
    XCTAssertEqual(try db.findAll(FastKind.self, orderBy: "id").map(\.kind), [.happy, .grumpy])
  }

  /// Reading every row as `Fast` and as `Slow` fails with the same error, naming `column`.
  private func assertSameReadError<Fast: Model, Slow: Model>(
    _ fast: Fast.Type, _ slow: Slow.Type, column: String, line: UInt = #line
  ) throws {
    let fastError = thrownError(DecodingError.self, line: line) { _ = try db.findAll(fast) }
    let slowError = thrownError(DecodingError.self, line: line) { _ = try db.findAll(slow) }
    XCTAssertEqual(fastError.map(describe), slowError.map(describe), line: line)
    XCTAssertEqual(
      fastError.flatMap(context)?.codingPath.map(\.stringValue), [column], line: line)
    let fastFind = thrownError(DecodingError.self, line: line) { _ = try db.find(fast, id: 1) }
    XCTAssertEqual(fastFind.map(describe), slowError.map(describe), line: line)
  }
}

/// An error's case, coding path and message, for comparing two errors.
private func describe(_ error: DecodingError) -> String {
  let kind: String
  switch error {
  case .keyNotFound: kind = "keyNotFound"
  case .valueNotFound(let type, _): kind = "valueNotFound \(type)"
  case .typeMismatch(let type, _): kind = "typeMismatch \(type)"
  case .dataCorrupted: kind = "dataCorrupted"
  @unknown default: kind = "unknown"
  }
  let context = context(error)
  return kind + " " + (context?.codingPath.map(\.stringValue).joined(separator: ".") ?? "")
    + ": " + (context?.debugDescription ?? "")
}

private func context(_ error: DecodingError) -> DecodingError.Context? {
  switch error {
  case .keyNotFound(_, let context), .valueNotFound(_, let context),
    .typeMismatch(_, let context), .dataCorrupted(let context):
    return context
  @unknown default: return nil
  }
}

private func describe(_ error: EncodingError) -> String {
  guard case .invalidValue(let value, let context) = error else { return "\(error)" }
  return "invalidValue \(value) "
    + context.codingPath.map(\.stringValue).joined(separator: ".") + ": "
    + context.debugDescription
}

private func context(_ error: EncodingError) -> EncodingError.Context? {
  guard case .invalidValue(_, let context) = error else { return nil }
  return context
}

/// A model whose `write(to:)` has a typo: position 2 of a two-column mapping.
private struct TypoKind: Model, RowMapped {
  var id: Int64
  var note: String?
  static let tableName = "typos"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "note"]
  init(id: Int64, note: String?) {
    self.id = id
    self.note = note
  }
  init(row: MappedRow) throws {
    id = try row.get(0)
    note = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(note, at: 2)
  }
}

extension RowMappedTests {
  func testAWritePastTheMappedColumnsThrowsInsteadOfLosingTheValue() throws {
    XCTAssertThrowsError(try db.save(TypoKind(id: 1, note: "kept?"))) {
      XCTAssertTrue($0 is EncodingError, "\($0)")
    }
    XCTAssertEqual(try db.count(TypoKind.self), 0)
  }
}

/// A model whose `init(row:)` has a typo: it reads position 2 of a two-column mapping.
private struct ReadPastKind: Model, RowMapped {
  var id: Int64
  var note: String?
  static let tableName = "read_past"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "note"]
  init(id: Int64, note: String?) {
    self.id = id
    self.note = note
  }
  init(row: MappedRow) throws {
    id = try row.get(0)
    note = try row.get(2)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(note, at: 1)
  }
}

extension RowMappedTests {
  /// Positions read the column of their own number when the result has the mapped columns
  /// in order, and through the map otherwise: a position past the mapping is the same
  /// error either way, naming the position and the result's columns.
  func testAReadPastTheMappedColumnsThrowsKeyNotFoundWhateverTheColumnOrder() throws {
    try db.save(ReadPastKind(id: 1, note: "n"))
    let inOrder = thrownError(DecodingError.self) { _ = try db.findAll(ReadPastKind.self) }
    let lookedUp = thrownError(DecodingError.self) { _ = try db.find(ReadPastKind.self, id: 1) }
    let reordered = thrownError(DecodingError.self) {
      _ = try db.fetchAll(ReadPastKind.self, "SELECT note, id FROM read_past")
    }
    for (error, columns) in [
      (inOrder, "id, note"), (lookedUp, "id, note"), (reordered, "note, id"),
    ] {
      guard case .keyNotFound(let key, let context) = error else {
        XCTFail("expected keyNotFound, got \(String(describing: error))")
        continue
      }
      XCTAssertEqual(key.stringValue, "2")
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["2"])
      XCTAssertTrue(
        context.debugDescription.contains("no column named '2' (columns: \(columns))"),
        context.debugDescription)
    }
  }

  /// A result whose columns are not in the mapping's order reads each position from the
  /// column of its name.
  func testReadsAResultWhoseColumnsAreInAnotherOrder() throws {
    try db.save(ReorderedKind.rows)
    let read = try db.fetchAll(
      ReorderedKind.self, "SELECT note, 7 AS extra, id FROM \(raw: ReorderedKind.tableName)")
    XCTAssertEqual(read.map(\.id), [1, 2])
    XCTAssertEqual(read.map(\.note), ["a", nil])
  }
}

/// A two-column model read back in any column order.
private struct ReorderedKind: Model, RowMapped {
  var id: Int64
  var note: String?
  static let tableName = "reordered"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "note"]
  static let rows = [ReorderedKind(id: 1, note: "a"), ReorderedKind(id: 2, note: nil)]
  init(id: Int64, note: String?) {
    self.id = id
    self.note = note
  }
  init(row: MappedRow) throws {
    id = try row.get(0)
    note = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(note, at: 1)
  }
}
