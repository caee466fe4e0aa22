import Foundation
import XCTest

@testable import SwiftLite

/// Recording with a session: what it records, what it refuses, what it reports skipped.
final class SessionTests: TemporaryDirectoryTestCase {
  private var source: Connection!
  private var target: Connection!

  static let schema = """
    CREATE TABLE note(id TEXT PRIMARY KEY NOT NULL, body TEXT, updatedAt INTEGER);
    CREATE TABLE tag(name TEXT PRIMARY KEY NOT NULL, n INTEGER) WITHOUT ROWID;
    """

  override func setUpWithError() throws {
    try super.setUpWithError()
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
    source = try open("source.sqlite")
    target = try open("target.sqlite")
    try source.execute(Self.schema)
    try target.execute(Self.schema)
  }

  override func tearDownWithError() throws {
    try source?.close()
    try target?.close()
    source = nil
    target = nil
    try super.tearDownWithError()
  }

  /// Every row of a table as text, in key order.
  private func rows(_ db: Connection, _ table: String) throws -> [String] {
    try db.query("SELECT * FROM " + table + " ORDER BY 1").map { row in
      try row.values.map { "\($0.storageClass):\($0)" }.joined(separator: "|")
    }
  }

  private func edit(_ db: Connection) throws {
    try db.run("INSERT INTO note VALUES ('a', 'first', 1)")
    try db.run("INSERT INTO note VALUES ('b', 'second', 1)")
    try db.run("INSERT INTO note VALUES ('c', 'third', 1)")
    try db.run("UPDATE note SET body = 'FIRST', updatedAt = 2 WHERE id = 'a'")
    try db.run("DELETE FROM note WHERE id = 'b'")
    try db.run("INSERT INTO tag VALUES ('x', 1)")
  }

  func testAChangesetRecordedOnOneFileGivesTheSameRowsOnAnother() throws {
    let session = try Session(on: source)
    XCTAssertTrue(try session.isEmpty())
    try session.attach("note")
    try session.attach("tag")
    XCTAssertEqual(session.tables, ["note", "tag"])
    try edit(source)
    XCTAssertFalse(try session.isEmpty())
    let changeset = try session.changeset()
    XCTAssertFalse(changeset.isEmpty)
    XCTAssertFalse(changeset.isPatchset)
    XCTAssertEqual(changeset.skippedRows, [])
    XCTAssertEqual(changeset.tablesWithIncompleteSkippedRows, [])
    let changes = try changeset.changes()
    XCTAssertEqual(changes.map(\.operation), [.insert, .insert, .insert])
    XCTAssertEqual(Set(changes.map(\.table)), ["note", "tag"])
    try target.apply(changeset)
    XCTAssertEqual(try rows(target, "note"), try rows(source, "note"))
    XCTAssertEqual(try rows(target, "tag"), try rows(source, "tag"))
  }

  func testTheBytesTravelAsData() throws {
    let session = try Session(on: source)
    try session.attach("note")
    try edit(source)
    let file = directory.appendingPathComponent("1.changeset")
    try session.changeset().data.write(to: file)
    try target.apply(Changeset(data: try Data(contentsOf: file)))
    XCTAssertEqual(try rows(target, "note"), try rows(source, "note"))
  }

  func testAPatchsetIsSmallerAppliesTheSameAndCannotBeInverted() throws {
    try source.run("INSERT INTO note VALUES ('a', 'first', 1)")
    try target.run("INSERT INTO note VALUES ('a', 'first', 1)")
    let session = try Session(on: source)
    try session.attach("note")
    try source.run("UPDATE note SET body = 'a much longer body than before', updatedAt = 2")
    try source.run("INSERT INTO note VALUES ('b', 'second', 1)")
    let changeset = try session.changeset()
    let patchset = try session.patchset()
    XCTAssertTrue(patchset.isPatchset)
    XCTAssertLessThan(patchset.data.count, changeset.data.count)
    try target.apply(patchset)
    XCTAssertEqual(try rows(target, "note"), try rows(source, "note"))
    XCTAssertThrowsError(try patchset.inverted()) {
      XCTAssertEqual($0 as? ChangesetError, .patchsetCannotBeInverted)
    }
  }

