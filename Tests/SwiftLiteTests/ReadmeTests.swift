import Foundation
import SwiftLite
import XCTest

/// The README's tour, run as written (only the file path differs), so the README cannot
/// drift from what compiles and works.
final class ReadmeTests: TemporaryDirectoryTestCase {
  func testTheTrioTour() throws {
    let path = directory.appendingPathComponent("app.sqlite").path
    let db = try Connection(path: path)
    try db.execute(
      """
      CREATE TABLE IF NOT EXISTS user(
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, phone TEXT UNIQUE, avatar BLOB)
      """)
    try db.run("INSERT INTO user(name, phone) VALUES (?, ?)", ["Ann", "555-0100"])
    try db.run(
      "UPDATE user SET name = :name WHERE id = :id", ["name": "Anne", "id": db.lastInsertRowID])

    var seen: [String] = []
    for row in try db.query("SELECT id, name, avatar FROM user WHERE name LIKE ?", ["A%"]) {
      let id: Int64 = try row.get("id")
      let name: String = try row.get("name")
      let avatar: Data? = try row.get("avatar")
      XCTAssertEqual(id, 1)
      XCTAssertNil(avatar)
      seen.append(name)
    }
    XCTAssertEqual(seen, ["Anne"])

    let insert = try db.prepare("INSERT INTO user(name) VALUES (?)")
    for name in ["Bob", "Cy"] {
      try insert.bind([name])
      try insert.run()
    }

    var duplicate: SQLiteError?
    do {
      try db.run("INSERT INTO user(name, phone) VALUES (?, ?)", ["Dup", "555-0100"])
    } catch let error as SQLiteError where error.constraintKind == .unique {
      duplicate = error
    }
    XCTAssertEqual(duplicate?.message, "UNIQUE constraint failed: user.phone")

    try db.transaction(.immediate) { db in
      try db.run("DELETE FROM user WHERE name = ?", ["Cy"])
      try db.savepoint { db in try db.run("UPDATE user SET name = upper(name)") }
    }
    var names: [String] = []
    try db.forEachRow("SELECT name FROM user ORDER BY id") { row in
      names.append(try row.get(String.self, at: 0))
    }
    XCTAssertEqual(names, ["ANNE", "BOB"])
  }

  func testTheQueueAndModelTour() async throws {
    let path = directory.appendingPathComponent("app.sqlite").path
    let dbQueue = try DatabaseQueue(path: path)
    try await dbQueue.write { db in
      try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.run("INSERT INTO user(name) VALUES (?)", ["Eve"])
    }
    let count = try await dbQueue.read { db in
      try db.scalar(Int.self, "SELECT count(*) FROM user")
    }
    XCTAssertEqual(count, 1)

    let db = try Connection(path: path)
    try db.save(ReadmePerson(personID: nil, name: "Ann", age: 30, likes: ["tea"], email: nil))
    let adults = try db.findAll(
      ReadmePerson.self, where: "age >= ?", [18], orderBy: "name", limit: 20)
    XCTAssertEqual(adults.map(\.name), ["Ann"])
    XCTAssertTrue(try db.migrationPlan(for: ReadmePerson.self).isEmpty)

    let people = try Repository<ReadmePerson>(dbQueue)
    try await people.create(
      ReadmePerson(personID: nil, name: "Bob", age: 41, likes: [], email: nil))
    let peopleCount = try await people.count()
    XCTAssertEqual(peopleCount, 2)
    let bob = try await people.findById(2)
    XCTAssertEqual(bob?.name, "Bob")
  }

  func testTheExistingDatabaseTour() throws {
    struct Customer: Model {
      var customerId: Int64?
      var firstName: String
      var email: String
      var createdAt: Date
      static let primaryKey = ["customerId"]
      static let schemaPolicy = SchemaPolicy.mapped
    }
    let path = directory.appendingPathComponent("store.sqlite").path
    do {
      let maker = try Connection(path: path)
      try maker.execute(
        """
        CREATE TABLE [Customer] ([CustomerId] INTEGER NOT NULL, [FirstName] NVARCHAR(40) NOT NULL,
          [LastName] NVARCHAR(20), [Email] NVARCHAR(60) NOT NULL,
          [Country] NVARCHAR(40) NOT NULL DEFAULT 'USA',
          [CreatedAt] DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, [Fax] NVARCHAR(24),
          CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]));
        INSERT INTO Customer (CustomerId, FirstName, LastName, Email, CreatedAt)
          VALUES (1, 'Ann', 'Lee', 'ann@example.com', '2021-01-01 00:00:00');
        """)
      try maker.close()
    }
    let store = try Connection(path: path, options: .readOnly)
    let customers = try store.findAll(Customer.self, orderBy: "LastName")
    XCTAssertEqual(customers.map(\.firstName), ["Ann"])
    XCTAssertEqual(customers.first?.createdAt.timeIntervalSince1970, 1_609_459_200)

    let db = try Connection(path: path)
    let plan = try db.adoptionPlan(for: Customer.self)
    XCTAssertEqual(plan.strategy, .none, "\(plan)")
    try db.adopt(Customer.self)
    XCTAssertEqual(try db.count(Customer.self), 1)
  }

  func testTheDateFormatsAndTheRoundTrip() throws {
    struct Order: Model {
      var id: Int64?
      var day: Date  // '2016-07-05'
      var paidAt: Date?  // INTEGER Unix seconds (the column is created INTEGER)
      static let primaryKey = ["id"]
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "day": [.dateFormat(.date)], "paidAt": [.dateFormat(.unixSeconds)],
      ]
    }
    let db = try Connection(path: directory.appendingPathComponent("app.sqlite").path)
    let day = Date(timeIntervalSince1970: 1_467_676_800)  // 2016-07-05
    try db.insert(Order(id: nil, day: day, paidAt: day))
    XCTAssertEqual(
      try db.query("SELECT day, paidAt FROM \"Order\"")[0].values, ["2016-07-05", 1_467_676_800])

    struct Customer: Model {
      var customerId: Int64?
      var firstName: String
      var email: String
      var createdAt: Date
      static let primaryKey = ["customerId"]
      static let schemaPolicy = SchemaPolicy.mapped
    }
    try db.execute(
      """
      CREATE TABLE [Customer] ([CustomerId] INTEGER NOT NULL, [FirstName] NVARCHAR(40) NOT NULL,
        [Email] NVARCHAR(60) NOT NULL, [Country] NVARCHAR(40) NOT NULL DEFAULT 'USA',
        [CreatedAt] DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, [Fax] NVARCHAR(24),
        CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]));
      INSERT INTO Customer VALUES (1, 'Luís', 'luisg@embraer.com.br', 'Brazil', '2016-07-05', NULL);
      """)
    let original = try db.find(Customer.self, id: 1)!
    var customer = original
    customer.email = "luis@example.com"
    XCTAssertEqual(try db.update(customer, from: original), ["Email"])
    try db.save(customer)
    XCTAssertEqual(
      try db.query("SELECT Email, CreatedAt FROM Customer")[0].values,
      ["luis@example.com", "2016-07-05"])
  }
}

private struct ReadmePerson: Model {
  var personID: Int64?
  var name: String
  var age: Int
  var likes: [String]
  var email: String?

  static let tableName = "Person"
  static let primaryKey = ["personID"]
  static let renamedProperties = ["name": "personName"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["email": [.unique]]
  static let indexes = [TableIndex(["age"])]
}
