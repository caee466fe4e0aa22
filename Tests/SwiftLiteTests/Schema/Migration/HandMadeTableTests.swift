import Foundation
import SwiftLite
import XCTest

// Tables an older app made by SQL, then mapped or adopted by a model.

final class HandMadeTableTests: ModelTestCase {
  func testHandMadeTableWithAnotherCase() throws {
    do {
      // An older app's table, its name in lower case, with a trigger.
      let db = try open()
      try db.execute(
        """
        CREATE TABLE user (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO user VALUES (1, 'ann');
        CREATE TABLE log (message TEXT);
        CREATE TRIGGER user_logged AFTER INSERT ON user BEGIN INSERT INTO log VALUES (new.name); END;
        """)
      try db.close()
    }
    let db = try open()
    XCTAssertEqual(try db.adoptionPlan(for: UserV1.self).strategy, .none, "the table is found")
    XCTAssertEqual(try db.findAll(UserV1.self), [UserV1(id: 1, name: "ann")])
    let later = try open()
    XCTAssertEqual(try later.adopt(UserV2.self).strategy, .rebuild)
    try later.save(UserV2(id: nil, name: "bob", age: 3))
    XCTAssertEqual(
      try later.findAll(UserV2.self, orderBy: "id"),
      [UserV2(id: 1, name: "ann", age: nil), UserV2(id: 2, name: "bob", age: 3)])
    XCTAssertEqual(
      try later.query("SELECT message FROM log").map { try $0.get(String.self, at: 0) }, ["bob"],
      "the table's trigger survived the rebuild")
    try assertIntact(try open())
  }

  func testFirstUseInAReadOfAHandMadeTable() throws {
    do {
      let db = try open()
      try db.execute(
        "CREATE TABLE User (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO User VALUES (1, 'ann')"
      )
      try db.close()
    }
    // The table matches the model: reading it needs no write, not even SwiftLite's record.
    let queue = try DatabaseQueue(path: path())
    XCTAssertEqual(try queue.read { try $0.findAll(UserV1.self) }, [UserV1(id: 1, name: "ann")])
    let readOnly = try Connection(path: path(), options: .readOnly)
    XCTAssertEqual(try readOnly.find(UserV1.self, id: 1), UserV1(id: 1, name: "ann"))
    // A missing table is not created by a read: there is nothing to find.
    let other = try DatabaseQueue(path: path("other.sqlite"))
    XCTAssertEqual(try other.read { try $0.findAll(UserV1.self) }, [])
    XCTAssertFalse(try SchemaInspector(open("other.sqlite")).tableExists("User"))
  }

  func testConstraintsOnlyTheRecordShowsAreAppliedToAHandMadeTable() throws {
    struct Account: Model, Equatable {
      var id: Int64?
      var email: String
      var age: Int
      static let primaryKey = ["id"]
      static let autoIncrement = true
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "email": [.unique, .collate("NOCASE")], "age": [.check("age >= 0")],
      ]
    }
    do {
      // Made by an older app: the same columns, without CHECK, COLLATE or AUTOINCREMENT.
      let db = try open()
      try db.execute(
        """
        CREATE TABLE Account (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, age INTEGER NOT NULL);
        INSERT INTO Account VALUES (1, 'ann@x.org', 30);
        """)
      try db.close()
    }
    let db = try open()
    let plan = try db.adoptionPlan(for: Account.self)
    XCTAssertEqual(plan.strategy, .rebuild, plan.description)
    try db.adopt(Account.self)
    XCTAssertEqual(try db.findAll(Account.self), [Account(id: 1, email: "ann@x.org", age: 30)])
    XCTAssertThrowsError(try db.save(Account(id: nil, email: "x@x.org", age: -1)), "CHECK applies")
    XCTAssertThrowsError(
      try db.save(Account(id: nil, email: "ANN@X.ORG", age: 1)), "NOCASE applies")
    XCTAssertTrue(try XCTUnwrap(db.storedSQL("Account")).contains("AUTOINCREMENT"))
    XCTAssertFalse(try open().needsMigration(Account.self))

    // A table SwiftLite made itself, whose record was lost, is mapped; adopting it again
    // only records it, since its CREATE statement is the one SwiftLite would write.
    try db.execute("DELETE FROM swiftlite_schema")
    let again = try open()
    XCTAssertEqual(
      thrownError(MigrationError.self) { _ = try again.migrationPlan(for: Account.self) },
      .notManaged(table: "Account"))
    XCTAssertEqual(try again.adoptionPlan(for: Account.self).strategy, .none)
  }

  func testAHandMadeTableThatMatchesNeedsNoMigration() throws {
    let db = try open()
    try db.execute(
      "CREATE TABLE \"Ordered\" (\"id\" INTEGER PRIMARY KEY, \"a\" TEXT NOT NULL, \"b\" INTEGER NOT NULL)"
    )
    XCTAssertFalse(try db.needsMigration(OrderedV1.self))
    XCTAssertFalse(try db.needsMigration(OrderedV2.self))
  }
}
