import SwiftLite
import SwiftLiteTesting
import XCTest

final class DatabaseContentTests: XCTestCase {
  func testEveryRowAsItsStoredLiterals() throws {
    let database = try TemporaryDatabase.inMemory()
    try database.connection.execute(
      """
      CREATE TABLE item(id INTEGER PRIMARY KEY, day DATETIME, amount NUMERIC, data BLOB);
      INSERT INTO item VALUES (2, '2016-07-05', 1.5, X'00FF'), (1, NULL, 10, NULL);
      CREATE TABLE pair(a TEXT, b TEXT, PRIMARY KEY (b, a)) WITHOUT ROWID;
      INSERT INTO pair VALUES ('x', 'z'), ('y', 'a');
      """)
    let content = try DatabaseContent(database.connection)
    XCTAssertEqual(
      content.tables,
      ["item": ["1|NULL|10|NULL", "2|'2016-07-05'|1.5|X'00FF'"], "pair": ["'y'|'a'", "'x'|'z'"]])
    XCTAssertEqual(
      content.description,
      """
      table item: 2 row(s)
        1|NULL|10|NULL
        2|'2016-07-05'|1.5|X'00FF'
      table pair: 2 row(s)
        'y'|'a'
        'x'|'z'
      """)
  }
}
