import XCTest

@testable import SwiftLite

private enum Letters: CodingKey { case a, b }
private enum Others: CodingKey { case a, b }
private struct Numbered: CodingKey {
  let number: Int
  var stringValue: String { "c\(number)" }
  var intValue: Int? { nil }
  init(_ number: Int) { self.number = number }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}
/// A key of plain bytes whose name is read from outside them: the same bytes can name
/// another column on a later value.
private struct Relabelled: CodingKey {
  nonisolated(unsafe) static var names = ["a", "b"]
  let slot: UInt8
  var stringValue: String { Self.names[Int(slot)] }
  var intValue: Int? { nil }
  init(_ slot: UInt8) { self.slot = slot }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}
private struct Named: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// A key's bits find its learned column only for an enum key of the same type and bytes;
/// struct keys and keys holding references have none and go by name.
final class KeyBitsTests: XCTestCase {
  func testBitsMatchOnlyTheSameTypeAndBytes() throws {
    let a = try XCTUnwrap(KeyBits(Letters.a))
    XCTAssertTrue(a.matches(Letters.a))
    XCTAssertFalse(a.matches(Letters.b))
    XCTAssertFalse(a.matches(Others.a))
    XCTAssertNil(KeyBits(Numbered(7)), "a struct key goes by name")
    XCTAssertNil(KeyBits(Named(stringValue: "id")!))
  }

  func testAPlainBitsKeyDecodesEachRowByItsName() throws {
    struct Pair: Decodable, Equatable {
      var first: Int64
      var second: Int64
      init(first: Int64, second: Int64) { (self.first, self.second) = (first, second) }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Numbered.self)
        first = try container.decode(Int64.self, forKey: Numbered(1))
        second = try container.decode(Int64.self, forKey: Numbered(2))
      }
    }
    let db = try Connection(path: ":memory:")
    let rows = try db.query("SELECT 10 AS c2, 20 AS c1 UNION ALL SELECT 30, 40 ORDER BY 1")
    let decoder = RowDecoder()
    XCTAssertEqual(
      try rows.map { try decoder.decode(Pair.self, from: $0) },
      [
        Pair(first: 20, second: 10), Pair(first: 40, second: 30),
      ])
  }

  func testAStructKeyWhoseNameChangesFindsItsNewColumn() throws {
    struct First: Decodable {
      var value: Int64
      init(from decoder: any Decoder) throws {
        value = try decoder.container(keyedBy: Relabelled.self).decode(
          Int64.self, forKey: Relabelled(0))
      }
    }
    let db = try Connection(path: ":memory:")
    let row = try XCTUnwrap(try db.query("SELECT 1 AS a, 2 AS b").first)
    let decoder = RowDecoder()
    Relabelled.names = ["a", "b"]
    defer { Relabelled.names = ["a", "b"] }
    XCTAssertEqual(try decoder.decode(First.self, from: row).value, 1)
    Relabelled.names = ["b", "a"]
    XCTAssertEqual(try decoder.decode(First.self, from: row).value, 2)
  }
}
