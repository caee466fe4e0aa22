import CSQLite
import Dispatch
import Foundation
import SwiftLite

// The access layer: reads beside a long write (a pool against a queue), and online backup
// (SwiftLite's stepped backup against one raw sqlite3_backup_step(-1)).

extension Workloads {
  static let access: [Workload] = [queueLookupHot, poolReadWhileWriting, walSmallWrites, backup]

  /// `lookup_hot` through a DatabaseQueue: every statement runs on a connection the queue
  /// owns, so each pays the check that the connection is used inside its closure. Compare
  /// its ratio with `lookup_hot`'s.
  static let queueLookupHot = Workload(
    name: "queue_lookup_hot",
    summary: "lookup_hot inside one DatabaseQueue.read (the owned-connection check per statement)",
    target: nil,
    swiftLite: { trial in
      let queue = try DatabaseQueue(path: trial.fixtures.populatedDatabase())
      let ids = trial.fixtures.hotLookupIDs
      let sum = try trial.time {
        // A queue's read is already one read transaction, as the raw side's BEGIN is.
        try queue.read { db in
          var sum: Int64 = 0
          for id in ids {
            let row = try db.query(Fixtures.selectByIDSQL, [id])[0]
            for column in 0..<10 { sum &+= try row.get(Int64.self, at: column) }
          }
          return sum
        }
      }
      try queue.close()
      return sum
    },
    raw: { trial in rawLookup(trial, ids: trial.fixtures.hotLookupIDs, inTransaction: true) })

  /// Reads issued while a long write runs. The "SwiftLite" side is a DatabasePool, the
  /// "raw" side a DatabaseQueue: the ratio is pool time / queue time for the same reads,
  /// timed from the moment the write has begun. On the queue the reads wait for the write
  /// to commit; on the pool they run beside it.
  static let poolReadWhileWriting = Workload(
    name: "pool_read_while_writing",
    summary: "2,000 lookups while one write inserts --rows rows: DatabasePool time / "
      + "DatabaseQueue time (reads/s = 2000 / time)",
    target: nil,
    swiftLite: { trial in try readsDuringWrite(trial) { try DatabasePool(path: $0) } },
    raw: { trial in try readsDuringWrite(trial) { try DatabaseQueue(path: $0) } })

  static let readCount = 2_000

