import CSQLite
import Foundation
import SwiftLite

// Codable models through ModelStore against the same work done
// with the C API. Both sides use the table SwiftLite creates for the model (the raw side
// runs the very same CREATE TABLE), so SQLite does the same work underneath.

/// Ten `Int64` properties, the model twin of the core workloads' `item` rows.
struct BenchItem: Model, Sendable {
  var id: Int64
  var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64
  static let tableName = "bench_item"
  static let primaryKey = ["id"]
}

/// The same table after a change that needs a rebuild: `c9` renamed to `last`, `c8`
/// dropped (permitted).
struct BenchItemRenamed: Model, Sendable {
  var id: Int64
  var c1, c2, c3, c4, c5, c6, c7: Int64
  var last: Int64
  static let tableName = "bench_item"
  static let primaryKey = ["id"]
  static let renamedProperties = ["last": "c9"]
  static let droppableColumns: Set<String> = ["c8"]
}

extension Workloads {
  static let models: [Workload] = [
    modelInsert, modelSave, modelFetchAll, fetchSQLModels, insertReturning, migration,
  ]

  static let modelInsertSQL =
    "INSERT INTO bench_item (id, c1, c2, c3, c4, c5, c6, c7, c8, c9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
  static let modelChecksumSQL =
    "SELECT count(*) * 1000000007 + sum((id + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9) % 1000000007) FROM bench_item"

  static func benchItems(_ trial: Trial) -> [BenchItem] {
    let v = trial.fixtures.values
    return stride(from: 0, to: trial.rows * 10, by: 10).map { b in
      BenchItem(
        id: v[b], c1: v[b + 1], c2: v[b + 2], c3: v[b + 3], c4: v[b + 4], c5: v[b + 5],
        c6: v[b + 6], c7: v[b + 7], c8: v[b + 8], c9: v[b + 9])
    }
  }

  /// A new file holding the model's (empty) table, created by the raw API with the SQL
  /// SwiftLite would run, plus SwiftLite's record of it so no migration is planned.
  static func modelDatabase(_ trial: Trial, rows: Int = 0) throws -> String {
    let path = trial.fixtures.freshDatabase()
    let db = try Connection(path: path)
    try db.createTable(for: BenchItem.self)
    if rows > 0 {
      let v = trial.fixtures.values
      try db.transaction { db in
        let insert = try db.prepare(modelInsertSQL)
        for row in 0..<rows {
          let b = (row % trial.rows) * 10
          try insert.bind(
            values: Int64(row + 1), v[b + 1], v[b + 2], v[b + 3], v[b + 4], v[b + 5], v[b + 6],
            v[b + 7], v[b + 8], v[b + 9])
          try insert.run()
        }
      }
    }
    return path
  }

  /// Writes every model with `write` in one transaction (BEGIN timed, COMMIT not, as the
  /// core `insert` workload).
  static func swiftLiteModelWrite(
    _ trial: Trial, _ write: (Connection, BenchItem) throws -> Void
  ) throws -> Int64 {
    let items = benchItems(trial)
    let db = try Connection(path: try modelDatabase(trial))
    try db.createTable(for: BenchItem.self)
    try trial.time {
      try db.execute("BEGIN")
      for item in items { try write(db, item) }
    }
    try db.execute("COMMIT")
    return try db.scalar(Int64.self, modelChecksumSQL) ?? 0
  }

  static func rawModelInsert(_ trial: Trial) throws -> Int64 {
    rawInsert(trial, into: try modelDatabase(trial), modelInsertSQL, checksum: modelChecksumSQL)
  }

  /// `db.insert(model)` per model, in one transaction (BEGIN timed, COMMIT not, as `insert`).
  static let modelInsert = Workload(
    name: "model_insert",
    summary: "insert models of 10 Int64 in one transaction: db.insert(model) per model",
    target: 1.5,
    swiftLite: { trial in try swiftLiteModelWrite(trial) { db, item in try db.insert(item) } },
    raw: rawModelInsert)

  /// `db.save(model)` (an UPSERT) per model; the raw side is the plain INSERT above, so the
  /// ratio includes SQLite's own extra work for ON CONFLICT.
  static let modelSave = Workload(
    name: "model_save",
    summary: "save models (UPSERT) in one transaction: db.save(model) per model (raw: INSERT)",
    target: nil,
    swiftLite: { trial in try swiftLiteModelWrite(trial) { db, item in try db.save(item) } },
    raw: rawModelInsert)

