import SwiftLite
import SwiftLiteTesting
import XCTest

final class TextDifferenceTests: XCTestCase {
  /// Equal texts have no difference; a changed, a missing and an extra line show as `-`
  /// and `+` lines with two shared lines of context, the far shared lines elided.
  func testLinesThatDifferShowWithTheirContext() throws {
    XCTAssertNil(TextDifference(expected: "a\nb", actual: "a\nb"))
    let expected = ["h", "1", "2", "3", "4", "5", "6", "7"].joined(separator: "\n")
    let actual = ["h", "1", "2", "3", "four", "5", "6", "7", "8"].joined(separator: "\n")
    let difference = try XCTUnwrap(TextDifference(expected: expected, actual: actual))
    XCTAssertEqual(
      difference.description,
      """
      ...
        2
        3
      - 4
      + four
        5
        6
        7
      + 8
      """)
    XCTAssertEqual(
      difference.lines.filter {
        if case .same = $0 { return false }
        return true
      }, [.expected("4"), .found("four"), .found("8")])
  }

  /// The assertion a test writes: nil while the content is as expected, and a readable
  /// difference naming the row that changed once it is not; a queue reads one snapshot.
  func testContentDifferenceNamesTheChangedRow() throws {
    let database = try TemporaryDatabase.inMemory()
    let db = database.connection
    try db.execute(
      """
      CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL);
      INSERT INTO note VALUES (1, 'Groceries'), (2, 'Ideas');
      CREATE TABLE folder(id INTEGER PRIMARY KEY, name TEXT);
      INSERT INTO folder VALUES (1, 'Inbox');
      """)
    let expected = """
      table folder: 1 row(s)
        1|'Inbox'
      table note: 2 row(s)
        1|'Groceries'
        2|'Ideas'
      """
    XCTAssertNil(try contentDifference(of: db, from: expected))
    XCTAssertEqual(try DatabaseContent(db).description, try db.dumpContent())
    try db.execute("UPDATE note SET title = 'Plans' WHERE id = 2")
    let difference = try XCTUnwrap(try contentDifference(of: db, from: expected))
    XCTAssertEqual(
      difference.description,
      """
      ...
        table note: 2 row(s)
          1|'Groceries'
      -   2|'Ideas'
      +   2|'Plans'
      """)
    let before = DatabaseContent(tables: ["note": ["1|'Groceries'", "2|'Ideas'"]])
    XCTAssertEqual(
      try DatabaseContent(db).difference(from: before)?.lines.last, .found("  2|'Plans'"))
  }

  func testContentDifferenceThroughAQueue() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "TextDifferenceTests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let queue = try DatabaseQueue(path: folder.appendingPathComponent("q.sqlite").path)
    try queue.write { db in
      try db.execute("CREATE TABLE t(k TEXT PRIMARY KEY); INSERT INTO t VALUES ('b'), ('a')")
    }
    XCTAssertNil(try contentDifference(of: queue, from: "table t: 2 row(s)\n  'a'\n  'b'"))
    XCTAssertEqual(
      try contentDifference(of: queue, from: "table t: 1 row(s)\n  'a'")?.description,
      "- table t: 1 row(s)\n+ table t: 2 row(s)\n    'a'\n+   'b'")
    try queue.close()
  }
}
