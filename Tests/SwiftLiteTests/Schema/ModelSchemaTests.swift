import Foundation
import XCTest

@testable import SwiftLite

// MARK: Models shared with ModelStoreTests

enum ModelMood: String, Codable, Equatable, SQLiteValueConvertible, CaseIterable {
  case happy, grumpy
}

enum ModelLevel: Int, Codable, Equatable, SQLiteValueConvertible, CaseIterable {
  case low = 1
  case high = 2
}

struct ModelAddress: Codable, Hashable {
  var city: String
  var zip: String?
  var lines: [String]
}

/// One property of every supported type, none optional.
struct AllTypes: Model, Equatable {
  var id: Int64
  var int: Int
  var int8: Int8
  var int16: Int16
  var int32: Int32
  var int64: Int64
  var uint: UInt
  var uint8: UInt8
  var uint16: UInt16
  var uint32: UInt32
  var uint64: UInt64
  var double: Double
  var float: Float
  var bool: Bool
  var string: String
  var data: Data
  var bytes: [UInt8]
  var date: Date
  var uuid: UUID
  var url: URL
  var decimal: Decimal
  var mood: ModelMood
  var level: ModelLevel
  var address: ModelAddress
  var tags: [String]
  var numbers: Set<Int>
  var scores: [String: Int]
  var history: [ModelAddress]
  static let primaryKey = ["id"]
}

/// The same types, every one optional.
struct AllOptionals: Model, Equatable {
  var id: Int64
  var int: Int?
  var int8: Int8?
  var int16: Int16?
  var int32: Int32?
  var int64: Int64?
  var uint: UInt?
  var uint8: UInt8?
  var uint16: UInt16?
  var uint32: UInt32?
  var uint64: UInt64?
  var double: Double?
  var float: Float?
  var bool: Bool?
  var string: String?
  var data: Data?
  var bytes: [UInt8]?
  var date: Date?
  var uuid: UUID?
  var url: URL?
  var decimal: Decimal?
  var mood: ModelMood?
  var level: ModelLevel?
  var address: ModelAddress?
  var tags: [String]?
  var numbers: Set<Int>?
  var scores: [String: Int]?
  var history: [ModelAddress]?
  static let primaryKey = ["id"]
}

/// The column types expected for `AllTypes` / `AllOptionals`, in declaration order.
let allTypesColumns: [(name: String, type: String, json: Bool)] = [
  ("id", "INTEGER", false), ("int", "INTEGER", false), ("int8", "INTEGER", false),
  ("int16", "INTEGER", false), ("int32", "INTEGER", false), ("int64", "INTEGER", false),
  ("uint", "INTEGER", false), ("uint8", "INTEGER", false), ("uint16", "INTEGER", false),
  ("uint32", "INTEGER", false), ("uint64", "INTEGER", false), ("double", "REAL", false),
  ("float", "REAL", false), ("bool", "INTEGER", false), ("string", "TEXT", false),
  ("data", "BLOB", false), ("bytes", "BLOB", false), ("date", "TEXT", false),
  ("uuid", "TEXT", false), ("url", "TEXT", false), ("decimal", "TEXT", false),
  ("mood", "TEXT", false), ("level", "INTEGER", false), ("address", "TEXT", true),
  ("tags", "TEXT", true), ("numbers", "TEXT", true), ("scores", "TEXT", true),
  ("history", "TEXT", true),
]

// MARK: Models of this file

private enum Untyped: String, Codable { case a, b }
private enum ConvertibleOnly: String, Codable, SQLiteValueConvertible { case a, b }

private struct WithUntypedEnum: Model {
  var id: Int
  var name: String
  var status: Untyped
  static let primaryKey = ["id"]
}

private struct WithConvertibleOnlyEnum: Model {
  var id: Int
  var kind: ConvertibleOnly
  static let primaryKey = ["id"]
}

private struct IgnoringUntypedEnum: Model {
  var id: Int
  var status: Untyped
  static let primaryKey = ["id"]
  static let ignoredProperties: Set<String> = ["status"]
}

/// What the hint says to do: leave the property out of CodingKeys, with a default.
private struct UntypedOutOfCodingKeys: Model, Equatable {
  var id: Int
  var status: Untyped = .b
  enum CodingKeys: String, CodingKey { case id }
  static let primaryKey = ["id"]
}

private struct NoKey: Model {
  var id: Int
  static let primaryKey: [String] = []
}

private struct UnknownKey: Model {
  var id: Int
  static let primaryKey = ["identifier"]
}

private struct UnknownConstraint: Model {
  var id: Int
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["nmae": [.unique]]
}

private struct UnknownIndexColumn: Model {
  var id: Int
  var name: String
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["name", "age"])]
}

