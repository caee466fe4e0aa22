// Records and values from SQL you write: any `Decodable` (a `Model`, a `RowMapped` model
// read without `Codable`, or a struct made for one query) decoded by column name from the
// rows of a query written by interpolation, every interpolated value bound.
extension Connection {
  /// The rows of a query decoded as `T`, each property from the column of its name.
  ///
  /// ```swift
  /// struct Folder: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
  /// struct Note: Model {
  ///   var id: Int64?
  ///   var folderID: Int64
  ///   var title: String
  ///   var subtitle: String?
  ///   static let primaryKey = ["id"]
  /// }
  /// let db = try Connection.inMemory()
  /// try db.save(Folder(id: 1, name: "Inbox"))
  /// try db.save(Note(id: 1, folderID: 1, title: "Plan", subtitle: nil))
  /// let name = "Inbox"
  ///
  /// let notes = try db.fetchAll(Note.self, """
  ///   SELECT note.* FROM note JOIN folder ON folder.id = note.folderID
  ///   WHERE folder.name = \(name) ORDER BY note.title
  ///   """)
  /// ```
  /// Extra columns are ignored; to read them next to the record (a score, a snippet), use
  /// ``forEachRow(_:as:_:)``. A ``RowMapped`` model is read through its own mapping, the
  /// others through ``RowDecoder``; a ``Model``'s ignored properties need no column.
  /// - Throws: `SQLiteError` for bad SQL; `DecodingError` naming the column for a missing
  ///   column or a value that does not convert.
  @_disfavoredOverload
  public func fetchAll<T: Decodable>(_ type: T.Type, _ sql: SQL) throws -> [T] {
    try withCachedStatement(sql.text, sql.statementArguments) { statement in
      if let mapped = T.self as? any RowMapped.Type {
        return try mapped.readAll(
          statement, columns: Self.columns(of: mapped, statement), as: T.self)
      }
      let decoder = RowDecoder(ignoredProperties: Self.ignored(T.self), readingInPlace: statement)
      var records: [T] = []
      // A row per step: a row made at an earlier step can no longer read.
      while try statement.step() {
        records.append(try decoder.decode(T.self, from: statement.row))
      }
      return records
    }
  }

  /// The first row of a query decoded as `T`, or `nil` when there is none (the other rows
  /// are not read: add `LIMIT 1` when the query could return many).
  /// - Throws: as `fetchAll(_:_:)`.
  public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: SQL) throws -> T? {
    try withCachedStatement(sql.text, sql.statementArguments) { statement in
      if let mapped = T.self as? any RowMapped.Type {
        return try mapped.readFirst(
          statement, columns: Self.columns(of: mapped, statement), as: T.self)
      }
      guard try statement.step() else { return nil }
      let decoder = RowDecoder(ignoredProperties: Self.ignored(T.self), readingInPlace: statement)
      return try decoder.decode(T.self, from: statement.row)
    }
  }

  /// The first column of every row of a query, as `T`: the array form of
  /// `scalar(_:_:)`.
  ///
  /// ```swift
  /// struct Folder: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
  /// struct Note: Model {
  ///   var id: Int64?
  ///   var folderID: Int64
  ///   var title: String
  ///   var subtitle: String?
  ///   static let primaryKey = ["id"]
  /// }
  /// let db = try Connection.inMemory()
  /// try db.save(Folder(id: 1, name: "Inbox"))
  /// try db.save(Note(id: 1, folderID: 1, title: "Plan", subtitle: nil))
  ///
  /// let titles = try db.fetchAll(String.self, "SELECT title FROM note ORDER BY title")
  /// let maybe = try db.fetchAll(String?.self, "SELECT subtitle FROM note")  // NULL is nil
  /// ```
  /// - Throws: `SQLiteError` for bad SQL; `DecodingError` for a value that does not convert
  ///   to `T` (NULL included, unless `T` is optional).
  public func fetchAll<T: SQLiteValueConvertible>(_ type: T.Type, _ sql: SQL) throws -> [T] {
    try withCachedStatement(sql.text, sql.statementArguments) { statement in
      guard statement.columnCount > 0 else { return [] }
      var values: [T] = []
      while try statement.step() { values.append(try statement.row.get(T.self, at: 0)) }
      return values
    }
  }

  /// Streams the rows of a query, one at a time, each decoded as `T` and handed to `body`
  /// with its row, so that columns beside the record's (a rank, a snippet, a count) are
  /// read from the same row.
  ///
  /// ```swift
  /// struct Folder: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
  /// struct Note: Model {
  ///   var id: Int64?
  ///   var folderID: Int64
  ///   var title: String
  ///   var subtitle: String?
  ///   static let primaryKey = ["id"]
  /// }
  /// let db = try Connection.inMemory()
  /// try db.save(Folder(id: 1, name: "Inbox"))
  /// try db.save(Note(id: 1, folderID: 1, title: "Plan", subtitle: nil))
  ///
  /// var hits: [(note: Note, score: Double)] = []
  /// try db.forEachRow("SELECT note.*, length(title) * 1.0 AS score FROM note", as: Note.self) {
  ///   note, row in hits.append((note, try row.get(Double.self, "score")))
  /// }
  /// ```
  /// Nothing is kept between rows: the row is valid inside `body` only (copy what you keep
  /// with ``Row/copy()``), and the stream cannot outlive the call.
  /// - Throws: as `fetchAll(_:_:)`, or what `body` throws (the statement
  ///   stops there).
  public func forEachRow<T: Decodable>(
    _ sql: SQL, as type: T.Type, _ body: (T, Row) throws -> Void
  ) throws {
    try withCachedStatement(sql.text, sql.statementArguments) { statement in
      if let mapped = T.self as? any RowMapped.Type {
        let columns = Self.columns(of: mapped, statement)
        while try statement.step() {
          let row = statement.row
          try body(try mapped.readRow(row, columns: columns, as: T.self), row)
        }
        return
      }
      let decoder = RowDecoder(ignoredProperties: Self.ignored(T.self), readingInPlace: statement)
      while try statement.step() {
        let row = statement.row
        try body(try decoder.decode(T.self, from: row), row)
      }
    }
  }

  /// Where a ``RowMapped`` type's positions are among a statement's columns.
  private static func columns(of mapped: any RowMapped.Type, _ statement: Statement)
    -> ColumnMap
  {
    ColumnMap(reading: mapped.mappedColumns, from: statement.layout)
  }

  /// A model's ignored properties (they have no column); none for another type.
  private static func ignored<T>(_ type: T.Type) -> Set<String> {
    (T.self as? any Model.Type)?.ignoredProperties ?? []
  }
}
