import XCTest

@testable import SwiftLite

/// The planner over random evolution chains of one table: each step adds, drops or renames
/// a column, changes a NOT NULL or a DEFAULT, or adds or removes an index. A step is either
/// applied, keeping every row and every value of the columns it keeps, or refused with the
/// file as it was. 60 chains of 6 steps in `swift test`; SWIFTLITE_PLANNER_CHAINS=1000 (and
/// SWIFTLITE_PLANNER_SEED) for more.
final class PlannerPropertyTests: SQLiteTestCase {
  /// SplitMix64: the same chains from the same seed.
  private struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  }

  private static let types = ["INTEGER", "REAL", "TEXT", "BLOB"]

  private func literal(_ type: String, _ random: inout Random) -> String {
    switch type {
    case "INTEGER": return String(random.below(1_000) - 500)
    case "REAL": return String(Double(random.below(10_000)) / 8)
    case "TEXT": return "'t\(random.below(1_000))'"
    default: return "x'0\(random.below(10))'"
    }
  }

  private func column(_ name: String, _ random: inout Random) -> ColumnDefinition {
    let type = Self.types[random.below(Self.types.count)]
    let notNull = random.chance(30)
    let defaultSQL = notNull || random.chance(30) ? literal(type, &random) : nil
    return ColumnDefinition(name: name, type: type, isNotNull: notNull, defaultSQL: defaultSQL)
  }

  /// Every row as `quote()`s of the columns `names`, by id.
  private func values(_ names: [String]) throws -> [Int64: [String]] {
    guard !names.isEmpty else {
      return Dictionary(
        uniqueKeysWithValues: try db.fetchAll(Int64.self, "SELECT id FROM t").map { ($0, []) })
    }
    let list = names.map { "quote(\(SQLIdentifier.quote($0)))" }.joined(separator: ", ")
    var result: [Int64: [String]] = [:]
    for row in try db.query("SELECT id, " + list + " FROM t") {
      result[try row.get(Int64.self, at: 0)] = try (1...names.count).map {
        try row.get(String.self, at: $0)
      }
    }
    return result
  }

  func testRandomEvolutionChainsLoseNoRowAndChangeNoKeptValue() throws {
    let environment = ProcessInfo.processInfo.environment
    let chains = Int(environment["SWIFTLITE_PLANNER_CHAINS"] ?? "") ?? 60
    var random = Random(state: UInt64(environment["SWIFTLITE_PLANNER_SEED"] ?? "") ?? 14)
    var (applied, refused, rows) = (0, 0, 0)
    var counter = 0
    for chain in 0..<chains {
      try db.execute("DROP TABLE IF EXISTS t")
      if try SchemaInspector(db).tableExists(AutoMigration.recordTable) {
        try db.execute("DELETE FROM " + AutoMigration.recordTable)
      }
      var columns = (0..<(1 + random.below(4))).map { _ -> ColumnDefinition in
        counter += 1
        return column("c\(counter)", &random)
      }
      var schema = TableSchema(
        name: "t",
        columns: [ColumnDefinition(name: "id", type: "INTEGER", isNotNull: false)] + columns,
        primaryKey: ["id"])
      try AutoMigration.apply(AutoMigration.plan(to: schema, in: db), in: db)
      try db.transaction { db in
        for _ in 0..<(5 + random.below(20)) {
          let names = columns.map { SQLIdentifier.quote($0.name) }
          let values = columns.map { column -> String in
            column.isNotNull || random.chance(70) ? literal(column.type, &random) : "NULL"
          }
          try db.execute(
            "INSERT INTO t (" + (["id"] + names).joined(separator: ", ") + ") VALUES ("
              + (["NULL"] + values).joined(separator: ", ") + ")")
          rows += 1
        }
      }
      for step in 0..<6 {
        var desired = schema
        var renamed: [String: String] = [:]
        var dropped: Set<String> = []
        // What each kept column was called before the step, and columns new in it.
        var before: [String: String] = [:]
        for column in columns { before[column.name] = column.name }
        var added: [ColumnDefinition] = []
        // A column made NOT NULL takes its DEFAULT where it held NULL (a planned change).
        var filled: String?
        let kind = random.below(6)
        switch kind {
        case 0:  // add a column
          counter += 1
          var new = column("c\(counter)", &random)
          if new.isNotNull && new.defaultSQL == nil { new.defaultSQL = literal(new.type, &random) }
          added.append(new)
          desired.columns.append(new)
        case 1 where !columns.isEmpty:  // drop one
          let victim = columns[random.below(columns.count)].name
          dropped.insert(victim)
          before[victim] = nil
          desired.columns.removeAll { $0.name == victim }
          desired.indexes.removeAll { $0.columns.contains(victim) }
        case 2 where !columns.isEmpty:  // rename one
          let index = random.below(columns.count)
          counter += 1
          let old = columns[index].name
          let new = "c\(counter)"
          renamed[new] = old
          before[old] = nil
          before[new] = old
          desired.columns[index + 1].name = new
          for position in desired.indexes.indices {
            desired.indexes[position].columns = desired.indexes[position].columns.map {
              $0 == old ? new : $0
            }
          }
        case 3 where !columns.isEmpty:  // NOT NULL on or off
          let index = random.below(columns.count) + 1
          desired.columns[index].isNotNull.toggle()
          if desired.columns[index].isNotNull { filled = desired.columns[index].name }
        case 4 where !columns.isEmpty:  // another DEFAULT
          let index = random.below(columns.count) + 1
          desired.columns[index].defaultSQL =
            random.chance(50) ? literal(desired.columns[index].type, &random) : nil
        default:  // an index, or none
          if desired.indexes.isEmpty, let first = columns.first {
            desired.indexes = [
              TableSchema.IndexDefinition(
                name: "t_on_\(first.name)", columns: [first.name], isUnique: false)
            ]
          } else {
            desired.indexes = []
          }
        }
        let keptNew = desired.columns.dropFirst().map(\.name).filter {
          before[$0] != nil && $0 != filled
        }
        let keptOld = keptNew.map { before[$0]! }
        let valuesBefore = try values(keptOld)
        let fileBefore = try db.dumpContent(includingBookkeeping: true)
        let schemaBefore = try db.dumpSchema(includingBookkeeping: true)
        let label = "chain \(chain) step \(step) (change \(kind))"
        do {
          let plan = try AutoMigration.plan(
            to: desired, renamed: renamed.mapValues { [$0] }, droppable: dropped, in: db)
          try AutoMigration.apply(plan, in: db)
        } catch is MigrationError {
          refused += 1
          XCTAssertEqual(try db.dumpContent(includingBookkeeping: true), fileBefore, label)
          XCTAssertEqual(try db.dumpSchema(includingBookkeeping: true), schemaBefore, label)
          continue
        }
        applied += 1
        XCTAssertEqual(try values(keptNew), valuesBefore, "\(label): kept values changed")
        for new in added {
          let expected = new.defaultSQL.map { "(" + $0 + ")" } ?? "NULL"
          let wrong = try db.scalar(
            Int.self,
            "SELECT count(*) FROM t WHERE " + SQLIdentifier.quote(new.name) + " IS NOT " + expected)
          XCTAssertEqual(wrong, 0, "\(label): added column \(new.name)")
        }
        schema = desired
        columns = Array(desired.columns.dropFirst())
      }
    }
    print("planner chains: \(chains), steps applied \(applied), refused \(refused), rows \(rows)")
    XCTAssertGreaterThan(applied, refused, "most steps should apply")
  }
}
