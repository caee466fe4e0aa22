internal import CSQLite
import Foundation
import Synchronization

/// Records the INSERTs, UPDATEs and DELETEs made to some tables of a connection's main
/// database, for another copy of the database to replay: SQLite's session extension
/// (<https://sqlite.org/sessionintro.html>).
///
/// ```swift
/// let session = try Session(on: db)
/// try session.attach("note")
/// try db.run("INSERT INTO note(id, body) VALUES (?, ?)", [UUID().uuidString, "hello"])
/// let changes = try session.changeset()  // or patchset(): smaller, cannot be inverted
/// try other.apply(changes)
/// ```
///
/// The session records from the moment a table is attached until it is closed: each
/// ``changeset()`` holds everything recorded so far (the net effect per row: a row inserted
/// then deleted is not in it). Start a new session for the next batch.
///
/// What a session cannot record it says so: attaching a table without an explicit PRIMARY
/// KEY, a virtual table or a view throws ``ChangesetError/tableNotRecordable(table:reason:)``,
/// and the changes to rows whose key holds NULL (which SQLite skips silently) come back
/// in ``Changeset/skippedRows``. SwiftLite's own tables (`swiftlite_*`), SQLite's
/// (`sqlite_*`) and the shadow tables of full-text indexes are never recorded, even by
/// ``attachAllTables(except:)``.
///
/// **Threads:** a `Session` belongs to its connection and, like it, is not `Sendable`. Use it
/// on the connection's thread; through a ``DatabaseQueue`` or ``DatabasePool``, use
/// ``DatabaseSession``, which records on the writer across write closures. Closing the
/// connection closes its sessions.
public final class Session {
  /// The connection whose changes are recorded.
  public let connection: Connection
  private let api: SessionAPI
  private var handle: OpaquePointer?
  /// The tables attached by name, as the database spells them.
  public private(set) var tables: [String] = []
  /// The tables whose key can hold NULL, with the temporary table where triggers copy the
  /// changes SQLite skips.
  private var nullKeyWatches: [NullKeyWatch] = []
  /// Set by ``attachAllTables(except:)``: decides which tables the session takes on as
  /// they are first written.
  private var filter: SessionTableFilter?
  private let serial: Int
  private static let serials = Atomic<Int>(0)

  /// Starts a session on the connection's main database, recording nothing until a table
  /// is attached.
  /// - Throws: ``ChangesetError/sessionExtensionUnavailable(missing:)`` where SQLite lacks
  ///   the session extension; `SQLiteError` when the connection is closed or used off its
  ///   thread.
  public init(on connection: Connection) throws {
    self.connection = connection
    api = try SessionAPI.resolved()
    try connection.ensureOpen(nil)
    serial = Self.serials.add(1, ordering: .relaxed).newValue
    var session: OpaquePointer?
    let code = api.create(connection.handle, "main", &session)
    guard code == SQLITE_OK, let session else { throw SQLiteError(code, connection.handle) }
    handle = session
    connection.sessions.add(self)
  }

  deinit {
    guard let handle else { return }
    if let owner = connection.owner, !owner.isHeldByCurrentThread {
      // SQLite may not be called here: another thread may be using the connection.
      connection.sessions.deleteLater(.init(api: api, handle: handle, context: filter))
      return
    }
    api.delete(handle)
    removeNullKeyWatches()
  }

  /// Records the changes of one table from now on.
  /// - Parameter table: the table's name in the main database.
  /// - Throws: ``ChangesetError/tableNotRecordable(table:reason:)`` for a missing table, a
  ///   view, a virtual or shadow table, a table without an explicit PRIMARY KEY, or one of
  ///   SwiftLite's or SQLite's own; ``ChangesetError/sessionClosed``; `SQLiteError`.
  public func attach(_ table: String) throws {
    let handle = try openHandle()
    let info = try SessionTableInfo.read(table, connection.handle).get()
    if info.keyCanBeNull { try watchNullKeys(info) }
    try SQLiteError.check(api.attach(handle, info.name), connection.handle)
    if !tables.contains(info.name) { tables.append(info.name) }
  }

