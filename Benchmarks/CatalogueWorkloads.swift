import CSQLite
import Foundation
import SwiftLite

// Per-target tables in rotation: one model saved into many tables of the same file (one
// table per chat), more of them than a connection keeps checked. Each use past that cache
// checks its table against the model again; these workloads show what that check costs.

/// A message of one chat: the model of the per-target tables (`message_chat<n>`).
struct TargetMessage: Model, Sendable {
  var id: Int64
  var text: String
  static let tableName = "message"
  static let primaryKey = ["id"]
}

extension Workloads {
  static let catalogue: [Workload] = [
    targetRotation(200), targetRotation(1_000), targetRotation(targetTableCount),
  ]

  /// The per-target tables every file of these workloads holds.
  static let targetTableCount = 5_000
  /// The saves each side times, whatever the rotation: the times compare per use.
  static let targetUses = 5_000

  /// `uses` saves, each into the next of `rotation` per-target tables, in one transaction,
  /// after one untimed pass over them. SwiftLite: `db.save(_:target:)`; raw C: the same
  /// UPSERT, prepared for each use (a program that keeps no statements).
  static func targetRotation(_ rotation: Int) -> Workload {
    Workload(
      name: "target_rotation_\(rotation)",
      summary: "\(targetUses) saves into \(rotation) per-target tables in rotation (a file of "
        + "\(targetTableCount) such tables): db.save(_:target:) (raw: UPSERT prepared per use)",
      target: nil,
      swiftLite: { trial in
        let path = try targetDatabase(trial)
        let db = try Connection(path: path)
        let targets = (0..<rotation).map { "chat\($0)" }
        try db.transaction { db in
          for use in 0..<rotation { try db.save(targetMessage(use), target: targets[use]) }
        }
        try trial.time {
          try db.transaction { db in
            for use in 0..<targetUses {
              try db.save(targetMessage(use), target: targets[use % rotation])
            }
          }
        }
        try db.close()
        return targetChecksum(path, rotation: rotation)
      },
      raw: { trial in
        let path = try targetDatabase(trial)
        let db = RawDatabase(path: path)
        let tables = (0..<rotation).map { TargetMessage.tableName(target: "chat\($0)") }
        func save(_ use: Int) {
          let message = targetMessage(use)
          let statement = db.prepare(
            "INSERT INTO \"\(tables[use % rotation])\" (\"id\", \"text\") VALUES (?, ?)"
              + " ON CONFLICT (\"id\") DO UPDATE SET \"text\" = excluded.\"text\"")
          db.check(sqlite3_bind_int64(statement, 1, message.id))
          db.check(sqlite3_bind_text(statement, 2, message.text, -1, sqliteTransientForBenchmarks))
          db.expect(sqlite3_step(statement), SQLITE_DONE)
          sqlite3_finalize(statement)
        }
        db.execute("BEGIN")
        for use in 0..<rotation { save(use) }
        db.execute("COMMIT")
        trial.time {
          db.execute("BEGIN")
          for use in 0..<targetUses { save(use) }
          db.execute("COMMIT")
        }
        return targetChecksum(path, rotation: rotation)
      })
  }

  /// The message of use number `use`: a few ids per table, so saves insert and update.
  static func targetMessage(_ use: Int) -> TargetMessage {
    TargetMessage(id: Int64(use % 7), text: "m\(use)")
  }

  /// Rows, ids and text bytes of the tables in rotation.
  static func targetChecksum(_ path: String, rotation: Int) -> Int64 {
    let db = RawDatabase(path: path)
    var sum: Int64 = 0
    for target in 0..<rotation {
      let table = TargetMessage.tableName(target: "chat\(target)")
      sum &+= db.scalar(
        "SELECT count(*) * 1000003 + coalesce(sum(id * 1009 + length(text)), 0) FROM \"\(table)\"")
    }
    return sum
  }

  /// A new copy of a file holding ``targetTableCount`` empty per-target tables, each made
  /// as SwiftLite makes it and recorded as SwiftLite records it (so no use migrates).
  /// The first table is made by SwiftLite, the others copy its statement and its record
  /// with their own name: building the file this way costs the same whatever SwiftLite's
  /// first use of a table costs.
  static func targetDatabase(_ trial: Trial) throws -> String {
    let directory = trial.fixtures.directory
    let template = directory.appendingPathComponent("targets-template.sqlite").path
    if !FileManager.default.fileExists(atPath: template) {
      let building = template + ".building"
      try? FileManager.default.removeItem(atPath: building)
      let db = try Connection(path: building)
      try db.createTable(for: TargetMessage.self, target: "chat0")
      let first = TargetMessage.tableName(target: "chat0")
      let quoted = "\"" + first + "\""
      guard
        let sql = try db.scalar(
          String.self, "SELECT sql FROM sqlite_schema WHERE name = ?", [first]),
        let record = try db.queryFirst(
          "SELECT definition, swift_types, origin, table_sql FROM swiftlite_schema"
            + " WHERE table_name = ?", [first])
      else { fatalError("SwiftLite did not make and record \(first)") }
      let definition = try record.get(String.self, at: 0)
      let swiftTypes = try record.get(String?.self, at: 1)
      let origin = try record.get(String?.self, at: 2)
      let tableSQL = try record.get(String?.self, at: 3)
      try db.transaction { db in
        for target in 1..<targetTableCount {
          let name = TargetMessage.tableName(target: "chat\(target)")
          func renamed(_ text: String) -> String {
            text.replacingOccurrences(of: quoted, with: "\"" + name + "\"")
          }
          try db.execute(renamed(sql))
          try db.run(
            "INSERT INTO swiftlite_schema (table_name, definition, swift_types, origin, table_sql)"
              + " VALUES (?, ?, ?, ?, ?)",
            [name, renamed(definition), swiftTypes, origin, tableSQL.map(renamed)])
        }
      }
      let stale = try db.scalar(
        Int.self,
        "SELECT count(*) FROM swiftlite_schema r LEFT JOIN sqlite_schema s ON s.name = r.table_name"
          + " WHERE r.table_sql IS NOT s.sql")
      guard stale == 0 else { fatalError("\(stale ?? -1) records do not match their table") }
      try db.close()
      try FileManager.default.moveItem(atPath: building, toPath: template)
    }
    let copy = directory.appendingPathComponent("targets-\(UUID().uuidString).sqlite").path
    try FileManager.default.copyItem(atPath: template, toPath: copy)
    return copy
  }
}