  func testTheInverseUndoesTheChangeset() throws {
    try target.run("INSERT INTO note VALUES ('a', 'first', 1)")
    try source.run("INSERT INTO note VALUES ('a', 'first', 1)")
    let before = try rows(target, "note")
    let session = try Session(on: source)
    try session.attach("note")
    try source.run("UPDATE note SET body = 'changed' WHERE id = 'a'")
    try source.run("INSERT INTO note VALUES ('b', 'new', 2)")
    let changeset = try session.changeset()
    try target.apply(changeset)
    XCTAssertEqual(try rows(target, "note"), try rows(source, "note"))
    let inverse = try changeset.inverted()
    XCTAssertEqual(
      try inverse.changes().map(\.operation).sorted { $0.rawValue < $1.rawValue },
      [.delete, .update])
    try target.apply(inverse)
    XCTAssertEqual(try rows(target, "note"), before)
  }

  func testConcatenatedChangesetsApplyAsOne() throws {
    let first = try Session(on: source)
    try first.attach("note")
    try source.run("INSERT INTO note VALUES ('a', 'first', 1)")
    try source.run("INSERT INTO note VALUES ('b', 'second', 1)")
    let one = try first.changeset()
    try first.close()
    let second = try Session(on: source)
    try second.attach("note")
    try source.run("UPDATE note SET body = 'changed' WHERE id = 'a'")
    try source.run("DELETE FROM note WHERE id = 'b'")
    let two = try second.changeset()
    let both = try one.concatenated(with: two)
    // An insert then an update is one insert; an insert then a delete, nothing.
    XCTAssertEqual(try both.changes().map(\.operation), [.insert])
    try target.apply(both)
    XCTAssertEqual(try rows(target, "note"), try rows(source, "note"))
    XCTAssertEqual(try Changeset.concatenate([one, Changeset(data: Data()), two]), both)
    XCTAssertThrowsError(try one.concatenated(with: try second.patchset())) {
      XCTAssertEqual($0 as? ChangesetError, .mixedFormats)
    }
  }

  func testTablesASessionCannotRecordAreRefusedWhenAttached() throws {
    try source.execute(
      """
      CREATE TABLE plain(a, b);
      CREATE VIRTUAL TABLE doc USING fts5(body);
      CREATE VIEW bodies AS SELECT body FROM note;
      CREATE TABLE swiftlite_mine(id INTEGER PRIMARY KEY);
      """)
    let session = try Session(on: source)
    func reason(_ table: String) -> ChangesetError.UnrecordableReason? {
      do {
        try session.attach(table)
      } catch ChangesetError.tableNotRecordable(_, let reason) {
        return reason
      } catch {
        XCTFail("\(error)")
      }
      return nil
    }
    XCTAssertEqual(reason("plain"), .noPrimaryKey)
    XCTAssertEqual(reason("doc"), .virtualTable)
    XCTAssertEqual(reason("doc_data"), .shadowTable)
    XCTAssertEqual(reason("doc_content"), .shadowTable)
    XCTAssertEqual(reason("bodies"), .view)
    XCTAssertEqual(reason("missing"), .noSuchTable)
    XCTAssertEqual(reason("swiftlite_mine"), .internalTable)
    XCTAssertEqual(reason("sqlite_schema"), .internalTable)
    XCTAssertEqual(session.tables, [])
    let error = ChangesetError.tableNotRecordable(table: "plain", reason: .noPrimaryKey)
    XCTAssertEqual(
      error.description, "a session cannot record table 'plain': it has no explicit PRIMARY KEY")
  }

