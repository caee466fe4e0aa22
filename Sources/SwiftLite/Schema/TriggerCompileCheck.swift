/// Whether triggers would compile against a table's new columns, found before a rebuild
/// writes anything: each is created, as a TEMP trigger, on a TEMP table of the new columns
/// under the table's name (which TEMP tables shadow), and fired by statements that touch no
/// row; SQLite compiles a trigger's body with the statement that fires it. All of it is
/// rolled back: the database file is not touched.
///
/// On a connection that cannot write even its TEMP schema (`PRAGMA query_only`), nothing is
/// checked here (`nil`); the rebuild then checks the recreated triggers itself, inside its
/// transaction.
struct TriggerCompileCheck {
  /// A trigger that does not compile, and SQLite's message.
  struct Failure {
    var trigger: String
    var message: String
  }

  /// Stands for the end of a check, to roll it back.
  private struct Done: Error {}

  /// The triggers (name and `CREATE TRIGGER` statement) that would not compile on `table`,
  /// or `nil` when the connection cannot write its TEMP schema to check them.
  /// - Throws: `SQLiteError` for a failure other than the check's own.
  static func failures(
    of triggers: [(name: String, sql: String)], on table: TableSchema, in db: Connection
  ) throws -> [Failure]? {
    let prefix = "CREATE TRIGGER "
    let checked = triggers.filter { $0.sql.hasPrefix(prefix) }
    guard !checked.isEmpty else { return [] }
    let quoted = "temp." + SQLIdentifier.quote(table.name)
    let names = table.columns.map { SQLIdentifier.quote($0.name) }
    let firing = [
      "INSERT INTO " + quoted + " (" + names.joined(separator: ", ") + ") SELECT "
        + names.joined(separator: ", ") + " FROM " + quoted + " WHERE 0",
      "UPDATE " + quoted + " SET " + names.map { $0 + " = " + $0 }.joined(separator: ", ")
        + " WHERE 0",
      "DELETE FROM " + quoted + " WHERE 0",
    ]
    var failures: [Failure] = []
    do {
      try db.savepoint("swiftlite_trigger_check") { db in
        try db.execute(
          "CREATE TEMP TABLE " + SQLIdentifier.quote(table.name) + " ("
            + table.columns.map { SQLIdentifier.quote($0.name) + " " + $0.type }.joined(
              separator: ", ") + ")")
        for trigger in checked {
          let temporary = "temp." + SQLIdentifier.quote(trigger.name)
          do {
            try db.execute("CREATE TEMP TRIGGER " + trigger.sql.dropFirst(prefix.count))
            for statement in firing { try db.execute(statement) }
          } catch let error as SQLiteError where error.code != .readOnly {
            failures.append(Failure(trigger: trigger.name, message: error.message))
          }
          try db.execute("DROP TRIGGER IF EXISTS " + temporary)
        }
        throw Done()
      }
    } catch is Done {
      return failures
    } catch let error as SQLiteError where error.code == .readOnly {
      return nil
    }
    return failures
  }
}