  static func readsDuringWrite(
    _ trial: Trial, open: (String) throws -> any DatabaseAccess
  ) throws -> Int64 {
    let database = try open(trial.fixtures.freshDatabase())
    let values = trial.fixtures.values
    try database.write { db in
      try db.execute("CREATE TABLE log(x INTEGER NOT NULL)")
      let insert = try db.prepare(Fixtures.insertSQL)
      for base in stride(from: 0, to: 1_000 * 10, by: 10) {
        try insert.bind(
          values: values[base], values[base + 1], values[base + 2], values[base + 3],
          values[base + 4], values[base + 5], values[base + 6], values[base + 7],
          values[base + 8], values[base + 9])
        try insert.run()
      }
    }
    let rows = trial.rows
    let started = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      do {
        try database.write { db in
          started.signal()
          let insert = try db.prepare("INSERT INTO log(x) VALUES (?)")
          for n in 0..<rows {
            try insert.bind(values: Int64(n))
            try insert.run()
          }
        }
      } catch {
        fatalError("pool_read_while_writing: the write failed: \(error)")
      }
      finished.signal()
    }
    started.wait()
    let sum = try trial.time {
      var sum: Int64 = 0
      for n in 0..<readCount {
        sum &+= try database.read { db in
          try db.scalar(Int64.self, "SELECT c1 FROM item WHERE id = ?", [n % 1_000 + 1]) ?? 0
        }
      }
      return sum
    }
    finished.wait()
    try database.close()
    return sum
  }

  /// Small write transactions on a WAL file, one row each, as an app saves as it goes.
  /// SwiftLite: `DatabasePool.write` per row (WAL, `synchronous = NORMAL` by default); raw
  /// C: the same pragmas, then BEGIN IMMEDIATE, one prepared insert, COMMIT per row. Both
  /// open the pool or connection outside the timing.
  static let walSmallWrites = Workload(
    name: "wal_small_writes",
    summary: "1,000 one-row write transactions on a WAL file: pool.write per row",
    target: 1.15,
    swiftLite: { trial in
      let pool = try DatabasePool(path: trial.fixtures.freshDatabase())
      let v = trial.fixtures.values
      try trial.time {
        for base in stride(from: 0, to: smallWriteCount(trial) * 10, by: 10) {
          try pool.write { db in
            try db.run(
              Fixtures.insertSQL,
              [
                v[base], v[base + 1], v[base + 2], v[base + 3], v[base + 4],
                v[base + 5], v[base + 6], v[base + 7], v[base + 8], v[base + 9],
              ])
          }
        }
      }
      let sum = try pool.read { db in try db.scalar(Int64.self, Fixtures.insertChecksumSQL) }
      try pool.close()
      return sum ?? 0
    },
    raw: { trial in
      let db = RawDatabase(path: trial.fixtures.freshDatabase())
      db.execute("PRAGMA journal_mode = WAL")
      db.execute("PRAGMA synchronous = NORMAL")
      let v = trial.fixtures.values
      trial.time {
        let insert = db.prepare(Fixtures.insertSQL)
        for base in stride(from: 0, to: smallWriteCount(trial) * 10, by: 10) {
          db.execute("BEGIN IMMEDIATE")
          for column in 0..<10 {
            db.check(sqlite3_bind_int64(insert, Int32(column + 1), v[base + column]))
          }
          db.expect(sqlite3_step(insert), SQLITE_DONE)
          sqlite3_reset(insert)
          db.execute("COMMIT")
        }
        sqlite3_finalize(insert)
      }
      return db.scalar(Fixtures.insertChecksumSQL)
    })

  /// How many transactions `wal_small_writes` runs: 1,000, or fewer with fewer rows.
  static func smallWriteCount(_ trial: Trial) -> Int { min(1_000, trial.rows) }

  /// Copies the populated database into a new file. SwiftLite: `backup(toPath:)`, in its
  /// default steps of 256 pages into a temporary file renamed into place; raw C: one
  /// `sqlite3_backup_step(-1)` straight into the file. Both open and close the copy inside
  /// the timing.
  static let backup = Workload(
    name: "backup",
    summary: "online backup of the populated database into a new file (MB/s = size / time)",
    target: nil,
    swiftLite: { trial in
      let source = try Connection(path: trial.fixtures.populatedDatabase(), options: .readOnly)
      let copy = trial.fixtures.freshDatabase() + ".copy"
      try trial.time { try source.backup(toPath: copy) }
      try source.close()
      return backupChecksum(copy)
    },
    raw: { trial in
      let source = RawDatabase(path: trial.fixtures.populatedDatabase())
      let copy = trial.fixtures.freshDatabase() + ".copy"
      trial.time {
        var destination: OpaquePointer?
        let flags = OpenOptions().flags.rawValue
        guard sqlite3_open_v2(copy, &destination, flags, nil) == SQLITE_OK, let destination,
          let backup = sqlite3_backup_init(destination, "main", source.handle, "main")
        else { fatalError("raw backup: cannot start") }
        source.expect(sqlite3_backup_step(backup, -1), SQLITE_DONE)
        source.check(sqlite3_backup_finish(backup))
        sqlite3_close(destination)
      }
      return backupChecksum(copy)
    })

  /// The row count and checksum of a copy, after which the copy is removed.
  static func backupChecksum(_ path: String) -> Int64 {
    let copy = RawDatabase(path: path)
    let result = copy.scalar("SELECT count(*) * 1000003 + sum(c1 % 1000) FROM item")
    if ProcessInfo.processInfo.environment["SWIFTLITE_BENCH_SIZES"] != nil {
      let bytes = copy.scalar(
        "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size")
      standardError("  backup: \(bytes) bytes")
    }
    try? FileManager.default.removeItem(atPath: path)
    return result
  }
}