  func testAttachingAllTablesLeavesOutSwiftLitesSQLitesAndShadowTables() throws {
    try source.execute(
      """
      CREATE TABLE plain(a, b);
      CREATE VIRTUAL TABLE doc USING fts5(body);
      CREATE TABLE swiftlite_mine(id INTEGER PRIMARY KEY, v);
      """)
    let session = try Session(on: source)
    XCTAssertThrowsError(try session.attachAllTables()) {
      XCTAssertEqual(
        $0 as? ChangesetError, .tableNotRecordable(table: "plain", reason: .noPrimaryKey))
    }
    try session.attachAllTables(except: ["PLAIN"])
    try edit(source)
    try source.execute(
      """
      INSERT INTO plain VALUES (1, 2);
      INSERT INTO doc(body) VALUES ('full text');
      INSERT INTO swiftlite_mine(v) VALUES ('own');
      ANALYZE;
      CREATE TABLE later(id TEXT PRIMARY KEY NOT NULL);
      INSERT INTO later VALUES ('l');
      CREATE TABLE laterPlain(v);
      INSERT INTO laterPlain VALUES ('p');
      """)
    let tables = Set(try session.changeset().changes().map(\.table))
    XCTAssertEqual(tables, ["note", "tag", "later"])
    XCTAssertEqual(session.unrecordedTables, ["laterPlain"])
    // A table made later whose key can hold NULL: its rows with a NULL key are reported.
    try source.execute(
      "CREATE TABLE laterLoose(k TEXT PRIMARY KEY, v); INSERT INTO laterLoose VALUES (NULL, 'n')")
    let skipped = try session.changeset().skippedRows
    XCTAssertEqual(skipped.map(\.table), ["laterLoose"])
    XCTAssertEqual(skipped.first?.new, [.null, "n"])
  }

  func testRowsWithANullKeyAreReturnedWithTheChangesetNotDropped() throws {
    // A TEXT PRIMARY KEY without NOT NULL can hold NULL in a rowid table (an SQLite quirk).
    try source.execute("CREATE TABLE loose(k TEXT PRIMARY KEY, v TEXT)")
    try source.run("INSERT INTO loose VALUES (NULL, 'before')")
    let session = try Session(on: source)
    try session.attach("loose")
    try source.run("INSERT INTO loose VALUES ('k1', 'kept')")
    try source.run("INSERT INTO loose VALUES (NULL, 'skipped')")
    try source.run("UPDATE loose SET v = 'changed' WHERE v = 'before'")
    try source.run("DELETE FROM loose WHERE v = 'changed'")
    XCTAssertThrowsError(
      try source.transaction { db in
        try db.run("INSERT INTO loose VALUES (NULL, 'rolled back')")
        throw TestError()
      })
    let changeset = try session.changeset()
    XCTAssertEqual(try changeset.changes().count, 1, "only the row with a key is recorded")
    let skipped = changeset.skippedRows
    XCTAssertEqual(skipped.map(\.operation), [.insert, .update, .delete])
    XCTAssertEqual(skipped.map(\.table), ["loose", "loose", "loose"])
    XCTAssertEqual(skipped[0].columns, ["k", "v"])
    XCTAssertEqual(skipped[0].new, [.null, "skipped"])
    XCTAssertNil(skipped[0].old)
    XCTAssertEqual(skipped[1].old, [.null, "before"])
    XCTAssertEqual(skipped[1].new, [.null, "changed"])
    XCTAssertEqual(skipped[2].old, [.null, "changed"])
    try session.close()
    XCTAssertEqual(
      try source.scalar(Int.self, "SELECT count(*) FROM sqlite_temp_schema"), 0,
      "closing removes the temporary triggers")
  }