  /// Records the changes of every table of the main database, those created later
  /// included, except `excluded` ones, SwiftLite's and SQLite's own tables, virtual tables
  /// and their shadow tables. A table created later without a primary key is not
  /// recorded (SQLite cannot); its name is in ``unrecordedTables``.
  /// - Parameter excluded: tables not to record (compared without regard to case); name
  ///   those without a primary key here.
  /// - Throws: ``ChangesetError/tableNotRecordable(table:reason:)`` with `.noPrimaryKey` for
  ///   the first existing table without a primary key that is not excluded (nothing is
  ///   attached then); ``ChangesetError/sessionClosed``; `SQLiteError`.
  public func attachAllTables(except excluded: Set<String> = []) throws {
    let handle = try openHandle()
    let skipped = Set(excluded.map { $0.lowercased() })
    var recordable: [SessionTableInfo] = []
    for name in try SessionTableInfo.ordinaryTables(connection.handle)
    where !skipped.contains(name.lowercased()) {
      switch SessionTableInfo.read(name, connection.handle) {
      case .success(let info): recordable.append(info)
      case .failure(let error): throw error
      }
    }
    for info in recordable where info.keyCanBeNull { try watchNullKeys(info) }
    let filter = SessionTableFilter(
      db: connection.handle, excluded: skipped, known: Set(recordable.map { $0.name.lowercased() }))
    self.filter = filter
    api.tableFilter(handle, tableFilterCallback, Unmanaged.passUnretained(filter).toOpaque())
    try SQLiteError.check(api.attach(handle, nil), connection.handle)
  }

  /// Tables that ``attachAllTables(except:)`` met after it was called and could not record
  /// (no primary key), in the order they were first written.
  public var unrecordedTables: [String] { filter?.unrecordable ?? [] }

  /// Whether no change was recorded yet. A session that recorded changes which cancel out
  /// (a row inserted, then deleted) is not empty, but its changeset is.
  /// - Throws: ``ChangesetError/sessionClosed``; `SQLiteError` off the connection's thread.
  public func isEmpty() throws -> Bool {
    api.isEmpty(try openHandle()) != 0
  }

  /// Whether the session records changes now (`true` from the start). A paused session
  /// keeps what it recorded; see <https://sqlite.org/session/sqlite3session_enable.html>
  /// for how pausing meets rows changed before.
  /// - Throws: ``ChangesetError/sessionClosed``; `SQLiteError` off the connection's thread.
  public func isEnabled() throws -> Bool { api.enable(try openHandle(), -1) != 0 }

  /// Pauses or resumes recording.
  /// - Throws: ``ChangesetError/sessionClosed``; `SQLiteError` off the connection's thread.
  public func setEnabled(_ enabled: Bool) throws {
    _ = api.enable(try openHandle(), enabled ? 1 : 0)
  }

  /// The changes recorded so far, old and new values of each changed row, with the rows
  /// skipped for a NULL key.
  /// - Throws: ``ChangesetError/sessionClosed``; `SQLiteError` (for example `.schema` when
  ///   an attached table's columns changed while it was recorded).
  public func changeset() throws -> Changeset {
    try make(api.changeset)
  }

  /// The changes recorded so far as a patchset: keys and new values only, smaller than a
  /// changeset; it cannot be inverted and its conflicts carry no old values but the key.
  /// - Throws: as ``changeset()``.
  public func patchset() throws -> Changeset {
    try make(api.patchset)
  }

  /// Ends the session now (releasing it does too). Later calls throw
  /// ``ChangesetError/sessionClosed``; closing again does nothing.
  /// - Throws: `SQLiteError` off the connection's thread.
  public func close() throws {
    guard let handle else { return }
    try connection.ensureOpen(nil)
    api.delete(handle)
    self.handle = nil
    removeNullKeyWatches()
  }