private struct UnknownRenamed: Model {
  var id: Int
  static let primaryKey = ["id"]
  static let renamedProperties = ["fullName": "name"]
}

private struct IgnoredKey: Model {
  var id: Int
  var transient: Int
  static let primaryKey = ["transient"]
  static let ignoredProperties: Set<String> = ["transient"]
}

private struct TextAutoIncrement: Model {
  var id: String
  static let primaryKey = ["id"]
  static let autoIncrement = true
}

private struct StrictModel: Model, Equatable {
  var id: Int64?
  var name: String
  var ratio: Double
  var payload: Data
  var tags: [String]
  static let primaryKey = ["id"]
  static let isStrict = true
}

private struct Constrained: Model, Equatable {
  var id: Int64?
  var email: String
  var name: String
  var age: Int
  var status: String
  var nickname: String?
  var score: Int
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "email": [.unique, .collate("NOCASE")],
    "name": [.collate("NOCASE")],
    "age": [.check("age >= 0")],
    "status": [.default("new")],
    "nickname": [.notNull(true), .default("")],
    "score": [.notNull(false)],
  ]
}

private struct Indexed: Model, Equatable {
  var id: Int64?
  var first: String
  var last: String
  var city: String
  var age: Int
  static let primaryKey = ["id"]
  static let indexes = [
    TableIndex(["age"]),
    TableIndex(["first", "last"], unique: true),
    TableIndex(["city"], name: "by city"),
  ]
}

/// Identifiers that need quoting everywhere: spaces, double quotes, SQL keywords.
private struct Weird: Model, Equatable {
  var id: Int64?
  var group: String
  var select: String?
  var quoted: Int
  enum CodingKeys: String, CodingKey {
    case id = "primary key"
    case group = "group by"
    case select = "select"
    case quoted = "say \"hi\"; DROP TABLE x; --"
  }
  static let tableName = "order \"items\" table"
  static let primaryKey = ["primary key"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "group by": [.unique], "select": [.default("it's")],
  ]
  static let indexes = [TableIndex(["select", "say \"hi\"; DROP TABLE x; --"])]
}

/// The same table, later: a column renamed (rebuild) and one added.
private struct WeirdV2: Model, Equatable {
  var id: Int64?
  var group: String
  var from: String?
  var quoted: Int
  var whereValue: Int
  enum CodingKeys: String, CodingKey {
    case id = "primary key"
    case group = "group by"
    case from = "from"
    case quoted = "say \"hi\"; DROP TABLE x; --"
    case whereValue = "where"
  }
  static let tableName = "order \"items\" table"
  static let primaryKey = ["primary key"]
  static let renamedProperties = ["from": "select"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "group by": [.unique], "where": [.default(0)],
  ]
  static let indexes = [TableIndex(["from", "say \"hi\"; DROP TABLE x; --"])]
}

/// A table named by an SQL keyword.
private struct Order: Model, Equatable {
  var id: Int64?
  var table: String
  static let tableName = "order"
  static let primaryKey = ["id"]
}

/// A default of every kind SQLite stores.
private struct Defaults: Model, Equatable {
  var id: Int64?
  var smallest: Int64
  var negative: Double
  var huge: Double
  var infinite: Double
  var text: String
  var bytes: Data
  var flag: Bool
  var nothing: String?
  var list: [String]
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = [
    "smallest": [.default(.integer(.min))], "negative": [.default(-0.25)],
    "huge": [.default(1e100)], "infinite": [.default(.real(-.infinity))],
    "text": [.default("it's \"quoted\"")], "bytes": [.default(.blob(Data([0xAB, 0x01])))],
    "flag": [.default(true)], "nothing": [.default(nil)], "list": [.default("[\"a\"]")],
  ]
}

final class ModelSchemaTests: ModelTestCase {
  // MARK: Inference from the type alone

  func testEveryTypeIsInferredWithoutAnInstance() throws {
    let schema = try TableSchema(AllTypes.self)
    XCTAssertEqual(schema.name, "AllTypes")
    XCTAssertEqual(schema.primaryKey, ["id"])
    XCTAssertEqual(schema.columns.map(\.name), allTypesColumns.map(\.name))
    for (column, expected) in zip(schema.columns, allTypesColumns) {
      XCTAssertEqual(column.type, expected.type, column.name)
      XCTAssertEqual(column.isJSON, expected.json, column.name)
      XCTAssertTrue(column.isNotNull, "\(column.name) is not optional: NOT NULL")
      XCTAssertFalse(column.isUnique, column.name)
      XCTAssertNil(column.defaultSQL, column.name)
    }
    XCTAssertTrue(schema.hasRowIDAlias)
  }

