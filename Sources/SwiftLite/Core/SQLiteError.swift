internal import CSQLite
import Foundation

/// An error reported by SQLite, or by SwiftLite for a misuse SQLite would also refuse.
///
/// It carries the primary and extended result codes, SQLite's own message (read from
/// `sqlite3_errmsg` the moment the call failed, so it says "NOT NULL constraint failed:
/// user.name" rather than "constraint failed"), and the SQL that failed. Bound values are
/// never included: they may be private data.
///
/// Match it by code or by kind:
///
/// ```swift
/// let db = try Connection.inMemory()
/// try db.execute("CREATE TABLE users(id INTEGER PRIMARY KEY, phone TEXT UNIQUE)")
/// let phone = "555-0100"
/// try db.run("INSERT INTO users(phone) VALUES (?)", [phone])
///
/// do { try db.run("INSERT INTO users(phone) VALUES (?)", [phone]) }
/// catch let error as SQLiteError where error.constraintKind == .unique { print(error.message) }
/// catch SQLiteError.Code.busy { print("busy: try again later") }
/// ```
///
/// See <https://sqlite.org/rescode.html>.
public struct SQLiteError: Error, Sendable, Hashable {
  /// The extended result code (for example `SQLITE_CONSTRAINT_UNIQUE`, 2067).
  public let extendedCode: Code
  /// SQLite's message, or SwiftLite's for a misuse detected before calling SQLite.
  public let message: String
  /// The SQL being prepared or run, when known.
  public let sql: String?
  /// The number of parameters the statement expects, when the error is about binding.
  public let parameterCount: Int?

  /// The primary result code: the low 8 bits of the extended code.
  public var code: Code { Code(rawValue: extendedCode.rawValue & 0xFF) }

