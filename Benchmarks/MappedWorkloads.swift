import CSQLite
import Foundation
import SwiftLite

// Models mapped without Codable (RowMapped) against the C API, on the same table as the
// Codable model workloads, and primary-key lookups of models with rows in SQLite's cache.

/// `BenchItem` with a mapping of its own: the same table, the same columns.
struct MappedBenchItem: Model, RowMapped, Sendable {
  var id: Int64
  var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int64
  static let tableName = "bench_item"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"]

  init(_ item: BenchItem) {
    (id, c1, c2, c3, c4, c5) = (item.id, item.c1, item.c2, item.c3, item.c4, item.c5)
    (c6, c7, c8, c9) = (item.c6, item.c7, item.c8, item.c9)
  }

  init(row: MappedRow) throws {
    id = try row.get(0)
    c1 = try row.get(1)
    c2 = try row.get(2)
    c3 = try row.get(3)
    c4 = try row.get(4)
    c5 = try row.get(5)
    c6 = try row.get(6)
    c7 = try row.get(7)
    c8 = try row.get(8)
    c9 = try row.get(9)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(c1, at: 1)
    try row.set(c2, at: 2)
    try row.set(c3, at: 3)
    try row.set(c4, at: 4)
    try row.set(c5, at: 5)
    try row.set(c6, at: 6)
    try row.set(c7, at: 7)
    try row.set(c8, at: 8)
    try row.set(c9, at: 9)
  }

  var sum: Int64 { id &+ c1 &+ c2 &+ c3 &+ c4 &+ c5 &+ c6 &+ c7 &+ c8 &+ c9 }
}

extension Workloads {
  static let mapped: [Workload] = [
    mappedInsert, mappedFetchAll, modelLookup, mappedLookup, modelLookupHot, mappedLookupHot,
  ]

  /// `db.insert(model)` per mapped model, in one transaction (BEGIN timed, COMMIT not).
  static let mappedInsert = Workload(
    name: "mapped_insert",
    summary: "insert RowMapped models of 10 Int64 in one transaction: db.insert(model) each",
    target: 1.10,
    swiftLite: { trial in
      let items = benchItems(trial).map(MappedBenchItem.init)
      let db = try Connection(path: try modelDatabase(trial))
      try db.createTable(for: MappedBenchItem.self)
      try trial.time {
        try db.execute("BEGIN")
        for item in items { try db.insert(item) }
      }
      try db.execute("COMMIT")
      return try db.scalar(Int64.self, modelChecksumSQL) ?? 0
    },
    raw: rawModelInsert)

  /// `db.findAll(MappedBenchItem.self)` against a raw loop filling an array of structs.
  static let mappedFetchAll = Workload(
    name: "mapped_fetchAll",
    summary: "fetch all rows as [RowMapped model] with db.findAll (raw: [struct of 10 Int64])",
    target: 1.10,
    swiftLite: { trial in
      let db = try Connection(path: try modelDatabase(trial, rows: trial.rows))
      try db.createTable(for: MappedBenchItem.self)
      let items = try trial.time { try db.findAll(MappedBenchItem.self) }
      return items.reduce(0) { $0 &+ $1.sum }
    },
    raw: modelFetchAll.raw)

  /// `db.find(BenchItem.self, id:)` per lookup inside one read transaction, among 5,000 rows.
  /// `find(Model.self, id:)` per lookup, each in its own transaction (autocommit), among
  /// every row: what an app's "open this item" costs.
  static let modelLookup = Workload(
    name: "model_lookup",
    summary: "find(Model.self, id:) per lookup, autocommit, among every row (Codable)",
    target: nil,
    swiftLite: { trial in
      try swiftLiteModelLookup(trial, inTransaction: false) { db, id in
        let item = try db.find(BenchItem.self, id: id)!
        return item.id &+ item.c1 &+ item.c2 &+ item.c3 &+ item.c4 &+ item.c5 &+ item.c6
          &+ item.c7 &+ item.c8 &+ item.c9
      }
    },
    raw: { trial in try rawModelLookup(trial, inTransaction: false) })

  /// The same with the mapped model.
  static let mappedLookup = Workload(
    name: "mapped_lookup",
    summary: "find(RowMapped.self, id:) per lookup, autocommit, among every row",
    target: 1.10,
    swiftLite: { trial in
      try swiftLiteModelLookup(trial, inTransaction: false) { db, id in
        try db.find(MappedBenchItem.self, id: id)!.sum
      }
    },
    raw: { trial in try rawModelLookup(trial, inTransaction: false) })

  static let modelLookupHot = Workload(
    name: "model_lookup_hot",
    summary: "find(Model.self, id:) per lookup in one transaction, among 5,000 rows (Codable)",
    target: 2.0,
    swiftLite: { trial in
      try swiftLiteModelLookup(trial) { db, id in
        let item = try db.find(BenchItem.self, id: id)!
        return item.id &+ item.c1 &+ item.c2 &+ item.c3 &+ item.c4 &+ item.c5 &+ item.c6
          &+ item.c7 &+ item.c8 &+ item.c9
      }
    },
    raw: rawModelLookup)

  /// The same with the mapped model.
  static let mappedLookupHot = Workload(
    name: "mapped_lookup_hot",
    summary: "find(RowMapped.self, id:) per lookup in one transaction, among 5,000 rows",
    target: 1.20,
    swiftLite: { trial in
      try swiftLiteModelLookup(trial) { db, id in try db.find(MappedBenchItem.self, id: id)!.sum }
    },
    raw: rawModelLookup)

  /// Lookups among the first 5,000 rows in one transaction (`inTransaction`), or among
  /// every row, each in its own.
  static func swiftLiteModelLookup(
    _ trial: Trial, inTransaction: Bool = true, _ lookup: (Connection, Int64) throws -> Int64
  ) throws -> Int64 {
    let db = try Connection(path: try modelDatabase(trial, rows: trial.rows))
    try db.createTable(for: BenchItem.self)
    try db.createTable(for: MappedBenchItem.self)
    let ids = inTransaction ? trial.fixtures.hotLookupIDs : trial.fixtures.lookupIDs
    return try trial.time {
      if inTransaction { try db.execute("BEGIN") }
      var sum: Int64 = 0
      for id in ids { sum &+= try lookup(db, id) }
      if inTransaction { try db.execute("COMMIT") }
      return sum
    }
  }

  static func rawModelLookup(_ trial: Trial) throws -> Int64 {
    try rawModelLookup(trial, inTransaction: true)
  }

  static func rawModelLookup(_ trial: Trial, inTransaction: Bool) throws -> Int64 {
    let db = RawDatabase(path: try modelDatabase(trial, rows: trial.rows))
    let ids = inTransaction ? trial.fixtures.hotLookupIDs : trial.fixtures.lookupIDs
    return trial.time {
      if inTransaction { db.execute("BEGIN") }
      var sum: Int64 = 0
      let select = db.prepare(
        "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM bench_item WHERE id = ?")
      for id in ids {
        sqlite3_reset(select)
        db.check(sqlite3_bind_int64(select, 1, id))
        db.expect(sqlite3_step(select), SQLITE_ROW)
        sum &+= RawItem(select).sum
      }
      sqlite3_finalize(select)
      if inTransaction { db.execute("COMMIT") }
      return sum
    }
  }
}
