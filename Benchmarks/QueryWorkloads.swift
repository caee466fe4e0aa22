import Foundation
import SwiftLite

// The query interface and eager loading against the same work written by hand through
// SwiftLite: what the builder and the relations cost on top of the SQL they write.

/// A parent of ``BenchChild`` rows.
struct BenchParent: Model, Sendable {
  var id: Int64
  var name: String
  static let tableName = "bench_parent"
  static let primaryKey = ["id"]
  static let children = hasMany(BenchChild.self)
}

/// A child row with a foreign key to its parent.
struct BenchChild: Model, Sendable {
  var id: Int64
  var parentID: Int64
  var value: Int64
  static let tableName = "bench_child"
  static let primaryKey = ["id"]
  static let foreignKeys = [
    ForeignKey(["parentID"], references: BenchParent.tableName, onDelete: .cascade)
  ]
}

extension Workloads {
  static let query: [Workload] = [queryBuilderFetch, eagerChildren, annotatedCounts]

  /// How many times each side runs the fetch.
  static let queryRepeats = 20

  /// A filtered, ordered fetch of models through the builder vs `findAll(where:)` by hand.
  static let queryBuilderFetch = Workload(
    name: "query_builder_fetch",
    summary:
      "filtered, ordered fetch of half the rows as models, 20 times: builder vs the same SQL by hand",
    target: 1.05,
    swiftLite: { trial in
      let db = try Connection(path: try modelDatabase(trial, rows: trial.rows))
      let half = Int64(trial.rows / 2)
      let query = BenchItem.filter(Column("id") > half).order(Column("c1").desc)
      return try trial.time {
        var sum: Int64 = 0
        for _ in 0..<queryRepeats {
          for item in try query.fetchAll(db) { sum &+= item.id &+ item.c1 }
        }
        return sum
      }
    },
    raw: { trial in
      let db = try Connection(path: try modelDatabase(trial, rows: trial.rows))
      let half = Int64(trial.rows / 2)
      return try trial.time {
        var sum: Int64 = 0
        for _ in 0..<queryRepeats {
          for item in try db.findAll(
            BenchItem.self, where: #""id" > ?"#, [half], orderBy: #""c1" DESC"#)
          {
            sum &+= item.id &+ item.c1
          }
        }
        return sum
      }
    })

  /// A file with 1,000 parents of 10 (or `childrenPerParent`) children each.
  static func familyDatabase(_ trial: Trial, childrenPerParent: Int = 10) throws -> String {
    let path = trial.fixtures.freshDatabase()
    let db = try Connection(path: path)
    try db.transaction { db in
      for parent in 1...1_000 {
        try db.insert(BenchParent(id: Int64(parent), name: "p\(parent)"))
        for index in 0..<childrenPerParent {
          let id = Int64(parent * childrenPerParent + index)
          try db.insert(BenchChild(id: id, parentID: Int64(parent), value: id &* 7))
        }
      }
    }
    return path
  }

  /// 1,000 parents with their children: eager loading vs one hand-written join. Both sides
  /// use both tables once before the timed part, as in `eager_children_mapped`.
  static let eagerChildren = Workload(
    name: "eager_children",
    summary:
      "1,000 parents with 10 children each: fetchAll(including:) vs one hand-written LEFT JOIN",
    target: nil,
    swiftLite: { trial in
      let db = try Connection(path: try familyDatabase(trial))
      _ = try db.count(BenchParent.self)
      _ = try db.count(BenchChild.self)
      return try trial.time {
        var sum: Int64 = 0
        for (parent, children) in try BenchParent.all().fetchAll(
          db, including: BenchParent.children)
        {
          sum &+= parent.id
          for child in children { sum &+= child.value }
        }
        return sum
      }
    },
    raw: { trial in
      let db = try Connection(path: try familyDatabase(trial))
      _ = try db.scalar(Int.self, "SELECT count(*) FROM bench_parent")
      _ = try db.scalar(Int.self, "SELECT count(*) FROM bench_child")
      return try trial.time {
        let rows = try db.query(
          """
          SELECT p.id, p.name, c.id, c.parentID, c.value FROM bench_parent p
          LEFT JOIN bench_child c ON c.parentID = p.id ORDER BY p.id
          """)
        var families: [(BenchParent, [BenchChild])] = []
        for row in rows {
          let parentID = try row.get(Int64.self, at: 0)
          if families.last?.0.id != parentID {
            families.append((BenchParent(id: parentID, name: try row.get(at: 1)), []))
          }
          if let childID = try row.get(Int64?.self, at: 2) {
            families[families.count - 1].1.append(
              BenchChild(id: childID, parentID: try row.get(at: 3), value: try row.get(at: 4)))
          }
        }
        var sum: Int64 = 0
        for (parent, children) in families {
          sum &+= parent.id
          for child in children { sum &+= child.value }
        }
        return sum
      }
    })

  /// A parent, its name and how many children it has.
  struct ParentCount: Decodable {
    var id: Int64
    var name: String
    var childCount: Int64
  }

  /// 1,000 parents with 20 children each, counted: the relation's annotation (a correlated
  /// subquery per parent) against a hand-written GROUP BY through SwiftLite.
  static let annotatedCounts = Workload(
    name: "annotated_counts",
    summary:
      "1,000 parents, 20,000 children: annotated(with: children.count) vs a hand-written GROUP BY",
    target: 1.10,
    swiftLite: { trial in
      let db = try Connection(path: try familyDatabase(trial, childrenPerParent: 20))
      let query = BenchParent.all().annotated(
        with: BenchParent.children.count.aliased("childCount"))
      return try trial.time {
        try query.fetchAll(db, as: ParentCount.self).reduce(0) { $0 &+ $1.id &* $1.childCount }
      }
    },
    raw: { trial in
      let db = try Connection(path: try familyDatabase(trial, childrenPerParent: 20))
      return try trial.time {
        try db.fetchAll(
          ParentCount.self,
          """
          SELECT p.id, p.name, count(c.id) AS childCount FROM bench_parent p
          LEFT JOIN bench_child c ON c.parentID = p.id GROUP BY p.id
          """
        ).reduce(0) { $0 &+ $1.id &* $1.childCount }
      }
    })
}
