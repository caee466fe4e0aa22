import XCTest

@testable import SwiftLite

struct QPerson: Model, Equatable {
  var id: Int64
  var name: String
  var age: Int
  var email: String?
  static let tableName = "qperson"
  static let primaryKey = ["id"]
}

final class QueryInterfaceTests: SQLiteTestCase {
  private let people = [
    QPerson(id: 1, name: "Ann", age: 30, email: "ann@x"),
    QPerson(id: 2, name: "Bob", age: 17, email: nil),
    QPerson(id: 3, name: "100% Carla", age: 45, email: "c@x"),
    QPerson(id: 4, name: "1000 Maniacs", age: 45, email: nil),
    QPerson(id: 5, name: "under_score", age: 60, email: "u@x"),
    QPerson(id: 6, name: "underXscore", age: 8, email: nil),
    QPerson(id: 7, name: #"back\slash"#, age: 30, email: nil),
  ]

  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.save(people)
  }

  private func ids(_ query: ModelQuery<QPerson>) throws -> [Int64] {
    try query.order(Column("id")).fetchAll(db).map(\.id)
  }

  func testComparisonsWriteBoundSQLAndSelectTheRows() throws {
    let adults = QPerson.filter(Column("age") >= 18)
    XCTAssertEqual(adults.sql.text, #"SELECT * FROM "qperson" WHERE "age" >= ?"#)
    XCTAssertEqual(try ids(adults), [1, 3, 4, 5, 7])
    XCTAssertEqual(try ids(QPerson.filter(Column("age") > 45)), [5])
    XCTAssertEqual(try ids(QPerson.filter(Column("age") < 17)), [6])
    XCTAssertEqual(try ids(QPerson.filter(Column("age") <= 17)), [2, 6])
    XCTAssertEqual(try ids(QPerson.filter(Column("name") == "Ann")), [1])
    XCTAssertEqual(try ids(QPerson.filter(Column("age") != 45)), [1, 2, 5, 6, 7])
    XCTAssertEqual(try ids(QPerson.filter(Column("email") == nil)), [2, 4, 6, 7])
    XCTAssertEqual(try ids(QPerson.filter(Column("email").isNotNull)), [1, 3, 5])
    let none: String? = nil
    XCTAssertEqual(
      QPerson.filter(Column("email") == none).sql.text,
      #"SELECT * FROM "qperson" WHERE "email" IS NULL"#)
    XCTAssertEqual(try ids(QPerson.filter(Column("age").between(18, and: 45))), [1, 3, 4, 7])
    XCTAssertEqual(try ids(QPerson.filter(Column("age").between(30...30))), [1, 7])
  }

  func testLogicalOperatorsGroupAsWritten() throws {
    let condition = Column("age") > 40 && (Column("name") == "Ann" || Column("email").isNull)
    let query = QPerson.filter(condition)
    XCTAssertEqual(
      query.sql.text,
      #"SELECT * FROM "qperson" WHERE "age" > ? AND ("name" = ? OR "email" IS NULL)"#)
    XCTAssertEqual(try ids(query), [4])
    let negated = QPerson.filter(!(Column("age") > 40 || Column("age") < 18))
    XCTAssertEqual(negated.sql.text, #"SELECT * FROM "qperson" WHERE NOT ("age" > ? OR "age" < ?)"#)
    XCTAssertEqual(try ids(negated), [1, 7])
    // Successive filters are joined by AND.
    XCTAssertEqual(try ids(QPerson.filter(Column("age") > 18).filter(Column("age") < 40)), [1, 7])
  }

  func testInWithArraysAndSubqueries() throws {
    XCTAssertEqual(try ids(QPerson.filter(Column("id").in([2, 3, 99]))), [2, 3])
    XCTAssertEqual(try ids(QPerson.filter(Column("id").in([Int64]()))), [])
    XCTAssertEqual(try ids(QPerson.filter(Column("id").notIn([Int64]()))).count, 7)
    XCTAssertEqual(try ids(QPerson.filter(Column("id").notIn([1, 2, 3, 4, 5]))), [6, 7])
    let sameAgeAsAnn = QPerson.filter(
      Column("age").in(QPerson.filter(Column("name") == "Ann").select(Column("age"))))
    XCTAssertEqual(
      sameAgeAsAnn.sql.text,
      #"SELECT * FROM "qperson" WHERE "age" IN (SELECT "age" FROM "qperson" WHERE "name" = ?)"#)
    XCTAssertEqual(try ids(sameAgeAsAnn), [1, 7])
    XCTAssertEqual(
      try ids(QPerson.filter(Column("id").in("SELECT \(2) UNION SELECT \(5)"))), [2, 5])
  }

  func testLikeHelpersEscapeWildcards() throws {
    let percent = QPerson.filter(Column("name").contains("100%"))
    XCTAssertEqual(percent.sql.text, #"SELECT * FROM "qperson" WHERE "name" LIKE ? ESCAPE '\'"#)
    XCTAssertEqual(percent.sql.arguments.first as? String, #"%100\%%"#)
    XCTAssertEqual(try ids(percent), [3])
    XCTAssertEqual(try ids(QPerson.filter(Column("name").hasPrefix("under_"))), [5])
    XCTAssertEqual(try ids(QPerson.filter(Column("name").hasSuffix("_score"))), [5])
    XCTAssertEqual(try ids(QPerson.filter(Column("name").contains(#"k\s"#))), [7])
    XCTAssertEqual(try ids(QPerson.filter(Column("name").like("under_score"))), [5, 6])
    XCTAssertEqual(
      try ids(QPerson.filter(Column("name").contains("'; DROP TABLE qperson; --"))), [])
    XCTAssertEqual(try QPerson.all().fetchCount(db), 7)
  }

  func testOrderingLimitOffsetDistinct() throws {
    let ordered = QPerson.all().order(Column("age").desc, Column("name").asc).limit(3, offset: 1)
    XCTAssertEqual(
      ordered.sql.text,
      #"SELECT * FROM "qperson" ORDER BY "age" DESC, "name" LIMIT ? OFFSET ?"#)
    XCTAssertEqual(try ordered.fetchAll(db).map(\.id), [3, 4, 1])
    let nullsLast = QPerson.all().order(Column("email").asc.nullsLast, Column("id"))
    XCTAssertEqual(try nullsLast.fetchAll(db).map(\.id), [1, 3, 5, 2, 4, 6, 7])
    let nullsFirst = QPerson.all().order(Column("email").desc.nullsFirst, Column("id"))
    XCTAssertEqual(try nullsFirst.fetchAll(db).map(\.id), [2, 4, 6, 7, 5, 3, 1])
    let ages = try QPerson.all().select(Column("age")).distinct().order(Column("age")).fetchRows(db)
    XCTAssertEqual(try ages.map { try $0.get(Int.self, at: 0) }, [8, 17, 30, 45, 60])
    XCTAssertEqual(try QPerson.all().select(Column("age")).distinct().fetchCount(db), 5)
    XCTAssertEqual(
      try QPerson.all().order(Column("id")).thenOrder(Column("age")).fetchOne(db)?.id, 1)
  }

  func testAggregatesGroupAndHaving() throws {
    let base = QPerson.all()
    XCTAssertEqual(try base.select(SQLExpression.countAll).fetchValue(db, as: Int.self), 7)
    XCTAssertEqual(
      try base.select(SQLExpression.count(Column("email"))).fetchValue(db, as: Int.self), 3)
    XCTAssertEqual(
      try base.select(SQLExpression.count(Column("age"), distinct: true)).fetchValue(
        db, as: Int.self), 5)
    XCTAssertEqual(
      try base.select(SQLExpression.sum(Column("age"))).fetchValue(db, as: Int.self), 235)
    XCTAssertEqual(
      try base.select(SQLExpression.min(Column("age"))).fetchValue(db, as: Int.self), 8)
    XCTAssertEqual(
      try base.select(SQLExpression.max(Column("age"))).fetchValue(db, as: Int.self), 60)
    XCTAssertEqual(
      try base.filter(Column("age") == 45).select(SQLExpression.avg(Column("age"))).fetchValue(
        db, as: Double.self), 45)
    let grouped = base.select(Column("age"), SQLExpression.countAll.aliased("n"))
      .group(Column("age")).having(SQLExpression.countAll > 1).order(Column("age"))
    XCTAssertEqual(
      grouped.sql.text,
      #"SELECT "age", count(*) AS "n" FROM "qperson" GROUP BY "age" HAVING count(*) > ? ORDER BY "age""#
    )
    let rows = try grouped.fetchRows(db)
    XCTAssertEqual(try rows.map { try $0.get(Int.self, "age") }, [30, 45])
    XCTAssertEqual(try rows.map { try $0.get(Int.self, "n") }, [2, 2])
    XCTAssertEqual(try grouped.fetchCount(db), 2)
  }

  func testTerminals() throws {
    XCTAssertEqual(try QPerson.filter(Column("name") == "Bob").fetchOne(db), people[1])
    XCTAssertNil(try QPerson.filter(Column("name") == "Nobody").fetchOne(db))
    XCTAssertTrue(try QPerson.filter(Column("age") > 50).exists(db))
    XCTAssertFalse(try QPerson.filter(Column("age") > 90).exists(db))
    XCTAssertEqual(try QPerson.filter(Column("age") < 18).fetchCount(db), 2)
    let hostile = "'); DROP TABLE qperson; --"
    XCTAssertEqual(
      try QPerson.filter(Column("age") == 45).updateAll(db, Column("email").set(to: hostile)), 2)
    XCTAssertEqual(try QPerson.filter(Column("email") == hostile).fetchCount(db), 2)
    XCTAssertEqual(
      try QPerson.filter(Column("id") == 1).updateAll(db, Column("age").set(to: Column("age") + 1)),
      1)
    XCTAssertEqual(try db.find(QPerson.self, id: 1)?.age, 31)
    // The oldest two, through their keys: DELETE has no ORDER BY or LIMIT of its own.
    XCTAssertEqual(try QPerson.all().order(Column("age").desc).limit(2).deleteAll(db), 2)
    XCTAssertEqual(try QPerson.all().fetchAll(db).map(\.id).sorted(), [1, 2, 4, 6, 7])
    XCTAssertEqual(try QPerson.filter(Column("age") < 18).deleteAll(db), 2)
    XCTAssertEqual(try QPerson.all().fetchCount(db), 3)
  }

  func testQueriesAreImmutableValues() throws {
    let base = QPerson.filter(Column("age") > 18)
    let narrowed = base.filter(Column("age") < 40).order(Column("id").desc).limit(1)
    XCTAssertEqual(base.sql.text, #"SELECT * FROM "qperson" WHERE "age" > ?"#)
    XCTAssertEqual(try narrowed.fetchAll(db).map(\.id), [7])
    XCTAssertEqual(try base.fetchCount(db), 5)
    let raw = QPerson.filter("length(\(Column("name"))) > \(10)")
    XCTAssertEqual(try ids(raw), [4, 5, 6])
  }

  func testReadsOfAMissingTableFindNothingAndCreateNothing() throws {
    struct Ghost: Model {
      var id: Int64
      static let primaryKey = ["id"]
    }
    XCTAssertEqual(try Ghost.all().fetchAll(db).count, 0)
    XCTAssertNil(try Ghost.all().fetchOne(db))
    XCTAssertEqual(try Ghost.all().fetchCount(db), 0)
    XCTAssertFalse(try Ghost.all().exists(db))
    XCTAssertEqual(try Ghost.all().deleteAll(db), 0)
    XCTAssertEqual(try Ghost.all().updateAll(db, Column("id").set(to: 1)), 0)
    XCTAssertEqual(
      try QPerson.filter(Column("id").in(Ghost.all().select(Column("id")))).fetchCount(db), 0)
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'Ghost'"), 0)
  }

  func testMappedTableColumnsUseTheTablesSpelling() throws {
    try db.execute(
      "CREATE TABLE Customer (CustomerId INTEGER PRIMARY KEY, FirstName TEXT NOT NULL, Extra TEXT)")
    try db.execute("INSERT INTO Customer VALUES (1, 'Ann', 'x'), (2, 'Bob', NULL)")
    struct Customer: Model {
      var customerId: Int64
      var firstName: String
      static let primaryKey = ["customerId"]
    }
    let query = Customer.filter(Column("firstName") == "Bob")
    XCTAssertEqual(try query.fetchAll(db).map(\.customerId), [2])
    XCTAssertTrue(executedSQL.contains { $0.contains(#""FirstName" = ?"#) })
    XCTAssertEqual(
      try Customer.all().order(Column("firstName").desc).fetchOne(db)?.firstName, "Bob")
  }
}
