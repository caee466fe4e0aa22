import CSQLite
import SwiftLite

// Eager loading of `RowMapped` parents and children against one raw C join into the same
// structs: what `fetchAll(including:)` costs when `Codable` is out of the way.

/// `BenchParent` with a mapping of its own.
struct MappedBenchParent: Model, RowMapped, Sendable {
  var id: Int64
  var name: String
  static let tableName = "bench_parent"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "name"]
  static let children = hasMany(MappedBenchChild.self)

  init(id: Int64, name: String) { (self.id, self.name) = (id, name) }
  init(row: MappedRow) throws {
    id = try row.get(0)
    name = try row.get(1)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(name, at: 1)
  }
}

/// `BenchChild` with a mapping of its own.
struct MappedBenchChild: Model, RowMapped, Sendable {
  var id: Int64
  var parentID: Int64
  var value: Int64
  static let tableName = "bench_child"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "parentID", "value"]
  static let foreignKeys = [
    ForeignKey(["parentID"], references: BenchParent.tableName, onDelete: .cascade)
  ]

  init(id: Int64, parentID: Int64, value: Int64) {
    (self.id, self.parentID, self.value) = (id, parentID, value)
  }
  init(row: MappedRow) throws {
    id = try row.get(0)
    parentID = try row.get(1)
    value = try row.get(2)
  }
  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(parentID, at: 1)
    try row.set(value, at: 2)
  }
}

extension Workloads {
  static let eager: [Workload] = [eagerChildrenMapped]

  /// 1,000 `RowMapped` parents with 10 children each: `fetchAll(including:)` (two
  /// statements) against one raw C LEFT JOIN filling the same structs.
  ///
  /// Both sides count each table's rows before the timed part, on the connection they time:
  /// the loading is measured on a connection that has used both tables already, and both
  /// sides find the same pages in SQLite's cache. Without it, SwiftLite's timed part also
  /// held the once-per-connection check of both model tables against their models, which
  /// the raw side has no counterpart for.
  static let eagerChildrenMapped = Workload(
    name: "eager_children_mapped",
    summary: "1,000 RowMapped parents with 10 children each: fetchAll(including:) vs a raw C join",
    target: 1.30,
    swiftLite: { trial in
      let db = try Connection(path: try familyDatabase(trial))
      _ = try db.count(MappedBenchParent.self)
      _ = try db.count(MappedBenchChild.self)
      return try trial.time {
        var sum: Int64 = 0
        for (parent, children) in try MappedBenchParent.all().fetchAll(
          db, including: MappedBenchParent.children)
        {
          sum &+= parent.id &+ Int64(parent.name.utf8.count)
          for child in children { sum &+= child.value }
        }
        return sum
      }
    },
    raw: { trial in
      let db = RawDatabase(path: try familyDatabase(trial))
      _ = db.scalar("SELECT count(*) FROM bench_parent")
      _ = db.scalar("SELECT count(*) FROM bench_child")
      return trial.time {
        let join = db.prepare(
          """
          SELECT p.id, p.name, c.id, c.parentID, c.value FROM bench_parent p
          LEFT JOIN bench_child c ON c.parentID = p.id ORDER BY p.id
          """)
        var families: [(MappedBenchParent, [MappedBenchChild])] = []
        while sqlite3_step(join) == SQLITE_ROW {
          let parentID = sqlite3_column_int64(join, 0)
          if families.last?.0.id != parentID {
            let bytes = sqlite3_column_text(join, 1)
            let count = Int(sqlite3_column_bytes(join, 1))
            let name = bytes.map {
              String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
            families.append((MappedBenchParent(id: parentID, name: name ?? ""), []))
          }
          if sqlite3_column_type(join, 2) != SQLITE_NULL {
            families[families.count - 1].1.append(
              MappedBenchChild(
                id: sqlite3_column_int64(join, 2), parentID: sqlite3_column_int64(join, 3),
                value: sqlite3_column_int64(join, 4)))
          }
        }
        sqlite3_finalize(join)
        var sum: Int64 = 0
        for (parent, children) in families {
          sum &+= parent.id &+ Int64(parent.name.utf8.count)
          for child in children { sum &+= child.value }
        }
        return sum
      }
    })
}