  func testOptionalsAreNullableWithTheSameTypes() throws {
    let schema = try TableSchema(AllOptionals.self)
    XCTAssertEqual(schema.columns.map(\.name), allTypesColumns.map(\.name))
    for (column, expected) in zip(schema.columns, allTypesColumns) {
      XCTAssertEqual(column.type, expected.type, column.name)
      XCTAssertEqual(column.isJSON, expected.json, column.name)
      XCTAssertEqual(column.isNotNull, column.name == "id", column.name)
    }
  }

  func testInferredTableIsCreatedAsDeclared() throws {
    let db = try open()
    try db.createTable(for: AllTypes.self)
    try db.createTable(for: AllOptionals.self)
    for table in ["AllTypes", "AllOptionals"] {
      let info = try db.query("PRAGMA table_info(" + SQLIdentifier.quote(table) + ")")
      XCTAssertEqual(try info.map { try $0.get(String.self, "name") }, allTypesColumns.map(\.name))
      XCTAssertEqual(
        try info.map { try $0.get(String.self, "type") }, allTypesColumns.map(\.type), table)
      let notNull = try info.map { try $0.get(Bool.self, "notnull") }
      let key = try info.map { try $0.get(Int.self, "pk") }
      XCTAssertEqual(key, [1] + Array(repeating: 0, count: allTypesColumns.count - 1))
      if table == "AllTypes" {
        // The INTEGER PRIMARY KEY is the rowid alias, which SQLite reports as nullable.
        XCTAssertEqual(notNull, [false] + Array(repeating: true, count: allTypesColumns.count - 1))
      } else {
        XCTAssertEqual(notNull, Array(repeating: false, count: allTypesColumns.count))
      }
    }
    // The inspector reads back what the model declared.
    let stored = try XCTUnwrap(SchemaInspector(db).schema(of: "AllTypes"))
    let declared = try TableSchema(AllTypes.self)
    XCTAssertEqual(stored.columns.map(\.type), declared.columns.map(\.type))
    XCTAssertEqual(stored.primaryKey, ["id"])
    XCTAssertFalse(try db.needsMigration(AllTypes.self))
    XCTAssertFalse(try db.needsMigration(AllOptionals.self))
  }

  func testEnumWithoutConversionIsRefusedNamingTheProperty() throws {
    let db = try open()
    let error = thrownError(ModelError.self) { _ = try TableSchema(WithUntypedEnum.self) }
    guard case .cannotInferType(let model, let property, let type, let hint)? = error else {
      return XCTFail("expected cannotInferType, got \(String(describing: error))")
    }
    XCTAssertEqual(model, "WithUntypedEnum")
    XCTAssertEqual(property, "status")
    XCTAssertTrue(type.contains("Untyped"), type)
    XCTAssertTrue(hint.contains("SQLiteValueConvertible"), hint)
    XCTAssertTrue(error!.description.contains("WithUntypedEnum.status"), error!.description)

    // At first use, before any table is made.
    let atUse = thrownError(ModelError.self) {
      try db.save(WithUntypedEnum(id: 1, name: "a", status: .a))
    }
    XCTAssertEqual(atUse, error)
    XCTAssertFalse(try SchemaInspector(db).tableExists("WithUntypedEnum"))

    // Conforming to SQLiteValueConvertible without CaseIterable is not enough either.
    let second = thrownError(ModelError.self) {
      try db.createTable(for: WithConvertibleOnlyEnum.self)
    }
    guard case .cannotInferType(_, let secondProperty, _, _)? = second else {
      return XCTFail("expected cannotInferType, got \(String(describing: second))")
    }
    XCTAssertEqual(secondProperty, "kind")
  }

  func testIgnoringAnUninferableProperty() throws {
    // The hint offers ignoredProperties: following it must not give the same error.
    let db = try open()
    let error = thrownError(ModelError.self) { try db.createTable(for: IgnoringUntypedEnum.self) }
    if case .cannotInferType(_, let property, _, let hint)? = error {
      XCTAssertEqual(property, "status")
      XCTAssertFalse(
        hint.contains("list 'status' in ignoredProperties"),
        "the hint must not suggest ignoredProperties, which cannot help here: \(hint)")
      XCTAssertTrue(hint.contains("CodingKeys"), hint)
    } else {
      XCTFail("expected cannotInferType, got \(String(describing: error))")
    }
    XCTAssertFalse(try SchemaInspector(db).tableExists("IgnoringUntypedEnum"))

    // Following the hint works.
    try db.save(UntypedOutOfCodingKeys(id: 1, status: .a))
    XCTAssertEqual(try db.columnNames("UntypedOutOfCodingKeys"), ["id"])
    XCTAssertEqual(try db.find(UntypedOutOfCodingKeys.self, id: 1), UntypedOutOfCodingKeys(id: 1))
  }

