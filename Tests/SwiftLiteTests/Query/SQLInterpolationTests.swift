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

extension SQLInterpolationTests {
  private func fillNotes() throws {
    for (id, text) in [(1, "b"), (2, "c"), (3, "a")] {
      try db.run("INSERT INTO note (id, text) VALUES (\(id), \(text))")
    }
  }

  private func ids(_ sql: SQL) throws -> [Int] {
    try db.query(sql).map { try $0.get(Int.self, at: 0) }
  }

  private func assertRefused(
    _ sql: @autoclosure () throws -> some Any, _ clause: String, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    assertSQLiteError(try sql(), file: file, line: line) { error in
      XCTAssertEqual(error.code, .misuse, error.message, file: file, line: line)
      XCTAssertTrue(error.message.contains(clause), error.message, file: file, line: line)
      XCTAssertTrue(error.message.contains("\\(identifier:"), error.message, file: file, line: line)
    }
  }

  /// A value interpolated as a whole ORDER BY, GROUP BY or PARTITION BY term would be a
  /// constant (the rows would come back in no order, or in one group): the call that runs
  /// the SQL throws `.misuse`, pointing to `\(identifier:)` and `Column`.
  func testAValueAsAWholeOrderingOrGroupingTermIsRefused() throws {
    try fillNotes()
    let column = "text"
    let orderings: [SQL] = [
      "SELECT id FROM note ORDER BY \(column)",
      "select id from note order by \(column)",
      "SELECT id FROM note ORDER\n  BY\n\t\(column)",
      "SELECT id FROM note ORDER BY -- the user's choice\n  \(column)",
      "SELECT id FROM note ORDER BY /* the user's choice */ \(column) DESC",
      "SELECT id FROM note ORDER BY id, \(column) DESC",
      "SELECT id FROM note ORDER BY coalesce(text, id) ASC, \(column) LIMIT 2",
      "SELECT id FROM note ORDER BY \(column) COLLATE NOCASE NULLS LAST",
      "SELECT id FROM note ORDER BY \(2)",  // a bound 2 is not the second column
      "SELECT id, row_number() OVER (ORDER BY \(column)) FROM note",
      "SELECT id FROM (SELECT id FROM note ORDER BY \(column)) LIMIT 1",
    ]
    for sql in orderings { assertRefused(try ids(sql), "ORDER BY") }
    let groupings: [SQL] = [
      "SELECT count(*) FROM note GROUP BY \(column)",
      "SELECT count(*) FROM note group by id, \(column) HAVING count(*) > 0",
      "SELECT count(*) FROM note GROUP BY\n\(column) ORDER BY 1",
    ]
    for sql in groupings { assertRefused(try ids(sql), "GROUP BY") }
    assertRefused(
      try ids("SELECT id, row_number() OVER (PARTITION BY \(column) ORDER BY id) FROM note"),
      "PARTITION BY")

    // A term written as a fragment of its own is seen once it lands after ORDER BY.
    let term: SQL = "\(column)"
    assertRefused(try ids("SELECT id FROM note ORDER BY \(term)"), "ORDER BY")
    assertRefused(try ids(SQL("SELECT id FROM note ORDER BY ") + term), "ORDER BY")
    let terms = SQL.joined(["\(column)", "\("id") DESC"], separator: ", ")
    assertRefused(try ids("SELECT id FROM note ORDER BY \(terms)"), "ORDER BY")

    // Every call that runs the SQL refuses it.
    let sql: SQL = "SELECT id FROM note ORDER BY \(column)"
    assertRefused(try db.scalar(Int.self, sql), "ORDER BY")
    assertRefused(try db.queryFirst(sql), "ORDER BY")
    assertRefused(try db.forEachRow(sql) { _ in }, "ORDER BY")
    assertRefused(try db.run("UPDATE note SET text = 'x' WHERE id IN (\(sql))"), "ORDER BY")
    try db.save(QNote(id: 1, text: "q"))
    assertRefused(try db.findAll(QNote.self, where: "id IN (\(sql))"), "ORDER BY")
    assertRefused(try QNote.filter("id IN (\(sql))").fetchAll(db), "ORDER BY")
    let queue = try DatabaseQueue(path: databasePath)
    let cache = try QueryCache(queue)
    assertRefused(try cache.query(sql), "ORDER BY")
    assertRefused(try cache.query(sql), "ORDER BY")  // a refusal is not cached as a result
    try queue.close()
    XCTAssertEqual(try ids("SELECT id FROM note WHERE text = 'x'"), [])
  }

