import SwiftLite
import XCTest

// Keys bound straight to the statement in the order a model encodes them, and the key
// order a decoder learns from the first row: models that change it, skip keys or repeat
// them.

/// Encodes its keys in a different order on each call, and skips `note` when it is empty.
private final class ShufflingCounter: @unchecked Sendable {
  var calls = 0
}
private let shuffling = ShufflingCounter()

private struct RPShuffled: Model, Equatable {
  var id: Int64
  var name: String
  var count: Int
  var note: String?
  static let primaryKey = ["id"]

  enum CodingKeys: String, CodingKey { case id, name, count, note }

  init(id: Int64, name: String, count: Int, note: String?) {
    (self.id, self.name, self.count, self.note) = (id, name, count, note)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    shuffling.calls += 1
    if shuffling.calls % 2 == 0 {
      if let note { try container.encode(note, forKey: .note) }
      try container.encode(count, forKey: .count)
      try container.encode(name, forKey: .name)
      try container.encode(id, forKey: .id)
    } else {
      try container.encode(id, forKey: .id)
      try container.encode(name, forKey: .name)
      if let note { try container.encode(note, forKey: .note) }
      try container.encode(count, forKey: .count)
    }
  }
}

/// Decodes `a` or `b` depending on `kind`: the keys asked for differ from row to row.
private struct RPBranching: Model, Equatable {
  var id: Int64
  var kind: String
  var a: Int?
  var b: String?
  static let primaryKey = ["id"]

  enum CodingKeys: String, CodingKey { case id, kind, a, b }

  init(id: Int64, kind: String, a: Int?, b: String?) {
    (self.id, self.kind, self.a, self.b) = (id, kind, a, b)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    kind = try container.decode(String.self, forKey: .kind)
    if kind == "a" {
      a = try container.decode(Int.self, forKey: .a)
      b = nil
    } else {
      b = try container.decode(String.self, forKey: .b)
      a = nil
    }
    id = try container.decode(Int64.self, forKey: .id)
  }
}

/// A key encoded twice: the last value is the one stored, also when it is nil.
private struct RPTwice: Model, Equatable {
  var id: Int64
  var value: Int?
  static let primaryKey = ["id"]
  enum CodingKeys: String, CodingKey { case id, value }
  init(id: Int64, value: Int?) { (self.id, self.value) = (id, value) }
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    value = try container.decodeIfPresent(Int.self, forKey: .value)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(999, forKey: .value)
    try container.encodeIfPresent(value, forKey: .value)
    if value == nil { try container.encodeNil(forKey: .value) }
  }
}

/// Properties declared in another order than the table's columns, with an Int8.
private struct RPNarrow: Model, Equatable {
  var small: Int8
  var id: Int64
  static let tableName = "RPNarrowTable"
  static let primaryKey = ["id"]
}

/// Every common kind of property, bound straight to the statement by a save.
private struct RPKinds: Model, Equatable {
  enum Mood: String, Codable, SQLiteValueConvertible, CaseIterable { case calm, busy }
  struct Place: Codable, Equatable {
    var city: String
    var floor: Int
  }
  var id: Int64
  var flag: Bool
  var when: Date
  var bytes: Data
  var mood: Mood
  var place: Place
  var big: UInt64
  var maybe: Place?
  static let primaryKey = ["id"]
}

/// Two model types over one table, their properties declared in other orders.
private struct RPSharedA: Model, Equatable {
  var id: Int64
  var name: String
  var count: Int
  static let tableName = "RPShared"
  static let primaryKey = ["id"]
}

private struct RPSharedB: Model, Equatable {
  var count: Int
  var name: String
  var id: Int64
  static let tableName = "RPShared"
  static let primaryKey = ["id"]
}

final class CodableKeyOrderTests: SQLiteTestCase {
  /// Pins: a model that encodes its keys in another order each call, and skips one, is
  /// stored as it is every time (keys bound straight to the statement).
  func testAModelEncodingKeysInAnotherOrderEachCallIsStoredAsItIs() throws {
    let models = (1...6).map {
      RPShuffled(id: $0, name: "n\($0)", count: Int($0) * 10, note: $0 % 3 == 0 ? nil : "x\($0)")
    }
    try db.save(models)
    for model in models { try db.save(model) }
    XCTAssertEqual(try db.findAll(RPShuffled.self, orderBy: "id"), models)
    // A model saved after one with a note: its skipped note must be NULL, not the last one.
    try db.save(RPShuffled(id: 1, name: "n1", count: 10, note: nil))
    XCTAssertNil(try db.find(RPShuffled.self, id: 1)?.note)
  }

