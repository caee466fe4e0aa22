import Foundation
import XCTest

@testable import SwiftLite

/// What opening checks and sets before the first statement: the schema read (the file is a
/// database), foreign keys as the options say, the busy timeout honoured by that read.
final class ConnectionOpeningTests: SQLiteTestCase {
  func testAnEmptyFileOpensAsAnEmptyDatabase() throws {
    let empty = path("empty.sqlite")
    XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
    let opened = try Connection(path: empty)
    XCTAssertEqual(try opened.scalar(Int.self, "SELECT count(*) FROM sqlite_schema"), 0)
    XCTAssertTrue(try opened.foreignKeysEnabled())
    try opened.close()
  }

  func testTheFirstStatementFindsEveryTableOfTheFile() throws {
    try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (7); CREATE VIEW v AS SELECT x FROM t")
    let opened = try Connection(path: databasePath)
    XCTAssertEqual(try opened.scalar(Int.self, "SELECT x FROM v"), 7)
    try opened.close()
  }

  func testAFileLockedByAnotherConnectionFailsTheOpenAfterTheBusyTimeout() throws {
    try db.execute("CREATE TABLE t(x)")
    try db.execute("PRAGMA locking_mode = EXCLUSIVE")
    try db.execute("BEGIN EXCLUSIVE")
    var options = OpenOptions()
    options.busyTimeout = 0.05

    assertSQLiteError(try Connection(path: databasePath, options: options)) { error in
      XCTAssertTrue(error.isBusy, "\(error)")
      XCTAssertTrue(error.message.contains(self.databasePath), error.message)
    }
    try db.execute("COMMIT")
  }

  func testForeignKeysAreSetAsTheOptionsSayWithoutAStatement() throws {
    var traced: [String] = []
    var options = OpenOptions()
    options.connectionSetup = { db in XCTAssertTrue(try db.foreignKeysEnabled()) }
    let on = try Connection(path: databasePath, options: options)
    on.trace = { traced.append($0) }
    XCTAssertTrue(try on.foreignKeysEnabled())
    try on.close()

    options.foreignKeys = false
    options.connectionSetup = { db in XCTAssertFalse(try db.foreignKeysEnabled()) }
    let off = try Connection(path: databasePath, options: options)
    XCTAssertFalse(try off.foreignKeysEnabled())
    try off.close()
    XCTAssertEqual(traced, ["PRAGMA foreign_keys"])
  }
}
