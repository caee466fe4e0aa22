internal import CSQLite
import Foundation
import Synchronization

/// Records the INSERTs, UPDATEs and DELETEs made to some tables of a connection's main
/// database, for another copy of the database to replay: SQLite's session extension
/// (<https://sqlite.org/sessionintro.html>).
///
/// ```swift
/// import Foundation
///
/// let (db, other) = (try Connection.inMemory(), try Connection.inMemory())
/// for copy in [db, other] { try copy.execute("CREATE TABLE note(id TEXT PRIMARY KEY, body TEXT)") }
///
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
  /// The tables whose triggers went missing at some point (see ``skippedRows()``).
  private var lostWatches: Set<String> = []
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
    let skipped = Set(excluded.map(SQLName.init))
    var recordable: [SessionTableInfo] = []
    for name in try SessionTableInfo.ordinaryTables(connection.handle)
    where !skipped.contains(SQLName(name)) {
      switch SessionTableInfo.read(name, connection.handle) {
      case .success(let info): recordable.append(info)
      case .failure(let error): throw error
      }
    }
    for info in recordable where info.keyCanBeNull { try watchNullKeys(info) }
    let filter = SessionTableFilter(
      db: connection.handle, excluded: skipped, known: Set(recordable.map { SQLName($0.name) }))
    self.filter = filter
    api.tableFilter(handle, sessionTableFilterCallback, Unmanaged.passUnretained(filter).toOpaque())
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
    let skipped = try skippedRows()
    return Changeset(
      data: data, skippedRows: skipped,
      tablesWithIncompleteSkippedRows: nullKeyWatches.map(\.info.name).filter {
        lostWatches.contains($0)
      })
  }

  /// The changes to rows with a NULL key: copied by the triggers of the tables attached
  /// (or existing when all were), and, for tables first met after ``attachAllTables(except:)``
  /// (every row of which was written during the session), their rows with a NULL key now.
  private func skippedRows() throws -> [Changeset.SkippedRow] {
    var rows: [Changeset.SkippedRow] = []
    for watch in nullKeyWatches {
      // Temporary triggers are schema: a rollback of the transaction that attached the
      // table takes them back, and so does a migration that rebuilt the table. Such a
      // table is watched again from now on, and reported as incomplete.
      let names = ["insert", "update", "delete"].map { watch.copyTable + "_" + $0 }
      let present = SessionTableInfo.rows(
        connection.handle,
        "SELECT count(*) FROM sqlite_temp_schema WHERE type = 'trigger' AND name IN (?1, ?2, ?3)",
        names)
      if present.first?.first != .integer(3) {
        try connection.execute(watch.installSQL)
        lostWatches.insert(watch.info.name)
      }
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
    nullKeyWatches.append(NullKeyWatch(info: info, copyTable: base, installSQL: sql))
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
    /// The statements that create the copy table and its triggers (each `IF NOT EXISTS`).
    let installSQL: String
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
