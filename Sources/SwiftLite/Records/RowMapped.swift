/// A ``Model`` that reads itself from a row and writes its values into a statement with
/// code of its own, without `Codable`: every `Connection` and ``Repository`` operation on
/// the model then goes through this mapping, several times faster than `Codable` (which
/// stays in use for the table's schema, inferred from the type as for any model).
///
/// Positions are indexes into ``mappedColumns``; which column of a result each position
/// reads is worked out once per statement, not once per row.
///
/// ```swift
/// struct Track: Model, RowMapped {
///   var trackId: Int64?
///   var name: String
///   var composer: String?
///
///   static let primaryKey = ["trackId"]
///   static let mappedColumns = ["trackId", "name", "composer"]
///
///   init(trackId: Int64?, name: String, composer: String?) {
///     (self.trackId, self.name, self.composer) = (trackId, name, composer)
///   }
///
///   init(row: MappedRow) throws {
///     trackId = try row.get(0)
///     name = try row.get(1)
///     composer = try row.get(2)
///   }
///
///   func write(to row: MappedRowWriter) throws {
///     try row.set(trackId, at: 0)
///     try row.set(name, at: 1)
///     try row.set(composer, at: 2)
///   }
/// }
/// let db = try Connection.inMemory()
/// try db.save(Track(trackId: 1, name: "Blue in Green", composer: nil))
/// let tracks = try db.findAll(Track.self)  // read through init(row:), not Codable
/// ```
///
/// `swift run swiftlite-gen <database>` writes such models from an existing database.
///
/// Reads and writes fail as the `Codable` path does, naming the column: `DecodingError`
/// for a NULL in a non-optional property or a value of another storage class,
/// `EncodingError` for a value SQLite cannot store (NaN, a `UInt64` above `Int64.max`).
public protocol RowMapped: Model {
  /// The model's stored properties, by the names its `CodingKeys` give them (the column
  /// names of a table SwiftLite creates), in the order of the positions that
  /// ``init(row:)`` reads and ``write(to:)`` writes. Every stored property that is not in
  /// ``Model/ignoredProperties`` must be listed, exactly once.
  static var mappedColumns: [String] { get }

  /// Reads one model from a row, each property from its position in ``mappedColumns``.
  /// - Throws: what ``MappedRow/get(_:)`` throws (a `DecodingError` naming the column), or
  ///   an error of your own.
  init(row: MappedRow) throws

  /// Writes every stored property's value at its position in ``mappedColumns``.
  /// - Throws: what ``MappedRowWriter/set(_:at:)`` throws.
  func write(to row: MappedRowWriter) throws

  /// Reads every row of a result as a model. The default calls ``init(row:)`` for each row
  /// and is compiled for the conforming type (so the array is filled without generic
  /// indirection): there is no need to write it.
  /// - Throws: what ``init(row:)`` throws, or `SQLiteError` when a step fails.
  static func models(from rows: MappedRows) throws -> [Self]
}

extension RowMapped {
  /// Reads the rows one by one with ``init(row:)``.
  /// - Throws: what ``init(row:)`` throws, or `SQLiteError` when a step fails.
  @inlinable public static func models(from rows: MappedRows) throws -> [Self] {
    var models: [Self] = []
    models.reserveCapacity(rows.expectedCount)
    try rows.forEachRow { models.append(try Self(row: $0)) }
    return models
  }
}

// The bridges from code generic over any `Model` to the mapping of a `RowMapped` one: the
// store checks `M.self as? any RowMapped.Type` once per table and calls these on it, where
// `M` is known to be `Self`.
extension RowMapped {
  /// Writes `model`, a value of this type, through `writer`.
  static func write<M>(_ model: M, to writer: MappedRowWriter) throws {
    assert(M.self == Self.self, "a RowMapped bridge called with another type")
    // The same type, so the same bits: a reinterpretation, with no closure around the call
    // (`withUnsafePointer` is not inlined into this unspecialized code, and its closure
    // copied the model once more).
    try unsafeBitCast(model, to: Self.self).write(to: writer)
  }

  /// Reads every remaining row of `statement` as models of this type, returned as `[M]`.
  static func readAll<M>(_ statement: Statement, columns: ColumnMap, as type: M.Type) throws
    -> [M]
  {
    assert(M.self == Self.self, "a RowMapped bridge called with another type")
    let models = try models(from: MappedRows(statement: statement, columns: columns))
    return unsafeBitCast(models, to: [M].self)
  }

  /// Reads the first row of `statement` as a model of this type, or `nil` without one.
  static func readFirst<M>(_ statement: Statement, columns: ColumnMap, as type: M.Type) throws
    -> M?
  {
    assert(M.self == Self.self, "a RowMapped bridge called with another type")
    guard try statement.step() else { return nil }
    let model = try Self(row: MappedRow(row: statement.row, columns: columns))
    return unsafeBitCast(model, to: M.self)
  }

  /// Reads the row `statement` stands on as a model of this type, returned as `M`.
  static func readRow<M>(_ statement: Statement, columns: ColumnMap, as type: M.Type) throws -> M {
    assert(M.self == Self.self, "a RowMapped bridge called with another type")
    let model = try Self(row: MappedRow(row: statement.row, columns: columns))
    return unsafeBitCast(model, to: M.self)
  }

  /// Reads one row as a model of this type and drops it: a check that the row maps.
  static func check(_ row: Row, columns: ColumnMap) throws {
    _ = try Self(row: MappedRow(row: row, columns: columns))
  }
}
