import SwiftLite

/// The rows seeded on a path of a ``MigrationHistoryCheck``: per table, the rowids that
/// must still be there after the upgrade (or, for a `WITHOUT ROWID` table, how many rows).
struct SeededRows {
  /// A table's rows at one moment.
  struct Rows {
    var rowIDs: Set<Int64>
    var count: Int
    var hasRowID: Bool
  }

  /// Rows that must survive, by table (lower-cased), with the step that seeded them.
  private var expected: [(table: String, step: String, rows: Rows)] = []
  /// The tables read by ``read(_:)``.
  private var tables: [String: Rows] = [:]

  /// The rows of every table now (SQLite's and SwiftLite's bookkeeping left out).
  static func read(_ db: Connection) throws -> SeededRows {
    var rows = SeededRows()
    let names = try db.query(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'"
        + " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).map { try $0.get(String.self, at: 0) }.filter { !DatabaseSchema.isBookkeeping($0) }
    for name in names {
      let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      let withoutRowID =
        try db.scalar(
          Bool.self, "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?",
          [name]) ?? false
      if withoutRowID {
        let count = try db.scalar(Int.self, "SELECT count(*) FROM " + quoted) ?? 0
        rows.tables[name.lowercased()] = Rows(rowIDs: [], count: count, hasRowID: false)
      } else {
        let ids = try db.query("SELECT _rowid_ FROM " + quoted).map {
          try $0.get(Int64.self, at: 0)
        }
        rows.tables[name.lowercased()] = Rows(rowIDs: Set(ids), count: ids.count, hasRowID: true)
      }
    }
    return rows
  }

  /// Adds the rows in `db` now that `before` did not have, as seeded by `step`.
  mutating func add(since before: SeededRows, in db: Connection, step: String) throws {
    let now = try Self.read(db)
    for (table, rows) in now.tables.sorted(by: { $0.key < $1.key }) {
      let old = before.tables[table]
      if rows.hasRowID {
        let new = rows.rowIDs.subtracting(old?.rowIDs ?? [])
        if !new.isEmpty {
          expected.append((table, step, Rows(rowIDs: new, count: new.count, hasRowID: true)))
        }
      } else if rows.count > (old?.count ?? 0) {
        expected.append(
          (table, step, Rows(rowIDs: [], count: rows.count - (old?.count ?? 0), hasRowID: false)))
      }
    }
  }

  /// One line per table whose seeded rows are not all there.
  /// - Parameter renamed: tables renamed by the migrations, old name -> new name (both
  ///   lower-cased): rows seeded in the old table must be in the new one.
  func missing(in db: Connection, renamed: [String: String] = [:]) throws -> [String] {
    let now = try Self.read(db)
    var lines: [String] = []
    for (seededIn, step, rows) in expected {
      // A table renamed more than once is followed to its last name.
      var table = seededIn
      var seen: Set<String> = [table]
      while let next = renamed[table], seen.insert(next).inserted { table = next }
      guard let current = now.tables[table] else {
        lines.append("table \(table) (rows seeded after \"\(step)\") is gone")
        continue
      }
      if rows.hasRowID && current.hasRowID {
        let lost = rows.rowIDs.subtracting(current.rowIDs).sorted()
        if !lost.isEmpty {
          lines.append(
            "\(lost.count) row(s) of \(table) seeded after \"\(step)\" are gone (rowid "
              + lost.prefix(10).map(String.init).joined(separator: ", ")
              + (lost.count > 10 ? ", ..." : "") + ")")
        }
      } else if current.count < rows.count {
        lines.append(
          "\(table) has \(current.count) row(s), fewer than the \(rows.count) seeded"
            + " after \"\(step)\"")
      }
    }
    return lines
  }
}