  /// `db.findAll(BenchItem.self)` against a raw loop filling an array of plain structs.
  /// Models from SQL written by hand against the same models through `findAll`: the
  /// baseline is SwiftLite's own, not raw C.
  static let fetchSQLModels = Workload(
    name: "fetch_sql_models",
    summary: "fetch all rows as [Model] with db.fetchAll(Model.self, sql) (baseline: db.findAll)",
    target: 1.05,
    swiftLite: { trial in
      let db = try Connection(path: try modelDatabase(trial, rows: trial.rows))
      let items = try trial.time { try db.fetchAll(BenchItem.self, "SELECT * FROM bench_item") }
      return items.reduce(0) { $0 &+ $1.id &+ $1.c9 }
    },
    raw: { trial in
      let db = try Connection(path: try modelDatabase(trial, rows: trial.rows))
      _ = try db.findAll(BenchItem.self, limit: 1)  // the table is looked up outside the timing
      let items = try trial.time { try db.findAll(BenchItem.self) }
      return items.reduce(0) { $0 &+ $1.id &+ $1.c9 }
    })

  /// Inserting a model and reading it back as stored: one `INSERT ... RETURNING` against an
  /// insert then a lookup by key, both through SwiftLite (the baseline is SwiftLite's own).
  static let insertReturning = Workload(
    name: "insert_returning",
    summary: "insertAndFetch(model) per model (baseline: insert(model) then find(id:))",
    target: nil,
    swiftLite: { trial in
      let db = try Connection(path: try modelDatabase(trial))
      let items = benchItems(trial)
      return try trial.time {
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        return try items.reduce(Int64(0)) { $0 &+ (try db.insertAndFetch($1)).c9 }
      }
    },
    raw: { trial in
      let db = try Connection(path: try modelDatabase(trial))
      let items = benchItems(trial)
      return try trial.time {
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        return try items.reduce(Int64(0)) { sum, item in
          try db.insert(item)
          return sum &+ (try db.find(BenchItem.self, id: item.id)?.c9 ?? 0)
        }
      }
    })

  static let modelFetchAll = Workload(
    name: "model_fetchAll",
    summary: "fetch all rows as [Model] with db.findAll (raw: [struct of 10 Int64])",
    target: 1.5,
    swiftLite: { trial in
      let db = try Connection(path: try modelDatabase(trial, rows: trial.rows))
      try db.createTable(for: BenchItem.self)
      let items = try trial.time { try db.findAll(BenchItem.self) }
      return items.reduce(0) { sum, item in
        sum &+ item.id &+ item.c1 &+ item.c2 &+ item.c3 &+ item.c4 &+ item.c5 &+ item.c6
          &+ item.c7 &+ item.c8 &+ item.c9
      }
    },
    raw: { trial in
      let db = RawDatabase(path: try modelDatabase(trial, rows: trial.rows))
      let items = trial.time {
        rawFetchItems(db, "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM bench_item")
      }
      return items.reduce(0) { $0 &+ $1.sum }
    })

  /// An automatic migration by rebuild (rename one column, drop another) of a table of
  /// ten times `--rows` rows (1,000,000 by default), against the same rebuild written by
  /// hand. Both pause foreign keys and run in one transaction, COMMIT included.
  static let migration = Workload(
    name: "migration",
    summary: "rebuild a 10x--rows table: db.migrate(model) vs hand-written INSERT ... SELECT",
    target: 1.1,
    swiftLite: { trial in
      let path = try modelDatabase(trial, rows: trial.rows * 10)
      let db = try Connection(path: path)
      let plan = try trial.time { try db.migrate(BenchItemRenamed.self) }
      precondition(plan.strategy == .rebuild, "the migration workload must rebuild")
      return try db.scalar(Int64.self, "SELECT count(*) + sum(last % 1000) FROM bench_item") ?? 0
    },
    raw: { trial in
      let path = try modelDatabase(trial, rows: trial.rows * 10)
      let db = RawDatabase(path: path)
      trial.time {
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("BEGIN")
        db.execute(
          "CREATE TABLE new_bench_item (id INTEGER NOT NULL PRIMARY KEY, c1 INTEGER NOT NULL, "
            + "c2 INTEGER NOT NULL, c3 INTEGER NOT NULL, c4 INTEGER NOT NULL, c5 INTEGER NOT NULL, "
            + "c6 INTEGER NOT NULL, c7 INTEGER NOT NULL, last INTEGER NOT NULL)")
        db.execute(
          "INSERT INTO new_bench_item (id, c1, c2, c3, c4, c5, c6, c7, last) "
            + "SELECT id, c1, c2, c3, c4, c5, c6, c7, c9 FROM bench_item")
        db.execute("DROP TABLE bench_item")
        db.execute("ALTER TABLE new_bench_item RENAME TO bench_item")
        db.execute("COMMIT")
        db.execute("PRAGMA foreign_keys = ON")
      }
      return db.scalar("SELECT count(*) + sum(last % 1000) FROM bench_item")
    })
}
