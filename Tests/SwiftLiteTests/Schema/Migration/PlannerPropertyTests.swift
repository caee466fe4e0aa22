import XCTest

@testable import SwiftLite

/// The planner over random evolution chains of one table, `t`, which a second table,
/// `child`, references with a foreign key (ON DELETE CASCADE, foreign keys on): each step
/// adds, drops or renames a column, changes a NOT NULL, a DEFAULT or a column's type (lossy
/// values permitted or not), or adds or removes an index. A step is either applied, keeping
/// every row, every value of the columns it keeps (a retyped one converted without loss:
/// converted back, it is the value it was; or NULL where a loss was permitted) and every
/// child row with a valid reference, or refused with the file as it was; a refused type
/// change is justified: permitted, it would have set a value to NULL. 60 chains of 6 steps
/// in `swift test`; SWIFTLITE_PLANNER_CHAINS=1000 (and SWIFTLITE_PLANNER_SEED) for more.
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
    case "TEXT":
      // Text that reads as a number too, so that some changes to INTEGER or REAL convert.
      switch random.below(3) {
      case 0: return "'\(random.below(1_000) - 500)'"
      case 1: return "'\(random.below(1_000)).5'"
      default: return "'t\(random.below(1_000))'"
      }
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

  /// Every value of column `name` by id: its `quote()`, and its `quote()` cast to each
  /// storage class.
  private func conversions(_ name: String) throws -> [Int64: (
    value: String, asClass: [String: String]
  )] {
    let column = SQLIdentifier.quote(name)
    let classes = ["integer", "real", "text", "blob"]
    let casts = classes.map { "quote(CAST(\(column) AS \($0)))" }.joined(separator: ", ")
    var result: [Int64: (String, [String: String])] = [:]
    // Built as text: an interpolated SQL would bind the column name as a value.
    let sql = "SELECT id, quote(" + column + "), " + casts + " FROM t"
    for row in try db.query(sql) {
      var asClass: [String: String] = [:]
      for (offset, name) in classes.enumerated() { asClass[name] = try row.get(at: offset + 2) }
      result[try row.get(Int64.self, at: 0)] = (try row.get(String.self, at: 1), asClass)
    }
    return result
  }

  /// Every value of column `name` by id: its `quote()` and its storage class.
  private func valuesAndClasses(_ name: String, in connection: Connection? = nil) throws
    -> [Int64: (value: String, type: String)]
  {
    let column = SQLIdentifier.quote(name)
    var result: [Int64: (String, String)] = [:]
    let sql = "SELECT id, quote(" + column + "), typeof(" + column + ") FROM t"
    for row in try (connection ?? db).query(sql) {
      result[try row.get(Int64.self, at: 0)] = (try row.get(at: 1), try row.get(at: 2))
    }
    return result
  }

  /// The child table's rows, and the broken references `PRAGMA foreign_key_check` finds.
  private func childState() throws -> (rows: String, broken: Int) {
    let rows = try db.query("SELECT id, parent, quote(note) FROM child ORDER BY id").map {
      "\(try $0.get(Int64.self, at: 0))|\(try $0.get(Int64.self, at: 1))|\(try $0.get(String.self, at: 2))"
    }
    return (rows.joined(separator: "\n"), try db.query("PRAGMA foreign_key_check").count)
  }

  func testRandomEvolutionChainsLoseNoRowAndChangeNoKeptValue() throws {
    let environment = ProcessInfo.processInfo.environment
    let chains = Int(environment["SWIFTLITE_PLANNER_CHAINS"] ?? "") ?? 60
    var random = Random(state: UInt64(environment["SWIFTLITE_PLANNER_SEED"] ?? "") ?? 14)
    var (applied, refused, rows, childRows) = (0, 0, 0, 0)
    var (retypes, retypesApplied, retypesRefused, lossyPermitted, nulledByPermission) =
      (0, 0, 0, 0, 0)
    var notNullLossyRefused = 0
    var counter = 0
    XCTAssertEqual(try db.scalar(Bool.self, "PRAGMA foreign_keys"), true)
    for chain in 0..<chains {
      try db.execute("DROP TABLE IF EXISTS child")
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
        // The child table: a cascade would empty it if a rebuild dropped `t` with foreign
        // keys on.
        try db.execute(
          """
          CREATE TABLE child(id INTEGER PRIMARY KEY,
            parent INTEGER NOT NULL REFERENCES t(id) ON DELETE CASCADE ON UPDATE CASCADE,
            note TEXT)
          """)
        let parents = try db.fetchAll(Int64.self, "SELECT id FROM t")
        for _ in 0..<(1 + random.below(10)) {
          try db.run(
            "INSERT INTO child(parent, note) VALUES (?, ?)",
            [parents[random.below(parents.count)], "n\(random.below(100))"])
          childRows += 1
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
        // A column whose type changes, and whether its lossy values may become NULL.
        var retyped: (name: String, oldType: String)?
        var lossy: Set<String> = []
        let kind = random.below(7)
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
        case 5 where !columns.isEmpty:  // another type
          let index = random.below(columns.count) + 1
          let oldType = desired.columns[index].type
          let others = Self.types.filter { $0 != oldType }
          desired.columns[index].type = others[random.below(others.count)]
          if desired.columns[index].defaultSQL != nil {
            desired.columns[index].defaultSQL = literal(desired.columns[index].type, &random)
          }
          retyped = (desired.columns[index].name, oldType)
          if random.chance(40) { lossy.insert(desired.columns[index].name) }
          retypes += 1
          if !lossy.isEmpty { lossyPermitted += 1 }
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
          before[$0] != nil && $0 != filled && $0 != retyped?.name
        }
        let keptOld = keptNew.map { before[$0]! }
        let valuesBefore = try values(keptOld)
        let retypedBefore = try retyped.map { try valuesAndClasses($0.name) }
        let childBefore = try childState()
        let fileBefore = try db.dumpContent(includingBookkeeping: true)
        let schemaBefore = try db.dumpSchema(includingBookkeeping: true)
        let label = "chain \(chain) step \(step) (change \(kind))"
        do {
          let plan = try AutoMigration.plan(
            to: desired, renamed: renamed.mapValues { [$0] }, droppable: dropped, lossy: lossy,
            in: db)
          try AutoMigration.apply(plan, in: db)
        } catch let error as MigrationError {
          refused += 1
          XCTAssertEqual(try db.dumpContent(includingBookkeeping: true), fileBefore, label)
          XCTAssertEqual(try db.dumpSchema(includingBookkeeping: true), schemaBefore, label)
          if let retyped, let retypedBefore {
            retypesRefused += 1
            let newColumn = desired.columns.first { $0.name == retyped.name }!
            if !lossy.isEmpty {
              // Permitted, a value that does not convert becomes NULL: a NOT NULL column
              // refuses it, so the whole change is refused, rolled back.
              XCTAssertTrue(newColumn.isNotNull, "\(label): refused though permitted: \(error)")
              guard case .constraintViolated = error else {
                XCTFail("\(label): \(error)")
                continue
              }
              notNullLossyRefused += 1
              continue
            }
            XCTAssertEqual(
              error,
              .lossyTypeChange(
                table: "t", column: retyped.name,
                newType: desired.columns.first {
                  $0.name == retyped.name
                }!.type), label)
            // Justified: permitted, the same change sets a value to NULL, in a copy (a
            // referenced table's rebuild cannot run inside a transaction to roll back).
            // The column made nullable there, so that NULL may stand for a lost value.
            let copy = try Connection.inMemory()
            try db.backup(to: copy)
            var nullable = desired
            for index in nullable.columns.indices where nullable.columns[index].name == retyped.name
            {
              nullable.columns[index].isNotNull = false
            }
            try AutoMigration.apply(
              AutoMigration.plan(to: nullable, lossy: [retyped.name], in: copy), in: copy)
            let nulled = try valuesAndClasses(retyped.name, in: copy).filter {
              $0.value.value == "NULL" && retypedBefore[$0.key]?.value != "NULL"
            }.count
            XCTAssertGreaterThan(nulled, 0, "\(label): refused, yet no value would be lost")
            XCTAssertEqual(try db.dumpContent(includingBookkeeping: true), fileBefore, label)
          }
          continue
        }
        applied += 1
        XCTAssertEqual(try values(keptNew), valuesBefore, "\(label): kept values changed")
        let childAfter = try childState()
        XCTAssertEqual(childAfter.rows, childBefore.rows, "\(label): child rows changed")
        XCTAssertEqual(childAfter.broken, 0, "\(label): broken references")
        if let retyped, let retypedBefore {
          retypesApplied += 1
          let after = try conversions(retyped.name)
          XCTAssertEqual(Set(after.keys), Set(retypedBefore.keys), "\(label): rows changed")
          for (id, old) in retypedBefore {
            guard let new = after[id] else { continue }
            if new.value == old.value || new.asClass[old.type] == old.value { continue }
            // Text that read as a number is that number ('250' is 250.0 in a REAL column).
            if old.type == "text", let number = Double(old.value.dropFirst().dropLast()),
              Double(new.value) == number
            {
              continue
            }
            if new.value == "NULL" && !lossy.isEmpty {
              nulledByPermission += 1
              continue
            }
            XCTFail("\(label): \(retyped.name) of row \(id) was \(old.value), is \(new.value)")
          }
        }
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
    print(
      "planner chains: \(chains), steps applied \(applied), refused \(refused), rows \(rows), "
        + "child rows \(childRows); type changes \(retypes) (lossy values permitted in "
        + "\(lossyPermitted)): \(retypesApplied) applied, \(retypesRefused) refused, "
        + "\(nulledByPermission) values set to NULL as permitted, "
        + "\(notNullLossyRefused) refused as permitted losses into NOT NULL columns")
    XCTAssertGreaterThan(applied, refused, "most steps should apply")
  }
}
