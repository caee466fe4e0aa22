import XCTest

@testable import SwiftLite

final class SQLInterpolationTests: SQLiteTestCase {
  private let hostile = "x'); DROP TABLE note; --"

  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
  }

  private func tableExists() throws -> Bool {
    try db.scalar(Bool.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'note'") ?? false
  }

  func testValuesAreBoundNeverSpliced() throws {
    let sql: SQL = "INSERT INTO note (id, text) VALUES (\(1), \(hostile))"
    XCTAssertEqual(sql.text, "INSERT INTO note (id, text) VALUES (?, ?)")
    XCTAssertEqual(sql.arguments.count, 2)
    try db.run(sql)
    try db.run("INSERT INTO note (id, text) VALUES (\(2), \(hostile))")  // a literal is SQL too
    XCTAssertTrue(try tableExists())
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM note WHERE text = \(hostile)"), 2)
    XCTAssertEqual(
      try db.queryFirst("SELECT text FROM note WHERE id = \(1)")?.get(String.self, "text"), hostile)
    XCTAssertEqual(executedSQL.last, "SELECT text FROM note WHERE id = ?")
  }

  func testOptionalNilBindsNull() throws {
    let missing: String? = nil
    let sql: SQL = "INSERT INTO note (id, text) VALUES (\(1), \(missing))"
    try db.run(sql)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM note WHERE text IS NULL"), 1)
  }

  func testArraysBecomeParameterListsAndEmptyMatchesNothing() throws {
    for id in 1...5 { try db.run("INSERT INTO note (id, text) VALUES (\(id), \("n\(id)"))") }
    let ids: [Int64] = [2, 4, 9]
    let sql: SQL = "SELECT id FROM note WHERE id IN \(ids) ORDER BY id"
    XCTAssertEqual(sql.text, "SELECT id FROM note WHERE id IN (?, ?, ?) ORDER BY id")
    XCTAssertEqual(try db.query(sql).map { try $0.get(Int.self, at: 0) }, [2, 4])
    let none: [Int64] = []
    XCTAssertEqual(try db.query("SELECT id FROM note WHERE id IN \(none)").count, 0)
    XCTAssertEqual(try db.query("SELECT id FROM note WHERE id NOT IN \(none)").count, 5)
    let texts: Set<String> = ["n1", hostile]
    XCTAssertEqual(try db.query("SELECT id FROM note WHERE text IN \(texts)").count, 1)
    var seen: [Int] = []
    let streamed: SQL = "SELECT id FROM note WHERE id IN \([1, 3])"
    try db.forEachRow(streamed) { seen.append(try $0.get(at: 0)) }
    XCTAssertEqual(seen.sorted(), [1, 3])
    XCTAssertTrue(try tableExists())
  }

  func testIdentifiersAreQuotedAndRawIsExplicit() throws {
    let table = "odd \"table\"; DROP TABLE note; --"
    try db.execute("CREATE TABLE " + SQLIdentifier.quote(table) + " (v TEXT)")
    try db.run("INSERT INTO \(identifier: table) (\(column: Column("v"))) VALUES (\(hostile))")
    XCTAssertEqual(try db.scalar(String.self, "SELECT v FROM \(identifier: table)"), hostile)
    XCTAssertTrue(try tableExists())
    let order = "id DESC"
    let sql: SQL = "SELECT id FROM note ORDER BY \(raw: order)"
    XCTAssertEqual(sql.text, "SELECT id FROM note ORDER BY id DESC")
  }

  func testFragmentsCompose() throws {
    let condition: SQL = "text = \("a") OR id IN \([7, 8])"
    let sql: SQL = "SELECT count(*) FROM note WHERE \(condition) AND id > \(0)"
    XCTAssertEqual(sql.text, "SELECT count(*) FROM note WHERE text = ? OR id IN (?, ?) AND id > ?")
    XCTAssertEqual(sql.arguments.count, 4)
    XCTAssertEqual((SQL("SELECT ") + "\(1)").text, "SELECT ?")
    let expression = Column("text").contains("50%") && Column("id") > 3
    let withExpression: SQL = "SELECT id FROM note WHERE \(expression)"
    XCTAssertEqual(
      withExpression.text, #"SELECT id FROM note WHERE "text" LIKE ? ESCAPE '\' AND "id" > ?"#)
  }

  func testStoreWhereTakesInterpolatedConditions() throws {
    for (id, text) in [(1, "a"), (2, hostile), (3, "c")] {
      try db.save(QNote(id: Int64(id), text: text))
    }
    XCTAssertEqual(try db.findAll(QNote.self, where: "text = \(hostile)").map(\.id), [2])
    XCTAssertEqual(
      try db.findAll(QNote.self, where: "id IN \([1, 3])", orderBy: "id").map(\.id), [1, 3])
    XCTAssertEqual(try db.count(QNote.self, where: "id IN \([Int64]())"), 0)
    XCTAssertEqual(try db.deleteAll(QNote.self, where: "text = \(hostile)"), 1)
    XCTAssertEqual(try db.count(QNote.self), 2)
    XCTAssertTrue(try tableExists())
  }
}

struct QNote: Model, Equatable {
  var id: Int64
  var text: String
  static let tableName = "qnote"
  static let primaryKey = ["id"]
}

extension SQLInterpolationTests {
  /// With a trailing closure, an interpolated literal still binds its values.
  func testForEachRowWithATrailingClosureBindsInterpolatedValues() throws {
    try db.execute("CREATE TABLE t(x TEXT)")
    let hostile = "1' OR '1' = '1"
    try db.run("INSERT INTO t VALUES (\(hostile))")
    try db.run("INSERT INTO t VALUES ('other')")
    var seen: [String] = []
    try db.forEachRow("SELECT x FROM t WHERE x = \(hostile)") { row in
      seen.append(try row.get(String.self, at: 0))
    }
    XCTAssertEqual(seen, [hostile])
    XCTAssertEqual(executedSQL.last, "SELECT x FROM t WHERE x = ?")
  }
}
