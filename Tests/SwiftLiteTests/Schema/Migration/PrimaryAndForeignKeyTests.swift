import Foundation
import SwiftLite
import XCTest

// Primary keys, rowids and foreign keys: a rebuild keeps each row's identity, children and
// cascades, and refuses to strand a row.

final class PrimaryAndForeignKeyTests: ModelTestCase {
  func testPrimaryKeyChange() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemV17.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(
      Set(plan.changes), ["primary key changed from (id) to (name)", "column id became NOT NULL"])
    let reopened = try open()
    XCTAssertEqual(
      try reopened.query("SELECT name FROM pragma_table_info('Item') WHERE pk > 0").map {
        try $0.get(String.self, at: 0)
      }, ["name"])
    XCTAssertEqual(
      try reopened.find(ItemV17.self, id: "pear"), ItemV17(id: 2, name: "pear", price: 2.25))
    XCTAssertThrowsError(try reopened.insert(ItemV17(id: 7, name: "pear", price: 1, note: nil))) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .primaryKey, "\($0)")
    }
    try reopened.save(ItemV17(id: 2, name: "pear", price: 3, note: "upserted by name"))
    XCTAssertEqual(try reopened.count(ItemV17.self), 3)

    let third = try open()
    try third.migrate(ItemV18.self)
    XCTAssertEqual(
      try third.query("SELECT name FROM pragma_table_info('Item') WHERE pk > 0 ORDER BY pk").map {
        try $0.get(String.self, at: 0)
      }, ["name", "price"])
    XCTAssertEqual(
      try third.find(ItemV18.self, key: ["pear", 3.0])?.note, "upserted by name")
    XCTAssertEqual(
      try third.findAll(ItemV18.self, orderBy: "id").map(\.name),
      ["apple", "pear", "plum"])
    try assertIntact(third)
  }

  /// A table whose key is not an integer still has rowids (insert returns them, an FTS
  /// table may point at them): a rebuild must keep each row's rowid, not renumber them.
  func testARebuildKeepsTheRowIDsOfATableWithoutAnIntegerKey() throws {
    let db = try open()
    try db.save([
      TagV1(code: "a", label: "A"), TagV1(code: "b", label: "B"), TagV1(code: "c", label: "C"),
    ])
    try db.delete(TagV1.self, id: "a")
    let before = try db.query("SELECT rowid, code FROM Tag ORDER BY code").map {
      "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
    }
    XCTAssertEqual(before, ["2 b", "3 c"])
    XCTAssertEqual(try db.migrate(TagV2.self).strategy, .rebuild)
    XCTAssertEqual(
      try db.query("SELECT rowid, code FROM Tag ORDER BY code").map {
        "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
      }, before)

    // A column named rowid hides that name: the rowid is still kept, under another.
    try db.migrate(TagV3.self)
    XCTAssertEqual(
      try db.query("SELECT _rowid_, code FROM Tag ORDER BY code").map {
        "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
      }, before)
  }

  func testRebuildingAParentKeepsChildrenAndCascades() throws {
    do {
      let db = try open()
      try db.save([
        AuthorV1(id: 1, name: "Ann"), AuthorV1(id: 2, name: "Bob"), AuthorV1(id: 3, name: "Cy"),
      ])
      let written = (Int64(1)...3).flatMap { author in
        (Int64(1)...2).map {
          BookV1(id: author * 10 + $0, authorID: author, title: "b\(author)-\($0)")
        }
      }
      try db.save(written)
      // The cascade works before the migration.
      try db.delete(AuthorV1.self, id: 3)
      XCTAssertEqual(try db.count(BookV1.self), 4)
      try db.close()
    }
    let books = try open().dump("Book")
    let before = try snapshot(ofFile: path())

    // Inside a transaction foreign keys cannot be paused: refused, nothing changed.
    let db = try open()
    let error = thrownError(MigrationError.self) {
      _ = try db.transaction { db in try db.migrate(AuthorV2.self) }
    }
    XCTAssertEqual(error, .mustRunOutsideTransaction(table: "Author"))
    XCTAssertEqual(try snapshot(ofFile: path()), before)

    // Outside, the parent is rebuilt and no child is cascade-deleted.
    XCTAssertEqual(try db.migrate(AuthorV2.self).strategy, .rebuild)
    XCTAssertTrue(try db.foreignKeysEnabled(), "foreign keys are on again")
    XCTAssertEqual(try db.dump("Book"), books)
    XCTAssertEqual(
      try db.findAll(AuthorV2.self, orderBy: "id"),
      [
        AuthorV2(id: 1, fullName: "Ann", born: nil),
        AuthorV2(id: 2, fullName: "Bob", born: nil),
      ])
    try assertIntact(db)

    // The cascade still works afterwards, and a dangling child is still refused.
    try db.delete(AuthorV2.self, id: 1)
    XCTAssertEqual(try db.findAll(BookV1.self, orderBy: "id").map(\.id), [21, 22])
    XCTAssertThrowsError(try db.save(BookV1(id: 99, authorID: 42, title: "orphan"))) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .foreignKey, "\($0)")
    }

    // Through a Repository (its queue migrates outside a transaction) on a new connection.
    let queue = try DatabaseQueue(path: path())
    let authors = try Repository<AuthorV3>(queue)
    XCTAssertEqual(try authors.findAll().map(\.fullName), ["Bob"])
    XCTAssertEqual(try queue.read { try $0.count(BookV1.self) }, 2)
    try queue.read { db in try assertIntact(db) }
    // A write() is a transaction: a parent rebuild there is refused.
    XCTAssertThrowsError(try queue.write { db in try db.migrate(AuthorV2.self) }) {
      XCTAssertEqual($0 as? MigrationError, .mustRunOutsideTransaction(table: "Author"))
    }
  }

  func testRebuildingAChildWithDanglingRowsIsRefused() throws {
    do {
      let db = try open()
      try db.save(AuthorV1(id: 1, name: "Ann"))
      try db.save(BookV1(id: 1, authorID: 1, title: "kept"))
      try db.close()
    }
    do {
      // A dangling row written with enforcement off, as an older app might have.
      var options = OpenOptions()
      options.foreignKeys = false
      let unchecked = try Connection(path: path(), options: options)
      try unchecked.run("INSERT INTO Book (id, authorID, title) VALUES (2, 42, 'orphan')")
      try unchecked.close()
    }
    let before = try snapshot(ofFile: path())
    let db = try open()
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(BookV2.self) },
      .foreignKeyViolation(table: "Book"))
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertTrue(try db.foreignKeysEnabled())
  }

  func testRebuildingATableThatReferencesItself() throws {
    let tree = [
      CategoryV1(id: 1, parentID: nil, name: "root"), CategoryV1(id: 2, parentID: 1, name: "child"),
      CategoryV1(id: 3, parentID: 2, name: "grandchild"),
    ]
    do {
      let db = try open()
      try db.save(tree)
      try db.close()
    }
    let before = try snapshot(ofFile: path())
    let expected = tree.map { CategoryV2(id: $0.id, parentID: $0.parentID, title: $0.name) }

    // Inside a transaction foreign keys stay on: dropping the old table would cascade into
    // the copy, which references it. Refused rather than losing the rows.
    let db = try open()
    XCTAssertThrowsError(try db.transaction { db in try db.migrate(CategoryV2.self) }) {
      XCTAssertEqual($0 as? MigrationError, .mustRunOutsideTransaction(table: "Category"))
    }
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    let queue = try DatabaseQueue(path: path())
    XCTAssertThrowsError(
      try queue.write { db in try db.save(CategoryV2(id: 4, parentID: 1, title: "x")) })
    XCTAssertEqual(try snapshot(ofFile: path()), before)

    // Outside, every row is kept, and the tree still cascades.
    try db.migrate(CategoryV2.self)
    XCTAssertEqual(try open().findAll(CategoryV2.self, orderBy: "id"), expected)
    try db.delete(CategoryV2.self, id: 2)
    XCTAssertEqual(try db.findAll(CategoryV2.self).map(\.id), [1])
    try assertIntact(try open())
  }

  func testParentKeyChangeThatStrandsChildrenIsRefused() throws {
    do {
      let db = try open()
      try db.save([AuthorV1(id: 1, name: "Ann"), AuthorV1(id: 2, name: "Bob")])
      try db.save(BookV1(id: 1, authorID: 1, title: "kept"))
      try db.close()
    }
    let before = try snapshot(ofFile: path())
    // Book references Author's primary key: making `name` the key leaves authorID 1
    // pointing at no author.
    let db = try open()
    XCTAssertThrowsError(try db.migrate(AuthorV4.self)) {
      XCTAssertEqual($0 as? MigrationError, .foreignKeyViolation(table: "Author"), "\($0)")
    }
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    try assertIntact(try open())
  }

  /// Renaming a parent's column that a child's foreign key references: the child must
  /// follow the rename (as ALTER TABLE RENAME COLUMN does) and keep its rows, and the
  /// child model naming the new column then needs no migration.
  func testRenamingAColumnAChildReferencesKeepsTheChild() throws {
    let db = try open()
    try db.save([VendorV1(id: 1, code: "acme"), VendorV1(id: 2, code: "bolt")])
    try db.save([SupplyV1(id: 10, vendorCode: "acme"), SupplyV1(id: 11, vendorCode: "bolt")])
    try db.close()

    let later = try open()
    let plan = try later.migrate(VendorV2.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(
      try later.findAll(VendorV2.self, orderBy: "id"),
      [
        VendorV2(id: 1, sku: "acme", country: nil),
        VendorV2(id: 2, sku: "bolt", country: nil),
      ])
    XCTAssertEqual(try later.query("PRAGMA foreign_key_check").count, 0)
    XCTAssertFalse(try later.needsMigration(SupplyV2.self))
    XCTAssertEqual(
      try later.findAll(SupplyV2.self, orderBy: "id"),
      [
        SupplyV2(id: 10, vendorCode: "acme"),
        SupplyV2(id: 11, vendorCode: "bolt"),
      ])
    // The cascade still works through the renamed column.
    try later.delete(VendorV2.self, id: 1)
    XCTAssertEqual(try later.count(SupplyV2.self), 1)
  }
}
