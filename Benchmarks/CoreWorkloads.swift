import CSQLite
import SwiftLite

// The Core trio's workloads (Connection, Statement, Row) against the C API,
// on `Fixtures.rows` rows of ten INTEGER columns. Each SwiftLite side is written the way a
// user would write it with the public API; each raw side the way a careful C programmer
// would, with no checks SQLite does not force on them.

extension Workloads {
  static let core: [Workload] = [
    insert, insertArray, insertRun, iterate, iterateChecked, fetchAll, lookup, lookupHot,
    lookupHotArray,
  ]

  /// Inserts every row through one prepared statement, inside one transaction. BEGIN is
  /// timed, COMMIT (an fsync, the same disk work on both sides) is not: it only adds noise.
  static let insert = Workload(
    name: "insert",
    summary: "insert rows in one transaction: prepare once, bind(values:) + run() per row",
    target: 1.05,
    swiftLite: { trial in
      try swiftLiteInsert(trial) { insert, v, base in
        try insert.bind(
          values: v[base], v[base + 1], v[base + 2], v[base + 3], v[base + 4],
          v[base + 5], v[base + 6], v[base + 7], v[base + 8], v[base + 9])
      }
    },
    raw: rawInsert)

  /// The same, binding an array of arguments (`[any SQLiteValueConvertible?]`).
  static let insertArray = Workload(
    name: "insert_array",
    summary: "insert rows in one transaction: prepare once, bind([...]) + run() per row",
    target: nil,
    swiftLite: { trial in
      try swiftLiteInsert(trial) { insert, v, base in
        try insert.bind([
          v[base], v[base + 1], v[base + 2], v[base + 3], v[base + 4],
          v[base + 5], v[base + 6], v[base + 7], v[base + 8], v[base + 9],
        ])
      }
    },
    raw: rawInsert)

  static func swiftLiteInsert(
    _ trial: Trial, bind: (Statement, [Int64], Int) throws -> Void
  ) throws -> Int64 {
    let db = try Connection(path: trial.fixtures.freshDatabase())
    let v = trial.fixtures.values
    try trial.time {
      try db.execute("BEGIN")
      let insert = try db.prepare(Fixtures.insertSQL)
      for base in stride(from: 0, to: trial.rows * 10, by: 10) {
        try bind(insert, v, base)
        try insert.run()
      }
    }
    try db.execute("COMMIT")
    return try db.scalar(Int64.self, Fixtures.insertChecksumSQL) ?? 0
  }

  /// The same inserts through `Connection.run` and its statement cache.
  static let insertRun = Workload(
    name: "insert_run",
    summary: "insert rows in one transaction: db.run(sql, [...]) per row (statement cache)",
    target: nil,
    swiftLite: { trial in
      let db = try Connection(path: trial.fixtures.freshDatabase())
      let v = trial.fixtures.values
      try trial.time {
        try db.execute("BEGIN")
        for base in stride(from: 0, to: trial.rows * 10, by: 10) {
          try db.run(
            Fixtures.insertSQL,
            [
              v[base], v[base + 1], v[base + 2], v[base + 3], v[base + 4],
              v[base + 5], v[base + 6], v[base + 7], v[base + 8], v[base + 9],
            ])
        }
      }
      try db.execute("COMMIT")
      return try db.scalar(Int64.self, Fixtures.insertChecksumSQL) ?? 0
    },
    raw: rawInsert)

  static func rawInsert(_ trial: Trial) -> Int64 {
    rawInsert(
      trial, into: trial.fixtures.freshDatabase(), Fixtures.insertSQL,
      checksum: Fixtures.insertChecksumSQL)
  }

  /// Inserts every row of the fixtures through one prepared `insertSQL` (ten parameters),
  /// in one transaction (BEGIN timed, COMMIT not), and returns `checksum`'s value.
  static func rawInsert(
    _ trial: Trial, into path: String, _ insertSQL: String, checksum: String
  ) -> Int64 {
    let db = RawDatabase(path: path)
    let v = trial.fixtures.values
    trial.time {
      db.execute("BEGIN")
      let insert = db.prepare(insertSQL)
      for base in stride(from: 0, to: trial.rows * 10, by: 10) {
        for column in 0..<10 {
          db.check(sqlite3_bind_int64(insert, Int32(column + 1), v[base + column]))
        }
        db.expect(sqlite3_step(insert), SQLITE_DONE)
        sqlite3_reset(insert)
      }
      sqlite3_finalize(insert)
    }
    db.execute("COMMIT")
    return db.scalar(checksum)
  }

