import Foundation
import SwiftLite
import XCTest

// Indexes, views and triggers: the schema objects around a table, changed in place or kept
// across a rebuild.

final class IndexViewAndTriggerTests: ModelTestCase {
  func testIndexesAddedChangedAndRemoved() throws {
    try seedItems()
    let rows = try open().dump("Item")
    func indexes(_ db: Connection) throws -> [String] {
      try db.query(
        "SELECT il.name, il.\"unique\", group_concat(ii.name) FROM pragma_index_list('Item') AS il, pragma_index_info(il.name) AS ii GROUP BY il.name ORDER BY il.name"
      ).map { try $0.values.map(\.description).joined(separator: " ") }
    }

    let db = try open()
    var plan = try db.migrate(ItemV15.self)
    XCTAssertEqual(plan.strategy, .alter)
    XCTAssertEqual(plan.changes, ["index item lookup added"])
    XCTAssertEqual(try indexes(try open()), ["'item lookup' 0 'name'"])

    let second = try open()
    plan = try second.migrate(ItemV16.self)
    XCTAssertEqual(plan.strategy, .alter)
    XCTAssertEqual(
      Set(plan.changes),
      ["index item lookup removed", "index item lookup added", "index Item_on_price added"])
    XCTAssertEqual(
      try indexes(try open()), ["'Item_on_price' 0 'price'", "'item lookup' 1 'name,price'"])
    XCTAssertThrowsError(
      try second.save(ItemV16(id: 9, name: "pear", price: 2.25, note: nil)))

    let third = try open()
    plan = try third.migrate(ItemV1.self)
    XCTAssertEqual(Set(plan.changes), ["index item lookup removed", "index Item_on_price removed"])
    XCTAssertEqual(try indexes(try open()), [])
    XCTAssertEqual(try open().dump("Item"), rows, "index changes keep every row")
    try assertIntact(try open())
  }

  func testRebuildKeepsViewsAndTriggers() throws {
    try seedItems()
    do {
      let db = try open()
      try db.execute(
        """
        CREATE VIEW cheap AS SELECT id FROM Item WHERE price < 2;
        CREATE TABLE log (message TEXT);
        CREATE TRIGGER item_logged AFTER INSERT ON Item BEGIN INSERT INTO log VALUES (new.id); END;
        CREATE TABLE inbox (id INTEGER);
        CREATE TRIGGER inbox_to_item AFTER INSERT ON inbox
        BEGIN INSERT INTO Item (id, name, price) VALUES (new.id, 'from inbox', 1); END;
        """)
      try db.close()
    }
    let db = try open()
    XCTAssertEqual(try db.migrate(ItemV5.self).strategy, .rebuild)
    XCTAssertEqual(
      try db.query("SELECT id FROM cheap ORDER BY id").map { try $0.get(Int.self, at: 0) }, [1, 3])
    try db.run("INSERT INTO inbox VALUES (7)")
    XCTAssertEqual(try db.find(ItemV5.self, id: 7)?.name, "from inbox")
    XCTAssertEqual(
      try db.query("SELECT message FROM log").map { try $0.get(String.self, at: 0) }, ["7"])
    try assertIntact(try open())
  }

  /// A trigger on the table that names a renamed column cannot be recreated as it was: the
  /// migration must fail and change nothing, not commit and leave every write failing.
  func testATriggerNamingARenamedColumnFailsTheMigrationInsteadOfEveryWrite() throws {
    let db = try open()
    try db.save([EntryV1(id: 1, name: "a")])
    try db.execute("CREATE TABLE audit (what TEXT)")
    try db.execute(
      "CREATE TRIGGER entry_audit AFTER UPDATE ON Entry BEGIN "
        + "INSERT INTO audit VALUES (NEW.name); END")
    let before = try db.snapshot()
    XCTAssertThrowsError(try db.migrate(EntryV2.self)) { error in
      XCTAssertTrue("\(error)".contains("NEW.name"), "\(error)")
    }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertEqual(try db.findAll(EntryV1.self), [EntryV1(id: 1, name: "a")])

    // With the trigger rewritten by the app, the migration goes through.
    try db.execute("DROP TRIGGER entry_audit")
    try db.migrate(EntryV2.self)
    try db.execute(
      "CREATE TRIGGER entry_audit AFTER UPDATE ON Entry BEGIN "
        + "INSERT INTO audit VALUES (NEW.title); END")
    try db.save(EntryV2(id: 1, title: "b"))
    XCTAssertEqual(try db.scalar(String.self, "SELECT what FROM audit"), "b")
  }
}
