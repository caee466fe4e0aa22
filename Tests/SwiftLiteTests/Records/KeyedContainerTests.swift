import Foundation
import XCTest

@testable import SwiftLite

/// A model whose own `Codable` asks for its keyed container twice per value, and keeps the
/// last decoding container it was given.
private struct Twice: Model, Equatable {
  var id: Int64
  var name: String
  static let primaryKey = ["id"]

  enum CodingKeys: String, CodingKey { case id, name }

  nonisolated(unsafe) static var lastContainer: KeyedDecodingContainer<CodingKeys>?

  init(id: Int64, name: String) { (self.id, self.name) = (id, name) }

  init(from decoder: any Decoder) throws {
    id = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .id)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    Self.lastContainer = container
  }

  func encode(to encoder: any Encoder) throws {
    var first = encoder.container(keyedBy: CodingKeys.self)
    try first.encode(id, forKey: .id)
    var second = encoder.container(keyedBy: CodingKeys.self)
    try second.encode(name, forKey: .name)
  }
}

/// Another model with keys of its own, read by the same decoder as `Twice`.
private struct Other: Codable, Equatable {
  var name: String
  var id: Int64
}

/// A model that asks for a nested container (which a row cannot hold) when `nested` is set.
private struct Sometimes: Model {
  var id: Int64
  var nested: Bool
  static let primaryKey = ["id"]

  enum CodingKeys: String, CodingKey { case id, nested }

  init(id: Int64, nested: Bool) { (self.id, self.nested) = (id, nested) }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    nested = try container.decode(Bool.self, forKey: .nested)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    if nested {
      _ = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .nested)
    } else {
      try container.encode(nested, forKey: .nested)
    }
  }
}

/// The keyed containers the row decoder and encoder hand out are kept between values:
/// each value still reads and writes its own row, whatever the key types in turn, and a
/// container kept beyond its decoder's life fails instead of reading freed memory.
final class KeyedContainerTests: SQLiteTestCase {
  override func tearDownWithError() throws {
    Twice.lastContainer = nil
    try super.tearDownWithError()
  }

  func testEachValueReadsAndWritesItsOwnRow() throws {
    for id in 1...5 { try db.insert(Twice(id: Int64(id), name: "n\(id)")) }
    try db.save(Twice(id: 3, name: "three"))
    XCTAssertEqual(
      try db.findAll(Twice.self, orderBy: "id").map(\.name), ["n1", "n2", "three", "n4", "n5"])
    for id in [4, 1, 3] {
      XCTAssertEqual(try db.find(Twice.self, id: id)?.name, id == 3 ? "three" : "n\(id)")
    }
  }

  func testOneDecoderReadsTypesWithOtherKeysInTurn() throws {
    let rows = try db.query("SELECT 1 AS id, 'a' AS name UNION ALL SELECT 2, 'b' ORDER BY 1")
    let decoder = RowDecoder()
    for _ in 0..<2 {
      XCTAssertEqual(try decoder.decode(Twice.self, from: rows[0]), Twice(id: 1, name: "a"))
      XCTAssertEqual(try decoder.decode(Other.self, from: rows[1]), Other(name: "b", id: 2))
      XCTAssertEqual(try decoder.decode(Twice.self, from: rows[1]), Twice(id: 2, name: "b"))
    }
  }

  func testAContainerUsedAfterItsDecoderWentAwayThrows() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT 1 AS id, 'a' AS name"))
    var decoder: RowDecoder? = RowDecoder()
    XCTAssertEqual(try decoder?.decode(Twice.self, from: row), Twice(id: 1, name: "a"))
    weak let gone = decoder
    decoder = nil
    XCTAssertNil(gone, "the kept container keeps no decoder alive")
    let container = try XCTUnwrap(Twice.lastContainer)
    XCTAssertThrowsError(try container.decode(String.self, forKey: .name)) { error in
      guard case .keyNotFound? = error as? DecodingError else {
        return XCTFail("expected keyNotFound, got \(error)")
      }
    }
    XCTAssertFalse(container.contains(.name))
  }

  func testAContainerKeptBeyondItsDecoderDoesNotReadTheNextDecodersRow() throws {
    let first = try XCTUnwrap(try db.queryFirst("SELECT 1 AS id, 'a' AS name"))
    var decoder: RowDecoder? = RowDecoder()
    XCTAssertEqual(try decoder?.decode(Twice.self, from: first), Twice(id: 1, name: "a"))
    let container = try XCTUnwrap(Twice.lastContainer)
    decoder = nil
    // Decoders made now may take over what the gone one used to find its containers.
    let second = try XCTUnwrap(try db.queryFirst("SELECT 2 AS id, 'b' AS name"))
    let others = (0..<4).map { _ in RowDecoder() }
    for other in others {
      XCTAssertEqual(try other.decode(Other.self, from: second), Other(name: "b", id: 2))
    }
    XCTAssertThrowsError(try container.decode(String.self, forKey: .name)) { error in
      guard case .keyNotFound? = error as? DecodingError else {
        return XCTFail("expected keyNotFound, got \(error)")
      }
    }
    XCTAssertFalse(container.contains(.name))
  }

  func testARefusedValueFailsAloneAndTheNextOneIsWritten() throws {
    for round in 0..<2 {
      let base = Int64(round * 10)
      XCTAssertThrowsError(try db.insert(Sometimes(id: base + 1, nested: true))) { error in
        guard case .invalidValue(_, let context)? = error as? EncodingError else {
          return XCTFail("expected invalidValue, got \(error)")
        }
        XCTAssertEqual(context.codingPath.last?.stringValue, "nested")
      }
      try db.insert(Sometimes(id: base + 2, nested: false))
    }
    XCTAssertEqual(try db.findAll(Sometimes.self, orderBy: "id").map(\.id), [2, 12])
  }
}