  func testTriggersTakenBackByARollbackAreReportedAndInstalledAgain() throws {
    try source.execute("CREATE TABLE loose(k TEXT PRIMARY KEY, v TEXT)")
    let session = try Session(on: source)
    XCTAssertThrowsError(
      try source.transaction { db in
        try session.attach("loose")
        throw TestError()
      })
    try source.run("INSERT INTO loose VALUES (NULL, 'unseen')")
    let first = try session.changeset()
    XCTAssertEqual(first.skippedRows, [])
    XCTAssertEqual(first.tablesWithIncompleteSkippedRows, ["loose"])
    try source.run("INSERT INTO loose VALUES (NULL, 'seen')")
    let second = try session.changeset()
    XCTAssertEqual(second.skippedRows.map(\.new), [[.null, "seen"]])
    XCTAssertEqual(second.tablesWithIncompleteSkippedRows, ["loose"], "still incomplete")
  }

  func testTablesWhoseKeyCannotBeNullNeedNoTriggers() throws {
    try source.execute(
      """
      CREATE TABLE byRowID(id INTEGER PRIMARY KEY, v);
      CREATE TABLE composite(a TEXT NOT NULL, b INTEGER NOT NULL, v, PRIMARY KEY (a, b));
      """)
    let session = try Session(on: source)
    for table in ["note", "tag", "byRowID", "composite"] { try session.attach(table) }
    XCTAssertEqual(try source.scalar(Int.self, "SELECT count(*) FROM sqlite_temp_schema"), 0)
  }

  func testWithoutTheSessionExtensionTheFirstUseThrowsATypedError() throws {
    SessionAPI.pretendsMissing.store(true, ordering: .relaxed)
    defer { SessionAPI.pretendsMissing.store(false, ordering: .relaxed) }
    XCTAssertFalse(Connection.isSessionExtensionAvailable)
    func assertUnavailable(_ body: () throws -> Void, line: UInt = #line) {
      XCTAssertThrowsError(try body(), line: line) { error in
        guard case .sessionExtensionUnavailable(let missing)? = error as? ChangesetError else {
          return XCTFail("\(error)", line: line)
        }
        XCTAssertTrue(missing.contains("swiftlite_no_sqlite3session_create"), line: line)
        XCTAssertTrue("\(error)".contains("SQLITE_ENABLE_SESSION"), line: line)
      }
    }
    assertUnavailable { _ = try Session(on: source) }
    assertUnavailable { try target.apply(Changeset(data: Data([0x54]))) }
    assertUnavailable { _ = try Changeset(data: Data([0x54])).changes() }
    assertUnavailable { _ = try Changeset(data: Data([0x54])).inverted() }
    SessionAPI.pretendsMissing.store(false, ordering: .relaxed)
    XCTAssertTrue(Connection.isSessionExtensionAvailable)
  }

  func testMalformedBytesAreATypedError() throws {
    let session = try Session(on: source)
    try session.attach("note")
    try edit(source)
    let good = try session.changeset().data
    for bytes in [Data([1, 2, 3, 4, 5, 6, 7, 8]), good.prefix(good.count - 3), Data("T".utf8)] {
      let changeset = Changeset(data: bytes)
      XCTAssertThrowsError(try target.apply(changeset)) { error in
        guard case .malformed? = error as? ChangesetError else { return XCTFail("\(error)") }
      }
      XCTAssertThrowsError(try changeset.changes())
    }
    XCTAssertEqual(try rows(target, "note"), [], "nothing was applied")
  }

  func testClosingTheConnectionEndsItsSessions() throws {
    let connection = try open("third.sqlite")
    try connection.execute(Self.schema)
    let session = try Session(on: connection)
    try session.attach("note")
    try connection.run("INSERT INTO note VALUES ('a', 'first', 1)")
    try connection.close()
    XCTAssertThrowsError(try session.changeset()) {
      XCTAssertEqual($0 as? ChangesetError, .sessionClosed)
    }
    try session.close()
  }

