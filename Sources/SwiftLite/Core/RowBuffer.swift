internal import CSQLite
import Foundation

/// The values of one or many materialized rows, compactly: one byte of storage class and
/// eight bytes of payload per value (the integer, the double's bits, or for TEXT and BLOB
/// an index into ``RowBufferHeader/texts`` or ``RowBufferHeader/blobs``), all in the one
/// allocation of the buffer object. Nine bytes per value where an array of ``SQLiteValue``
/// takes 24, and one allocation for a looked-up row, not three.
///
/// A result of many rows fills several buffers of growing size (see
/// ``Connection/query(_:_:)``): no buffer is ever copied to grow, so memory peaks at what
/// the rows take. A row keeps its buffer alive.
///
/// TEXT that is not valid UTF-8 cannot be a `String` without repairing it: it is kept as
/// a BLOB of its exact bytes with its own tag, so that reading it as a `String` still
/// fails (naming the column) and reading it as `Data` gives the bytes.
@usableFromInline final class RowBuffer: ManagedBuffer<RowBufferHeader, UInt64> {
  /// The storage class tags.
  @usableFromInline static let null: UInt8 = 0
  @usableFromInline static let integer: UInt8 = 1
  @usableFromInline static let real: UInt8 = 2
  @usableFromInline static let text: UInt8 = 3
  @usableFromInline static let blob: UInt8 = 4
  /// TEXT that is not valid UTF-8, its bytes in `blobs`.
  @usableFromInline static let invalidText: UInt8 = 5

  /// An empty buffer for `rows` rows of `layout`.
  static func make(layout: ColumnLayout, columns: Int, rows: Int) -> RowBuffer {
    let capacity = columns &* rows
    // The payloads, then one tag byte per value, rounded up to whole words.
    let words = capacity + (capacity + 7) / 8
    let buffer = create(minimumCapacity: Swift.max(words, 1)) { _ in
      RowBufferHeader(layout: layout, columnCount: columns, capacity: capacity)
    }
    return unsafeDowncast(buffer, to: RowBuffer.self)
  }

  /// A buffer holding one row of these values.
  static func make(layout: ColumnLayout, values: [SQLiteValue]) -> RowBuffer {
    let buffer = make(layout: layout, columns: values.count, rows: 1)
    for value in values { buffer.append(value) }
    return buffer
  }

  /// A buffer holding `statement`'s current row.
  static func make(currentRowOf statement: Statement) -> RowBuffer {
    let columns = statement.columnCount
    let buffer = make(layout: statement.layout, columns: columns, rows: 1)
    buffer.appendRow(of: statement.handle, columns: columns)
    return buffer
  }

  /// The number of columns of each row.
  @inlinable var columnCount: Int {
    withUnsafeMutablePointerToHeader { $0.pointee.columnCount }
  }

  var layout: ColumnLayout { withUnsafeMutablePointerToHeader { $0.pointee.layout } }

  /// The tag of the value at `index` (an index into the whole buffer).
  @usableFromInline func tag(at index: Int) -> UInt8 {
    withUnsafeMutablePointers { header, elements in
      UnsafeRawPointer(elements + header.pointee.capacity).load(
        fromByteOffset: index, as: UInt8.self)
    }
  }

  /// The payload of the value at `index`.
  @usableFromInline func payload(at index: Int) -> UInt64 {
    withUnsafeMutablePointerToElements { $0[index] }
  }

  @usableFromInline func text(at index: Int) -> String {
    withUnsafeMutablePointerToHeader {
      $0.pointee.texts[Int(truncatingIfNeeded: payload(at: index))]
    }
  }

  /// The bytes of a BLOB, or of TEXT that is not valid UTF-8.
  @usableFromInline func blob(at index: Int) -> Data {
    withUnsafeMutablePointerToHeader {
      $0.pointee.blobs[Int(truncatingIfNeeded: payload(at: index))]
    }
  }

  /// The value at `index`, or `nil` for TEXT that is not valid UTF-8.
  @usableFromInline func value(at index: Int) -> SQLiteValue? {
    let payload = payload(at: index)
    switch tag(at: index) {
    case Self.integer: return .integer(Int64(bitPattern: payload))
    case Self.real: return .real(Double(bitPattern: payload))
    case Self.text: return .text(text(at: index))
    case Self.blob: return .blob(blob(at: index))
    case Self.null: return .null
    default: return nil
    }
  }

  /// The exact bytes of a TEXT or BLOB value; empty for other classes.
  func bytes(at index: Int) -> Data {
    switch tag(at: index) {
    case Self.text: return Data(text(at: index).utf8)
    case Self.blob, Self.invalidText: return blob(at: index)
    default: return Data()
    }
  }

