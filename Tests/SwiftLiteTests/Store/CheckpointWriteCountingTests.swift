import CSQLite
import Foundation
import XCTest

@testable import SwiftLite

/// Per-target tables checked and pushed out of the connection's cache, then changed by
/// ways of writing that neither a model write nor a plain statement of the connection
/// takes: each must make the next first use read its table again, or be refused, never
/// let a save or a read trust what was checked before.
final class CheckpointWriteCountingTests: SQLiteTestCase {
  /// A trigger of another program rewrites SwiftLite's record of one table when a model
  /// is saved into another: the record's change counts as a change of rows of the
  /// connection, beyond the model's own.
  func testARecordRewrittenByATriggerOfAModelWriteIsReadAgain() throws {
    try db.transaction { db in
      for target in 0..<Self.rotationTargets {
        try db.createTable(for: ChatMemo.self, target: "chat\(target)")
      }
    }
    try db.execute(
      #"CREATE TRIGGER "chat7_forgets" AFTER INSERT ON "Memo_chat7" WHEN NEW.text = 'forget'"#
        + " BEGIN DELETE FROM swiftlite_schema WHERE table_name = 'Memo_chat8'; END")
    for number in 0..<2 {
      for target in 0..<Self.rotationTargets {
        try db.save(ChatMemo(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
      }
    }
    try db.save(ChatMemo(id: 9, text: "forget"), target: "chat7")
    XCTAssertEqual(
      try db.scalar(
        Int.self, "SELECT count(*) FROM swiftlite_schema WHERE table_name = 'Memo_chat8'"), 0)
    let reads = try db.schemaReads { try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat8") }
    XCTAssertFalse(reads.isEmpty, "the record deleted by the trigger was not read again")
  }

  /// `BEGIN IMMEDIATE` and a schema change in one `execute`: the BEGIN counts as no
  /// write, the change after it does.
  func testASchemaChangeAfterABeginInOneExecuteIsSeen() throws {
    try checkEveryChatMemoTable()
    try db.execute(#"BEGIN IMMEDIATE; ALTER TABLE "Memo_chat7" ADD COLUMN tag TEXT"#)
    let reads = try db.schemaReads { try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7") }
    try db.execute("COMMIT")
    XCTAssertFalse(reads.isEmpty, "the table was taken as it was before the ALTER")
    XCTAssertEqual(try db.columnNames("Memo_chat7"), ["id", "text", "tag"])
  }

  /// A comment before a BEGIN hides nothing: the statement counts as a write, and the
  /// check reads the table again (the safe side).
  func testABeginAfterACommentStillLetsAChangeBeSeen() throws {
    try checkEveryChatMemoTable()
    try db.execute("/* opens */ BEGIN IMMEDIATE")
    try db.execute(#"DROP TABLE "Memo_chat7""#)
    try db.execute(#"CREATE TABLE "Memo_chat7" (id INTEGER PRIMARY KEY, note TEXT)"#)
    XCTAssertThrowsError(try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")) { error in
      XCTAssertFalse(error is SQLiteError, "\(error)")
    }
    try db.execute("ROLLBACK")
  }

  /// Another connection of the process sharing the cache: its commits move the data
  /// version this connection reads.
  func testASchemaChangeByAConnectionSharingTheCacheIsSeen() throws {
    try db.close()
    var options = OpenOptions()
    options.flags = [.readWrite, .create, .noMutex, .uri, .sharedCache]
    let uri = "file:" + databasePath + "?cache=shared"
    db = try Connection(path: uri, options: options)
    let other = try Connection(path: uri, options: options)
    defer { try? other.close() }
    try checkEveryChatMemoTable()
    try other.execute(#"DROP TABLE "Memo_chat7""#)
    try other.execute(#"CREATE TABLE "Memo_chat7" (id INTEGER PRIMARY KEY, note TEXT)"#)
    XCTAssertThrowsError(try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")) { error in
      XCTAssertFalse(error is SQLiteError, "\(error)")
    }
    XCTAssertEqual(try db.scalar(Int.self, #"SELECT count(*) FROM "Memo_chat7""#), 0)
  }

  /// A backup into the connection replaces its whole file: another program's table of the
  /// same name is not taken for the one checked before.
  func testATableReplacedByABackupIntoTheConnectionIsReadAgain() throws {
    try checkEveryChatMemoTable()
    let source = try Connection.inMemory()
    try source.execute(#"CREATE TABLE "Memo_chat7" (id INTEGER PRIMARY KEY, note TEXT)"#)
    try source.backup(to: db)
    XCTAssertThrowsError(try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")) { error in
      XCTAssertFalse(error is SQLiteError, "\(error)")
    }
    XCTAssertEqual(try db.scalar(Int.self, #"SELECT count(*) FROM "Memo_chat7""#), 0)
  }

  /// A savepoint rolled back inside a connection's transaction, after a table was checked
  /// inside it and then changed: the change, undone or not, is seen.
  func testAChangeInsideASavepointOfATransactionIsSeenAfterItsRollback() throws {
    try checkEveryChatMemoTable()
    try db.transaction(.immediate) { db in
      try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")
      try db.execute("SAVEPOINT inner")
      try db.execute(#"DROP TABLE "Memo_chat7""#)
      try db.execute(#"CREATE TABLE "Memo_chat7" (id INTEGER PRIMARY KEY, note TEXT)"#)
      for target in 0..<Self.rotationTargets where target != 7 {
        try db.save(ChatMemo(id: 3, text: "pass 3"), target: "chat\(target)")
      }
      XCTAssertThrowsError(try db.save(ChatMemo(id: 3, text: "pass 3"), target: "chat7"))
      try db.execute("ROLLBACK TO inner; RELEASE inner")
      try db.save(ChatMemo(id: 4, text: "pass 4"), target: "chat7")
    }
    XCTAssertEqual(
      try db.findAll(ChatMemo.self, orderBy: "id", target: "chat7").map(\.id), [0, 1, 2, 4])
  }

  /// C calls on the handle write without any statement SwiftLite counts, and `body` may
  /// use the connection meanwhile: a table checked inside `body` is not taken as it was
  /// after a schema change made through the handle later in `body`.
  func testASchemaChangeThroughTheHandleIsSeenByASaveLaterInTheSameBody() throws {
    try checkEveryChatMemoTable()
    try db.withUnsafeHandle { handle in
      // Every table checked again inside `body`, chat7 pushed out of the cache again.
      for number in 2..<4 {
        for target in 0..<Self.rotationTargets {
          try db.save(ChatMemo(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
        }
      }
      XCTAssertEqual(
        sqlite3_exec(
          handle,
          #"DROP TABLE "Memo_chat7"; CREATE TABLE "Memo_chat7" (id INTEGER PRIMARY KEY, note TEXT)"#,
          nil, nil, nil), SQLITE_OK)
      XCTAssertThrowsError(try db.save(ChatMemo(id: 4, text: "pass 4"), target: "chat7")) { error in
        XCTAssertFalse(error is SQLiteError, "\(error)")
      }
    }
    XCTAssertEqual(try db.columnNames("Memo_chat7"), ["id", "note"])
    XCTAssertEqual(try db.scalar(Int.self, #"SELECT count(*) FROM "Memo_chat7""#), 0)
  }

  /// C code left registered through the handle (a function, as an extension's `eval()`)
  /// runs SQL of its own from a statement that only reads: a schema change it makes is
  /// seen by the next first use of the table.
  func testASchemaChangeByAFunctionRegisteredThroughTheHandleIsSeen() throws {
    try db.withUnsafeHandle { handle in
      let code = sqlite3_create_function_v2(
        handle, "widen_chat7", 0, SQLITE_UTF8, nil,
        { context, _, _ in
          let code = sqlite3_exec(
            sqlite3_context_db_handle(context),
            #"ALTER TABLE "Memo_chat7" ADD COLUMN extra TEXT NOT NULL DEFAULT 'x'"#, nil, nil, nil)
          sqlite3_result_int(context, code)
        }, nil, nil, nil)
      XCTAssertEqual(code, SQLITE_OK)
    }
    try checkEveryChatMemoTable()
    // Unchanged, a table is still used as checked: the check reads the versions only.
    XCTAssertEqual(
      try db.schemaReads { try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat8") },
      [SchemaCatalogue.versionsCheckSQL])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT widen_chat7()"), Int(SQLITE_OK))
    XCTAssertEqual(try db.columnNames("Memo_chat7"), ["id", "text", "extra"])
    let reads = try db.schemaReads { try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7") }
    XCTAssertFalse(reads.isEmpty, "the table was taken as it was before the ALTER")
  }
}
