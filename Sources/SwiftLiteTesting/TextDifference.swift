import SwiftLite

/// How a text differs from the text expected, line by line: the lines both share, those
/// expected and missing (`-`) and those found instead (`+`), in order, as a readable diff.
///
/// Made for dumps (`Connection.dumpContent(includingBookkeeping:)`, `dumpSchema`, `dump`)
/// compared in tests; the value is `nil` when the texts are equal, so one assertion works
/// with XCTest and Swift Testing alike, and a failure prints the difference:
///
/// ```swift
/// import XCTest
///
/// func testNotes() throws {
///   let db = try Connection.inMemory()
///   try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT)")
///   try db.run("INSERT INTO note(title) VALUES ('Groceries')")
///   let query: SQL = "SELECT id, title FROM note"
///
///   XCTAssertNil(try contentDifference(of: db, from: """
///     table note: 1 row(s)
///       1|'Groceries'
///     """))
///   XCTAssertNil(TextDifference(expected: "id|title\n1|'Groceries'", actual: try db.dump(query)))
///   // Swift Testing: #expect(TextDifference(expected: ..., actual: try db.dump(query)) == nil)
/// }
/// ```
///
/// `Sendable` and `Hashable`: a value.
public struct TextDifference: Sendable, Hashable, CustomStringConvertible {
  /// One line of the comparison.
  public enum Line: Sendable, Hashable {
    /// A line both texts have.
    case same(String)
    /// A line expected and not found.
    case expected(String)
    /// A line found and not expected.
    case found(String)
  }

  /// Every line of both texts, in order: shared lines, then at each difference the lines
  /// expected before those found.
  public let lines: [Line]

  /// The difference of `actual` from `expected`, or `nil` when they are equal. Lines are
  /// split at `\n`; a trailing newline and the indentation of a multi-line string literal
  /// count as written.
  public init?(expected: String, actual: String) {
    guard expected != actual else { return nil }
    let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let found = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Longest common subsequence of lines, from the end, so the walk goes forward.
    let n = wanted.count
    let m = found.count
    var length = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        length[i][j] =
          wanted[i] == found[j] ? length[i + 1][j + 1] + 1 : max(length[i + 1][j], length[i][j + 1])
      }
    }
    var lines: [Line] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, wanted[i] == found[j] {
        lines.append(.same(wanted[i]))
        i += 1
        j += 1
      } else if i < n, j == m || length[i + 1][j] >= length[i][j + 1] {
        lines.append(.expected(wanted[i]))
        i += 1
      } else {
        lines.append(.found(found[j]))
        j += 1
      }
    }
    self.lines = lines
  }

  /// The lines that differ, each with up to two shared lines around it for context
  /// (`  ` shared, `- ` expected, `+ ` found, `...` for shared lines left out).
  public var description: String {
    let context = 2
    let changed = lines.indices.filter {
      if case .same = lines[$0] { return false }
      return true
    }
    var output: [String] = []
    var last = -1
    for index in lines.indices {
      let near = changed.contains { abs($0 - index) <= context }
      guard near else { continue }
      if index > last + 1 { output.append("...") }
      switch lines[index] {
      case .same(let text): output.append("  " + text)
      case .expected(let text): output.append("- " + text)
      case .found(let text): output.append("+ " + text)
      }
      last = index
    }
    if last < lines.count - 1 { output.append("...") }
    return output.joined(separator: "\n")
  }
}

/// How the content of `db` differs from `expected`, the text of
/// `Connection.dumpContent(includingBookkeeping:)`, or `nil` when it is the same.
///
/// ```swift
/// import XCTest
///
/// let db = try Connection.inMemory()
/// try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT)")
/// try db.run("INSERT INTO note(title) VALUES ('Groceries')")
/// let expectedText = """
///   table note: 1 row(s)
///     1|'Groceries'
///   """
///
/// XCTAssertNil(try contentDifference(of: db, from: expectedText))   // XCTest
/// // Swift Testing: #expect(try contentDifference(of: db, from: expectedText) == nil)
/// ```
/// - Parameter includingBookkeeping: include SwiftLite's own tables.
/// - Throws: `SQLiteError` when reading fails.
public func contentDifference(
  of db: Connection, from expected: String, includingBookkeeping: Bool = false
) throws -> TextDifference? {
  TextDifference(
    expected: expected, actual: try db.dumpContent(includingBookkeeping: includingBookkeeping))
}

/// How the content of `database` (one snapshot) differs from `expected`, or `nil`.
/// - Parameter includingBookkeeping: include SwiftLite's own tables.
/// - Throws: `SQLiteError` when reading fails.
public func contentDifference(
  of database: some DatabaseAccess, from expected: String, includingBookkeeping: Bool = false
) throws -> TextDifference? {
  TextDifference(
    expected: expected,
    actual: try database.dumpContent(includingBookkeeping: includingBookkeeping))
}

extension DatabaseContent {
  /// How this content differs from `expected`, line by line, or `nil` when equal.
  public func difference(from expected: DatabaseContent) -> TextDifference? {
    TextDifference(expected: expected.description, actual: description)
  }
}