  /// Values stay bound wherever they are values, in ORDER BY clauses too.
  func testValuesInOrderingClausesThatAreNotWholeTermsStayBound() throws {
    try fillNotes()
    let (a, two, column) = ("a", 2, "text")
    XCTAssertEqual(try ids("SELECT id FROM note WHERE text = \(a)"), [3])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY id LIMIT \(two)"), [1, 2])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY id LIMIT \(two) OFFSET \(1)"), [2, 3])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY id LIMIT \(1), \(two)"), [2, 3])
    XCTAssertEqual(
      try ids("SELECT id FROM note ORDER BY CASE WHEN text = \(a) THEN 0 ELSE 1 END, id"),
      [3, 1, 2])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY \(a) = text DESC, id"), [3, 1, 2])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY abs(id - \(two)), id"), [2, 1, 3])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY \(identifier: column)"), [3, 1, 2])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY \(Column(column)) DESC"), [2, 1, 3])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY \(raw: column)"), [3, 1, 2])
    XCTAssertEqual(try ids("SELECT id, \(a) FROM note ORDER BY id"), [1, 2, 3])
    XCTAssertEqual(try ids("SELECT id FROM note WHERE text = 'ORDER BY ' || \(a)"), [])
    XCTAssertEqual(try ids("SELECT id FROM note /* ORDER BY */ WHERE id > \(two)"), [3])
    XCTAssertEqual(
      try ids("SELECT id FROM note GROUP BY text HAVING count(*) >= \(1) ORDER BY id"), [1, 2, 3])
    try db.run("INSERT INTO note (id, text) VALUES (\(4), \(a)), (\(5), \(a))")
    XCTAssertEqual(try db.count(QNote.self, where: "id > \(3)"), 0)  // another table
    // ORDER BY written in the SQL with `?` is the caller's own text: out of reach.
    XCTAssertEqual(try db.query("SELECT id FROM note ORDER BY ?", [column]).count, 5)
  }
}

// MARK: Values of any type

/// A type that is not `SQLiteValueConvertible`, whose description is SQL.
private struct Untyped: CustomStringConvertible {
  var description: String { "'zz' OR 1 = 1" }
}

/// The calls that interpolate a value of a type that is not `SQLiteValueConvertible`.
private protocol UntypedInterpolations {
  func sql() -> SQL
  func query(_ db: Connection) throws -> [Row]
  func scalar(_ db: Connection) throws -> Int?
  func run(_ db: Connection) throws
  func forEachRow(_ db: Connection, _ body: (Row) throws -> Void) throws
  func cached(_ cache: QueryCache) throws -> [Row]
  func findAll(_ db: Connection) throws -> [QNote]
  func findAll(_ repository: Repository<QNote>) throws -> [QNote]
}

