internal import CSQLite
import Foundation

/// The values of one or many materialized rows, compactly: eight bytes of payload per value
/// (the integer, the double's bits, or for TEXT and BLOB an index into
/// ``RowBufferHeader/texts`` or ``RowBufferHeader/blobs``) and, once a value is not an
/// INTEGER, one byte of storage class per value. A buffer whose values are all INTEGER
/// keeps no classes at all: eight bytes per value where an array of ``SQLiteValue`` takes
/// 24, and one allocation for a looked-up row.
///
/// A result of many rows fills several buffers of growing size (see
/// ``Connection/query(_:_:)``): no buffer is ever copied to grow, so memory peaks at what
/// the rows take. A row keeps its buffer alive.
///
/// TEXT that is not valid UTF-8 cannot be a `String` without repairing it: it is kept as
/// a BLOB of its exact bytes with its own tag, so that reading it as a `String` still
/// fails (naming the column) and reading it as `Data` gives the bytes.
@usableFromInline final class RowBuffer: ManagedBuffer<RowBufferHeader, UInt64> {
  /// The storage class tags: constants that code inlined into clients folds, where a
  /// stored `static let` would be read through its accessor.
  @inlinable static var null: UInt8 { 0 }
  @inlinable static var integer: UInt8 { 1 }
  @inlinable static var real: UInt8 { 2 }
  @inlinable static var text: UInt8 { 3 }
  @inlinable static var blob: UInt8 { 4 }
  /// TEXT that is not valid UTF-8, its bytes in `blobs`.
  @inlinable static var invalidText: UInt8 { 5 }

  /// The most values a buffer keeps its tags for in its own allocation, after the
  /// payloads: a looked-up row, the first rows of a result. A larger buffer allocates them
  /// apart, only once a value is not an INTEGER.
  static let inlineTagsLimit = 64

  /// An empty buffer for `rows` rows of `layout`.
  static func make(layout: ColumnLayout, columns: Int, rows: Int) -> RowBuffer {
    let capacity = columns &* rows
    let inlineTags = capacity <= inlineTagsLimit
    // The payloads, then for a small buffer room for one tag byte per value, rounded up to
    // whole words.
    let words = capacity + (inlineTags ? (capacity + 7) / 8 : 0)
    let buffer = create(minimumCapacity: Swift.max(words, 1)) { _ in
      RowBufferHeader(
        layout: layout, columnCount: columns, capacity: capacity, inlineTags: inlineTags)
    }
    return unsafeDowncast(buffer, to: RowBuffer.self)
  }