  /// The connection closes: the session ends without touching the schema (the temporary
  /// triggers go with the connection).
  func connectionWillClose() {
    guard let handle else { return }
    api.delete(handle)
    self.handle = nil
    nullKeyWatches = []
  }

  // MARK: Private

  private func openHandle() throws -> OpaquePointer {
    guard let handle, connection.isOpen else { throw ChangesetError.sessionClosed }
    try connection.ensureOpen(nil)
    connection.sessions.deletePending()
    return handle
  }

  private func make(
    _ call:
      @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<Int32>?,
        UnsafeMutablePointer<UnsafeMutableRawPointer?>?
      ) -> Int32
  ) throws -> Changeset {
    let handle = try openHandle()
    var size: Int32 = 0
    var buffer: UnsafeMutableRawPointer?
    let code = call(handle, &size, &buffer)
    defer { sqlite3_free(buffer) }
    try SQLiteError.check(code, connection.handle)
    let data = buffer.map { Data(bytes: $0, count: Int(size)) } ?? Data()
    return Changeset(data: data, skippedRows: try skippedRows())
  }

  /// The changes to rows with a NULL key: copied by the triggers of the tables attached
  /// (or existing when all were), and, for tables first met after ``attachAllTables(except:)``
  /// (every row of which was written during the session), their rows with a NULL key now.
  private func skippedRows() throws -> [Changeset.SkippedRow] {
    var rows: [Changeset.SkippedRow] = []
    for watch in nullKeyWatches {
      let sql = "SELECT * FROM temp." + SQLIdentifier.quote(watch.copyTable) + " ORDER BY rowid"
      for row in try connection.query(sql) {
        let values = try row.values
        let count = watch.info.columns.count
        let operation = Changeset.Operation(rawValue: values[0].textValue ?? "") ?? .update
        rows.append(
          Changeset.SkippedRow(
            table: watch.info.name, operation: operation, columns: watch.info.columns,
            old: operation == .insert ? nil : Array(values[1...count]),
            new: operation == .delete ? nil : Array(values[(count + 1)...(2 * count)])))
      }
    }
    for name in filter?.lateTables ?? [] {
      guard case .success(let info) = SessionTableInfo.read(name, connection.handle),
        info.keyCanBeNull
      else { continue }
      let sql =
        "SELECT * FROM main." + SQLIdentifier.quote(info.name) + " WHERE "
        + info.nullKeyCondition(prefix: "") + " ORDER BY rowid"
      for row in try connection.query(sql) {
        rows.append(
          Changeset.SkippedRow(
            table: info.name, operation: .insert, columns: info.columns, old: nil,
            new: try row.values))
      }
    }
    return rows
  }

  /// Temporary triggers that copy each change to a row with a NULL key into a temporary
  /// table (rolled back with the transaction that made the change, as the change is).
  private func watchNullKeys(_ info: SessionTableInfo) throws {
    guard !nullKeyWatches.contains(where: { $0.info.name == info.name }) else { return }
    let base = "swiftlite_skipped_\(serial)_\(nullKeyWatches.count)"
    let copy = "temp." + SQLIdentifier.quote(base)
    let table = "main." + SQLIdentifier.quote(info.name)
    let count = info.columns.count
    let columns = ["operation"] + (0..<count).map { "old\($0)" } + (0..<count).map { "new\($0)" }
    func values(_ operation: String, old: Bool, new: Bool) -> String {
      let olds = info.columns.map { old ? "OLD." + SQLIdentifier.quote($0) : "NULL" }
      let news = info.columns.map { new ? "NEW." + SQLIdentifier.quote($0) : "NULL" }
      return "'\(operation)', " + (olds + news).joined(separator: ", ")
    }
    func trigger(_ event: String, _ when: String, _ values: String) -> String {
      "CREATE TEMP TRIGGER IF NOT EXISTS " + SQLIdentifier.quote(base + "_" + event.lowercased())
        + " AFTER " + event + " ON " + table + " WHEN " + when + " BEGIN INSERT INTO "
        // Statements of a trigger take no schema name; a temporary trigger finds the
        // temporary table first.
        + SQLIdentifier.quote(base)
        + " VALUES (" + values + "); END;"
    }
    let sql =
      "CREATE TEMP TABLE IF NOT EXISTS " + copy + "("
      + columns.map(SQLIdentifier.quote).joined(separator: ", ") + ");"
      + trigger(
        "INSERT", info.nullKeyCondition(prefix: "NEW."), values("insert", old: false, new: true))
      + trigger(
        "UPDATE",
        info.nullKeyCondition(prefix: "OLD.") + " OR " + info.nullKeyCondition(prefix: "NEW."),
        values("update", old: true, new: true))
      + trigger(
        "DELETE", info.nullKeyCondition(prefix: "OLD."), values("delete", old: true, new: false))
    try connection.execute(sql)
    nullKeyWatches.append(NullKeyWatch(info: info, copyTable: base))
  }

  private func removeNullKeyWatches() {
    guard connection.isOpen, !nullKeyWatches.isEmpty else { return }
    for watch in nullKeyWatches {
      let name = watch.copyTable
      let sql =
        ["insert", "update", "delete"].map {
          "DROP TRIGGER IF EXISTS temp." + SQLIdentifier.quote(name + "_" + $0) + ";"
        }.joined() + "DROP TABLE IF EXISTS temp." + SQLIdentifier.quote(name)
      try? connection.execute(sql)
    }
    nullKeyWatches = []
  }

  private struct NullKeyWatch {
    let info: SessionTableInfo
    let copyTable: String
  }
}