  // MARK: Writing

  /// Writes the next value's tag and payload.
  @inline(__always) private func write(_ tag: UInt8, _ payload: UInt64) {
    withUnsafeMutablePointers { header, elements in
      let index = header.pointee.count
      precondition(index < header.pointee.capacity, "row buffer overflow")
      elements[index] = payload
      UnsafeMutableRawPointer(elements + header.pointee.capacity).storeBytes(
        of: tag, toByteOffset: index, as: UInt8.self)
      header.pointee.count = index &+ 1
    }
  }

  private func appendText(_ text: String) {
    write(Self.text, UInt64(withUnsafeMutablePointerToHeader { $0.pointee.add(text: text) }))
  }

  private func appendBlob(_ bytes: Data, tag: UInt8) {
    write(tag, UInt64(withUnsafeMutablePointerToHeader { $0.pointee.add(blob: bytes) }))
  }

  /// Appends one value.
  func append(_ value: SQLiteValue) {
    switch value {
    case .integer(let number): write(Self.integer, UInt64(bitPattern: number))
    case .real(let number): write(Self.real, number.bitPattern)
    case .text(let text): appendText(text)
    case .blob(let bytes): appendBlob(bytes, tag: Self.blob)
    case .null: write(Self.null, 0)
    }
  }

  /// Appends the current row of the statement `handle`, `columns` values. One
  /// `sqlite3_column_value` and its `sqlite3_value_*` calls per value, as for a row read
  /// in place (see ``Statement/columnValue(at:)``); TEXT is validated while copied.
  func appendRow(of handle: OpaquePointer, columns: Int) {
    withUnsafeMutablePointers { header, elements in
      let start = header.pointee.count
      precondition(start + columns <= header.pointee.capacity, "row buffer overflow")
      let payloads = elements + start
      let tags = UnsafeMutableRawPointer(elements + header.pointee.capacity) + start
      for column in 0..<columns {
        let (tag, payload) = Self.read(handle, Int32(truncatingIfNeeded: column), into: header)
        payloads[column] = payload
        tags.storeBytes(of: tag, toByteOffset: column, as: UInt8.self)
      }
      header.pointee.count = start + columns
    }
  }

  /// One value of the current row: its tag and payload, TEXT and BLOB values appended to
  /// the header's lists.
  @inline(__always) private static func read(
    _ handle: OpaquePointer, _ column: Int32, into header: UnsafeMutablePointer<RowBufferHeader>
  ) -> (UInt8, UInt64) {
    guard let value = sqlite3_column_value(handle, column) else { return (null, 0) }
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER:
      return (integer, UInt64(bitPattern: sqlite3_value_int64(value)))
    case SQLITE_FLOAT:
      return (real, sqlite3_value_double(value).bitPattern)
    case SQLITE_TEXT:
      // The pointer first, then the length, as SQLite documents.
      guard let text = sqlite3_value_text(value) else {
        return (Self.text, UInt64(header.pointee.add(text: "")))
      }
      let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
      if let string = Statement.validUTF8(bytes) {
        return (Self.text, UInt64(header.pointee.add(text: string)))
      }
      return (invalidText, UInt64(header.pointee.add(blob: Data(buffer: bytes))))
    case SQLITE_BLOB:
      // A zero-length blob gives a NULL pointer.
      guard let bytes = sqlite3_value_blob(value) else {
        return (blob, UInt64(header.pointee.add(blob: Data())))
      }
      let data = Data(bytes: bytes, count: Int(sqlite3_value_bytes(value)))
      return (blob, UInt64(header.pointee.add(blob: data)))
    default:
      return (null, 0)
    }
  }
}

/// What a ``RowBuffer`` keeps besides its values' tags and payloads.
@usableFromInline struct RowBufferHeader {
  let layout: ColumnLayout
  @usableFromInline let columnCount: Int
  /// The number of values the buffer holds room for.
  @usableFromInline let capacity: Int
  /// The number of values written.
  var count = 0
  /// TEXT values, by the index in their payload.
  @usableFromInline var texts: ContiguousArray<String> = []
  /// BLOB values and TEXT that is not valid UTF-8, by the index in their payload.
  @usableFromInline var blobs: ContiguousArray<Data> = []

  init(layout: ColumnLayout, columnCount: Int, capacity: Int) {
    self.layout = layout
    self.columnCount = columnCount
    self.capacity = capacity
  }

  /// Keeps a text; returns its index.
  mutating func add(text: String) -> Int {
    texts.append(text)
    return texts.count - 1
  }

  /// Keeps a blob (or the bytes of invalid text); returns its index.
  mutating func add(blob: Data) -> Int {
    blobs.append(blob)
    return blobs.count - 1
  }
}
