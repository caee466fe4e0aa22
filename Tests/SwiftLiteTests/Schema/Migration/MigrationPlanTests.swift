import Foundation
import XCTest

@testable import SwiftLite

// Planning: what a plan says and when there is none, a read that never migrates, and a chain of
// five versions applied in order.

final class MigrationPlanTests: ModelTestCase {
  func testDryRunPrintsThePlanAndChangesNothing() throws {
    try seedItems()
    let before = try snapshot(ofFile: path())
    let db = try open()
    XCTAssertTrue(try db.needsMigration(ItemV9.self))
    let plan = try db.migrationPlan(for: ItemV9.self)
    print(plan)
    let text = plan.description
    XCTAssertTrue(text.hasPrefix("Migration plan for Item (rebuild):"), text)
    for change in plan.changes { XCTAssertTrue(text.contains("  - " + change), change) }
    for (number, step) in plan.steps.enumerated() {
      XCTAssertTrue(text.contains("  \(number + 1). \(step.reason)\n     \(step.sql)"), step.sql)
    }
    XCTAssertEqual(
      plan.steps.map { $0.sql.prefix(while: { $0 != " " }) },
      ["CREATE", "INSERT", "DROP", "ALTER", "CREATE", "PRAGMA", "INSERT"])
    XCTAssertEqual(try snapshot(ofFile: path()), before, "planning changes nothing")
    XCTAssertEqual(try db.migrationPlan(for: ItemV9.self).description, text)

    try db.migrate(ItemV9.self)
    let after = try db.migrationPlan(for: ItemV9.self)
    XCTAssertTrue(after.isEmpty)
    XCTAssertEqual(after.strategy, .none)
    XCTAssertEqual(after.description, "Table Item matches the model: nothing to do.")
    XCTAssertFalse(try open().needsMigration(ItemV9.self))

    // A missing table plans its creation.
    let create = try db.migrationPlan(for: CodeV1.self)
    XCTAssertEqual(create.strategy, .create)
    XCTAssertFalse(try SchemaInspector(db).tableExists("Code"))
  }

  func testReorderingPropertiesIsNoReasonToRebuild() throws {
    let db = try open()
    try db.save(OrderedV1(id: 1, a: "x", b: 2))
    XCTAssertTrue(try open().migrationPlan(for: OrderedV2.self).isEmpty)
    let later = try open()
    XCTAssertEqual(try later.findAll(OrderedV2.self), [OrderedV2(id: 1, b: 2, a: "x")])
    try later.save(OrderedV2(id: 2, b: 3, a: "y"))
    XCTAssertEqual(try later.columnNames("Ordered"), ["id", "a", "b"])
    // Adding a column to the reordered model appends it and records that order.
    XCTAssertTrue(try open().migrationPlan(for: OrderedV1.self).isEmpty)
  }

  func testAReadOfAMissingTableFindsNothingAndCreatesNothing() throws {
    let queue = try DatabaseQueue(path: path())
    XCTAssertEqual(try queue.read { db in try db.findAll(OrderedV1.self) }, [])
    XCTAssertEqual(try queue.read { db in try db.count(OrderedV1.self) }, 0)
    XCTAssertNil(try queue.read { db in try db.find(OrderedV1.self, id: 1) })
    XCTAssertFalse(try SchemaInspector(open()).tableExists("Ordered"))
    XCTAssertFalse(try SchemaInspector(open()).tableExists(AutoMigration.recordTable))
    // Created in a write, it then reads fine.
    try queue.write { db in try db.createTable(for: OrderedV1.self) }
    XCTAssertEqual(try queue.read { db in try db.findAll(OrderedV1.self) }, [])
  }

