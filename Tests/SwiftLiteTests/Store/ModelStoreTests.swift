import Dispatch
import Foundation
import SwiftLite
import Synchronization
import XCTest

private struct Person: Model, Equatable {
  var id: Int64?
  var name: String
  var age: Int
  var email: String?
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["email": [.unique]]
}

private struct Ticket: Model, Equatable {
  var id: Int64?
  var title: String
  static let primaryKey = ["id"]
  static let autoIncrement = true
}

private struct Enrollment: Model, Equatable {
  var studentID: String
  var courseID: Int
  var grade: Double?
  static let primaryKey = ["studentID", "courseID"]
}

/// Every column is part of the key.
private struct Pair: Model, Equatable {
  var left: String
  var right: Int
  static let primaryKey = ["left", "right"]
}

private struct Message: Model, Equatable {
  var id: Int64?
  var text: String
  var sentAt: Date
  static let primaryKey = ["id"]
}

private struct Note: Model, Equatable {
  var id: String
  var body: String
  var cache: Int
  var tags: [String]
  var mood: ModelMood
  var due: Date?
  static let primaryKey = ["id"]
  static let ignoredProperties: Set<String> = ["cache"]
}

private let firstDate = Date(timeIntervalSince1970: 1_700_000_000.5)
private let secondDate = Date(timeIntervalSince1970: -1_000_000.25)

private let maximal = AllTypes(
  id: 1, int: .max, int8: .min, int16: .max, int32: .min, int64: .min, uint: UInt(Int64.max),
  uint8: .max, uint16: .max, uint32: .max, uint64: UInt64(Int64.max),
  double: .greatestFiniteMagnitude,
  float: -.greatestFiniteMagnitude, bool: true, string: "", data: Data(), bytes: [],
  date: firstDate,
  uuid: UUID(), url: URL(string: "https://example.com/a%20b?q=1&r=%C3%A9#frag")!,
  decimal: Decimal(
    string: "-12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX"))!,
  mood: .grumpy, level: .high, address: ModelAddress(city: "", zip: nil, lines: []), tags: [],
  numbers: [], scores: [:], history: [])

private let minimal = AllTypes(
  id: Int64.max, int: .min, int8: .max, int16: .min, int32: .max, int64: .max, uint: 0,
  uint8: 0, uint16: 0, uint32: 0, uint64: 0, double: -.infinity, float: .leastNonzeroMagnitude,
  bool: false, string: "héllo 👋\u{0} nul \"q\" 'a' \n", data: Data([0, 255, 0]),
  bytes: [0, 1, 255], date: secondDate, uuid: UUID(), url: URL(string: "file:///tmp/a%20b")!,
  decimal: Decimal(string: "0.000000000000000001", locale: Locale(identifier: "en_US_POSIX"))!,
  mood: .happy, level: .low,
  address: ModelAddress(city: "Oslo \"N\"", zip: "0150", lines: ["a", "", "c"]),
  tags: ["", "x,y", "\"q\"", "ü"], numbers: [1, -2, .max, .min], scores: ["a": 1, "ü": -1, "": 0],
  history: [
    ModelAddress(city: "Rome", zip: nil, lines: []),
    ModelAddress(city: "Lima", zip: "1", lines: ["x"]),
  ])

final class ModelStoreTests: ModelTestCase {
  // MARK: Round trips

  func testEveryTypeRoundTrips() throws {
    let db = try open()
    try db.insert(maximal)
    try db.insert(minimal)
    XCTAssertEqual(try db.find(AllTypes.self, id: 1), maximal)
    XCTAssertEqual(try db.find(AllTypes.self, id: Int64.max), minimal)
    XCTAssertEqual(try db.findAll(AllTypes.self, orderBy: "id"), [maximal, minimal])

    // On a new connection too.
    let again = try open()
    XCTAssertEqual(try again.findAll(AllTypes.self, orderBy: "id"), [maximal, minimal])

    // What is stored: the explicit classes, nothing empty turned into NULL, JSON text.
    let row = try XCTUnwrap(
      db.queryFirst(
        """
        SELECT typeof(int64), typeof(uint64), typeof(double), typeof(float), typeof(bool),
          typeof(string), typeof(data), typeof(bytes), typeof(date), typeof(uuid), typeof(url),
          typeof(decimal), typeof(mood), typeof(level), typeof(address), typeof(tags),
          length(data), length(string), date, mood, level, bool, decimal,
          json_valid(address), json_extract(address, '$.city'), json_array_length(tags), uuid
        FROM AllTypes WHERE id = 1
        """))
    XCTAssertEqual(
      try (0..<16).map { try row.get(String.self, at: $0) },
      [
        "integer", "integer", "real", "real", "integer", "text", "blob", "blob", "text", "text",
        "text", "text", "text", "integer", "text", "text",
      ])
    XCTAssertEqual(try row.get(Int.self, at: 16), 0)
    XCTAssertEqual(try row.get(Int.self, at: 17), 0)
    XCTAssertEqual(try row.get(String.self, at: 18), "2023-11-14 22:13:20.500")
    XCTAssertEqual(try row.get(String.self, at: 19), "grumpy")
    XCTAssertEqual(try row.get(Int.self, at: 20), 2)
    XCTAssertEqual(try row.get(Int.self, at: 21), 1)
    XCTAssertEqual(try row.get(String.self, at: 22), "-12345678901234567890.123456789")
    XCTAssertEqual(try row.get(Int.self, at: 23), 1)
    XCTAssertEqual(try row.get(String.self, at: 24), "")
    XCTAssertEqual(try row.get(Int.self, at: 25), 0)
    XCTAssertEqual(try row.get(String.self, at: 26), maximal.uuid.uuidString)
  }