  func testInvalidDeclarationsAreRefused() throws {
    func reason<M: Model>(_ model: M.Type) -> String? {
      let error = thrownError(ModelError.self) { _ = try TableSchema(model) }
      guard case .invalidDeclaration(let name, let reason)? = error else {
        XCTFail("\(model): expected invalidDeclaration, got \(String(describing: error))")
        return nil
      }
      XCTAssertEqual(name, String(describing: model))
      return reason
    }
    XCTAssertTrue(reason(NoKey.self)?.contains("primary key") ?? false)
    XCTAssertTrue(reason(UnknownKey.self)?.contains("identifier") ?? false)
    XCTAssertTrue(reason(UnknownConstraint.self)?.contains("nmae") ?? false)
    XCTAssertTrue(reason(UnknownIndexColumn.self)?.contains("age") ?? false)
    XCTAssertTrue(reason(UnknownRenamed.self)?.contains("fullName") ?? false)
    XCTAssertTrue(reason(IgnoredKey.self)?.contains("transient") ?? false)
    XCTAssertTrue(reason(TextAutoIncrement.self)?.contains("autoIncrement") ?? false)

    // Refused at first use, before a table is made.
    let db = try open()
    XCTAssertThrowsError(try db.save(NoKey(id: 1))) { XCTAssertTrue($0 is ModelError, "\($0)") }
    XCTAssertThrowsError(try db.findAll(UnknownKey.self)) { XCTAssertTrue($0 is ModelError) }
    XCTAssertEqual(try SchemaInspector(db).tableNames(), [])
  }

  // MARK: Table options and constraints

