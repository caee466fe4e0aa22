// Reading a row by column name, and values whose type is inferred.
extension Row {
  /// The value of the first column with this name as a Swift type.
  /// - Throws: `DecodingError.keyNotFound` for an unknown column name, and what
  ///   ``get(_:at:)`` throws.
  @inlinable
  public func get<T: SQLiteValueConvertible>(_ type: T.Type, _ name: String) throws -> T {
    try get(T.self, at: index(of: name))
  }

  /// The value at a position, its type inferred: `let age: Int? = try row.get(at: 2)`.
  /// - Throws: what ``get(_:at:)`` throws.
  @inlinable
  public func get<T: SQLiteValueConvertible>(at index: Int) throws -> T {
    try get(T.self, at: index)
  }

  /// The value of a named column, its type inferred: `let name: String = try row.get("name")`.
  /// - Throws: what ``get(_:_:)`` throws.
  @inlinable
  public func get<T: SQLiteValueConvertible>(_ name: String) throws -> T {
    try get(T.self, name)
  }

  /// The position of the first column with this name.
  /// - Throws: `DecodingError.keyNotFound` naming the column and the row's columns.
  @usableFromInline func index(of name: String) throws -> Int {
    guard let index = layout.index(of: name) else {
      throw DecodingError.keyNotFound(
        ColumnKey(stringValue: name),
        .init(
          codingPath: [],
          debugDescription:
            "no column named '\(name)' (columns: \(layout.names.joined(separator: ", ")))"))
    }
    return index
  }
}