  func testOptionalsRoundTripAsNullAndAsValues() throws {
    let db = try open()
    let empty = AllOptionals(
      id: 1, int: nil, int8: nil, int16: nil, int32: nil, int64: nil, uint: nil, uint8: nil,
      uint16: nil, uint32: nil, uint64: nil, double: nil, float: nil, bool: nil, string: nil,
      data: nil, bytes: nil, date: nil, uuid: nil, url: nil, decimal: nil, mood: nil, level: nil,
      address: nil, tags: nil, numbers: nil, scores: nil, history: nil)
    let m = minimal
    let full = AllOptionals(
      id: 2, int: m.int, int8: m.int8, int16: m.int16, int32: m.int32, int64: m.int64,
      uint: m.uint, uint8: m.uint8, uint16: m.uint16, uint32: m.uint32, uint64: m.uint64,
      double: m.double, float: m.float, bool: m.bool, string: m.string, data: m.data,
      bytes: m.bytes, date: m.date, uuid: m.uuid, url: m.url, decimal: m.decimal, mood: m.mood,
      level: m.level, address: m.address, tags: m.tags, numbers: m.numbers, scores: m.scores,
      history: m.history)
    // Empty values are values, not NULL.
    var blank = empty
    blank.id = 3
    blank.string = ""
    blank.data = Data()
    blank.bytes = []
    blank.tags = []
    blank.int = 0
    try db.save([empty, full, blank])
    XCTAssertEqual(try db.findAll(AllOptionals.self, orderBy: "id"), [empty, full, blank])
    let columns = allTypesColumns.map(\.name).dropFirst()
    let nulls = columns.map { "(" + SQLIdentifier.quote($0) + " IS NULL)" }.joined(separator: " + ")
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT \(raw: nulls) FROM AllOptionals WHERE id = 1"), columns.count)
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT \(raw: nulls) FROM AllOptionals WHERE id = 2"), 0)
    XCTAssertEqual(
      try db.scalar(
        String.self,
        "SELECT typeof(string) || typeof(data) || typeof(bytes) || tags FROM AllOptionals WHERE id = 3"
      ),
      "textblobblob[]")
  }

  func testValuesSQLiteCannotStoreAreRefusedNamingTheColumn() throws {
    let db = try open()
    var tooBig = maximal
    tooBig.uint64 = .max
    let error = thrownError(EncodingError.self) { try db.save(tooBig) }
    if case .invalidValue(_, let context)? = error {
      XCTAssertEqual(context.codingPath.last?.stringValue, "uint64")
      XCTAssertTrue(context.debugDescription.contains("uint64"), context.debugDescription)
    } else {
      XCTFail("expected invalidValue, got \(String(describing: error))")
    }
    var notANumber = maximal
    notANumber.double = .nan
    let nanError = thrownError(EncodingError.self) { try db.insert(notANumber) }
    if case .invalidValue(_, let context)? = nanError {
      XCTAssertEqual(context.codingPath.last?.stringValue, "double")
    } else {
      XCTFail("expected invalidValue, got \(String(describing: nanError))")
    }
    XCTAssertEqual(try db.count(AllTypes.self), 0)
  }