@available(
  *, unavailable, message: "A Session belongs to its connection's thread; use DatabaseSession."
)
extension Session: Sendable {}

extension SQLiteValue {
  fileprivate var textValue: String? {
    if case .text(let text) = self { return text }
    return nil
  }
}

/// What a session needs to know of a table: read with raw C calls, so it can run inside
/// SQLite's pre-update hook (where the table filter is called) as well as outside.
struct SessionTableInfo {
  /// The name as the schema spells it.
  let name: String
  let columns: [String]
  /// Which columns are the primary key, in column order.
  let primaryKey: [Bool]
  /// The key columns, in key order.
  let keyColumns: [String]
  /// Whether a key column can hold NULL: a rowid table whose key is not the rowid and
  /// has a column without NOT NULL (a quirk SQLite keeps for compatibility).
  let keyCanBeNull: Bool

  /// `"k1" IS NULL OR "k2" IS NULL`, each column after `prefix` (`NEW.`, `OLD.`).
  func nullKeyCondition(prefix: String) -> String {
    "(" + keyColumns.map { prefix + SQLIdentifier.quote($0) + " IS NULL" }.joined(separator: " OR ")
      + ")"
  }

  /// The table's description, or why a session cannot record it.
  static func read(_ table: String, _ db: OpaquePointer) -> Result<SessionTableInfo, ChangesetError>
  {
    let lowered = table.lowercased()
    if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("swiftlite_") {
      return .failure(.tableNotRecordable(table: table, reason: .internalTable))
    }
    let list = rows(
      db, "SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ?1",
      [table])
    guard let entry = list.first, case .text(let name) = entry[0], case .text(let type) = entry[1]
    else { return .failure(.tableNotRecordable(table: table, reason: .noSuchTable)) }
    switch type {
    case "view": return .failure(.tableNotRecordable(table: name, reason: .view))
    case "virtual": return .failure(.tableNotRecordable(table: name, reason: .virtualTable))
    case "shadow": return .failure(.tableNotRecordable(table: name, reason: .shadowTable))
    default: break
    }
    let withoutRowID = entry[2] == .integer(1)
    let info = rows(
      db, "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1, 'main') ORDER BY cid",
      [name])
    var columns: [String] = []
    var key: [(position: Int64, name: String, type: String, notNull: Bool)] = []
    var primaryKey: [Bool] = []
    for column in info {
      guard case .text(let columnName) = column[0] else { continue }
      columns.append(columnName)
      let position: Int64 = if case .integer(let value) = column[3] { value } else { 0 }
      primaryKey.append(position > 0)
      if position > 0 {
        let type: String = if case .text(let value) = column[1] { value } else { "" }
        key.append((position, columnName, type, column[2] == .integer(1)))
      }
    }
    guard !key.isEmpty else {
      return .failure(.tableNotRecordable(table: name, reason: .noPrimaryKey))
    }
    key.sort { $0.position < $1.position }
    let isRowID = key.count == 1 && key[0].type.uppercased() == "INTEGER"
    let nullable = !withoutRowID && !isRowID && key.contains { !$0.notNull }
    return .success(
      SessionTableInfo(
        name: name, columns: columns, primaryKey: primaryKey, keyColumns: key.map(\.name),
        keyCanBeNull: nullable))
  }

