import Foundation
import XCTest

@testable import SwiftLite

/// Per-target tables used in rotation through the closures of a queue or a pool, whose
/// writes each open with `BEGIN IMMEDIATE`: a table checked in an earlier transaction is
/// used again without describing it, from the first statement of the transaction on; and
/// whatever this connection writes inside one (rows, schema, a change it rolls back) makes
/// the next first use read its table again.
final class WriteTransactionCheckpointTests: SQLiteTestCase {
  /// Saves memo `number` into every table, one queue or pool write per save; returns the
  /// statements that read the schema, but the check.
  private func passOfWrites(_ number: Int, on access: any DatabaseAccess) throws -> [String] {
    var reads: [String] = []
    for target in 0..<Self.rotationTargets {
      try access.write { db in
        reads += try db.schemaReads {
          try db.save(ChatMemo(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
        }
      }
    }
    return reads
  }

  func testAQueueRotationOfWritesDescribesNoTableItCheckedBefore() throws {
    try makeChatMemoTables()
    let queue = try DatabaseQueue(path: databasePath)
    XCTAssertFalse(try passOfWrites(0, on: queue).isEmpty, "the first pass describes every table")
    let reads = try passOfWrites(1, on: queue)
    XCTAssertEqual(reads.count, 0, "described again: " + (reads.first ?? ""))
    XCTAssertEqual(
      try queue.read { try $0.findAll(ChatMemo.self, orderBy: "id", target: "chat7") },
      [ChatMemo(id: 0, text: "pass 0"), ChatMemo(id: 1, text: "pass 1")])
    try queue.close()
  }

  func testAPoolRotationOfWritesDescribesNoTableItCheckedBefore() throws {
    try makeChatMemoTables()
    let pool = try DatabasePool(path: databasePath)
    _ = try passOfWrites(0, on: pool)
    let reads = try passOfWrites(1, on: pool)
    XCTAssertEqual(reads.count, 0, "described again: " + (reads.first ?? ""))
    XCTAssertEqual(
      try pool.read { try $0.findAll(ChatMemo.self, orderBy: "id", target: "chat299") },
      [ChatMemo(id: 0, text: "pass 0"), ChatMemo(id: 1, text: "pass 1")])
    try pool.close()
  }

  func testAnImmediateTransactionAfterAnotherDescribesNoTableCheckedInTheFirst() throws {
    try makeChatMemoTables()
    let rotating = try Connection(path: databasePath)
    func pass(_ number: Int) throws -> [String] {
      try rotating.schemaReads {
        try rotating.transaction(.immediate) { db in
          for target in 0..<Self.rotationTargets {
            try db.save(
              ChatMemo(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
          }
        }
      }
    }
    _ = try pass(0)
    let reads = try pass(1)
    XCTAssertEqual(reads.count, 0, reads.first ?? "")
    try rotating.close()
  }

  func testAColumnAddedInsideAQueueWriteIsSeenByTheNextSave() throws {
    try makeChatMemoTables()
    let queue = try DatabaseQueue(path: databasePath)
    _ = try passOfWrites(0, on: queue)
    _ = try passOfWrites(1, on: queue)
    try queue.write { db in
      try db.execute(#"ALTER TABLE "Memo_chat7" ADD COLUMN tag TEXT"#)
      let reads = try db.schemaReads {
        try db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")
      }
      XCTAssertFalse(reads.isEmpty, "the table was taken as it was before the ALTER")
    }
    // No longer as SwiftLite recorded it: another program's table, written as it is.
    XCTAssertEqual(try queue.read { try $0.columnNames("Memo_chat7") }, ["id", "text", "tag"])
    XCTAssertEqual(
      try queue.read { try $0.findAll(ChatMemo.self, orderBy: "id", target: "chat7") }.map(\.id),
      [0, 1, 2])
    try queue.close()
  }

  /// A schema change rolled back to a savepoint brings the schema version back; another
  /// change then gives the same number to another schema. A table checked before either
  /// is not taken for what the file holds after.
  func testASchemaChangeRolledBackInsideAQueueWriteIsNotTakenForTheNextOne() throws {
    try makeChatMemoTables()
    let queue = try DatabaseQueue(path: databasePath)
    _ = try passOfWrites(0, on: queue)
    _ = try passOfWrites(1, on: queue)  // chat8 is checked, and no longer in the cache
    try queue.write { db in
      let version = try XCTUnwrap(try db.scalar(Int.self, "PRAGMA schema_version"))
      XCTAssertThrowsError(
        try db.savepoint { db in
          try db.execute(#"DROP TABLE "Memo_chat8""#)
          try db.execute(#"CREATE TABLE "Memo_chat8" (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"#)
          throw TestError()
        })
      XCTAssertEqual(try db.scalar(Int.self, "PRAGMA schema_version"), version)
      try db.execute(#"ALTER TABLE "Memo_chat8" RENAME TO "Memo_chat8_old""#)
      try db.execute(#"CREATE TABLE "Memo_chat8" (id INTEGER PRIMARY KEY, note TEXT)"#)
      XCTAssertEqual(try db.scalar(Int.self, "PRAGMA schema_version"), version + 2)
      let reads = try db.schemaReads {
        XCTAssertThrowsError(try db.save(ChatMemo(id: 3, text: "after"), target: "chat8")) {
          error in
          // Another program's table now, without the column `text`: refused by the model
          // layer before any statement runs on it, never altered.
          XCTAssertFalse(error is SQLiteError, "\(error)")
        }
      }
      XCTAssertFalse(reads.isEmpty, "the table was taken as checked before the changes")
    }
    XCTAssertEqual(try queue.read { try $0.columnNames("Memo_chat8") }, ["id", "note"])
    XCTAssertEqual(
      try queue.read { try $0.scalar(Int.self, #"SELECT count(*) FROM "Memo_chat8""#) }, 0)
    try queue.close()
  }

  /// A record rewritten inside a write by a statement still running (an `UPDATE ...
  /// RETURNING` stepped once): counted when it starts, before SQLite counts its rows.
  func testARecordRewrittenByAWriteStillRunningInsideAQueueWriteIsReadAgain() throws {
    try makeChatMemoTables()
    let queue = try DatabaseQueue(path: databasePath)
    _ = try passOfWrites(0, on: queue)
    _ = try passOfWrites(1, on: queue)
    try queue.write { db in
      let rewrite = try db.prepare(
        "UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'Memo_chat7'"
          + " RETURNING table_name")
      XCTAssertTrue(try rewrite.step())
      let reads = try db.schemaReads {
        _ = try? db.save(ChatMemo(id: 2, text: "pass 2"), target: "chat7")
      }
      rewrite.reset()
      XCTAssertFalse(reads.isEmpty, "the record being rewritten was not read again")
    }
    try queue.close()
  }
}