  func testChainOfFiveVersions() throws {
    // V1
    do {
      let db = try open()
      try db.save([
        PeopleV1(id: nil, name: "Ann", age: 30, height: 170, email: "ann@x.org"),
        PeopleV1(id: nil, name: "Bob", age: 40, height: 182, email: nil),
      ])
      try db.close()
    }
    // V2: a nullable column and an index: altered in place.
    do {
      let db = try open()
      XCTAssertEqual(try db.migrate(PeopleV2.self).strategy, .alter)
      try db.save(
        PeopleV2(id: nil, name: "Cy", age: 50, height: 165, email: "cy@x.org", nickname: "C"))
      try db.close()
      XCTAssertEqual(
        try open().findAll(PeopleV2.self, orderBy: "id"),
        [
          PeopleV2(id: 1, name: "Ann", age: 30, height: 170, email: "ann@x.org", nickname: nil),
          PeopleV2(id: 2, name: "Bob", age: 40, height: 182, email: nil, nickname: nil),
          PeopleV2(id: 3, name: "Cy", age: 50, height: 165, email: "cy@x.org", nickname: "C"),
        ])
    }
    // V3: a rename and a defaulted column: rebuilt.
    do {
      let db = try open()
      XCTAssertEqual(try db.migrate(PeopleV3.self).strategy, .rebuild)
      try db.save(
        PeopleV3(
          id: nil, fullName: "Dee", age: 20, height: 158, email: nil, nickname: nil, score: 9))
      try db.close()
      XCTAssertEqual(
        try open().findAll(PeopleV3.self, orderBy: "id"),
        [
          PeopleV3(
            id: 1, fullName: "Ann", age: 30, height: 170, email: "ann@x.org", nickname: nil,
            score: 0),
          PeopleV3(
            id: 2, fullName: "Bob", age: 40, height: 182, email: nil, nickname: nil, score: 0),
          PeopleV3(
            id: 3, fullName: "Cy", age: 50, height: 165, email: "cy@x.org", nickname: "C", score: 0),
          PeopleV3(
            id: 4, fullName: "Dee", age: 20, height: 158, email: nil, nickname: nil, score: 9),
        ])
      XCTAssertEqual(try open().indexNames("People"), ["People_on_fullName"])
    }
    // V4: a column with data dropped (permitted), a rename with a REAL -> INTEGER change.
    do {
      let db = try open()
      let plan = try db.migrate(PeopleV4.self)
      XCTAssertEqual(plan.strategy, .rebuild)
      XCTAssertTrue(plan.changes.contains("column height renamed to heightCM"), "\(plan.changes)")
      XCTAssertTrue(plan.changes.contains("column email removed"), "\(plan.changes)")
      try db.close()
      XCTAssertEqual(
        try open().findAll(PeopleV4.self, orderBy: "id"),
        [
          PeopleV4(id: 1, fullName: "Ann", age: 30, heightCM: 170, nickname: nil, score: 0),
          PeopleV4(id: 2, fullName: "Bob", age: 40, heightCM: 182, nickname: nil, score: 0),
          PeopleV4(id: 3, fullName: "Cy", age: 50, heightCM: 165, nickname: "C", score: 0),
          PeopleV4(id: 4, fullName: "Dee", age: 20, heightCM: 158, nickname: nil, score: 9),
        ])
    }
    // V5: INTEGER -> TEXT, UNIQUE, CHECK, a new defaulted Bool and a different index.
    do {
      let db = try open()
      XCTAssertEqual(try db.migrate(PeopleV5.self).strategy, .rebuild)
      try db.save(
        PeopleV5(
          id: nil, fullName: "Eve", age: "unknown", heightCM: 160, nickname: nil, score: 1,
          active: false))
      try db.close()
    }
    let db = try open()
    XCTAssertEqual(
      try db.findAll(PeopleV5.self, orderBy: "id"),
      [
        PeopleV5(
          id: 1, fullName: "Ann", age: "30", heightCM: 170, nickname: nil, score: 0, active: true),
        PeopleV5(
          id: 2, fullName: "Bob", age: "40", heightCM: 182, nickname: nil, score: 0, active: true),
        PeopleV5(
          id: 3, fullName: "Cy", age: "50", heightCM: 165, nickname: "C", score: 0, active: true),
        PeopleV5(
          id: 4, fullName: "Dee", age: "20", heightCM: 158, nickname: nil, score: 9, active: true),
        PeopleV5(
          id: 5, fullName: "Eve", age: "unknown", heightCM: 160, nickname: nil, score: 1,
          active: false),
      ])
    XCTAssertEqual(
      try db.columnNames("People"),
      ["id", "fullName", "age", "heightCM", "nickname", "score", "active"])
    XCTAssertEqual(
      try db.indexNames("People").filter { !$0.hasPrefix("sqlite_autoindex") },
      ["People_on_score_age"])
    XCTAssertThrowsError(
      try db.save(
        PeopleV5(
          id: nil, fullName: "Ann", age: "1", heightCM: 1, nickname: nil, score: 0, active: true)))
    XCTAssertThrowsError(
      try db.save(
        PeopleV5(
          id: nil, fullName: "Neg", age: "1", heightCM: 1, nickname: nil, score: -1, active: true)))
    XCTAssertFalse(try db.needsMigration(PeopleV5.self))
    XCTAssertEqual(
      try db.scalar(
        String.self, "SELECT definition FROM swiftlite_schema WHERE table_name = 'People'"),
      try TableSchema(PeopleV5.self).createTableSQL())
    try assertIntact(db)
  }
}
