import Foundation
import SwiftLite

// How much of the model workloads' cost is Swift's Codable machinery itself: the same
// BenchItem encoded and decoded through an encoder that only sums and a decoder that only
// hands back the next value of an array (no SQLite at all), against the raw C side of the
// model workloads. The ratio of these is the part of model_insert / model_fetchAll no
// encoder or decoder can remove. Both sides' checksums cover every value: the decoder's
// array holds what the raw side's table holds.

extension Workloads {
  static let codableFloor: [Workload] = [codableDecodeFloor, codableEncodeFloor]

  static let codableDecodeFloor = Workload(
    name: "codable_decode_floor",
    summary: "pure Codable: decode BenchItems from a decoder of an array (raw: C fetch)",
    target: nil,
    swiftLite: { trial in
      let decoder = ArrayDecoder(values: tableValues(trial))
      let items = try trial.time {
        var items: [BenchItem] = []
        for _ in 0..<trial.rows { items.append(try BenchItem(from: decoder)) }
        return items
      }
      return items.reduce(0) { sum, item in
        sum &+ item.id &+ item.c1 &+ item.c2 &+ item.c3 &+ item.c4 &+ item.c5 &+ item.c6
          &+ item.c7 &+ item.c8 &+ item.c9
      }
    },
    raw: { trial in
      let db = RawDatabase(path: try modelDatabase(trial, rows: trial.rows))
      let items = trial.time {
        rawFetchItems(db, "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM bench_item")
      }
      return items.reduce(0) { $0 &+ $1.sum }
    })

  static let codableEncodeFloor = Workload(
    name: "codable_encode_floor",
    summary: "pure Codable: encode BenchItems into an encoder that sums (raw: C insert)",
    target: nil,
    swiftLite: { trial in
      let items = benchItems(trial)
      let encoder = SummingEncoder()
      // The raw side's checksum (modelChecksumSQL), one remainder per item.
      let sum = try trial.time {
        try items.reduce(Int64(0)) { sum, item in
          try item.encode(to: encoder)
          defer { encoder.sum = 0 }
          return sum &+ encoder.sum % 1_000_000_007
        }
      }
      return Int64(items.count) &* 1_000_000_007 &+ sum
    },
    raw: rawModelInsert)

  /// The values of the table `modelDatabase(trial, rows: trial.rows)` fills, row after
  /// row, in the columns' order.
  private static func tableValues(_ trial: Trial) -> [Int64] {
    let v = trial.fixtures.values
    var values: [Int64] = []
    values.reserveCapacity(trial.rows * 10)
    for row in 0..<trial.rows {
      values.append(Int64(row + 1))
      values += v[(row * 10 + 1)..<(row * 10 + 10)]
    }
    return values
  }
}

/// A decoder whose every Int64 is the next value of an array: the least work a decoder can
/// do.
private final class ArrayDecoder: Decoder {
  let values: [Int64]
  var next = 0
  init(values: [Int64]) { self.values = values }
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
    let decoder: ArrayDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      defer { decoder.next &+= 1 }
      return decoder.values[decoder.next]
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