  /// Creates an error from a result code and a message.
  /// - Parameters:
  ///   - extendedCode: the (extended) result code.
  ///   - message: what went wrong.
  ///   - sql: the SQL involved, if any.
  ///   - parameterCount: the number of parameters the statement takes, for binding errors.
  public init(extendedCode: Code, message: String, sql: String? = nil, parameterCount: Int? = nil) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
    self.parameterCount = parameterCount
  }

  /// `true` for every constraint violation: unique, primary key, not null, foreign key, check.
  public var isConstraintViolation: Bool { code == .constraint }

  /// The kind of constraint violated, or `nil` when this is not a constraint violation.
  public var constraintKind: ConstraintKind? {
    guard isConstraintViolation else { return nil }
    // The extended codes are C macro expressions Swift does not import:
    // SQLITE_CONSTRAINT | (n << 8), see https://sqlite.org/rescode.html#extrc.
    switch extendedCode.rawValue >> 8 {
    case 8: return .unique  // SQLITE_CONSTRAINT_UNIQUE
    case 6, 10: return .primaryKey  // SQLITE_CONSTRAINT_PRIMARYKEY, _ROWID
    case 5: return .notNull  // SQLITE_CONSTRAINT_NOTNULL
    case 3: return .foreignKey  // SQLITE_CONSTRAINT_FOREIGNKEY
    case 1: return .check  // SQLITE_CONSTRAINT_CHECK
    default: return .other
    }
  }

  /// `true` when the database was busy or locked by another connection (`SQLITE_BUSY`,
  /// `SQLITE_LOCKED`): the operation may succeed if tried again later.
  public var isBusy: Bool { code == .busy || code == .locked }

  /// `true` when the file is damaged or is not a database (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
  public var isCorrupt: Bool { code == .corrupt || code == .notADatabase }

  /// The kinds of constraint SQLite enforces.
  public enum ConstraintKind: String, Sendable, Hashable {
    /// A UNIQUE constraint or unique index.
    case unique
    /// A PRIMARY KEY (or rowid) must be unique.
    case primaryKey
    /// A NOT NULL column received NULL.
    case notNull
    /// A FOREIGN KEY points nowhere.
    case foreignKey
    /// A CHECK expression was false.
    case check
    /// Another constraint (a trigger's RAISE, a datatype in a STRICT table, ...).
    case other
  }

  /// A SQLite result code, primary or extended. See <https://sqlite.org/rescode.html>.
  public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The numeric code.
    public let rawValue: Int32
    /// Wraps a numeric result code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SQLITE_ERROR`: a generic error, such as an SQL syntax error.
    public static let error = Code(rawValue: SQLITE_ERROR)
    /// `SQLITE_INTERNAL`.
    public static let `internal` = Code(rawValue: SQLITE_INTERNAL)
    /// `SQLITE_PERM`: access permission denied.
    public static let permission = Code(rawValue: SQLITE_PERM)
    /// `SQLITE_ABORT`: the operation was aborted.
    public static let abort = Code(rawValue: SQLITE_ABORT)
    /// `SQLITE_ABORT_ROLLBACK`: the statement's transaction was rolled back.
    public static let abortRollback = Code(rawValue: 516)
    /// `SQLITE_BUSY`: the file is locked by another connection.
    public static let busy = Code(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a table is locked within this connection's shared cache.
    public static let locked = Code(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`.
    public static let noMemory = Code(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`: an attempt to write a read-only database.
    public static let readOnly = Code(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: `Connection.interrupt()` was called.
    public static let interrupt = Code(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: a disk I/O error.
    public static let ioError = Code(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is malformed.
    public static let corrupt = Code(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`.
    public static let full = Code(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    public static let cannotOpen = Code(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_SCHEMA`: the schema changed.
    public static let schema = Code(rawValue: SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG`: a string or blob is too large.
    public static let tooBig = Code(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    public static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: a datatype mismatch.
    public static let mismatch = Code(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    public static let misuse = Code(rawValue: SQLITE_MISUSE)
    /// `SQLITE_RANGE`: a parameter index or name is out of range, or the argument count is wrong.
    public static let range = Code(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = Code(rawValue: SQLITE_NOTADB)

    /// SQLite's English description of the code (from `sqlite3_errstr`) and its number.
    public var description: String {
      String(cString: sqlite3_errstr(rawValue)) + " (\(rawValue))"
    }
  }
}

extension SQLiteError.Code {
  /// Lets `catch SQLiteError.Code.busy` match any `SQLiteError` whose primary or extended
  /// code is this one.
  public static func ~= (pattern: SQLiteError.Code, error: any Error) -> Bool {
    guard let error = error as? SQLiteError else { return false }
    return error.code == pattern || error.extendedCode == pattern
  }
}

extension SQLiteError: CustomStringConvertible {
  /// The message, the code and the SQL, without bound values.
  public var description: String {
    var text = "SQLite error \(extendedCode.rawValue): \(message)"
    if let sql { text += " (while running: \(sql))" }
    return text
  }
}

extension SQLiteError: LocalizedError {
  /// The same text as ``description``, so `localizedDescription` shows it on every platform.
  public var errorDescription: String? { description }
}

extension SQLiteError {
  /// The error for a failed `sqlite3_step`. A BUSY that SQLite returned without waiting
  /// for the busy timeout (a deferred transaction that already read, now asking for the
  /// write lock) says so, and how to avoid it.
  static func stepFailed(_ code: Int32, _ statement: OpaquePointer, sql: String?) -> SQLiteError {
    let db = sqlite3_db_handle(statement)
    let error = SQLiteError(code, db, sql: sql)
    guard error.code == .busy, let db, sqlite3_stmt_readonly(statement) == 0,
      sqlite3_txn_state(db, nil) == SQLITE_TXN_READ
    else { return error }
    let why =
      error.extendedCode.rawValue == 517  // SQLITE_BUSY_SNAPSHOT
      ? "this deferred transaction read a snapshot that another connection has changed "
        + "since, so it cannot write"
      : "this deferred transaction already read and cannot take the write lock while "
        + "another connection holds it"
    return SQLiteError(
      extendedCode: error.extendedCode,
      message: error.message + " (" + why + "; SQLite reports this at once, without "
        + "waiting for the busy timeout, because waiting could deadlock: begin transactions "
        + "that write with .immediate, as DatabaseQueue.write and DatabasePool.write do, "
        + "and run this one again)",
      sql: sql)
  }

  /// The single door from a result code to an error: reads `sqlite3_errmsg` at once.
  static func check(
    _ code: Int32, _ handle: OpaquePointer?, sql: String? = nil
  ) throws(SQLiteError) {
    guard code != SQLITE_OK else { return }
    throw SQLiteError(code, handle, sql: sql)
  }

  /// Builds an error from a failed call's result code and the connection's message.
  init(_ code: Int32, _ handle: OpaquePointer?, sql: String? = nil) {
    let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
    // The connection's extended code belongs to the same failure only if it agrees.
    let resolved = (extended & 0xFF) == (code & 0xFF) ? extended : code
    let message: String
    if let handle, let text = sqlite3_errmsg(handle), (extended & 0xFF) == (code & 0xFF) {
      message = String(cString: text)
    } else {
      message = String(cString: sqlite3_errstr(code))
    }
    self.init(extendedCode: Code(rawValue: resolved), message: message, sql: sql)
  }

  /// An error SwiftLite raises itself for a misuse SQLite would refuse too.
  static func misuse(_ message: String, sql: String? = nil, parameterCount: Int? = nil)
    -> SQLiteError
  {
    SQLiteError(extendedCode: .misuse, message: message, sql: sql, parameterCount: parameterCount)
  }

  /// A binding error: wrong argument count or unknown parameter name.
  static func range(_ message: String, sql: String?, parameterCount: Int?) -> SQLiteError {
    SQLiteError(extendedCode: .range, message: message, sql: sql, parameterCount: parameterCount)
  }
}