  /// Reads every column of every row in place, as `Int64`.
  static let iterate = Workload(
    name: "iterate",
    summary: "read all rows in place: forEachRow + row.get(Int64.self, at:) per column",
    target: 1.10,
    swiftLite: { trial in
      let db = try Connection(path: trial.fixtures.populatedDatabase())
      return try trial.time {
        var sum: Int64 = 0
        try db.forEachRow(Fixtures.selectAllSQL) { row in
          for column in 0..<10 { sum &+= try row.get(Int64.self, at: column) }
        }
        return sum
      }
    },
    raw: { trial in
      let db = RawDatabase(path: trial.fixtures.populatedDatabase())
      return trial.time {
        var sum: Int64 = 0
        let select = db.prepare(Fixtures.selectAllSQL)
        var code = sqlite3_step(select)
        while code == SQLITE_ROW {
          for column in 0..<Int32(10) { sum &+= sqlite3_column_int64(select, column) }
          code = sqlite3_step(select)
        }
        db.expect(code, SQLITE_DONE)
        sqlite3_finalize(select)
        return sum
      }
    })

  /// `iterate` against a C loop that checks each value's storage class as SwiftLite must
  /// (NULL or REAL read as an integer is an error, not 0 or a truncation): the cheapest such
  /// check is `sqlite3_column_value` + `sqlite3_value_type` + `sqlite3_value_int64`, two
  /// calls more per value than `iterate`'s baseline. The ratio shows SwiftLite's own cost.
  static let iterateChecked = Workload(
    name: "iterate_checked",
    summary: "iterate, against a C loop that checks each value's storage class too",
    target: nil,
    swiftLite: iterate.swiftLite,
    raw: { trial in
      let db = RawDatabase(path: trial.fixtures.populatedDatabase())
      return trial.time {
        var sum: Int64 = 0
        let select = db.prepare(Fixtures.selectAllSQL)
        var code = sqlite3_step(select)
        while code == SQLITE_ROW {
          for column in 0..<Int32(10) {
            let value = sqlite3_column_value(select, column)
            guard sqlite3_value_type(value) == SQLITE_INTEGER else { fatalError("not an integer") }
            sum &+= sqlite3_value_int64(value)
          }
          code = sqlite3_step(select)
        }
        db.expect(code, SQLITE_DONE)
        sqlite3_finalize(select)
        return sum
      }
    })

  /// Materializes every row. The raw side builds the most economical Swift equivalent: an
  /// array of plain structs of ten `Int64`. Reading the values back (the checksum) and
  /// freeing them are not timed on either side.
  static let fetchAll = Workload(
    name: "fetchAll",
    summary: "fetch all rows as [Row] with db.query (raw: [struct of 10 Int64])",
    target: 1.05,
    swiftLite: { trial in
      let db = try Connection(path: trial.fixtures.populatedDatabase())
      let rows = try trial.time { try db.query(Fixtures.selectAllSQL) }
      var sum: Int64 = 0
      for row in rows {
        for column in 0..<10 { sum &+= try row.get(Int64.self, at: column) }
      }
      return sum
    },
    raw: { trial in
      let db = RawDatabase(path: trial.fixtures.populatedDatabase())
      let items = trial.time { rawFetchItems(db, Fixtures.selectAllSQL) }
      return items.reduce(0) { $0 &+ $1.sum }
    })

  /// The raw fetch: every row of `sql` (ten INTEGER columns) into an array of plain structs.
  static func rawFetchItems(_ db: RawDatabase, _ sql: String) -> [RawItem] {
    var items: [RawItem] = []
    let select = db.prepare(sql)
    var code = sqlite3_step(select)
    while code == SQLITE_ROW {
      items.append(RawItem(select))
      code = sqlite3_step(select)
    }
    db.expect(code, SQLITE_DONE)
    sqlite3_finalize(select)
    return items
  }