  func testCustomEncodingWithANestedContainerThrowsInsteadOfTrapping() throws {
    struct Point: Model {
      var id: Int64
      var x: Int
      enum CodingKeys: String, CodingKey { case id, x }
      enum Inner: String, CodingKey { case value }
      static let primaryKey = ["id"]
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        var nested = container.nestedContainer(keyedBy: Inner.self, forKey: .x)
        try nested.encode(x, forKey: .value)
      }
    }
    let db = try open()
    for attempt in [{ try db.save(Point(id: 1, x: 2)) }, { _ = try db.insert(Point(id: 1, x: 2)) }]
    {
      let error = thrownError(EncodingError.self) { try attempt() }
      if case .invalidValue(_, let context)? = error {
        XCTAssertEqual(context.codingPath.last?.stringValue, "x")
        XCTAssertTrue(context.debugDescription.contains("nested container"))
      } else {
        XCTFail("expected invalidValue, got \(String(describing: error))")
      }
    }
    XCTAssertEqual(try db.count(Point.self), 0)
    // The encoder is usable afterwards: the next model encodes normally.
    try db.save(Person(id: 1, name: "Ann", age: 30, email: nil))
    XCTAssertEqual(try db.find(Person.self, id: 1)?.name, "Ann")
  }

  func testAnOptionalKeyThatIsNotARowIDIsNotNullSoSaveNeverDuplicates() throws {
    struct Code: Model {
      var code: String?
      var label: String
      static let primaryKey = ["code"]
    }
    struct Line: Model {
      var orderID: Int64?
      var line: Int
      var text: String
      static let primaryKey = ["orderID", "line"]
    }
    let db = try open()
    for _ in 0..<2 {
      assertNotNullViolation { try db.save(Code(code: nil, label: "a")) }
      assertNotNullViolation { try db.save(Line(orderID: nil, line: 1, text: "a")) }
    }
    XCTAssertEqual(try db.count(Code.self), 0)
    XCTAssertEqual(try db.count(Line.self), 0)
    try db.save(Code(code: "x", label: "a"))
    try db.save(Code(code: "x", label: "b"))
    XCTAssertEqual(try db.findAll(Code.self).map(\.label), ["b"])
  }

  private func assertNotNullViolation(
    file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
  ) {
    let error = thrownError(SQLiteError.self, file: file, line: line, body)
    XCTAssertEqual(error?.constraintKind, .notNull, file: file, line: line)
  }

  func testCustomDecodingWithDecodeNil() throws {
    struct Custom: Model, Equatable {
      var id: Int64
      var nickname: String?
      var score: Int
      init(id: Int64, nickname: String?, score: Int) {
        self.id = id
        self.nickname = nickname
        self.score = score
      }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        if try container.decodeNil(forKey: .nickname) {
          nickname = nil
        } else {
          nickname = try container.decode(String.self, forKey: .nickname)
        }
        score = try container.decode(Int.self, forKey: .score)
      }
      static let primaryKey = ["id"]
    }
    XCTAssertEqual(
      try TableSchema(Custom.self).column(named: "nickname")?.isNotNull, false,
      "a property the type asks decodeNil about is nullable")
    let db = try open()
    let rows = [
      Custom(id: 1, nickname: nil, score: 1), Custom(id: 2, nickname: "b", score: 2),
      Custom(id: 3, nickname: nil, score: 3), Custom(id: 4, nickname: "d", score: 4),
    ]
    try db.save(rows)
    // One decoder reads all the rows, learning the key order on the first.
    XCTAssertEqual(try db.findAll(Custom.self, orderBy: "id"), rows)
    XCTAssertEqual(try db.findAll(Custom.self, orderBy: "id DESC"), rows.reversed())
  }

  func testIgnoredPropertiesAreNotStored() throws {
    let db = try open()
    try db.save(Note(id: "n1", body: "b", cache: 42, tags: ["t"], mood: .happy, due: firstDate))
    XCTAssertEqual(try db.columnNames("Note"), ["id", "body", "tags", "mood", "due"])
    let note = try XCTUnwrap(db.find(Note.self, id: "n1"))
    XCTAssertEqual(
      note, Note(id: "n1", body: "b", cache: 0, tags: ["t"], mood: .happy, due: firstDate))
  }

  func testDecodingErrorNamesTheColumn() throws {
    let db = try open()
    try db.save(Note(id: "n1", body: "b", cache: 0, tags: ["t"], mood: .happy, due: nil))

    func failure(_ update: String) -> DecodingError? {
      do {
        try db.savepoint { db -> Void in
          try db.execute(update)
          _ = try db.findAll(Note.self)
          XCTFail("\(update): expected a DecodingError")
        }
      } catch let error as DecodingError {
        return error
      } catch {
        XCTFail("\(update): expected a DecodingError, got \(error)")
      }
      return nil
    }
    func column(_ error: DecodingError?) -> String? {
      switch error {
      case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?,
        .keyNotFound(_, let context)?, .dataCorrupted(let context)?:
        return context.codingPath.last?.stringValue
      default: return nil
      }
    }
    // A TEXT column keeps a blob as a blob (an integer would become text by affinity).
    let wrongClass = failure("UPDATE Note SET due = x'01'")
    XCTAssertEqual(column(wrongClass), "due")
    XCTAssertTrue("\(wrongClass!)".contains("BLOB"), "\(wrongClass!)")
    let integerForEnum = failure("UPDATE Note SET mood = 42")
    XCTAssertEqual(column(integerForEnum), "mood")
    let blobForText = failure("UPDATE Note SET body = x'00'")
    XCTAssertEqual(column(blobForText), "body")
    let unknownCase = failure("UPDATE Note SET mood = 'sad'")
    XCTAssertEqual(column(unknownCase), "mood")
    let badDate = failure("UPDATE Note SET due = 'yesterday'")
    XCTAssertEqual(column(badDate), "due")
    let badJSON = failure("UPDATE Note SET tags = '{not json'")
    XCTAssertEqual(column(badJSON), "tags")
    let jsonOfWrongShape = failure("UPDATE Note SET tags = '{\"a\": 1}'")
    XCTAssertEqual(column(jsonOfWrongShape), "tags")
    // The savepoints rolled back: the row is intact.
    XCTAssertEqual(try db.find(Note.self, id: "n1")?.tags, ["t"])
  }

  // MARK: Writing

  func testSaveInsertsOrUpdates() throws {
    let db = try open()
    try db.save(Person(id: nil, name: "Ann", age: 30, email: nil))
    try db.save(Person(id: nil, name: "Bob", age: 40, email: nil))
    XCTAssertEqual(try db.findAll(Person.self, orderBy: "id").map(\.id), [1, 2])
    try db.save(Person(id: 1, name: "Ann B.", age: 31, email: "ann@x.org"))
    try db.save(Person(id: 10, name: "Cy", age: 5, email: nil))
    XCTAssertEqual(
      try db.findAll(Person.self, orderBy: "id"),
      [
        Person(id: 1, name: "Ann B.", age: 31, email: "ann@x.org"),
        Person(id: 2, name: "Bob", age: 40, email: nil),
        Person(id: 10, name: "Cy", age: 5, email: nil),
      ])
    // Saving again with a value set back to nil writes NULL.
    try db.save(Person(id: 1, name: "Ann B.", age: 31, email: nil))
    XCTAssertNil(try db.find(Person.self, id: 1)?.email)
    // An upsert that violates another UNIQUE column fails and changes nothing.
    try db.save(Person(id: 2, name: "Bob", age: 40, email: "bob@x.org"))
    XCTAssertThrowsError(try db.save(Person(id: 10, name: "Cy", age: 5, email: "bob@x.org"))) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .unique, "\($0)")
    }
    XCTAssertNil(try db.find(Person.self, id: 10)?.email)

    // Composite key: save updates the row with both key values.
    try db.save(Enrollment(studentID: "s1", courseID: 1, grade: nil))
    try db.save(Enrollment(studentID: "s1", courseID: 2, grade: 3))
    try db.save(Enrollment(studentID: "s1", courseID: 1, grade: 4.5))
    XCTAssertEqual(try db.count(Enrollment.self), 2)
    XCTAssertEqual(try db.find(Enrollment.self, key: ["s1", 1])?.grade, 4.5)
    // Every column in the key: saving twice keeps one row.
    try db.save(Pair(left: "a", right: 1))
    try db.save(Pair(left: "a", right: 1))
    XCTAssertEqual(try db.count(Pair.self), 1)
  }

  func testInsertReturnsTheAssignedKey() throws {
    let db = try open()
    XCTAssertEqual(try db.insert(Person(id: nil, name: "Ann", age: 30, email: nil)), 1)
    XCTAssertEqual(try db.insert(Person(id: 41, name: "Bob", age: 30, email: nil)), 41)
    XCTAssertEqual(try db.insert(Person(id: nil, name: "Cy", age: 30, email: nil)), 42)
    XCTAssertEqual(try db.find(Person.self, id: 42)?.name, "Cy")
    let error = thrownError(SQLiteError.self) {
      try db.insert(Person(id: 41, name: "Dup", age: 1, email: nil))
    }
    XCTAssertEqual(error?.constraintKind, .primaryKey)
    XCTAssertEqual(try db.find(Person.self, id: 41)?.name, "Bob")

    // AUTOINCREMENT: a deleted key is never given again.
    XCTAssertTrue(try db.storedSQL("Ticket") == nil)
    let ids = try (1...3).map { try db.insert(Ticket(id: nil, title: "t\($0)")) }
    XCTAssertEqual(ids, [1, 2, 3])
    XCTAssertTrue(try XCTUnwrap(db.storedSQL("Ticket")).contains("AUTOINCREMENT"))
    try db.delete(Ticket.self, id: 3)
    XCTAssertEqual(try db.insert(Ticket(id: nil, title: "t4")), 4)
  }

  func testUpdate() throws {
    let db = try open()
    try db.insert(Person(id: 1, name: "Ann", age: 30, email: nil))
    try db.update(Person(id: 1, name: "Ann", age: 31, email: "a@x.org"))
    XCTAssertEqual(
      try db.find(Person.self, id: 1), Person(id: 1, name: "Ann", age: 31, email: "a@x.org"))
    let error = thrownError(ModelError.self) {
      try db.update(Person(id: 2, name: "Nobody", age: 0, email: nil))
    }
    XCTAssertEqual(error, .notFound(table: "Person", key: [.integer(2)]))
    XCTAssertEqual(try db.count(Person.self), 1, "update never inserts")

    try db.save(Enrollment(studentID: "s1", courseID: 1, grade: 1))
    try db.update(Enrollment(studentID: "s1", courseID: 1, grade: 2))
    XCTAssertEqual(try db.find(Enrollment.self, key: ["s1", 1])?.grade, 2)
    XCTAssertEqual(
      thrownError(ModelError.self) {
        try db.update(Enrollment(studentID: "s1", courseID: 2, grade: 2))
      },
      .notFound(table: "Enrollment", key: [.text("s1"), .integer(2)]))

    try db.save(Pair(left: "a", right: 1))
    try db.update(Pair(left: "a", right: 1))
    XCTAssertEqual(
      thrownError(ModelError.self) { try db.update(Pair(left: "b", right: 1)) },
      .notFound(table: "Pair", key: [.text("b"), .integer(1)]))
    XCTAssertEqual(try db.count(Pair.self), 1)
  }

  func testDelete() throws {
    let db = try open()
    let people = (1...6).map { Person(id: Int64($0), name: "p\($0)", age: $0 * 10, email: nil) }
    try db.save(people)
    try db.delete(people[0])
    guard case .notFound = thrownError(ModelError.self, { try db.delete(people[0]) }) else {
      return XCTFail("expected notFound")
    }
    try db.delete(Person.self, id: 2)
    guard case .notFound = thrownError(ModelError.self, { try db.delete(Person.self, id: 99) })
    else {
      return XCTFail("expected notFound")
    }
    XCTAssertEqual(try db.findAll(Person.self, orderBy: "id").map(\.id), [3, 4, 5, 6])

    // Conditions take bound values: a hostile value is a value.
    XCTAssertEqual(try db.deleteAll(Person.self, where: "name = ?", ["x' OR 1=1 --"]), 0)
    XCTAssertEqual(try db.deleteAll(Person.self, where: "age >= ? AND age < ?", [40, 60]), 2)
    XCTAssertEqual(try db.deleteAll(Person.self, where: "name = :name", ["name": "p3"]), 1)
    XCTAssertEqual(try db.findAll(Person.self).map(\.id), [6])
    XCTAssertThrowsError(try db.deleteAll(Person.self, where: "age > ?", [])) { error in
      XCTAssertNotNil(error as? SQLiteError, "\(error)")
    }
    XCTAssertEqual(try db.count(Person.self), 1, "a failed delete deletes nothing")

    // Composite keys.
    try db.save([
      Enrollment(studentID: "s1", courseID: 1, grade: 1),
      Enrollment(studentID: "s1", courseID: 2, grade: 2),
    ])
    try db.delete(Enrollment.self, key: ["s1", 2])
    XCTAssertFalse(try db.exists(Enrollment.self, key: ["s1", 2]))
    XCTAssertTrue(try db.exists(Enrollment.self, key: ["s1", 1]))

    try db.save(people)
    XCTAssertEqual(try db.deleteAll(Person.self), 6)
    XCTAssertEqual(try db.count(Person.self), 0)
    XCTAssertTrue(try SchemaInspector(db).tableExists("Person"), "deleteAll keeps the table")

    try db.dropTable(for: Person.self)
    XCTAssertFalse(try SchemaInspector(db).tableExists("Person"))
    XCTAssertNil(
      try db.scalar(
        String.self, "SELECT definition FROM swiftlite_schema WHERE table_name = 'Person'"))
    // The next use creates it again, on the same connection.
    try db.save(people[0])
    XCTAssertEqual(try db.count(Person.self), 1)
    try db.dropTable(for: Person.self)
    try db.dropTable(for: Person.self)  // dropping a missing table is fine
    XCTAssertEqual(try Connection(path: path()).count(Person.self), 0)
  }

  // MARK: Reading

  func testFindAndPaging() throws {
    let db = try open()
    let people = (1...10).map {
      Person(id: Int64($0), name: "p\(String(format: "%02d", 11 - $0))", age: $0 % 3, email: nil)
    }
    try db.save(people)
    XCTAssertEqual(try db.find(Person.self, id: 4), people[3])
    XCTAssertNil(try db.find(Person.self, id: 11))
    XCTAssertTrue(try db.exists(Person.self, id: 10))
    XCTAssertFalse(try db.exists(Person.self, id: 0))
    XCTAssertEqual(try db.count(Person.self), 10)
    XCTAssertEqual(try db.count(Person.self, where: "age = ?", [0]), 3)
    XCTAssertEqual(try db.count(Person.self, where: "age = :age", ["age": 1]), 4)

    XCTAssertEqual(
      try db.findAll(Person.self, orderBy: "name").map(\.id), Array((1...10).reversed()))
    XCTAssertEqual(try db.findAll(Person.self, orderBy: "id", limit: 3).map(\.id), [1, 2, 3])
    XCTAssertEqual(
      try db.findAll(Person.self, orderBy: "id", limit: 3, offset: 8).map(\.id), [9, 10])
    XCTAssertEqual(try db.findAll(Person.self, orderBy: "id", offset: 7).map(\.id), [8, 9, 10])
    XCTAssertEqual(
      try db.findAll(Person.self, orderBy: "age DESC, id", limit: 4).map(\.id), [2, 5, 8, 1])

    // Positional and named arguments, with order, limit and offset.
    XCTAssertEqual(
      try db.findAll(Person.self, where: "age = ? AND id > ?", [1, 1], orderBy: "id").map(\.id),
      [4, 7, 10])
    XCTAssertEqual(
      try db.findAll(Person.self, where: "age = ?", [1], orderBy: "id", limit: 2, offset: 1).map(
        \.id),
      [4, 7])
    XCTAssertEqual(
      try db.findAll(Person.self, where: "age = :age", ["age": 1], orderBy: "id DESC", limit: 2)
        .map(\.id), [10, 7])
    XCTAssertEqual(
      try db.findAll(
        Person.self, where: "age = :age AND name <> :name", ["age": 1, "name": "p10"],
        orderBy: "id",
        limit: 5, offset: 1
      ).map(\.id), [7, 10])
    XCTAssertEqual(
      try db.findAll(Person.self, where: "name LIKE ?", ["p0%"], orderBy: "name", offset: 5).map(
        \.id),
      [5, 4, 3, 2])
    XCTAssertEqual(try db.findAll(Person.self, where: "name = ?", ["' OR ''='"]), [])
    XCTAssertThrowsError(try db.findAll(Person.self, where: "age = ?", [1, 2])) {
      XCTAssertNotNil($0 as? SQLiteError, "\($0)")
    }
    // The same statements again (cached) give the same answers.
    XCTAssertEqual(
      try db.findAll(Person.self, where: "age = ?", [2], orderBy: "id", limit: 2, offset: 1).map(
        \.id),
      [5, 8])

    // Composite key.
    try db.save([
      Enrollment(studentID: "s1", courseID: 1, grade: 1),
      Enrollment(studentID: "s2", courseID: 1, grade: nil),
    ])
    XCTAssertEqual(
      try db.find(Enrollment.self, key: ["s2", 1]),
      Enrollment(studentID: "s2", courseID: 1, grade: nil))
    XCTAssertNil(try db.find(Enrollment.self, key: ["s2", 2]))
    XCTAssertThrowsError(try db.find(Enrollment.self, key: ["s2"])) {
      XCTAssertNotNil($0 as? SQLiteError, "one value per key column: \($0)")
    }
  }

  func testSavingManyIsAllOrNothing() throws {
    let db = try open()
    let batch = [
      Person(id: nil, name: "a", age: 1, email: "a@x.org"),
      Person(id: nil, name: "b", age: 2, email: "b@x.org"),
      Person(id: nil, name: "c", age: 3, email: "a@x.org"),  // duplicate email
      Person(id: nil, name: "d", age: 4, email: "d@x.org"),
    ]
    XCTAssertThrowsError(try db.save(batch)) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .unique, "\($0)")
    }
    XCTAssertEqual(try db.count(Person.self), 0)
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try Connection(path: path()).count(Person.self), 0)

    // Inside an outer transaction, only the batch is undone.
    try db.transaction { db in
      try db.save(Person(id: nil, name: "kept", age: 0, email: nil))
      XCTAssertThrowsError(try db.save(batch))
      XCTAssertTrue(db.isInTransaction)
    }
    XCTAssertEqual(try db.findAll(Person.self).map(\.name), ["kept"])

    var fixed = batch
    fixed[2].email = "c@x.org"
    try db.save(fixed)
    XCTAssertEqual(
      try db.findAll(Person.self, orderBy: "id").map(\.name), ["kept", "a", "b", "c", "d"])
  }

  func testPerTargetTables() throws {
    let db = try open()
    try db.save(Message(id: nil, text: "hello", sentAt: firstDate), target: "chat1")
    try db.save(Message(id: nil, text: "hi", sentAt: firstDate), target: "chat1")
    try db.save(Message(id: nil, text: "other", sentAt: secondDate), target: "chat 2")
    try db.save(Message(id: nil, text: "main", sentAt: secondDate))
    XCTAssertEqual(
      try SchemaInspector(db).tableNames().filter { $0.hasPrefix("Message") },
      ["Message", "Message_chat 2", "Message_chat1"])
    XCTAssertEqual(try db.count(Message.self, target: "chat1"), 2)
    XCTAssertEqual(
      try db.findAll(Message.self, orderBy: "id", target: "chat1").map(\.text), ["hello", "hi"])
    XCTAssertEqual(try db.find(Message.self, id: 1, target: "chat 2")?.text, "other")
    XCTAssertEqual(try db.find(Message.self, id: 1)?.text, "main")
    XCTAssertEqual(
      try db.findAll(Message.self, where: "text LIKE ?", ["h%"], target: "chat1").count, 2)
    XCTAssertEqual(
      try db.deleteAll(Message.self, where: "sentAt < ?", [firstDate], target: "chat1"), 0)
    XCTAssertEqual(
      try db.deleteAll(Message.self, where: "sentAt <= ?", [firstDate], target: "chat1"), 2)
    try db.update(Message(id: 1, text: "edited", sentAt: secondDate), target: "chat 2")
    XCTAssertEqual(try db.find(Message.self, id: 1, target: "chat 2")?.text, "edited")
    XCTAssertTrue(try db.exists(Message.self, id: 1, target: "chat 2"))
    XCTAssertEqual(try db.deleteAll(Message.self, target: "chat 2"), 1)
    try db.dropTable(for: Message.self, target: "chat1")
    XCTAssertEqual(
      try SchemaInspector(db).tableNames().filter { $0.hasPrefix("Message") },
      ["Message", "Message_chat 2"])
    XCTAssertEqual(try db.count(Message.self), 1, "the main table is untouched")
    XCTAssertFalse(try db.needsMigration(Message.self, target: "chat 2"))
    XCTAssertTrue(try db.needsMigration(Message.self, target: "chat1"), "dropped: would be created")
  }

  // MARK: Repository

  func testRepository() throws {
    let queue = try DatabaseQueue(path: path())
    let people = try Repository<Person>(queue)
    XCTAssertEqual(try people.count(), 0)
    let id = try people.create(Person(id: nil, name: "Ann", age: 30, email: nil))
    XCTAssertEqual(id, 1)
    XCTAssertEqual(try people.findById(id), Person(id: 1, name: "Ann", age: 30, email: nil))
    XCTAssertNil(try people.findById(2))
    try people.modify(Person(id: 1, name: "Ann", age: 31, email: nil))
    XCTAssertEqual(try people.findById(1)?.age, 31)
    XCTAssertEqual(
      thrownError(ModelError.self) {
        try people.modify(Person(id: 5, name: "X", age: 1, email: nil))
      },
      .notFound(table: "Person", key: [.integer(5)]))
    XCTAssertEqual(
      thrownError(ModelError.self) { try people.remove(5) },
      .notFound(table: "Person", key: [.integer(5)]))
    try people.save(Person(id: 5, name: "Eve", age: 50, email: nil))
    try people.save(Person(id: 5, name: "Eve", age: 51, email: nil))
    try people.save([
      Person(id: 6, name: "F", age: 6, email: nil), Person(id: 7, name: "G", age: 7, email: nil),
    ])
    XCTAssertEqual(try people.count(), 4)
    XCTAssertEqual(try people.count(where: "age > ?", [30]), 2)
    XCTAssertEqual(try people.findAll(orderBy: "id").map(\.age), [31, 51, 6, 7])
    XCTAssertEqual(
      try people.findAll(where: "age < ?", [10], orderBy: "id DESC", limit: 1).map(\.id), [7])
    try people.remove(5)
    XCTAssertNil(try people.findById(5))
    XCTAssertThrowsError(try people.create(Person(id: 1, name: "Dup", age: 0, email: nil))) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .primaryKey, "\($0)")
    }
    // Per-target repositories share the queue, not the table.
    let archive = try Repository<Person>(queue, target: "archive")
    try archive.create(Person(id: 1, name: "Old", age: 99, email: nil))
    XCTAssertEqual(try archive.count(), 1)
    XCTAssertEqual(try people.findById(1)?.name, "Ann")
    XCTAssertEqual(
      thrownError(ModelError.self) { try archive.remove(9) },
      .notFound(table: "Person_archive", key: [.integer(9)]))
  }

  func testRepositoryFromManyThreads() throws {
    let queue = try DatabaseQueue(path: path())
    let people = try Repository<Person>(queue)
    let failures = Mutex<[String]>([])
    let workers = 8
    let perWorker = 40
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      do {
        for index in 0..<perWorker {
          let id = Int64(worker * 1000 + index)
          try people.create(
            Person(id: id, name: "w\(worker)-\(index)", age: index, email: "\(id)@x.org"))
          guard let read = try people.findById(id), read.name == "w\(worker)-\(index)" else {
            throw ModelError.notFound(table: "Person", key: [.integer(id)])
          }
          try people.modify(Person(id: id, name: read.name, age: index + 1, email: read.email))
          if index % 4 == 0 { try people.remove(id) }
          _ = try people.count()
          _ = try people.findAll(where: "age > ?", [index], limit: 3)
        }
      } catch {
        failures.withLock { $0.append("worker \(worker): \(error)") }
      }
    }
    XCTAssertEqual(failures.withLock { $0 }, [])
    let removedPerWorker = (0..<perWorker).filter { $0 % 4 == 0 }.count
    XCTAssertEqual(try people.count(), workers * (perWorker - removedPerWorker))
    let all = try people.findAll()
    XCTAssertTrue(all.allSatisfy { $0.age == Int($0.id! % 1000) + 1 })
    XCTAssertEqual(Set(all.compactMap(\.email)).count, all.count)

  }
}

