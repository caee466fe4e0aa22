import Foundation

// Reading a row's bytes without copying them, copying a row to keep it, and showing it.
extension Row {
  /// Calls `body` with the bytes of a TEXT or BLOB column without copying them. The bytes
  /// are valid only inside `body`. Returns `nil` for other storage classes.
  /// - Throws: what `body` throws; `DecodingError.keyNotFound` for a bad position;
  ///   `SQLiteError` `.misuse` for a row read in place that can no longer be read.
  public func withUnsafeBytes<T>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> T)
    throws -> T?
  {
    try checkReadable()
    guard index >= 0 && index < count else {
      throw DecodingError.keyNotFound(
        ColumnKey(intValue: index),
        .init(
          codingPath: [], debugDescription: "no column at index \(index) (the row has \(count))"))
    }
    switch storage {
    case .statement(let statement):
      return try statement.withUnsafeColumnBytes(at: index, body)
    case .buffer(let buffer):
      switch buffer.tag(at: base + index) {
      case RowBuffer.text:
        var text = buffer.text(at: base + index)
        return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
      case RowBuffer.blob, RowBuffer.invalidText:
        return try buffer.blob(at: base + index).withUnsafeBytes { try body($0) }
      default: return nil
      }
    }
  }

  /// A row that holds its own values, safe to keep after the iteration moves on. TEXT that
  /// is not valid UTF-8 keeps its exact bytes (readable as `Data`).
  /// - Throws: `SQLiteError` `.misuse` for a row read in place that can no longer be read
  ///   (copy it while it can).
  public func copy() throws -> Row {
    try checkReadable()
    switch storage {
    case .buffer: return self
    case .statement(let statement):
      return Row(buffer: RowBuffer.make(currentRowOf: statement), base: 0)
    }
  }
}

extension Row: CustomStringConvertible {
  /// `[name: value, ...]`.
  /// TEXT that is not valid UTF-8 shows as its bytes: `x'c328' (TEXT, not UTF-8)`. A row
  /// read in place that can no longer be read says so instead.
  public var description: String {
    do {
      try checkReadable()
    } catch {
      return "[unreadable row: " + error.message + "]"
    }
    let values = (0..<count).map { index in
      storedValue(at: index)?.description
        ?? SQLiteValue.blob(textBytes(at: index)).description + " (TEXT, not UTF-8)"
    }
    return "[" + zip(columnNames, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
  }
}
