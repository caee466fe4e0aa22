import Foundation

// The bytes of a changeset are walked once before SQLite reads them: SQLite 3.40 trusts
// their framing, and a table header cut short (a name without its terminating NUL) makes
// `sqlite3changeset_next` loop forever instead of failing. The format, from SQLite's
// sqlite3session.c:
//
//   table:  'T' (changeset) or 'P' (patchset), varint column count, one byte per column
//           (its place in the primary key, from 1; 0 for other columns), the table name and
//           a NUL; then its changes.
//   change: operation (SQLITE_INSERT 18, SQLITE_UPDATE 23, SQLITE_DELETE 9), indirect flag
//           (one byte), then records: INSERT new; DELETE old (patchset: key columns only);
//           UPDATE old then new (patchset: new only).
//   value:  0 undefined, 1 INTEGER (8 bytes), 2 REAL (8 bytes), 3 TEXT / 4 BLOB (varint
//           length, bytes), 5 NULL.
//
// A session never records a row whose key holds NULL, so a record that identifies a row
// (INSERT, DELETE, the old record of an UPDATE, a patchset's UPDATE) has an INTEGER, REAL,
// TEXT or BLOB in every key column. SQLite relies on it: concatenating reads a key's value
// by its type, and an undefined or NULL key makes it read past the bytes. INSERT and a
// changeset's DELETE carry every value, so none of theirs is undefined either.
extension Changeset {
  /// A table header of the bytes: what an apply checks against the receiving table.
  struct TableHeader {
    let name: String
    let columnCount: Int
    let primaryKey: [Bool]
  }

  /// Walks the bytes once and returns their table headers, in order (a table may come
  /// back more than once); values are not interpreted beyond their framing. Cheaper than
  /// SQLite's iterator, which decodes every value.
  /// - Throws: ``ChangesetError/malformed(_:)`` unless `data` is framed as a changeset or a
  ///   patchset.
  @discardableResult
  static func validateFraming(_ data: Data) throws -> [TableHeader] {
    var headers: [TableHeader] = []
    try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let bytes = raw.bindMemory(to: UInt8.self)
      var reader = FramingReader(bytes: bytes)
      var columns = 0
      var keyColumns = 0
      var isPatchset = false
      var inTable = false
      // Each table's key flags (one per column), by its name as SQLite matches names.
      var shapes: [SQLName: [UInt8]] = [:]
      while !reader.isAtEnd {
        let byte = try reader.byte()
        switch byte {
        case UInt8(ascii: "T"), UInt8(ascii: "P"):
          if inTable, isPatchset != (byte == UInt8(ascii: "P")) {
            throw reader.error("a changeset table and a patchset table in the same bytes")
          }
          isPatchset = byte == UInt8(ascii: "P")
          columns = try reader.varint()
          guard columns > 0, columns <= 32_767 else { throw reader.error("a bad column count") }
          keyColumns = 0
          // A key column's flag is its place in the primary key (1, 2, ...), 0 for others.
          var flags: [UInt8] = []
          flags.reserveCapacity(columns)
          for _ in 0..<columns { flags.append(try reader.byte()) }
          let key = flags.map { $0 != 0 }
          keyColumns = key.lazy.filter { $0 }.count
          guard keyColumns > 0 else { throw reader.error("a table without a primary key column") }
          let name = try reader.name()
          if let shape = shapes.updateValue(flags, forKey: SQLName(name)), shape != flags {
            // SQLite reads a table named again with the shape it first had.
            throw reader.error("table \"\(name)\" named again with other columns or key")
          }
          headers.append(TableHeader(name: name, columnCount: columns, primaryKey: key))
          inTable = true
        case 18, 23, 9:
          guard inTable else { throw reader.error("a change before any table header") }
          guard try reader.byte() <= 1 else { throw reader.error("a bad indirect flag") }
          let key = headers[headers.count - 1].primaryKey
          switch (byte, isPatchset) {
          case (18, _), (9, false): try reader.skipRecord(key, keyed: true, every: true)
          case (9, true): try reader.skipKeys(keyColumns)
          case (23, false):
            try reader.skipRecord(key, keyed: true, every: false)
            try reader.skipRecord(key, keyed: false, every: false)
          default: try reader.skipRecord(key, keyed: true, every: false)
          }
        default:
          throw reader.error("an unknown byte \(byte) where a table or a change starts")
        }
      }
    }
    return headers
  }
}

/// Reads the framing of a changeset, each read checked against the end.
private struct FramingReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0

  var isAtEnd: Bool { offset >= bytes.count }

  func error(_ what: String) -> ChangesetError {
    .malformed("\(what) at byte \(offset) of \(bytes.count)")
  }

  @inline(__always) mutating func byte() throws -> UInt8 {
    guard offset < bytes.count else { throw error("the bytes end early") }
    defer { offset &+= 1 }
    return bytes[offset]
  }

  /// SQLite's variable-length integer: 7 bits per byte, high bit set on all but the last,
  /// at most 9 bytes (the ninth gives 8 bits).
  mutating func varint() throws -> Int {
    var value: UInt64 = 0
    for index in 0..<9 {
      let next = try byte()
      if index == 8 {
        value = (value << 8) | UInt64(next)
        break
      }
      value = (value << 7) | UInt64(next & 0x7F)
      if next & 0x80 == 0 { break }
    }
    guard value <= UInt64(Int32.max) else { throw error("a length out of range") }
    return Int(value)
  }

  @inline(__always) mutating func skip(_ count: Int) throws {
    guard count >= 0, count <= bytes.count - offset else { throw error("the bytes end early") }
    offset &+= count
  }

  /// A NUL-terminated name.
  mutating func name() throws -> String {
    let start = offset
    while try byte() != 0 {}
    let bytes = UnsafeBufferPointer(rebasing: self.bytes[start..<(offset - 1)])
    guard let name = String(validating: bytes, as: UTF8.self) else {
      throw error("a table name that is not UTF-8")
    }
    return name
  }

  /// One value per column of `key` (true for a primary key column). With `keyed`, a key
  /// column must hold a value that is not NULL; with `every`, no value may be undefined.
  mutating func skipRecord(_ key: [Bool], keyed: Bool, every: Bool) throws {
    for isKey in key {
      let type = try value()
      if type == 0, every { throw error("an undefined value in a record that has them all") }
      if keyed, isKey, type == 0 || type == 5 {
        throw error("a key column without a value")
      }
    }
  }

  /// A patchset's DELETE: the key columns only, each with a value that is not NULL.
  mutating func skipKeys(_ count: Int) throws {
    for _ in 0..<count {
      let type = try value()
      if type == 0 || type == 5 { throw error("a key column without a value") }
    }
  }

  /// Skips one value and returns its type byte.
  private mutating func value() throws -> UInt8 {
    let type = try byte()
    switch type {
    case 0, 5: break
    case 1, 2: try skip(8)
    case 3, 4: try skip(try varint())
    default: throw error("an unknown value type")
    }
    return type
  }
}
