internal import CSQLite
import Foundation

// Applying a changeset another copy recorded (see Session and Changeset), through this
// connection's own handle: its update and commit hooks see every applied row, so
// observations and the query cache learn of them like of any other write.
extension Connection {
  /// Whether the SQLite library in use has the session extension (``Session``,
  /// ``Changeset`` and ``apply(_:onConflict:)`` throw
  /// ``ChangesetError/sessionExtensionUnavailable(missing:)`` where it has not).
  public static var isSessionExtensionAvailable: Bool { SessionAPI.isAvailable }

  /// Applies a changeset (or patchset) to the main database, in one transaction (a
  /// savepoint inside a transaction already open): every change or none.
  ///
  /// ```swift
  /// let (db, other) = (try Connection.inMemory(), try Connection.inMemory())
  /// for copy in [db, other] { try copy.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT)") }
  /// let session = try Session(on: other)
  /// try session.attach("note")
  /// try other.run("INSERT INTO note(id, body) VALUES (1, 'theirs')")
  /// let changeset = try session.changeset()
  ///
  /// try db.apply(changeset) { conflict in
  ///   switch conflict.kind {
  ///   case .data, .conflict: return .replace  // the incoming row wins
  ///   case .notFound: return .omit  // already deleted here
  ///   case .constraint, .foreignKey: return .abort
  ///   }
  /// }
  /// ```
  ///
  /// Before anything is written, the bytes are walked through and each table is checked
  /// against this database's: a missing table, another number of columns or other
  /// primary key columns throw ``ChangesetError/schemaMismatch(table:reason:)`` (SQLite
  /// itself would skip the table's changes and only log it).
  ///
  /// Each change that cannot be applied as it stands goes to `onConflict`
  /// (<https://sqlite.org/session/sqlite3changeset_apply.html>), which answers
  /// ``ChangesetConflict/Resolution/omit``, ``ChangesetConflict/Resolution/replace`` or
  /// ``ChangesetConflict/Resolution/abort``. The handler must not use this connection.
  /// Triggers and foreign key actions of this database run for the applied changes.
  /// - Parameters:
  ///   - changeset: the changes, from ``Session/changeset()`` or ``Changeset/init(data:)``.
  ///   - onConflict: the conflict handler; by default every conflict aborts.
  /// - Throws: ``ChangesetError/aborted(kind:table:)`` when the handler aborts,
  ///   ``ChangesetError/invalidResolution(_:kind:table:)`` for `.replace` where SQLite
  ///   does not allow it, what the handler throws; ``ChangesetError/schemaMismatch(table:reason:)``,
  ///   ``ChangesetError/malformed(_:)``, ``ChangesetError/sessionExtensionUnavailable(missing:)``;
  ///   `SQLiteError` for other failures. Whatever is thrown, nothing was applied.
  public func apply(
    _ changeset: Changeset,
    onConflict: (ChangesetConflict) throws -> ChangesetConflict.Resolution = { _ in .abort }
  ) throws {
    try ensureOpen(nil)
    let api = try SessionAPI.resolved()
    guard !changeset.isEmpty else { return }
    let tables = try checkedTables(of: changeset)
    let count = try Changeset.byteCount(changeset.data)
    try withoutActuallyEscaping(onConflict) { handler in
      let context = ApplyContext(api: api, tables: tables, handler: handler)
      let body = { (connection: Connection) throws in
        connection.writeRunCounter.count &+= 1
        let code = changeset.data.withUnsafeBytes { bytes in
          // SQLite only reads the bytes.
          api.apply(
            connection.handle, count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), nil,
            applyConflictCallback, Unmanaged.passUnretained(context).toOpaque(), nil, nil, 0)
        }
        if let error = context.error { throw error }
        if code != SQLITE_OK, let aborted = context.aborted {
          throw ChangesetError.aborted(kind: aborted.kind, table: aborted.table)
        }
        if code & 0xFF == SQLITE_CORRUPT {
          throw ChangesetError.malformed("SQLite could not read a value of the changeset")
        }
        try SQLiteError.check(code, connection.handle)
        // The update hook misses WITHOUT ROWID tables: every table of the changeset counts.
        connection.tableActivity.noteRun(
          writes: Set(tables.keys.map { $0.name.asciiCaseFolded.string }), changesSchema: false,
          inTransaction: sqlite3_get_autocommit(connection.handle) == 0)
      }
      if isInTransaction {
        try savepoint(nil, body)
      } else {
        try transaction(.immediate, body)
      }
    }
  }

  /// Walks the changeset's bytes and checks each of its tables against this database.
  /// - Returns: the tables, by name.
  private func checkedTables(of changeset: Changeset) throws -> [SQLName: SessionTableInfo] {
    var tables: [SQLName: SessionTableInfo] = [:]
    for header in try Changeset.validateFraming(changeset.data) {
      let key = SQLName(header.name)
      if let known = tables[key] {
        guard known.columns.count == header.columnCount else {
          throw ChangesetError.schemaMismatch(
            table: header.name, reason: "the changeset gives it two different column counts")
        }
        continue
      }
      let info: SessionTableInfo
      switch SessionTableInfo.read(header.name, handle) {
      case .success(let found): info = found
      case .failure(.tableNotRecordable(_, let reason)):
        throw ChangesetError.schemaMismatch(table: header.name, reason: reason.mismatchText)
      case .failure(let error): throw error
      }
      guard info.columns.count == header.columnCount else {
        throw ChangesetError.schemaMismatch(
          table: header.name,
          reason: "the changeset has \(header.columnCount) columns, the table "
            + "\(info.columns.count)")
      }
      guard info.primaryKey == header.primaryKey else {
        throw ChangesetError.schemaMismatch(
          table: header.name, reason: "its primary key columns are not the changeset's")
      }
      tables[key] = info
    }
    return tables
  }
}

