import Foundation
import SwiftLite

// How much of the model workloads' cost is Swift's Codable machinery itself: the same
// BenchItem encoded and decoded through encoders/decoders that do nothing but hand back
// constants (no SQLite at all), against the raw C side of the model workloads. The ratio
// of these is the part of model_insert / model_fetchAll no encoder or decoder can remove.

extension Workloads {
  static let codableFloor: [Workload] = [codableDecodeFloor, codableEncodeFloor]

  static let codableDecodeFloor = Workload(
    name: "codable_decode_floor",
    summary: "pure Codable: decode BenchItems from a decoder of constants (raw: C fetch)",
    target: nil,
    swiftLite: { trial in
      let decoder = ConstantDecoder()
      let items = try trial.time {
        var items: [BenchItem] = []
        for _ in 0..<trial.rows { items.append(try BenchItem(from: decoder)) }
        return items
      }
      return Int64(items.count)
    },
    raw: { trial in
      let db = RawDatabase(path: try modelDatabase(trial, rows: trial.rows))
      let items = trial.time {
        rawFetchItems(db, "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM bench_item")
      }
      return Int64(items.count)
    })

  static let codableEncodeFloor = Workload(
    name: "codable_encode_floor",
    summary: "pure Codable: encode BenchItems into an encoder that sums (raw: C insert)",
    target: nil,
    swiftLite: { trial in
      let items = benchItems(trial)
      let encoder = SummingEncoder()
      try trial.time { for item in items { try item.encode(to: encoder) } }
      return Int64(trial.rows)
    },
    raw: { trial in
      _ = try rawModelInsert(trial)
      return Int64(trial.rows)
    })
}

/// A decoder whose every Int64 is the next integer: the least work a decoder can do.
private final class ConstantDecoder: Decoder {
  var next: Int64 = 0
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Keyed<Key>(decoder: self))
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw unsupported }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw unsupported }
  private var unsupported: DecodingError {
    .dataCorrupted(.init(codingPath: [], debugDescription: "keyed Int64 only"))
  }

  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ConstantDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      decoder.next &+= 1
      return decoder.next
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      throw decoder.unsupported
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    { throw decoder.unsupported }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw decoder.unsupported
    }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
  }
}

/// An encoder that only sums the Int64 values it is given.
private final class SummingEncoder: Encoder {
  var sum: Int64 = 0
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(Keyed<Key>(encoder: self))
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    preconditionFailure("keyed Int64 only")
  }
  func singleValueContainer() -> any SingleValueEncodingContainer {
    preconditionFailure("keyed Int64 only")
  }

  struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: SummingEncoder
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.sum &+= value }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      preconditionFailure("keyed Int64 only")
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> { preconditionFailure("keyed Int64 only") }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      preconditionFailure("keyed Int64 only")
    }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
  }
}