  /// The ordinary tables of the main database that a session may record: SwiftLite's and
  /// SQLite's own, views, virtual and shadow tables left out.
  static func ordinaryTables(_ db: OpaquePointer) throws -> [String] {
    rows(
      db,
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' "
        + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'swiftlite\\_%' ESCAPE '\\' "
        + "ORDER BY name", []
    ).compactMap { if case .text(let name) = $0[0] { name } else { nil } }
  }

  /// The rows of a small read, by raw C calls (an empty list when it fails).
  static func rows(_ db: OpaquePointer, _ sql: String, _ texts: [String]) -> [[SQLiteValue]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      return []
    }
    defer { sqlite3_finalize(statement) }
    for (index, text) in texts.enumerated() {
      sqlite3_bind_text(statement, Int32(index + 1), text, -1, sqliteTransient)
    }
    var result: [[SQLiteValue]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      result.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_value(statement, column).flatMap(Changeset.sqliteValue) ?? .null
        })
    }
    return result
  }
}

/// The table filter of ``Session/attachAllTables(except:)``: SQLite asks it, from the
/// pre-update hook, about each table not yet attached each time one of its rows changes,
/// until it says yes; the answers are kept, so each table is looked up once.
final class SessionTableFilter {
  private let db: OpaquePointer
  private let excluded: Set<String>
  /// The tables that existed when all were attached (lowercased).
  private let known: Set<String>
  private var answers: [String: Bool] = [:]
  /// Tables met later that are recorded.
  private(set) var lateTables: [String] = []
  /// Tables met later that cannot be recorded (no primary key).
  private(set) var unrecordable: [String] = []

  init(db: OpaquePointer, excluded: Set<String>, known: Set<String>) {
    self.db = db
    self.excluded = excluded
    self.known = known
  }

  func shouldRecord(_ table: String) -> Bool {
    let key = table.lowercased()
    if let answer = answers[key] { return answer }
    let answer: Bool
    if excluded.contains(key) {
      answer = false
    } else {
      switch SessionTableInfo.read(table, db) {
      case .success(let info):
        answer = true
        if !known.contains(key) { lateTables.append(info.name) }
      case .failure(.tableNotRecordable(_, .noPrimaryKey)):
        answer = false
        unrecordable.append(table)
      case .failure:
        answer = false
      }
    }
    answers[key] = answer
    return answer
  }
}

private func tableFilterCallback(
  _ context: UnsafeMutableRawPointer?, _ table: UnsafePointer<CChar>?
)
  -> Int32
{
  guard let context, let table else { return 0 }
  let filter = Unmanaged<SessionTableFilter>.fromOpaque(context).takeUnretainedValue()
  return filter.shouldRecord(String(cString: table)) ? 1 : 0
}