extension ChangesetError.UnrecordableReason {
  /// Why a table of this database cannot receive a changeset's changes.
  fileprivate var mismatchText: String {
    switch self {
    case .noSuchTable: "there is no such table"
    case .noPrimaryKey: "it has no primary key"
    case .virtualTable: "it is a virtual table"
    case .view: "it is a view"
    case .shadowTable: "it is a shadow table"
    case .internalTable: "it is one of SwiftLite's or SQLite's own tables"
    }
  }
}

/// The state of one apply, handed to the C conflict callback.
private final class ApplyContext {
  let api: SessionAPI
  let tables: [SQLName: SessionTableInfo]
  let handler: (ChangesetConflict) throws -> ChangesetConflict.Resolution
  /// The first error: the handler's, or an answer SQLite does not allow.
  var error: (any Error)?
  /// The conflict the handler aborted on.
  var aborted: ChangesetConflict?

  init(
    api: SessionAPI, tables: [SQLName: SessionTableInfo],
    handler: @escaping (ChangesetConflict) throws -> ChangesetConflict.Resolution
  ) {
    self.api = api
    self.tables = tables
    self.handler = handler
  }

  /// The handler's answer as SQLite's code; `SQLITE_CHANGESET_ABORT` after any error.
  func answer(_ code: Int32, _ iterator: OpaquePointer?) -> Int32 {
    let abort: Int32 = 2  // SQLITE_CHANGESET_ABORT
    guard error == nil else { return abort }
    do {
      let conflict = try makeConflict(code, iterator)
      let resolution = try handler(conflict)
      guard conflict.allows(resolution) else {
        error = ChangesetError.invalidResolution(
          resolution, kind: conflict.kind, table: conflict.table)
        return abort
      }
      switch resolution {
      case .omit: return 0  // SQLITE_CHANGESET_OMIT
      case .replace: return 1  // SQLITE_CHANGESET_REPLACE
      case .abort:
        aborted = conflict
        return abort
      }
    } catch {
      self.error = error
      return abort
    }
  }

  private func makeConflict(_ code: Int32, _ iterator: OpaquePointer?) throws -> ChangesetConflict {
    let kind: ChangesetConflict.Kind
    switch code {
    case 1: kind = .data
    case 2: kind = .notFound
    case 3: kind = .conflict
    case 4: kind = .constraint
    case 5: kind = .foreignKey
    default: throw ChangesetError.malformed("SQLite reported an unknown conflict kind \(code)")
    }
    if kind == .foreignKey {
      // "The only function it is possible to call on the supplied sqlite3_changeset_iter
      // handle is sqlite3changeset_fk_conflicts()."
      var count: Int32 = 0
      _ = api.foreignKeyConflicts(iterator, &count)
      return ChangesetConflict(
        kind: kind, table: nil, operation: nil, columns: [], primaryKey: [], old: nil, new: nil,
        current: nil, foreignKeyConflicts: Int(count))
    }
    var name: UnsafePointer<CChar>?
    var columns: Int32 = 0
    var operationCode: Int32 = 0
    var indirect: Int32 = 0
    try Changeset.check(
      api.operation(iterator, &name, &columns, &operationCode, &indirect), "bad change")
    var flags: UnsafeMutablePointer<UInt8>?
    var keyColumns: Int32 = 0
    try Changeset.check(api.primaryKey(iterator, &flags, &keyColumns), "bad key")
    guard let name, let operation = Changeset.Operation(code: operationCode) else {
      throw ChangesetError.malformed("a change without a table or an operation")
    }
    let table = String(cString: name)
    let header = Changeset.Header(
      table: table, columnCount: Int(columns), operation: operation, isIndirect: indirect != 0,
      primaryKey: (0..<Int(keyColumns)).map { flags?[$0] ?? 0 != 0 })
    // Only DATA and CONFLICT have a current row ("SQLITE_MISUSE" otherwise).
    let hasCurrent = kind == .data || kind == .conflict
    return ChangesetConflict(
      kind: kind, table: table, operation: operation,
      columns: tables[SQLName(table)]?.columns ?? [], primaryKey: header.primaryKey,
      old: operation == .insert ? nil : try Changeset.values(api.old, iterator, header),
      new: operation == .delete ? nil : try Changeset.values(api.new, iterator, header),
      current: hasCurrent ? try Changeset.values(api.conflict, iterator, header) : nil,
      foreignKeyConflicts: 0)
  }
}

private func applyConflictCallback(
  _ context: UnsafeMutableRawPointer?, _ kind: Int32, _ iterator: OpaquePointer?
) -> Int32 {
  guard let context else { return 2 }
  return Unmanaged<ApplyContext>.fromOpaque(context).takeUnretainedValue().answer(kind, iterator)
}