  func testStrictTable() throws {
    let db = try open()
    let model = StrictModel(id: nil, name: "a", ratio: 2, payload: Data([1, 2]), tags: ["x"])
    let id = try db.insert(model)
    let sql = try XCTUnwrap(db.storedSQL("StrictModel"))
    XCTAssertTrue(sql.hasSuffix(" STRICT"), sql)
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT strict FROM pragma_table_list WHERE name = 'StrictModel'"), 1)
    var expected = model
    expected.id = id
    XCTAssertEqual(try db.find(StrictModel.self, id: id), expected)
    // STRICT refuses a value of the wrong class that a normal table would keep.
    XCTAssertThrowsError(
      try db.run(
        "INSERT INTO StrictModel (name, ratio, payload, tags) VALUES (?, ?, ?, ?)",
        ["b", "not a number", Data(), "[]"])
    ) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, .constraint, "\(error)")
    }
    XCTAssertTrue(try SchemaInspector(db).schema(of: "StrictModel")?.isStrict ?? false)
    XCTAssertFalse(try db.needsMigration(StrictModel.self))
  }

  func testColumnConstraints() throws {
    let db = try open()
    try db.createTable(for: Constrained.self)
    let info = Dictionary(
      uniqueKeysWithValues: try db.query("PRAGMA table_info(Constrained)").map {
        (try $0.get(String.self, "name"), $0)
      })
    XCTAssertEqual(try info["status"]?.get(String?.self, "dflt_value"), "'new'")
    XCTAssertEqual(try info["nickname"]?.get(Bool.self, "notnull"), true, "notNull(true) override")
    XCTAssertEqual(try info["score"]?.get(Bool.self, "notnull"), false, "notNull(false) override")
    XCTAssertEqual(try info["age"]?.get(Bool.self, "notnull"), true)
    let sql = try XCTUnwrap(db.storedSQL("Constrained"))
    XCTAssertTrue(sql.contains("CHECK (age >= 0)"), sql)
    XCTAssertTrue(sql.contains("COLLATE \"NOCASE\""), sql)

    let ann = Constrained(
      id: nil, email: "ann@x.org", name: "Ann", age: 30, status: "active", nickname: "an",
      score: 1)
    try db.save(ann)

    // UNIQUE, case-insensitively thanks to COLLATE NOCASE.
    var twin = ann
    twin.email = "ANN@X.ORG"
    XCTAssertThrowsError(try db.insert(twin)) { error in
      XCTAssertEqual((error as? SQLiteError)?.constraintKind, .unique, "\(error)")
    }
    // CHECK.
    var negative = ann
    negative.email = "neg@x.org"
    negative.age = -1
    XCTAssertThrowsError(try db.save(negative)) { error in
      XCTAssertEqual((error as? SQLiteError)?.constraintKind, .check, "\(error)")
    }
    // notNull(true) on an optional with a default: nil leaves the column to the default.
    var noNick = ann
    noNick.email = "nonick@x.org"
    noNick.nickname = nil
    try db.save(noNick)
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT nickname FROM Constrained WHERE email = 'nonick@x.org'"),
      "")
    try db.deleteAll(Constrained.self, where: "email = ?", ["nonick@x.org"])
    // DEFAULT for rows written without the column, and notNull(false) lets NULL in.
    try db.run("INSERT INTO Constrained (email, name, age) VALUES ('raw@x.org', 'Raw', 5)")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT status FROM Constrained WHERE email = 'raw@x.org'"), "new")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT nickname FROM Constrained WHERE email = 'raw@x.org'"), "")
    XCTAssertTrue(
      try db.scalar(Bool.self, "SELECT score IS NULL FROM Constrained WHERE email = 'raw@x.org'")
        ?? false)
    // COLLATE NOCASE in a search.
    XCTAssertEqual(
      try db.findAll(Constrained.self, where: "name = ?", ["ANN"]).map(\.email), ["ann@x.org"])
    XCTAssertEqual(try db.count(Constrained.self), 2)
    XCTAssertFalse(try db.needsMigration(Constrained.self))
  }

  func testIndexes() throws {
    let db = try open()
    try db.createTable(for: Indexed.self)
    let indexes = try XCTUnwrap(SchemaInspector(db).schema(of: "Indexed")).indexes
    XCTAssertEqual(
      Set(indexes),
      [
        .init(name: "Indexed_on_age", columns: ["age"], isUnique: false),
        .init(name: "Indexed_on_first_last", columns: ["first", "last"], isUnique: true),
        .init(name: "by city", columns: ["city"], isUnique: false),
      ])
    XCTAssertEqual(
      try db.query("PRAGMA index_info('Indexed_on_first_last')").map {
        try $0.get(String.self, "name")
      }, ["first", "last"])

    try db.save(Indexed(id: nil, first: "Ann", last: "Lee", city: "Oslo", age: 30))
    try db.save(Indexed(id: nil, first: "Ann", last: "Kim", city: "Oslo", age: 30))
    try db.save(Indexed(id: nil, first: "Bob", last: "Lee", city: "Oslo", age: 30))
    XCTAssertThrowsError(
      try db.save(Indexed(id: nil, first: "Ann", last: "Lee", city: "Rome", age: 1))
    ) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .unique, "\($0)")
    }
    XCTAssertEqual(try db.count(Indexed.self), 3)
    let plan = try db.query("EXPLAIN QUERY PLAN SELECT * FROM Indexed WHERE age = 3").map {
      try $0.get(String.self, "detail")
    }.joined()
    XCTAssertTrue(plan.contains("Indexed_on_age"), plan)
    XCTAssertFalse(try db.needsMigration(Indexed.self))
  }

  func testDefaultsOfEveryKindAreWrittenAndStable() throws {
    let db = try open()
    try db.createTable(for: Defaults.self)
    try db.run("INSERT INTO Defaults DEFAULT VALUES")
    XCTAssertEqual(
      try db.findAll(Defaults.self),
      [
        Defaults(
          id: 1, smallest: .min, negative: -0.25, huge: 1e100, infinite: -.infinity,
          text: "it's \"quoted\"", bytes: Data([0xAB, 0x01]), flag: true, nothing: nil, list: ["a"])
      ])
    XCTAssertEqual(
      try db.scalar(
        String.self, "SELECT typeof(smallest) || typeof(huge) || typeof(bytes) FROM Defaults"),
      "integerrealblob")
    // The stored defaults read back equal to the model's: no migration on the next open.
    let plan = try open().migrationPlan(for: Defaults.self)
    XCTAssertTrue(plan.isEmpty, plan.description)
  }

  func testTableBecomingStrict() throws {
    struct Loose: Model, Equatable {
      var id: Int64?
      var name: String
      static let tableName = "Strictness"
      static let primaryKey = ["id"]
    }
    struct Strict: Model, Equatable {
      var id: Int64?
      var name: String
      static let tableName = "Strictness"
      static let primaryKey = ["id"]
      static let isStrict = true
    }
    let db = try open()
    try db.save(Loose(id: 1, name: "ok"))
    try db.run("INSERT INTO Strictness (id, name) VALUES (2, x'00')")  // a loose table keeps it
    let before = try db.snapshot()
    let other = try open()
    XCTAssertThrowsError(try other.migrate(Strict.self)) { error in
      guard case .constraintViolated(let table, _, _)? = error as? MigrationError else {
        return XCTFail("expected constraintViolated, got \(error)")
      }
      XCTAssertEqual(table, "Strictness")
    }
    XCTAssertEqual(try db.snapshot(), before)
    try db.run("DELETE FROM Strictness WHERE id = 2")
    let plan = try other.migrate(Strict.self)
    XCTAssertEqual(plan.changes, ["table became STRICT"])
    XCTAssertEqual(try open().findAll(Strict.self), [Strict(id: 1, name: "ok")])
    XCTAssertTrue(try XCTUnwrap(open().storedSQL("Strictness")).hasSuffix("STRICT"))
  }

  func testPerTargetTablesMigrateOnTheirOwn() throws {
    struct Chat: Model, Equatable {
      var id: Int64?
      var text: String
      static let primaryKey = ["id"]
      static let indexes = [TableIndex(["text"])]
    }
    struct ChatV2: Model, Equatable {
      var id: Int64?
      var body: String
      var read: Bool
      static let tableName = "Chat"
      static let primaryKey = ["id"]
      static let renamedProperties = ["body": "text"]
      static let columnConstraints: [String: [ColumnConstraint]] = ["read": [.default(false)]]
      static let indexes = [TableIndex(["body"])]
    }
    let db = try open()
    try db.save(Chat(id: nil, text: "one"), target: "a")
    try db.save(Chat(id: nil, text: "two"), target: "b")
    try db.close()
    let later = try open()
    XCTAssertEqual(try later.migrate(ChatV2.self, target: "a").strategy, .rebuild)
    XCTAssertEqual(
      try later.findAll(ChatV2.self, target: "a"), [ChatV2(id: 1, body: "one", read: false)])
    XCTAssertEqual(try later.indexNames("Chat_a"), ["Chat_a_on_body"])
    // Target b is untouched until used.
    XCTAssertEqual(try later.columnNames("Chat_b"), ["id", "text"])
    XCTAssertEqual(try later.indexNames("Chat_b"), ["Chat_b_on_text"])
    // A read never migrates; the first write does.
    XCTAssertThrowsError(try later.findAll(ChatV2.self, target: "b"))
    XCTAssertEqual(try later.columnNames("Chat_b"), ["id", "text"])
    try later.save(ChatV2(id: 2, body: "three", read: true), target: "b")
    XCTAssertEqual(
      try later.findAll(ChatV2.self, target: "b"),
      [ChatV2(id: 1, body: "two", read: false), ChatV2(id: 2, body: "three", read: true)])
    XCTAssertEqual(try later.indexNames("Chat_b"), ["Chat_b_on_body"])
    XCTAssertFalse(try open().needsMigration(ChatV2.self, target: "a"))
    XCTAssertFalse(try open().needsMigration(ChatV2.self, target: "b"))
  }

  func testPerTargetTablesGetTheirOwnExplicitlyNamedIndex() throws {
    struct Post: Model, Equatable {
      var id: Int64?
      var slug: String
      static let primaryKey = ["id"]
      static let indexes = [TableIndex(["slug"], unique: true, name: "post_slug")]
    }
    let db = try open()
    try db.save(Post(id: nil, slug: "a"))
    try db.save(Post(id: nil, slug: "a"), target: "1")
    try db.save(Post(id: nil, slug: "a"), target: "2")
    XCTAssertEqual(try db.indexNames("Post"), ["post_slug"])
    XCTAssertEqual(try db.indexNames("Post_1"), ["post_slug_Post_1"])
    XCTAssertEqual(try db.indexNames("Post_2"), ["post_slug_Post_2"])
    // Each unique index still applies to its own table.
    XCTAssertThrowsError(try db.insert(Post(id: nil, slug: "a"), target: "2"))
    XCTAssertFalse(try open().needsMigration(Post.self, target: "1"))
  }

  // MARK: Identifiers

  func testIdentifiersWithSpacesQuotesAndKeywords() throws {
    let db = try open()
    let table = "order \"items\" table"
    var first = Weird(id: nil, group: "g1", select: nil, quoted: 1)
    first.id = try db.insert(first)
    XCTAssertEqual(first.id, 1)
    let second = Weird(id: 7, group: "g2", select: "picked", quoted: 2)
    try db.save(second)
    XCTAssertTrue(try SchemaInspector(db).tableExists(table))
    XCTAssertEqual(
      try db.columnNames(table),
      ["primary key", "group by", "select", "say \"hi\"; DROP TABLE x; --"])
    XCTAssertEqual(
      try db.indexNames(table).filter { !$0.hasPrefix("sqlite_autoindex") },
      ["order \"items\" table_on_select_say \"hi\"; DROP TABLE x; --"])

    // nil optional is NULL, not the column default (the model says nil).
    XCTAssertEqual(try db.find(Weird.self, id: 1), first)
    XCTAssertEqual(try db.findAll(Weird.self, orderBy: "\"primary key\""), [first, second])
    XCTAssertEqual(
      try db.findAll(Weird.self, where: "\"group by\" = ?", ["g2"]), [second])
    XCTAssertEqual(
      try db.findAll(Weird.self, where: "\"say \"\"hi\"\"; DROP TABLE x; --\" > :n", ["n": 1]),
      [second])
    XCTAssertThrowsError(try db.insert(Weird(id: nil, group: "g1", select: nil, quoted: 3))) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .unique, "\($0)")
    }
    var changed = second
    changed.select = "changed"
    try db.update(changed)
    XCTAssertEqual(try db.find(Weird.self, id: 7), changed)
    XCTAssertTrue(try db.exists(Weird.self, id: 7))
    XCTAssertEqual(try db.count(Weird.self, where: "\"select\" IS NULL"), 1)
    // The default is written as a literal with its quote doubled.
    try db.run(
      "INSERT INTO " + SQLIdentifier.quote(table)
        + " (\"group by\", \"say \"\"hi\"\"; DROP TABLE x; --\") VALUES ('g9', 9)")
    XCTAssertEqual(try db.findAll(Weird.self, where: "\"group by\" = 'g9'").first?.select, "it's")
    try db.delete(Weird.self, id: 7)
    XCTAssertEqual(try db.count(Weird.self), 2)

    // A rebuild (rename) and an added column with these names, on a new connection.
    let later = try open()
    let plan = try later.migrate(WeirdV2.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(
      try later.findAll(WeirdV2.self, orderBy: "\"primary key\""),
      [
        WeirdV2(id: 1, group: "g1", from: nil, quoted: 1, whereValue: 0),
        WeirdV2(id: 8, group: "g9", from: "it's", quoted: 9, whereValue: 0),
      ])
    XCTAssertEqual(
      try later.indexNames(table).filter { !$0.hasPrefix("sqlite_autoindex") },
      ["order \"items\" table_on_from_say \"hi\"; DROP TABLE x; --"])
    XCTAssertFalse(try later.needsMigration(WeirdV2.self))
    XCTAssertEqual(try later.scalar(String.self, "PRAGMA integrity_check"), "ok")

    // A table named by a keyword, and per-target tables with quotes in the target.
    try later.save(Order(id: nil, table: "t"))
    try later.save(Order(id: nil, table: "u"), target: "chat \"1\"; --")
    XCTAssertEqual(try later.findAll(Order.self).map(\.table), ["t"])
    XCTAssertEqual(try later.findAll(Order.self, target: "chat \"1\"; --").map(\.table), ["u"])
    XCTAssertTrue(try SchemaInspector(later).tableExists("order_chat \"1\"; --"))
  }
}

