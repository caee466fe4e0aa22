import XCTest

@testable import SwiftLite

/// SQL put together by many appends: the same text, arguments and checks of whole ORDER BY
/// terms as before, however many fragments (appends grow the value in place).
final class SQLAppendTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
    for (id, text) in [(1, "b"), (2, "c"), (3, "a")] {
      try db.run("INSERT INTO note (id, text) VALUES (\(id), \(text))")
    }
  }

  private func ids(_ sql: SQL) throws -> [Int] {
    try db.query(sql).map { try $0.get(Int.self, at: 0) }
  }

  private func assertMisuse(_ sql: SQL, file: StaticString = #filePath, line: UInt = #line) {
    assertSQLiteError(try ids(sql), file: file, line: line) { error in
      XCTAssertEqual(error.code, .misuse, error.message, file: file, line: line)
    }
  }

  func testManyAppendsMakeTheSameTextAndArguments() throws {
    func expected(_ count: Int) -> String {
      "SELECT id FROM note WHERE id IN ("
        + Array(repeating: "?", count: count).joined(separator: ", ") + ") ORDER BY id"
    }
    let count = 5_000
    var appended: SQL = "SELECT id FROM note WHERE id IN ("
    for value in 0..<count {
      if value > 0 { appended.append(", ") }
      appended.append("\(value)")
    }
    appended.append(") ORDER BY id")
    let joined =
      "SELECT id FROM note WHERE id IN ("
      + SQL.joined((0..<count).map { "\($0)" }, separator: ", ") + ") ORDER BY id"
    // `sql = sql + fragment` copies the left side each time, as a value must.
    var summed: SQL = "SELECT id FROM note WHERE id IN ("
    for value in 0..<200 { summed = summed + (value > 0 ? ", " : "") + "\(value)" }
    summed = summed + ") ORDER BY id"
    for (sql, count) in [(appended, count), (joined, count), (summed, 200)] {
      XCTAssertEqual(sql.text, expected(count))
      XCTAssertEqual(sql.arguments.count, count)
      XCTAssertEqual(sql.arguments.last.flatMap { $0 } as? Int, count - 1)
      XCTAssertEqual(sql.valueParameters.count, count)
      XCTAssertEqual(sql.valueParameters.last?.argument, count - 1)
      XCTAssertEqual(try ids(sql), [1, 2, 3])
    }
  }

  func testAppendsKeepTheOrderByCheck() throws {
    let column = "text"
    var sql: SQL = "SELECT id FROM note"
    for _ in 0..<2_000 { sql.append(" ") }
    sql.append(" ORDER BY \(column)")
    assertMisuse(sql)
    var expression = sql
    expression.append(" = 'a' DESC")
    XCTAssertEqual(try ids(expression).count, 3, "an expression once the rest is appended")
    assertMisuse(sql)  // the copy appended to left the original as it was
  }

  func testTextChangedInPlaceKeepsTheParametersOnlyWhenAppended() throws {
    let column = "text"
    var appended: SQL = "SELECT id FROM note ORDER BY \(column)"
    appended.text += " DESC"
    assertMisuse(appended)
    var shortened: SQL = "SELECT id FROM note ORDER BY \(column) DESC"
    shortened.text.removeLast(5)
    XCTAssertTrue(shortened.valueParameters.isEmpty)
    var replaced: SQL = "SELECT id FROM note ORDER BY \(column)"
    replaced.text = "SELECT id FROM note WHERE text <> ? ORDER BY id"
    XCTAssertTrue(replaced.valueParameters.isEmpty)
    XCTAssertEqual(try ids(replaced), [1, 2, 3])
    var fewer: SQL = "SELECT id FROM note ORDER BY \(column)"
    fewer.arguments.removeAll()
    XCTAssertTrue(fewer.valueParameters.isEmpty)
  }
}