/// Each call with `\(value)` in its literal. The compiler warns that such a value is bound
/// as its description (the interpolation is deprecated): the witnesses are deprecated, and
/// the test reaches them through the protocol, so that the test target builds clean.
private struct Interpolating<V>: UntypedInterpolations {
  let value: V
  @available(*, deprecated) func sql() -> SQL { "SELECT id FROM note WHERE text = \(value)" }
  @available(*, deprecated) func query(_ db: Connection) throws -> [Row] {
    try db.query("SELECT id FROM note WHERE text = \(value)")
  }
  @available(*, deprecated) func scalar(_ db: Connection) throws -> Int? {
    try db.scalar(Int.self, "SELECT count(*) FROM note WHERE text = \(value)")
  }
  @available(*, deprecated) func run(_ db: Connection) throws {
    try db.run("UPDATE note SET text = 'changed' WHERE text = \(value)")
  }
  @available(*, deprecated) func forEachRow(_ db: Connection, _ body: (Row) throws -> Void)
    throws
  {
    try db.forEachRow("SELECT id FROM note WHERE text = \(value)", body)
  }
  @available(*, deprecated) func cached(_ cache: QueryCache) throws -> [Row] {
    try cache.query("SELECT id FROM note WHERE text = \(value)")
  }
  @available(*, deprecated) func findAll(_ db: Connection) throws -> [QNote] {
    try db.findAll(QNote.self, where: "text = \(value)")
  }
  @available(*, deprecated) func findAll(_ repository: Repository<QNote>) throws -> [QNote] {
    try repository.findAll(where: "text = \(value)")
  }
}

extension SQLInterpolationTests {
  /// The text that a spliced value would turn into a condition true for every row; one
  /// note holds it, so a bound value finds that note only.
  private static let injected = "'zz' OR 1 = 1"

  private func fillInjectableNotes() throws -> (QueryCache, Repository<QNote>, DatabaseQueue) {
    try fillNotes()
    try db.run("INSERT INTO note (id, text) VALUES (4, \(Self.injected))")
    try db.save(QNote(id: 1, text: "b"))
    try db.save(QNote(id: 4, text: Self.injected))
    let queue = try DatabaseQueue(path: databasePath)
    return (try QueryCache(queue), try Repository<QNote>(queue), queue)
  }

  /// A `Substring` (from `split`) is `SQLiteValueConvertible`: it binds as TEXT in every
  /// call that takes an interpolated literal, never spliced into the text.
  func testAnInterpolatedSubstringBindsAsTextInEveryCall() throws {
    let (cache, repository, queue) = try fillInjectableNotes()
    defer { try? queue.close() }
    let typed = "nobody,\(Self.injected)".split(separator: ",")[1]
    let sql: SQL = "SELECT id FROM note WHERE text = \(typed)"
    XCTAssertEqual(sql.text, "SELECT id FROM note WHERE text = ?")
    XCTAssertEqual(sql.arguments.count, 1)
    XCTAssertEqual(try db.query("SELECT id FROM note WHERE text = \(typed)").count, 1)
    XCTAssertEqual(executedSQL.last, "SELECT id FROM note WHERE text = ?")
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM note WHERE text = \(typed)"), 1)
    XCTAssertEqual(executedSQL.last, "SELECT count(*) FROM note WHERE text = ?")
    var seen = 0
    try db.forEachRow("SELECT id FROM note WHERE text = \(typed)") { _ in seen += 1 }
    XCTAssertEqual(seen, 1)
    XCTAssertEqual(executedSQL.last, "SELECT id FROM note WHERE text = ?")
    XCTAssertEqual(try cache.query("SELECT id FROM note WHERE text = \(typed)").count, 1)
    XCTAssertEqual(try db.findAll(QNote.self, where: "text = \(typed)").map(\.id), [4])
    XCTAssertEqual(try repository.findAll(where: "text = \(typed)").map(\.id), [4])
    try db.run("UPDATE note SET text = 'changed' WHERE text = \(typed)")
    XCTAssertEqual(executedSQL.last, "UPDATE note SET text = 'changed' WHERE text = ?")
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM note WHERE text = 'changed'"), 1)
  }