private struct NaNDefault: Model {
  var id: Int64
  var reading: Double?
  static let primaryKey = ["id"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["reading": [.default(.real(.nan))]]
}

final class ModelSchemaDefaultTests: ModelTestCase {
  /// `DEFAULT nan` is an identifier to SQLite, stored as the text 'nan' in every row that
  /// takes the default (unreadable as a Double); SQLite cannot store NaN. Refuse it.
  func testANaNDefaultIsRefusedNamingTheColumn() throws {
    let error = thrownError(ModelError.self) { _ = try TableSchema(NaNDefault.self) }
    guard case .invalidDeclaration(_, let reason)? = error else {
      return XCTFail("expected invalidDeclaration, got \(String(describing: error))")
    }
    XCTAssertTrue(reason.contains("reading") && reason.contains("NaN"), reason)
    let db = try open()
    XCTAssertThrowsError(try db.save(NaNDefault(id: 1, reading: 1)))
    XCTAssertEqual(try SchemaInspector(db).tableNames(), [])
  }
}

/// A hand-written Codable that decodes optionals with `decode(T?.self, forKey:)`, as many
/// do, instead of `decodeIfPresent`.
private struct ExplicitOptionals: Model, Equatable {
  var id: Int64
  var score: Double?
  var tags: [String]?
  static let primaryKey = ["id"]
  enum CodingKeys: String, CodingKey { case id, score, tags }
  init(id: Int64, score: Double?, tags: [String]?) {
    self.id = id
    self.score = score
    self.tags = tags
  }
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    score = try container.decode(Double?.self, forKey: .score)
    tags = try container.decode([String]?.self, forKey: .tags)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(score, forKey: .score)
    try container.encode(tags, forKey: .tags)
  }
}

