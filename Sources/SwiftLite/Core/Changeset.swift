internal import CSQLite
import Foundation

/// The changes a ``Session`` recorded, as the bytes SQLite's session extension writes: a
/// changeset, or the smaller patchset. Any transport can carry ``data``; another copy of the
/// database applies it with ``Connection/apply(_:onConflict:)``.
///
/// ```swift
/// import Foundation
///
/// let db = try Connection.inMemory()
/// let otherDB = try Connection.inMemory()
/// for copy in [db, otherDB] { try copy.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT)") }
/// let session = try Session(on: db)
/// try session.attach("note")
/// try db.run("INSERT INTO note(body) VALUES ('hello')")
/// let outbox = URL(fileURLWithPath: ".")  // a folder both copies see
///
/// let changes = try session.changeset()
/// try changes.data.write(to: outbox.appendingPathComponent("0001.changeset"))
/// // on the other copy:
/// let file = outbox.appendingPathComponent("0001.changeset")
/// let received = Changeset(data: try Data(contentsOf: file))
/// try otherDB.apply(received)
/// ```
///
/// A changeset holds, per changed row, its primary key and its old and new values; a
/// patchset holds the key and the new values only, so it cannot be ``inverted()`` and its
/// conflicts carry fewer values. See <https://sqlite.org/sessionintro.html>.
///
/// `Changeset` is a value (`Sendable`). The bytes are checked when they are read (by
/// ``changes()``, ``inverted()``, ``concatenated(with:)`` or an apply): bytes that are not
/// a changeset throw ``ChangesetError/malformed(_:)`` then.
public struct Changeset: Sendable, Hashable {
  /// The changeset's (or patchset's) bytes.
  public let data: Data
  /// The changes the session could not record, because the row's primary key held NULL
  /// (SQLite's session extension skips such rows): empty unless this changeset came from
  /// ``Session/changeset()`` or ``Session/patchset()``. They are not in ``data``.
  public let skippedRows: [SkippedRow]
  /// The tables for which ``skippedRows`` may miss changes: the temporary triggers that
  /// copy them were taken back (a rollback of the transaction that attached the table, or
  /// a migration that rebuilt it). They copy again from the moment the session noticed.
  /// Empty when the report is whole.
  public let tablesWithIncompleteSkippedRows: [String]

  /// Wraps bytes received from another copy (or read from a file).
  public init(data: Data) {
    self.init(data: data, skippedRows: [], tablesWithIncompleteSkippedRows: [])
  }

  init(data: Data, skippedRows: [SkippedRow], tablesWithIncompleteSkippedRows: [String]) {
    self.data = data
    self.skippedRows = skippedRows
    self.tablesWithIncompleteSkippedRows = tablesWithIncompleteSkippedRows
  }

  /// Whether there is no change at all.
  public var isEmpty: Bool { data.isEmpty }

  /// Whether the bytes are a patchset (their first table header is `P`), not a changeset.
  public var isPatchset: Bool { data.first == UInt8(ascii: "P") }

  /// What a change does to its row.
  public enum Operation: String, Sendable, Hashable {
    /// A new row.
    case insert
    /// New values for some columns of a row.
    case update
    /// The row is gone.
    case delete
  }

  /// One change of a changeset, as ``changes()`` reads it.
  public struct Change: Sendable, Hashable {
    /// The table, as the recording database names it.
    public let table: String
    /// What the change does.
    public let operation: Operation
    /// Whether the change was made by a trigger or a foreign key action (SQLite's
    /// "indirect" changes) rather than by a statement.
    public let isIndirect: Bool
    /// Which columns are the primary key, in column order.
    public let primaryKey: [Bool]
    /// The values before the change (UPDATE and DELETE), `nil` where the changeset holds
    /// none (columns an UPDATE left alone; all but the key in a patchset).
    public let old: [SQLiteValue?]?
    /// The values after the change (INSERT and UPDATE), `nil` where an UPDATE left the
    /// column alone.
    public let new: [SQLiteValue?]?
  }

  /// A change the session saw but could not record: a row whose primary key held NULL.
  public struct SkippedRow: Sendable, Hashable {
    /// The table.
    public let table: String
    /// What the statement did to the row.
    public let operation: Operation
    /// The table's columns, in order.
    public let columns: [String]
    /// The row before the change (UPDATE and DELETE).
    public let old: [SQLiteValue]?
    /// The row after the change (INSERT and UPDATE).
    public let new: [SQLiteValue]?
  }

