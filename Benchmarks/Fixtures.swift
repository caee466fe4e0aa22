import CSQLite
import Foundation

/// The data and files every workload shares, made once per benchmark invocation in a
/// private temporary directory that is removed at the end.
final class Fixtures {
  /// Rows per workload (`--rows`).
  let rows: Int
  /// The directory holding every database file of this invocation.
  let directory: URL
  /// The ten values of each row, row after row: `values[row * 10 + column]`. Both sides
  /// insert exactly these, so the files they build are identical.
  let values: [Int64]
  /// The primary keys the lookup workloads read, in a fixed pseudo-random order.
  let lookupIDs: [Int64]
  /// As many lookups, among the first 5,000 rows only (their pages stay in SQLite's cache).
  let hotLookupIDs: [Int64]
  private var fileCounter = 0
  private var populated: String?
  private var mixed: String?
  private var large: String?

  /// The one table of the core workloads: ten INTEGER columns, `id` the primary key.
  static let columnCount = 10
  static let createTable =
    "CREATE TABLE item(id INTEGER PRIMARY KEY, c1 INTEGER, c2 INTEGER, c3 INTEGER, "
    + "c4 INTEGER, c5 INTEGER, c6 INTEGER, c7 INTEGER, c8 INTEGER, c9 INTEGER)"
  static let insertSQL = "INSERT INTO item VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
  static let selectAllSQL = "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM item"
  static let selectByIDSQL =
    "SELECT id, c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM item WHERE id = ?"
  /// What the insert workloads check afterwards: the row count and a sum over every value
  /// (reduced per row so that it cannot overflow).
  static let insertChecksumSQL =
    "SELECT count(*) * 1000000007 + sum((id + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9) % 1000000007) FROM item"

  init(rows: Int) throws {
    self.rows = rows
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SwiftLiteBenchmarks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

    // Values of mixed sizes (1 to 8 bytes in SQLite's record format), like real data.
    let multipliers: [Int64] = [
      1, 3, 257, 65_537, 16_777_259, 4_294_967_311, 7, 1_099_511_627_791, 2,
    ]
    var values: [Int64] = []
    values.reserveCapacity(rows * Self.columnCount)
    for row in 0..<rows {
      let id = Int64(row + 1)
      values.append(id)
      for multiplier in multipliers { values.append(id &* multiplier) }
    }
    self.values = values

    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func randomIDs(below limit: Int) -> [Int64] {
      (0..<rows).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int64((state >> 33) % UInt64(limit)) + 1
      }
    }
    lookupIDs = randomIDs(below: rows)
    hotLookupIDs = randomIDs(below: min(rows, 5_000))
  }

  /// A new, empty database file with the `item` table, for a workload that writes.
  func freshDatabase() -> String {
    fileCounter += 1
    let path = directory.appendingPathComponent("fresh-\(fileCounter).sqlite").path
    RawDatabase(path: path).execute(Self.createTable)
    return path
  }

  /// A database file whose `item` table holds ``rows`` rows, built once (with the raw C
  /// API) and shared by the workloads that only read.
  func populatedDatabase() -> String {
    if let populated { return populated }
    let path = directory.appendingPathComponent("populated.sqlite").path
    let db = RawDatabase(path: path)
    db.execute(Self.createTable)
    db.execute("BEGIN")
    let insert = db.prepare(Self.insertSQL)
    for row in 0..<rows {
      for column in 0..<Self.columnCount {
        db.check(sqlite3_bind_int64(insert, Int32(column + 1), values[row * 10 + column]))
      }
      db.expect(sqlite3_step(insert), SQLITE_DONE)
      sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    db.execute("COMMIT")
    populated = path
    return path
  }

  /// A database file whose `item` table holds ten times ``rows`` rows (the fixture values
  /// repeated, with ids of their own), built once with the raw C API.
  func largeDatabase() -> String {
    if let large { return large }
    let path = directory.appendingPathComponent("large.sqlite").path
    let db = RawDatabase(path: path)
    db.execute(Self.createTable)
    db.execute("BEGIN")
    let insert = db.prepare(Self.insertSQL)
    for row in 0..<(rows * 10) {
      let base = (row % rows) * 10
      db.check(sqlite3_bind_int64(insert, 1, Int64(row + 1)))
      for column in 1..<Self.columnCount {
        db.check(sqlite3_bind_int64(insert, Int32(column + 1), values[base + column]))
      }
      db.expect(sqlite3_step(insert), SQLITE_DONE)
      sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    db.execute("COMMIT")
    large = path
    return path
  }

  /// A database file with the 14-column `orders` table of the mixed workloads, holding
  /// `rows` rows, built once with the raw C API.
  func mixedDatabase(rows: Int) -> String {
    if let mixed { return mixed }
    let path = directory.appendingPathComponent("mixed.sqlite").path
    Self.fillOrders(RawDatabase(path: path), rows: rows)
    mixed = path
    return path
  }

  func removeFiles() {
    try? FileManager.default.removeItem(at: directory)
  }
}