final class ModelSchemaOptionalTests: ModelTestCase {
  /// `decode(Double?.self, forKey:)` declares an optional just as `decodeIfPresent` does:
  /// the column is nullable, and nil is stored as NULL (not as the JSON text 'null').
  func testOptionalsDecodedExplicitlyAreNullable() throws {
    let schema = try TableSchema(ExplicitOptionals.self)
    XCTAssertEqual(schema.column(named: "score")?.isNotNull, false)
    XCTAssertEqual(schema.column(named: "score")?.type, "REAL")
    XCTAssertEqual(schema.column(named: "tags")?.isNotNull, false)
    let db = try open()
    let models = [
      ExplicitOptionals(id: 1, score: nil, tags: nil),
      ExplicitOptionals(id: 2, score: 0.5, tags: ["a"]),
    ]
    try db.save(models)
    XCTAssertEqual(
      try db.dump("ExplicitOptionals"),
      ["INTEGER:1|NULL:NULL|NULL:NULL", "INTEGER:2|REAL:0.5|TEXT:'[\"a\"]'"])
    XCTAssertEqual(try db.findAll(ExplicitOptionals.self, orderBy: "id"), models)
  }
}

/// A model whose init(from:) validates what it decodes, as real models do.
private struct ValidatedEmail: Model {
  var id: Int64
  var email: String
  static let primaryKey = ["id"]
  enum CodingKeys: String, CodingKey { case id, email }
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    email = try container.decode(String.self, forKey: .email)
    guard email.contains("@") else {
      throw DecodingError.dataCorruptedError(
        forKey: .email, in: container, debugDescription: "not an email")
    }
  }
}