  /// A value of a type that is not `SQLiteValueConvertible` binds its description (with a
  /// deprecation warning where it is written), in every call: it is never spliced.
  func testAnInterpolatedValueOfAnyOtherTypeIsBoundNeverSpliced() throws {
    let (cache, repository, queue) = try fillInjectableNotes()
    defer { try? queue.close() }
    let calls: any UntypedInterpolations = Interpolating(value: Untyped())
    let sql = calls.sql()
    XCTAssertEqual(sql.text, "SELECT id FROM note WHERE text = ?")
    XCTAssertEqual(sql.arguments.count, 1)
    XCTAssertEqual(try calls.query(db).count, 1)
    XCTAssertEqual(executedSQL.last, "SELECT id FROM note WHERE text = ?")
    XCTAssertEqual(try calls.scalar(db), 1)
    XCTAssertEqual(executedSQL.last, "SELECT count(*) FROM note WHERE text = ?")
    var seen = 0
    try calls.forEachRow(db) { _ in seen += 1 }
    XCTAssertEqual(seen, 1)
    XCTAssertEqual(try calls.cached(cache).count, 1)
    XCTAssertEqual(try calls.findAll(db).map(\.id), [4])
    XCTAssertEqual(try calls.findAll(repository).map(\.id), [4])
    try calls.run(db)
    XCTAssertEqual(executedSQL.last, "UPDATE note SET text = 'changed' WHERE text = ?")
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM note WHERE text = 'changed'"), 1)
  }

  /// A `FullTextQuery` binds its text, the FTS5 syntax it built.
  func testAnInterpolatedFullTextQueryBindsItsText() throws {
    let search = FullTextQuery.allWords(in: "zoë' OR 1 = 1 --")
    let sql: SQL = "SELECT \(search)"
    XCTAssertEqual(sql.text, "SELECT ?")
    XCTAssertEqual(sql.arguments.count, 1)
    XCTAssertEqual(try db.scalar(String.self, "SELECT \(search)"), search.text)
    XCTAssertEqual(executedSQL.last, "SELECT ?")
  }

  // MARK: Whole terms, more forms

  /// A bound value in parentheses, `(?)` or `((?))`, is as constant as a bare one.
  func testAParenthesizedValueAsAWholeTermIsRefused() throws {
    try fillNotes()
    let column = "text"
    assertRefused(try ids("SELECT id FROM note ORDER BY (\(column))"), "ORDER BY")
    assertRefused(try ids("SELECT id FROM note ORDER BY ((\(column))) DESC"), "ORDER BY")
    assertRefused(try ids("SELECT id FROM note ORDER BY id, (\(column))"), "ORDER BY")
    assertRefused(try ids("SELECT count(*) FROM note GROUP BY (\(column))"), "GROUP BY")
    // A value in a call or a list keeps being a value.
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY abs(id - (\(2))), id"), [2, 1, 3])
    XCTAssertEqual(try ids("SELECT id FROM note ORDER BY id IN (\(3)) DESC, id"), [3, 1, 2])
  }

  /// `IS DISTINCT FROM` in an earlier term does not end the list: a value after the comma
  /// is a whole term.
  func testAValueAfterAnIsDistinctFromTermIsRefused() throws {
    try fillNotes()
    let column = "text"
    assertRefused(
      try ids("SELECT id FROM note ORDER BY id IS DISTINCT FROM 1, \(column)"), "ORDER BY")
    assertRefused(
      try ids("SELECT id FROM note ORDER BY id IS NOT DISTINCT FROM 1, \(column)"), "ORDER BY")
    XCTAssertEqual(
      try ids("SELECT id FROM note ORDER BY id IS DISTINCT FROM \(1), id"), [1, 2, 3])
  }

  /// The check reads the whole text when the SQL runs: a fragment ending in
  /// `ORDER BY \(x)` may still grow into an expression, and one that grows into a whole
  /// term is refused.
  func testAValueEndingAFragmentIsCheckedOnceTheTextIsWhole() throws {
    try fillNotes()
    var expression: SQL = "SELECT text FROM note ORDER BY \(String("a"))"
    expression.append(" = text DESC, id")
    XCTAssertEqual(try db.query(expression).first?.get(String.self, at: 0), "a")
    var term: SQL = "SELECT id FROM note ORDER BY \(String("text"))"
    term.append(" DESC")
    assertRefused(try ids(term), "ORDER BY")
    let joined = SQL("SELECT id FROM note ORDER BY ") + "\(String("text"))" + " LIMIT 2"
    assertRefused(try ids(joined), "ORDER BY")
  }
}