  deinit {
    withUnsafeMutablePointerToHeader { header in
      if !header.pointee.inlineTags, let tags = header.pointee.tags { tags.deallocate() }
    }
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

  /// A buffer holding `statement`'s current row: the statement's spare buffer when no row
  /// holds it any more, so that looking rows up one by one allocates nothing, or else a
  /// new one, kept as the next spare unless its texts and blobs are large (a spare lives
  /// as long as its statement).
  static func make(reusingSpareOf statement: Statement) -> RowBuffer {
    let columns = statement.columnCount
    // A statement drops its spare when its columns change (see Statement.refreshColumns):
    // a spare has the statement's layout.
    if isKnownUniquelyReferenced(&statement.spareRow), let spare = statement.spareRow,
      spare.holdsOneRow(of: columns)
    {
      spare.removeAll()
      spare.appendRow(of: statement.handle, columns: columns)
      if !spare.isSmall { statement.spareRow = nil }
      return spare
    }
    let buffer = make(layout: statement.layout, columns: columns, rows: 1)
    buffer.appendRow(of: statement.handle, columns: columns)
    statement.spareRow = buffer.isSmall ? buffer : nil
    return buffer
  }

  /// The most bytes of text and blobs a spare buffer keeps alive.
  static let spareSideBytesLimit = 4096

  /// Whether this is a buffer of one row of `columns` values.
  private func holdsOneRow(of columns: Int) -> Bool {
    withUnsafeMutablePointerToHeader {
      $0.pointee.columnCount == columns && $0.pointee.capacity == columns
    }
  }

  /// Whether its texts and blobs are small enough for a spare.
  private var isSmall: Bool {
    withUnsafeMutablePointerToHeader { $0.pointee.sideBytes <= Self.spareSideBytesLimit }
  }

  /// Empties a buffer no row holds. Its tags, if it has any, stay: every value written
  /// from then on writes its tag.
  private func removeAll() {
    withUnsafeMutablePointerToHeader { header in
      header.pointee.count = 0
      if header.pointee.hasSideValues {
        header.pointee.sideBytes = 0
        header.pointee.hasSideValues = false
        header.pointee.texts.removeAll(keepingCapacity: true)
        header.pointee.blobs.removeAll(keepingCapacity: true)
      }
    }
  }

  /// The number of columns of each row.
  @inlinable var columnCount: Int {
    withUnsafeMutablePointerToHeader { $0.pointee.columnCount }
  }

  var layout: ColumnLayout { withUnsafeMutablePointerToHeader { $0.pointee.layout } }

  /// The tag of the value at `index` (an index into the whole buffer).
  @usableFromInline func tag(at index: Int) -> UInt8 {
    withUnsafeMutablePointerToHeader { header in
      guard let tags = header.pointee.tags else { return Self.integer }
      return tags.load(fromByteOffset: index, as: UInt8.self)
    }
  }

  /// The value at `index` of the row that starts at `base` when `index` is a column and
  /// the value an INTEGER, else `nil`. Inlined: a few loads, no call.
  @inlinable @inline(__always) func integer(at index: Int, base: Int) -> Int64? {
    withUnsafeMutablePointers { header, elements in
      guard UInt(bitPattern: index) < UInt(bitPattern: header.pointee.columnCount) else {
        return nil
      }
      let position = base &+ index
      if let tags = header.pointee.tags,
        tags.load(fromByteOffset: position, as: UInt8.self) != Self.integer
      {
        return nil
      }
      return Int64(bitPattern: elements[position])
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
  private func write(_ tag: UInt8, _ payload: UInt64) {
    withUnsafeMutablePointers { header, elements in
      let index = header.pointee.count
      precondition(index < header.pointee.capacity, "row buffer overflow")
      elements[index] = payload
      Self.store(tag, at: index, header, elements)
      header.pointee.count = index &+ 1
    }
  }

  /// Stores the tag of the value at `index`; nothing for an INTEGER while every value
  /// before it is one too. The first other value makes the tags, every earlier value an
  /// INTEGER.
  @inline(__always) private static func store(
    _ tag: UInt8, at index: Int, _ header: UnsafeMutablePointer<RowBufferHeader>,
    _ elements: UnsafeMutablePointer<UInt64>
  ) {
    if let tags = header.pointee.tags {
      tags.storeBytes(of: tag, toByteOffset: index, as: UInt8.self)
    } else if tag != integer {
      makeTags(before: index, header, elements).storeBytes(
        of: tag, toByteOffset: index, as: UInt8.self)
    }
  }

  /// Makes the tags of a buffer whose first `index` values are all INTEGER.
  @inline(never) private static func makeTags(
    before index: Int, _ header: UnsafeMutablePointer<RowBufferHeader>,
    _ elements: UnsafeMutablePointer<UInt64>
  ) -> UnsafeMutableRawPointer {
    let capacity = header.pointee.capacity
    let tags =
      header.pointee.inlineTags
      ? UnsafeMutableRawPointer(elements + capacity)
      : UnsafeMutableRawPointer.allocate(byteCount: Swift.max(capacity, 1), alignment: 1)
    tags.initializeMemory(as: UInt8.self, repeating: integer, count: index)
    header.pointee.tags = tags
    return tags
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
  /// in place (see ``Statement/columnValue(at:)``); TEXT is validated while copied. An
  /// INTEGER takes the short way: its payload, and its tag only once the buffer has tags.
  func appendRow(of handle: OpaquePointer, columns: Int) {
    withUnsafeMutablePointers { header, elements in
      let start = header.pointee.count
      precondition(start + columns <= header.pointee.capacity, "row buffer overflow")
      for column in 0..<columns {
        let index = start &+ column
        guard let value = sqlite3_column_value(handle, Int32(truncatingIfNeeded: column)) else {
          elements[index] = 0
          Self.store(Self.null, at: index, header, elements)
          continue
        }
        let type = sqlite3_value_type(value)
        if type == SQLITE_INTEGER {
          elements[index] = UInt64(bitPattern: sqlite3_value_int64(value))
          if let tags = header.pointee.tags {
            tags.storeBytes(of: Self.integer, toByteOffset: index, as: UInt8.self)
          }
        } else {
          let (tag, payload) = Self.read(value, type, into: header)
          elements[index] = payload
          Self.store(tag, at: index, header, elements)
        }
      }
      header.pointee.count = start &+ columns
    }
  }

  /// One value that is not an INTEGER, of storage class `type`: its tag and payload, TEXT
  /// and BLOB values appended to the header's lists.
  @inline(never) private static func read(
    _ value: OpaquePointer, _ type: Int32, into header: UnsafeMutablePointer<RowBufferHeader>
  ) -> (UInt8, UInt64) {
    switch type {
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
  /// One storage class tag byte per value, `nil` while every value written is an INTEGER.
  @usableFromInline var tags: UnsafeMutableRawPointer?
  /// Whether ``tags`` go in the buffer's own allocation, after the payloads (a small
  /// buffer), or in one of their own, which the buffer frees.
  let inlineTags: Bool
  /// The bytes of ``texts`` and ``blobs``.
  var sideBytes = 0
  /// Whether ``texts`` or ``blobs`` hold anything (empty ones included).
  var hasSideValues = false
  /// TEXT values, by the index in their payload.
  @usableFromInline var texts: ContiguousArray<String> = []
  /// BLOB values and TEXT that is not valid UTF-8, by the index in their payload.
  @usableFromInline var blobs: ContiguousArray<Data> = []

  init(layout: ColumnLayout, columnCount: Int, capacity: Int, inlineTags: Bool) {
    self.layout = layout
    self.columnCount = columnCount
    self.capacity = capacity
    self.inlineTags = inlineTags
  }

  /// Keeps a text; returns its index.
  mutating func add(text: String) -> Int {
    sideBytes &+= text.utf8.count
    hasSideValues = true
    texts.append(text)
    return texts.count - 1
  }

  /// Keeps a blob (or the bytes of invalid text); returns its index.
  mutating func add(blob: Data) -> Int {
    sideBytes &+= blob.count
    hasSideValues = true
    blobs.append(blob)
    return blobs.count - 1
  }
}