final class ModelSchemaProbeErrorTests: ModelTestCase {
  /// The schema is inferred by decoding placeholder values; an init(from:) that refuses
  /// them must be told so, not that it should "decode with a keyed container", which it does.
  func testAValidatingInitIsToldItRefusedThePlaceholders() throws {
    let error = thrownError(ModelError.self) { _ = try TableSchema(ValidatedEmail.self) }
    guard case .cannotInferType(_, let property, _, let hint)? = error else {
      return XCTFail("expected cannotInferType, got \(String(describing: error))")
    }
    XCTAssertEqual(property, "email")
    XCTAssertFalse(hint.contains("keyed container"), hint)
    XCTAssertTrue(hint.contains("placeholder") && hint.contains("not an email"), hint)
  }
}

private enum PlainMood: String, Codable, CaseIterable { case happy, sad }
private enum ConvertibleMood: String, Codable, CaseIterable, SQLiteValueConvertible {
  case happy, sad
}

private struct Email: Codable, Equatable {
  let address: String
  init(_ address: String) { self.address = address }
  init(from decoder: any Decoder) throws {
    address = try decoder.singleValueContainer().decode(String.self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(address)
  }
}

private struct DiaryWithPlainMood: Model {
  var id: Int64
  var mood: PlainMood
  static let primaryKey = ["id"]
}

private struct DiaryWithOptionalPlainMood: Model {
  var id: Int64
  var mood: PlainMood?
  static let primaryKey = ["id"]
}

private struct ContactWithEmail: Model {
  var id: Int64
  var email: Email
  static let primaryKey = ["id"]
}

private struct Diary: Model, Equatable {
  var id: Int64
  var mood: ConvertibleMood
  var moods: [PlainMood]
  static let primaryKey = ["id"]
}

final class ModelSingleValueTests: ModelTestCase {
  /// A type that decodes from one plain value would be stored as quoted JSON (`'"sad"'`),
  /// which `WHERE mood = 'sad'` never matches: it must declare SQLiteValueConvertible.
  func testSingleValueTypesMustDeclareTheirStorage() throws {
    let db = try open()
    for (property, attempt) in [
      ("mood", { try db.createTable(for: DiaryWithPlainMood.self) }),
      ("mood", { try db.createTable(for: DiaryWithOptionalPlainMood.self) }),
      ("email", { try db.createTable(for: ContactWithEmail.self) }),
    ] as [(String, () throws -> Void)] {
      let error = thrownError(ModelError.self, attempt)
      guard case .cannotInferType(_, let named, _, let hint)? = error else {
        XCTFail("expected cannotInferType for \(property), got \(String(describing: error))")
        continue
      }
      XCTAssertEqual(named, property)
      XCTAssertTrue(hint.contains("SQLiteValueConvertible"), hint)
    }
    XCTAssertEqual(try SchemaInspector(db).tableNames(), [])
  }

  func testDeclaredEnumsAreStoredAsTheirRawValueAndArraysOfThemAsJSON() throws {
    let db = try open()
    try db.save(Diary(id: 1, mood: .sad, moods: [.happy, .sad]))
    XCTAssertEqual(try db.scalar(String.self, "SELECT mood FROM Diary"), "sad")
    XCTAssertEqual(try db.scalar(String.self, "SELECT moods FROM Diary"), #"["happy","sad"]"#)
    XCTAssertEqual(
      try db.findAll(Diary.self, where: "mood = ?", ["sad"]),
      [Diary(id: 1, mood: .sad, moods: [.happy, .sad])])
  }
}