private struct Counter: Model, Equatable {
  var id: Int64
  var count: Int
  var total: Int64
  static let primaryKey = ["id"]
}

final class ModelIntegerDecodingTests: ModelTestCase {
  /// Integers are read straight from the statement; anything that is not an INTEGER must
  /// still be reported, naming the column, by the general path.
  func testIntegersReadInPlaceStillRefuseOtherClasses() throws {
    let db = try open()
    try db.save([Counter(id: 1, count: 2, total: .max), Counter(id: 2, count: -3, total: .min)])
    XCTAssertEqual(
      try db.findAll(Counter.self, orderBy: "id"),
      [Counter(id: 1, count: 2, total: .max), Counter(id: 2, count: -3, total: .min)])
    for (update, column, stored) in [
      ("UPDATE Counter SET count = 2.5 WHERE id = 2", "count", "REAL"),
      ("UPDATE Counter SET total = 'many' WHERE id = 2", "total", "TEXT"),
      ("UPDATE Counter SET count = NULL WHERE id = 2", "count", "NULL"),
    ] {
      do {
        try db.savepoint { db in
          // A NULL needs a copy of the table without its NOT NULL constraints.
          if stored == "NULL" {
            try db.execute(
              "CREATE TABLE copy AS SELECT * FROM Counter; DROP TABLE Counter; ALTER TABLE copy RENAME TO Counter"
            )
          }
          try db.execute(update)
          XCTAssertThrowsError(try db.findAll(Counter.self, orderBy: "id")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("'\(column)'") && text.contains(stored), text)
          }
          throw CancellationError()  // roll the change back
        }
      } catch is CancellationError {}
    }
    XCTAssertEqual(try db.count(Counter.self), 2)
  }
}

