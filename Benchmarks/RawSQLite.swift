import CSQLite
import SwiftLite

/// The raw C baseline's connection: `sqlite3_open_v2` with exactly the flags and settings a
/// SwiftLite `Connection` opens with by default (read from `OpenOptions()` so the two cannot
/// drift apart), and the few helpers the baselines share. Failures stop the benchmark.
final class RawDatabase {
  let handle: OpaquePointer

  init(path: String) {
    let defaults = OpenOptions()
    var db: OpaquePointer?
    let code = sqlite3_open_v2(path, &db, defaults.flags.rawValue, nil)
    guard code == SQLITE_OK, let db else {
      fatalError("raw: cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
    check(sqlite3_busy_timeout(db, Int32(defaults.busyTimeout * 1000)))
    if defaults.foreignKeys { execute("PRAGMA foreign_keys = ON") }
  }

  deinit { sqlite3_close_v2(handle) }

  func execute(_ sql: String) {
    check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
  }

  func prepare(_ sql: String) -> OpaquePointer {
    var statement: OpaquePointer?
    check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
    return statement!
  }

  /// The first column of the first row of `sql`, as an integer.
  func scalar(_ sql: String) -> Int64 {
    let statement = prepare(sql)
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { fatalError("raw: no row for \(sql)") }
    return sqlite3_column_int64(statement, 0)
  }

  func check(_ code: Int32, _ sql: String = "") {
    guard code == SQLITE_OK else {
      fatalError("raw: \(String(cString: sqlite3_errmsg(handle))) (\(code)) \(sql)")
    }
  }

  /// Stops the benchmark unless `code` is `expected` (`SQLITE_DONE`, `SQLITE_ROW`).
  @inline(__always) func expect(_ code: Int32, _ expected: Int32) {
    if code != expected { check(code == SQLITE_OK ? SQLITE_ERROR : code) }
  }
}