  /// Pins: a decoder whose rows ask for different keys reads each row right, from a query
  /// whose columns come in another order, with one the model does not know.
  func testADecoderAskingForOtherKeysRowByRowReadsEachRow() throws {
    try db.execute(
      "CREATE TABLE RPBranching (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, a INTEGER, b TEXT)")
    try db.execute(
      "INSERT INTO RPBranching VALUES (1, 'a', 1, NULL), (2, 'b', NULL, 'two'), "
        + "(3, 'a', 3, NULL), (4, 'b', NULL, 'four')")
    let models = [
      RPBranching(id: 1, kind: "a", a: 1, b: nil), RPBranching(id: 2, kind: "b", a: nil, b: "two"),
      RPBranching(id: 3, kind: "a", a: 3, b: nil), RPBranching(id: 4, kind: "b", a: nil, b: "four"),
    ]
    XCTAssertEqual(
      try db.fetchAll(RPBranching.self, SQL("SELECT * FROM RPBranching ORDER BY id")), models)
    XCTAssertEqual(
      try db.fetchAll(
        RPBranching.self, SQL("SELECT b, 'x' AS extra, id, a, kind FROM RPBranching ORDER BY id")),
      models)
  }

  /// Pins: a key encoded twice stores the last value, NULL included.
  func testAKeyEncodedTwiceStoresTheLastValue() throws {
    try db.save([RPTwice(id: 1, value: 5), RPTwice(id: 2, value: nil)])
    XCTAssertEqual(
      try db.findAll(RPTwice.self, orderBy: "id"),
      [RPTwice(id: 1, value: 5), RPTwice(id: 2, value: nil)])
  }

  /// A value too large for an Int8 property, written by another program: a typed error
  /// naming the column, never a truncated value.
  func testAnInt8PropertyRefusesAStoredValueItCannotHold() throws {
    try db.save(RPNarrow(small: 1, id: 1))
    try db.execute("UPDATE RPNarrowTable SET small = 300 WHERE id = 1")
    XCTAssertThrowsError(try db.find(RPNarrow.self, id: 1))
    XCTAssertThrowsError(try db.findAll(RPNarrow.self))
    try db.execute("UPDATE RPNarrowTable SET small = '7x' WHERE id = 1")
    XCTAssertThrowsError(try db.find(RPNarrow.self, id: 1))
    try db.execute("UPDATE RPNarrowTable SET small = 2.5 WHERE id = 1")
    XCTAssertThrowsError(try db.find(RPNarrow.self, id: 1))
  }

  /// Pins: a save that fails half-way through binding (a UInt64 above Int64.max, bound
  /// after other columns) leaves nothing behind for the next save through the same
  /// statement; Bool, Date, Data, enums and nested JSON round-trip.
  func testAFailedSaveLeavesNothingForTheNextAndEveryKindRoundTrips() throws {
    let when = Date(timeIntervalSince1970: 1_700_000_000.5)
    let first = RPKinds(
      id: 1, flag: true, when: when, bytes: Data([0, 1, 2]), mood: .busy,
      place: .init(city: "Oslo", floor: 3), big: 7, maybe: .init(city: "Rome", floor: 1))
    try db.save(first)
    var bad = first
    bad.id = 2
    bad.flag = false
    bad.big = .max
    bad.maybe = nil
    XCTAssertThrowsError(try db.save(bad))
    let second = RPKinds(
      id: 3, flag: false, when: when, bytes: Data(), mood: .calm,
      place: .init(city: "Lima", floor: 0), big: 0, maybe: nil)
    try db.save(second)
    XCTAssertEqual(try db.findAll(RPKinds.self, orderBy: "id"), [first, second])
  }

  /// Pins: two model types sharing a table, properties in other orders, written and read
  /// alternately: each reads what the other wrote.
  func testTwoModelTypesSharingATableInOtherOrders() throws {
    for id in Int64(1)...6 {
      if id % 2 == 0 {
        try db.save(RPSharedA(id: id, name: "a\(id)", count: Int(id) * 10))
      } else {
        try db.save(RPSharedB(count: Int(id) * 10, name: "b\(id)", id: id))
      }
    }
    let asA = try db.findAll(RPSharedA.self, orderBy: "id")
    let asB = try db.findAll(RPSharedB.self, orderBy: "id")
    XCTAssertEqual(asA.map(\.count), [10, 20, 30, 40, 50, 60])
    XCTAssertEqual(asB.map(\.name), ["b1", "a2", "b3", "a4", "b5", "a6"])
    XCTAssertEqual(try db.find(RPSharedB.self, id: 4)?.count, 40)
  }
}
