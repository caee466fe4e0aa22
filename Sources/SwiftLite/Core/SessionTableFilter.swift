import Foundation

/// The table filter of ``Session/attachAllTables(except:)``: SQLite asks it, from the
/// pre-update hook, about each table not yet attached each time one of its rows changes,
/// until it says yes; the answers are kept, so each table is looked up once.
final class SessionTableFilter {
  private let db: OpaquePointer
  private let excluded: Set<SQLName>
  /// The tables that existed when all were attached.
  private let known: Set<SQLName>
  private var answers: [SQLName: Bool] = [:]
  /// Tables met later that are recorded.
  private(set) var lateTables: [String] = []
  /// Tables met later that cannot be recorded (no primary key).
  private(set) var unrecordable: [String] = []

  init(db: OpaquePointer, excluded: Set<SQLName>, known: Set<SQLName>) {
    self.db = db
    self.excluded = excluded
    self.known = known
  }

  func shouldRecord(_ table: String) -> Bool {
    let key = SQLName(table)
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

/// The C table filter of `sqlite3session_table_filter`: asks the `SessionTableFilter` its
/// context points to.
func sessionTableFilterCallback(
  _ context: UnsafeMutableRawPointer?, _ table: UnsafePointer<CChar>?
)
  -> Int32
{
  guard let context, let table else { return 0 }
  let filter = Unmanaged<SessionTableFilter>.fromOpaque(context).takeUnretainedValue()
  return filter.shouldRecord(String(cString: table)) ? 1 : 0
}
