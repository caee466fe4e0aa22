import Foundation
import XCTest

@testable import SwiftLite

final class TableActivityTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(
      """
      CREATE TABLE t(id INTEGER PRIMARY KEY, x);
      CREATE TABLE log(id INTEGER PRIMARY KEY, x);
      CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log(x) VALUES (new.x); END;
      INSERT INTO t(x) VALUES (1), (2);
      """)
    db.startTrackingChanges()
    _ = db.takeCommittedChanges()
  }

  func testADeleteWithoutWhereIsSeenByTheUpdateHook() throws {
    // A statement you prepare yourself reports through the update hook only: the delete
    // is seen because the truncate optimization is off.
    let delete = try db.prepare("DELETE FROM t")
    try delete.run()
    XCTAssertEqual(db.takeCommittedChanges(), ["t"])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 0)
  }

  func testTriggersCountAndRollbacksDoNot() throws {
    try db.run("INSERT INTO t(x) VALUES (3)")
    XCTAssertEqual(db.takeCommittedChanges(), ["t", "log"])
    XCTAssertThrowsError(
      try db.transaction { db in
        try db.run("UPDATE log SET x = 0")
        throw TestError()
      })
    XCTAssertEqual(db.takeCommittedChanges(), [])
    // An UPDATE that matches no row changes nothing.
    try db.run("UPDATE t SET x = 9 WHERE id = 999")
    XCTAssertEqual(db.takeCommittedChanges(), [])
    // Changes inside a transaction count at its commit only.
    try db.transaction { db in
      try db.run("UPDATE log SET x = 1")
      XCTAssertEqual(db.takeCommittedChanges(), [])
    }
    XCTAssertEqual(db.takeCommittedChanges(), ["log"])
  }

  func testWithoutRowIDTablesAreLearnedFromTheirStatements() throws {
    try db.execute("CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID")
    _ = db.takeCommittedChanges()
    try db.run("INSERT INTO w VALUES ('a', 1)")
    XCTAssertEqual(db.takeCommittedChanges(), ["w"])
    try db.transaction { db in try db.run("UPDATE w SET v = 2") }
    XCTAssertEqual(db.takeCommittedChanges(), ["w"])
  }

  func testDropsTakeEffectWhileChangesAreTracked() throws {
    try db.execute(
      """
      CREATE TEMP TABLE scratch(x);
      CREATE TEMP VIEW scratch_view AS SELECT x FROM scratch;
      CREATE TABLE parent(id INTEGER PRIMARY KEY);
      CREATE TABLE child(parent_id INTEGER REFERENCES parent(id));
      INSERT INTO parent(id) VALUES (1);
      INSERT INTO child(parent_id) VALUES (1);
      """)
    func exists(_ name: String) throws -> Bool {
      try db.scalar(
        Int.self,
        "SELECT count(*) FROM (SELECT name FROM sqlite_schema UNION ALL "
          + "SELECT name FROM sqlite_temp_schema) WHERE name = ?", [name]) == 1
    }
    try db.execute("DROP VIEW scratch_view; DROP TABLE temp.scratch")
    XCTAssertFalse(try exists("scratch_view"))
    XCTAssertFalse(try exists("scratch"))
    // The implicit delete of a referenced parent still enforces its foreign keys...
    assertSQLiteError(try db.execute("DROP TABLE parent")) { error in
      XCTAssertEqual(error.code, .constraint)
    }
    XCTAssertTrue(try exists("parent"))
    // ...and the drop happens once nothing refers to its rows.
    try db.execute("DROP TABLE child; DROP TABLE parent")
    XCTAssertFalse(try exists("child"))
    XCTAssertFalse(try exists("parent"))
    // A delete without WHERE still goes row by row, seen by the update hook.
    _ = db.takeCommittedChanges()
    try db.execute("DELETE FROM log")
    XCTAssertTrue(db.takeCommittedChanges().tables.contains("log"))
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM log"), 0)
  }
}