  func testASessionCanBePausedAndTheRecordingContinuesAfterAChangeset() throws {
    let session = try Session(on: source)
    try session.attach("note")
    try source.run("INSERT INTO note VALUES ('a', 'first', 1)")
    XCTAssertEqual(try session.changeset().changes().count, 1)
    try session.setEnabled(false)
    XCTAssertFalse(try session.isEnabled())
    try source.run("INSERT INTO note VALUES ('b', 'unrecorded', 1)")
    try session.setEnabled(true)
    try source.run("INSERT INTO note VALUES ('c', 'third', 1)")
    let ids = try session.changeset().changes().compactMap { $0.new?[0] }
    XCTAssertEqual(Set(ids), [.text("a"), .text("c")])
  }
}

/// Table names are compared as SQLite compares them: ASCII letters without regard to case,
/// every other character by its bytes.
final class SessionTableNameTests: TemporaryDirectoryTestCase {
  func testExcludingATableDoesNotExcludeItsNonASCIILowercaseTwin() throws {
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
    let source = try open("names-source.sqlite")
    defer { try? source.close() }
    // Two tables to SQLite: "Ä" and "ä" differ (its names fold ASCII letters only), and so
    // do the NFC and NFD spellings of "é".
    try source.execute(
      """
      CREATE TABLE "Ä"(id INTEGER PRIMARY KEY, v);
      CREATE TABLE "ä"(id INTEGER PRIMARY KEY, v);
      CREATE TABLE "caf\u{E9}"(id INTEGER PRIMARY KEY, v);
      CREATE TABLE "cafe\u{301}"(id INTEGER PRIMARY KEY, v);
      """)
    let session = try Session(on: source)
    defer { try? session.close() }
    try session.attachAllTables(except: ["Ä", "caf\u{E9}"])
    try source.execute(
      """
      INSERT INTO "Ä" VALUES (1, 'skipped');
      INSERT INTO "ä" VALUES (1, 'kept');
      INSERT INTO "caf\u{E9}" VALUES (1, 'skipped');
      INSERT INTO "cafe\u{301}" VALUES (1, 'kept');
      """)
    let tables = try session.changeset().changes().map { Array($0.table.utf8) }
    XCTAssertEqual(Set(tables), [Array("ä".utf8), Array("cafe\u{301}".utf8)])
  }

  func testEachChangeNamesItsOwnTableWhenTablesHaveTheSameShape() throws {
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
    let source = try open("shapes-source.sqlite")
    defer { try? source.close() }
    try source.execute(
      """
      CREATE TABLE a(id INTEGER PRIMARY KEY, v);
      CREATE TABLE b(id INTEGER PRIMARY KEY, v);
      """)
    let session = try Session(on: source)
    defer { try? session.close() }
    try session.attach("a")
    try session.attach("b")
    try source.execute("INSERT INTO a VALUES (1, 'in a'); INSERT INTO b VALUES (1, 'in b');")
    let changes = try session.changeset().changes()
    XCTAssertEqual(changes.map(\.table), ["a", "b"])
    XCTAssertEqual(changes.map { $0.new?[1] }, ["in a", "in b"])
  }

  func testAChangesetOverTwoTablesWhoseNamesDifferOnlyBeyondASCIIApplies() throws {
    try XCTSkipUnless(Connection.isSessionExtensionAvailable, "no session extension here")
    let schema = """
      CREATE TABLE "Ä"(id INTEGER PRIMARY KEY, v);
      CREATE TABLE "ä"(id INTEGER PRIMARY KEY, a, b);
      """
    let source = try open("twins-source.sqlite")
    let target = try open("twins-target.sqlite")
    defer {
      try? source.close()
      try? target.close()
    }
    try source.execute(schema)
    try target.execute(schema)
    let session = try Session(on: source)
    try session.attachAllTables()
    try source.execute(
      """
      INSERT INTO "Ä" VALUES (1, 'upper');
      INSERT INTO "ä" VALUES (1, 'lower', 'b');
      """)
    let changeset = try session.changeset()
    try session.close()
    try target.apply(changeset)
    XCTAssertEqual(try target.scalar(String.self, #"SELECT v FROM "Ä""#), "upper")
    XCTAssertEqual(try target.scalar(String.self, #"SELECT a || b FROM "ä""#), "lowerb")
  }
}