  /// Every change, in the changeset's order (table by table).
  /// - Throws: ``ChangesetError/malformed(_:)`` for bytes that are not a changeset,
  ///   ``ChangesetError/sessionExtensionUnavailable(missing:)``.
  public func changes() throws -> [Change] {
    let api = try SessionAPI.resolved()
    var result: [Change] = []
    try Self.iterate(data, api) { iterator, header in
      let old = header.operation == .insert ? nil : try Self.values(api.old, iterator, header)
      let new = header.operation == .delete ? nil : try Self.values(api.new, iterator, header)
      result.append(
        Change(
          table: header.table, operation: header.operation, isIndirect: header.isIndirect,
          primaryKey: header.primaryKey, old: old, new: new))
    }
    return result
  }

  /// The changeset that undoes this one: inserts become deletes, deletes inserts, and
  /// updates swap their old and new values. Applying a changeset and then its inverse
  /// leaves the database as it was.
  /// - Throws: ``ChangesetError/patchsetCannotBeInverted``, ``ChangesetError/malformed(_:)``.
  public func inverted() throws -> Changeset {
    if isPatchset { throw ChangesetError.patchsetCannotBeInverted }
    let api = try SessionAPI.resolved()
    if data.isEmpty { return self }
    let count = try Self.byteCount(data)
    try Self.validateFraming(data)
    return try Self.output { size, buffer in
      data.withUnsafeBytes { api.invert(count, $0.baseAddress, size, buffer) }
    }
  }

  /// This changeset followed by `other`, as one: a row both change gets the combined
  /// change (an insert then an update is one insert of the new values, an insert then a
  /// delete nothing at all). See <https://sqlite.org/session/changegroup.html>.
  /// - Throws: ``ChangesetError/mixedFormats`` for a changeset and a patchset,
  ///   ``ChangesetError/malformed(_:)``.
  public func concatenated(with other: Changeset) throws -> Changeset {
    try Changeset.concatenate([self, other])
  }

  /// Several changesets (or several patchsets) as one, in order.
  /// - Throws: ``ChangesetError/mixedFormats`` for a mix of changesets and patchsets,
  ///   ``ChangesetError/malformed(_:)``, ``ChangesetError/schemaMismatch(table:reason:)``
  ///   when they disagree on a table's columns or key.
  public static func concatenate(_ changesets: [Changeset]) throws -> Changeset {
    let api = try SessionAPI.resolved()
    let nonEmpty = changesets.filter { !$0.isEmpty }
    if Set(nonEmpty.map(\.isPatchset)).count > 1 { throw ChangesetError.mixedFormats }
    guard nonEmpty.count > 1 else { return nonEmpty.first ?? Changeset(data: Data()) }
    var group: OpaquePointer?
    try check(api.groupNew(&group), "cannot make a change group")
    defer { api.groupDelete(group) }
    for changeset in nonEmpty {
      let count = try byteCount(changeset.data)
      try validateFraming(changeset.data)
      let code = changeset.data.withUnsafeBytes {
        api.groupAdd(group, count, UnsafeMutableRawPointer(mutating: $0.baseAddress))
      }
      if code == SQLITE_SCHEMA {
        throw ChangesetError.schemaMismatch(
          table: "?", reason: "the changesets disagree on a table's columns or primary key")
      }
      try check(code, "while concatenating")
    }
    return try output { size, buffer in api.groupOutput(group, size, buffer) }
  }

  // MARK: Reading the bytes

  /// What `sqlite3changeset_op` and `sqlite3changeset_pk` tell of the current change.
  struct Header {
    let table: String
    let columnCount: Int
    let operation: Operation
    let isIndirect: Bool
    let primaryKey: [Bool]
  }