  /// Looks rows up one at a time by primary key, in a fixed pseudo-random order, reading
  /// all ten columns of each. With SQLite's default page cache (2 MB) most lookups in a
  /// 100,000-row file read a page from the OS, which both sides pay alike. Written with the
  /// call made for a lookup, `queryFirst(sql, values: id)`, as raw C steps once and resets
  /// (`lookup_hot_array` shows the form with an array of arguments and of rows).
  static let lookup = Workload(
    name: "lookup",
    summary: "look up one row by primary key per call: db.queryFirst(sql, values: id)",
    target: 1.10,
    swiftLite: { trial in
      try swiftLiteLookup(trial, ids: trial.fixtures.lookupIDs) { db, id in
        try db.queryFirst(Fixtures.selectByIDSQL, values: id)!
      }
    },
    raw: { trial in rawLookup(trial, ids: trial.fixtures.lookupIDs) })

  /// The same number of lookups inside one read transaction, among the first 5,000 rows
  /// only: no file locking per lookup and pages that stay in SQLite's cache, so this shows
  /// SwiftLite's own cost per call, which the file system hides in `lookup`. Written with
  /// the call made for it, `queryFirst(sql, values: id)`.
  static let lookupHot = Workload(
    name: "lookup_hot",
    summary: "lookups in one transaction among 5,000 rows (cached): db.queryFirst(sql, values: id)",
    target: 1.20,
    swiftLite: { trial in
      try swiftLiteLookup(trial, ids: trial.fixtures.hotLookupIDs, inTransaction: true) { db, id in
        try db.queryFirst(Fixtures.selectByIDSQL, values: id)!
      }
    },
    raw: { trial in rawLookup(trial, ids: trial.fixtures.hotLookupIDs, inTransaction: true) })

  /// `lookup_hot` written as `lookup` is: an array of arguments and an array of rows.
  static let lookupHotArray = Workload(
    name: "lookup_hot_array",
    summary: "lookup_hot with db.query(sql, [id])[0] (an array of arguments, of rows)",
    target: nil,
    swiftLite: { trial in
      try swiftLiteLookup(trial, ids: trial.fixtures.hotLookupIDs, inTransaction: true)
    },
    raw: lookupHot.raw)

  static func swiftLiteLookup(
    _ trial: Trial, ids: [Int64], inTransaction: Bool = false,
    _ lookup: (Connection, Int64) throws -> Row = { db, id in
      try db.query(Fixtures.selectByIDSQL, [id])[0]
    }
  ) throws -> Int64 {
    let db = try Connection(path: trial.fixtures.populatedDatabase())
    return try trial.time {
      if inTransaction { try db.execute("BEGIN") }
      var sum: Int64 = 0
      for id in ids {
        let row = try lookup(db, id)
        for column in 0..<10 { sum &+= try row.get(Int64.self, at: column) }
      }
      if inTransaction { try db.execute("COMMIT") }
      return sum
    }
  }

  static func rawLookup(_ trial: Trial, ids: [Int64], inTransaction: Bool = false) -> Int64 {
    let db = RawDatabase(path: trial.fixtures.populatedDatabase())
    return trial.time {
      if inTransaction { db.execute("BEGIN") }
      var sum: Int64 = 0
      let select = db.prepare(Fixtures.selectByIDSQL)
      for id in ids {
        sqlite3_reset(select)
        db.check(sqlite3_bind_int64(select, 1, id))
        db.expect(sqlite3_step(select), SQLITE_ROW)
        for column in 0..<Int32(10) { sum &+= sqlite3_column_int64(select, column) }
      }
      sqlite3_finalize(select)
      if inTransaction { db.execute("COMMIT") }
      return sum
    }
  }
}

/// One row of the raw fetch: what a C programmer would use, a plain struct.
struct RawItem {
  var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64

  init(_ statement: OpaquePointer) {
    c0 = sqlite3_column_int64(statement, 0)
    c1 = sqlite3_column_int64(statement, 1)
    c2 = sqlite3_column_int64(statement, 2)
    c3 = sqlite3_column_int64(statement, 3)
    c4 = sqlite3_column_int64(statement, 4)
    c5 = sqlite3_column_int64(statement, 5)
    c6 = sqlite3_column_int64(statement, 6)
    c7 = sqlite3_column_int64(statement, 7)
    c8 = sqlite3_column_int64(statement, 8)
    c9 = sqlite3_column_int64(statement, 9)
  }

  var sum: Int64 {
    c0 &+ c1 &+ c2 &+ c3 &+ c4 &+ c5 &+ c6 &+ c7 &+ c8 &+ c9
  }
}
