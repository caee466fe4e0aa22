import XCTest

@testable import SwiftLite

/// Identifiers are quoted as SQLite reads them, byte by byte.
final class SQLIdentifierTests: SQLiteTestCase {
  func testEveryQuoteIsDoubledEvenBeforeACombiningMark() {
    XCTAssertEqual(SQLIdentifier.quote("plain"), "\"plain\"")
    XCTAssertEqual(SQLIdentifier.quote("my \"table\""), "\"my \"\"table\"\"\"")
    // A quote followed by a combining mark is one Swift Character that is not `"`: a
    // search by characters left it single, and the identifier ended there.
    let name = "x\"\u{301}; DROP TABLE t; --"
    let quoted = SQLIdentifier.quote(name)
    XCTAssertEqual(quoted.utf8.filter { $0 == UInt8(ascii: "\"") }.count, 4, quoted)
  }

  func testAQuotedNameIsOneIdentifierWhateverItHolds() throws {
    try db.execute("CREATE TABLE t(x)")
    for name in ["x\"\u{301}; DROP TABLE t; --", "a\"\"b", "\"", "é\"\u{0610}"] {
      try db.execute(
        "CREATE TABLE \(SQLIdentifier.quote(name)) (v); DROP TABLE \(SQLIdentifier.quote(name))")
      XCTAssertEqual(
        try db.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 't'"), 1, name)
      let sql: SQL = "SELECT \(identifier: name) FROM t"
      XCTAssertThrowsError(try db.query(sql)) { error in
        XCTAssertTrue(
          (error as? SQLiteError)?.message.hasPrefix("no such column") == true, "\(error)")
      }
    }
  }
}