  /// Calls `body` for each change of `data`, with the iterator positioned on it.
  /// - Throws: ``ChangesetError/malformed(_:)`` when SQLite cannot read the bytes, and what
  ///   `body` throws.
  static func iterate(
    _ data: Data, _ api: SessionAPI, _ body: (OpaquePointer?, Header) throws -> Void
  ) throws {
    guard !data.isEmpty else { return }
    let count = try byteCount(data)
    try validateFraming(data)
    // SQLite only reads the bytes: no copy is made to lend it a mutable pointer.
    try data.withUnsafeBytes { buffer in
      var iterator: OpaquePointer?
      let start = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
      try check(api.start(&iterator, count, start), "cannot read the bytes")
      var finalized = false
      defer { if !finalized { _ = api.finalize(iterator) } }
      var code = api.next(iterator)
      // The key flags are the same for every change of a table: read once per table. The
      // name is compared by its bytes: SQLite hands every table's name in one reused buffer.
      var lastTable: [CChar] = []
      var lastHeader: Header?
      while code == SQLITE_ROW {
        var name: UnsafePointer<CChar>?
        var columns: Int32 = 0
        var operation: Int32 = 0
        var indirect: Int32 = 0
        try check(api.operation(iterator, &name, &columns, &operation, &indirect), "bad change")
        let header: Header
        if let last = lastHeader, let name, strcmp(name, lastTable) == 0,
          last.columnCount == Int(columns),
          last.operation.code == operation, last.isIndirect == (indirect != 0)
        {
          header = last
        } else {
          var flags: UnsafeMutablePointer<UInt8>?
          var keyColumns: Int32 = 0
          try check(api.primaryKey(iterator, &flags, &keyColumns), "bad key")
          guard let name, let kind = Operation(code: operation) else {
            throw ChangesetError.malformed("a change without a table or an operation")
          }
          let key = (0..<Int(keyColumns)).map { flags?[$0] ?? 0 != 0 }
          header = Header(
            table: String(cString: name), columnCount: Int(columns), operation: kind,
            isIndirect: indirect != 0, primaryKey: key)
          lastTable = Array(UnsafeBufferPointer(start: name, count: strlen(name) + 1))
        }
        lastHeader = header
        try body(iterator, header)
        code = api.next(iterator)
      }
      finalized = true
      let end = api.finalize(iterator)
      if code != SQLITE_DONE {
        throw ChangesetError.malformed(
          "SQLite stopped reading them: " + String(cString: sqlite3_errstr(code)))
      }
      try check(end, "cannot read the bytes")
    }
  }

  /// The old or new values of the change the iterator is on.
  static func values(
    _ read: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32,
    _ iterator: OpaquePointer?, _ header: Header
  ) throws -> [SQLiteValue?] {
    try (0..<header.columnCount).map { column in
      var value: OpaquePointer?
      guard read(iterator, Int32(column), &value) == SQLITE_OK, let value else { return nil }
      guard let converted = sqliteValue(value) else {
        throw ChangesetError.invalidText(table: header.table, column: column)
      }
      return converted
    }
  }

  /// A `sqlite3_value` copied out, or `nil` for TEXT that is not UTF-8.
  static func sqliteValue(_ value: OpaquePointer) -> SQLiteValue? {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT:
      return .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      guard let text = sqlite3_value_text(value) else { return .text("") }
      let count = Int(sqlite3_value_bytes(value))
      return Statement.validUTF8(UnsafeBufferPointer(start: text, count: count)).map {
        .text($0)
      }
    case SQLITE_BLOB:
      guard let bytes = sqlite3_value_blob(value) else { return .blob(Data()) }
      return .blob(Data(bytes: bytes, count: Int(sqlite3_value_bytes(value))))
    default:
      return .null
    }
  }

  /// The byte count as the C API takes it.
  static func byteCount(_ data: Data) throws -> Int32 {
    guard let count = Int32(exactly: data.count) else {
      throw SQLiteError(extendedCode: .tooBig, message: "a changeset of 2 GiB or more")
    }
    return count
  }

  /// Runs a C call that allocates its output with `sqlite3_malloc`, and copies the output.
  static func output(
    _ call: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Int32
  ) throws -> Changeset {
    var size: Int32 = 0
    var buffer: UnsafeMutableRawPointer?
    let code = call(&size, &buffer)
    defer { sqlite3_free(buffer) }
    try check(code, "SQLite could not write the changeset")
    guard let buffer, size > 0 else { return Changeset(data: Data()) }
    return Changeset(data: Data(bytes: buffer, count: Int(size)))
  }

  /// Throws for a result code other than `SQLITE_OK`: bytes SQLite cannot read are
  /// ``ChangesetError/malformed(_:)``, other failures `SQLiteError`.
  static func check(_ code: Int32, _ context: String) throws {
    switch code {
    case SQLITE_OK: return
    case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_FORMAT, SQLITE_ERROR:
      throw ChangesetError.malformed(context + ": " + String(cString: sqlite3_errstr(code)))
    default:
      throw SQLiteError(code, nil)
    }
  }
}

extension Changeset.Operation {
  /// The operation of a `SQLITE_INSERT`, `SQLITE_UPDATE` or `SQLITE_DELETE` code.
  init?(code: Int32) {
    switch code {
    case SQLITE_INSERT: self = .insert
    case SQLITE_UPDATE: self = .update
    case SQLITE_DELETE: self = .delete
    default: return nil
    }
  }

  /// The SQLite code of the operation.
  var code: Int32 {
    switch self {
    case .insert: SQLITE_INSERT
    case .update: SQLITE_UPDATE
    case .delete: SQLITE_DELETE
    }
  }
}