extension ModelStoreTests {
  /// A Repository's condition written by interpolation binds its values.
  func testRepositoryConditionsByInterpolationAreBound() throws {
    let queue = try DatabaseQueue(path: path())
    let people = try Repository<Person>(queue)
    let hostile = "x' OR '1' = '1"
    try people.save(Person(id: nil, name: hostile, age: 30, email: nil))
    try people.save(Person(id: nil, name: "Bo", age: 12, email: nil))
    XCTAssertEqual(try people.findAll(where: "name = \(hostile)").map(\.age), [30])
    XCTAssertEqual(try people.count(where: "age >= \(18)"), 1)
    XCTAssertEqual(try people.findAll(where: "name = \("x")"), [])
    // And on the connection itself.
    let db = try open()
    XCTAssertEqual(try db.findAll(Person.self, where: "name = \(hostile)").map(\.age), [30])
    XCTAssertEqual(try db.count(Person.self, where: "age >= \(18)"), 1)
    XCTAssertEqual(try db.deleteAll(Person.self, where: "name = \(hostile)"), 1)
  }

  /// The same from a task.
  func testRepositoryConditionsByInterpolationAreBoundAsync() async throws {
    let queue = try DatabaseQueue(path: path())
    let people = try Repository<Person>(queue)
    try await people.save(Person(id: nil, name: "Ann", age: 30, email: nil))
    let found = try await people.findAll(where: "name = \("Ann' OR '1' = '1")")
    XCTAssertEqual(found, [])
    let count = try await people.count(where: "age >= \(18)")
    XCTAssertEqual(count, 1)
  }
}
