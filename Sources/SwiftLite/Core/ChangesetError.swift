import Foundation

/// An error of a ``Session``, a ``Changeset`` or an apply (``Connection/apply(_:onConflict:)``).
///
/// Errors SQLite reports itself (a busy database, a full disk) are thrown as `SQLiteError`;
/// these are the cases that SQLite either cannot name or only logs. Descriptions name tables
/// and columns, never values (they may be private data).
///
/// ```swift
/// let (db, other) = (try Connection.inMemory(), try Connection.inMemory())
/// for copy in [db, other] { try copy.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT)") }
/// let session = try Session(on: other)
/// try session.attach("note")
/// try other.run("INSERT INTO note(id, body) VALUES (1, 'theirs')")
/// let changeset = try session.changeset()
/// try db.run("INSERT INTO note(id, body) VALUES (1, 'ours')")  // the same row, here already
///
/// do {
///   try db.apply(changeset) { conflict in conflict.kind == .data ? .replace : .abort }
/// } catch ChangesetError.aborted(let kind, let table) {
///   print("nothing applied: a \(kind) conflict in \(table ?? "the foreign keys")")
/// }
/// ```
public enum ChangesetError: Error, Sendable, Hashable {
  /// The SQLite library in use was built without the session extension (or without the
  /// pre-update hook it needs): the functions named are missing.
  case sessionExtensionUnavailable(missing: [String])
  /// A session cannot record this table; see ``UnrecordableReason``.
  case tableNotRecordable(table: String, reason: UnrecordableReason)
  /// The conflict handler answered ``ChangesetConflict/Resolution/abort`` (or threw nothing
  /// but let the foreign key check fail): every change was rolled back. `table` is `nil`
  /// for a ``ChangesetConflict/Kind/foreignKey`` conflict, which concerns the whole set.
  case aborted(kind: ChangesetConflict.Kind, table: String?)
  /// The conflict handler answered with a resolution SQLite does not allow for the kind:
  /// ``ChangesetConflict/Resolution/replace`` is valid only for
  /// ``ChangesetConflict/Kind/data`` and ``ChangesetConflict/Kind/conflict``. Every change
  /// was rolled back.
  case invalidResolution(
    ChangesetConflict.Resolution, kind: ChangesetConflict.Kind, table: String?)
  /// A table of the changeset does not match the receiving database's table (missing, or
  /// another number of columns, or other primary key columns): nothing was applied.
  /// SQLite itself would skip such a table and only log it.
  case schemaMismatch(table: String, reason: String)
  /// The bytes are not a changeset or a patchset (or are cut short).
  case malformed(String)
  /// A patchset holds no old values, so it cannot be inverted.
  case patchsetCannotBeInverted
  /// A changeset and a patchset cannot be combined into one.
  case mixedFormats
  /// The session was closed (or its connection was) before this call.
  case sessionClosed
  /// A value of the changeset is TEXT that is not valid UTF-8: no `String` holds it
  /// unchanged, and it is never repaired.
  case invalidText(table: String, column: Int)

  /// Why a session cannot record a table.
  public enum UnrecordableReason: String, Sendable, Hashable {
    /// The main database has no table of that name.
    case noSuchTable
    /// The table has no explicit PRIMARY KEY: the session extension identifies rows by it
    /// and ignores such tables.
    case noPrimaryKey
    /// A virtual table (full-text search, ...): its rows are not stored as a table's are,
    /// and the pre-update hook the session relies on never sees them.
    case virtualTable
    /// A view holds no rows of its own.
    case view
    /// A shadow table that holds a virtual table's data: it follows its virtual table on
    /// every copy.
    case shadowTable
    /// A table of SwiftLite's own (`swiftlite_*`) or of SQLite's (`sqlite_*`): it
    /// describes this file, not the data.
    case internalTable
  }
}

extension ChangesetError: CustomStringConvertible {
  /// What went wrong, with table names but without values.
  public var description: String {
    switch self {
    case .sessionExtensionUnavailable(let missing):
      return "the SQLite library in use has no session extension (missing "
        + missing.joined(separator: ", ") + "): changesets need SQLite built with "
        + "SQLITE_ENABLE_SESSION and SQLITE_ENABLE_PREUPDATE_HOOK"
    case .tableNotRecordable(let table, let reason):
      let why =
        switch reason {
        case .noSuchTable: "there is no such table"
        case .noPrimaryKey: "it has no explicit PRIMARY KEY"
        case .virtualTable: "it is a virtual table"
        case .view: "it is a view"
        case .shadowTable: "it is a shadow table of a virtual table"
        case .internalTable: "it is one of SwiftLite's or SQLite's own tables"
        }
      return "a session cannot record table '\(table)': \(why)"
    case .aborted(let kind, let table):
      return "the changeset was not applied: the conflict handler aborted on a \(kind) "
        + "conflict" + (table.map { " in table '\($0)'" } ?? "")
    case .invalidResolution(let resolution, let kind, let table):
      return "the changeset was not applied: \(resolution) is not a valid answer to a "
        + "\(kind) conflict" + (table.map { " in table '\($0)'" } ?? "")
        + " (replace is valid only for data and conflict)"
    case .schemaMismatch(let table, let reason):
      return "the changeset was not applied: table '\(table)' differs here: \(reason)"
    case .malformed(let detail):
      return "not a valid changeset: \(detail)"
    case .patchsetCannotBeInverted:
      return "a patchset cannot be inverted: it holds no old values"
    case .mixedFormats:
      return "a changeset and a patchset cannot be concatenated"
    case .sessionClosed:
      return "the session is closed"
    case .invalidText(let table, let column):
      return "column \(column) of a change to table '\(table)' holds text that is not UTF-8"
    }
  }
}

extension ChangesetError: LocalizedError {
  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
