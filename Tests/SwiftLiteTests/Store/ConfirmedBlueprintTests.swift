import Foundation
import XCTest

@testable import SwiftLite

/// A message of one chat: one table per chat (`Note_<chat>`).
private struct Note: Model, Equatable {
  var id: Int64
  var text: String
  static let primaryKey = ["id"]
}

/// A table checked before, used again after the connection's cache let it go, is made from
/// what was worked out then without describing it, when one statement that reads no table
/// confirms that nothing a description depends on can have changed since. Each test here
/// changes something behind that check's back and expects the table to be read again.
final class ConfirmedBlueprintTests: SQLiteTestCase {
  /// More than a connection keeps checked: each pass checks every table again.
  private static let targets = Connection.attachmentCapacity + 44
  private static let typesSQL =
    "SELECT swift_types FROM swiftlite_schema WHERE table_name = 'Note_chat7'"

  /// The connection that uses the tables in rotation, on a file of `targets` tables.
  private func rotatingConnection() throws -> Connection {
    try db.transaction { db in
      for target in 0..<Self.targets { try db.createTable(for: Note.self, target: "chat\(target)") }
    }
    return try Connection(path: databasePath)
  }

  /// A pass saving one note into each table, in one transaction.
  private func pass(_ number: Int, on connection: Connection) throws {
    try connection.transaction { db in
      for target in 0..<Self.targets {
        try db.save(Note(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
      }
    }
  }

  /// The statements `body` runs on `connection` that read the schema, but the check.
  private func described(on connection: Connection, _ body: () throws -> Void) rethrows
    -> [String]
  {
    try connection.traced(body).filter {
      TargetRotationTests.readsSchema($0) && $0 != SchemaCatalogue.checkSQL
    }
  }

  func testAFirstUseOfATableCheckedBeforeRunsTheCheckAndItsWriteOnly() throws {
    let rotating = try rotatingConnection()
    try pass(0, on: rotating)
    let log = Unchecked<[String]>([])
    rotating.trace = { log.value.append($0) }
    // Another transaction: this connection's own commit moved nothing the check reads.
    try pass(1, on: rotating)
    rotating.trace = nil
    let statements = log.value.filter { line in
      !line.hasPrefix("--")
        && !["BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"].contains { line.hasPrefix($0) }
    }
    XCTAssertEqual(statements.filter { $0 == SchemaCatalogue.checkSQL }.count, Self.targets)
    XCTAssertEqual(
      statements.filter { $0 != SchemaCatalogue.checkSQL }.count, Self.targets,
      "each first use runs its INSERT and nothing else")
    XCTAssertEqual(try rotating.findAll(Note.self, orderBy: "id", target: "chat7").count, 2)
    try rotating.close()
  }

  func testARecordAnotherConnectionRewritesWithoutASchemaChangeIsReadAgain() throws {
    let rotating = try rotatingConnection()
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    let recorded = try XCTUnwrap(try rotating.scalar(String.self, Self.typesSQL))
    let version = try rotating.scalar(Int.self, "PRAGMA schema_version")
    try openSecondConnection().execute(
      "UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'Note_chat7'")
    XCTAssertEqual(try rotating.scalar(Int.self, "PRAGMA schema_version"), version)
    let reads = try described(on: rotating) { try pass(2, on: rotating) }
    XCTAssertFalse(reads.isEmpty, "the tables were taken as checked before")
    // The first write completed the record again: it was read, not trusted.
    XCTAssertEqual(try rotating.scalar(String.self, Self.typesSQL), recorded)
    try rotating.close()
  }

  func testARecordAnotherProcessRewritesWithoutASchemaChangeIsReadAgain() throws {
    let shell = "/usr/bin/sqlite3"
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: shell), "no sqlite3 shell")
    let rotating = try rotatingConnection()
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    let recorded = try XCTUnwrap(try rotating.scalar(String.self, Self.typesSQL))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = [
      databasePath,
      "UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'Note_chat7';",
    ]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0)
    XCTAssertNil(try openSecondConnection().scalar(String.self, Self.typesSQL))
    try pass(2, on: rotating)
    XCTAssertEqual(try rotating.scalar(String.self, Self.typesSQL), recorded)
    try rotating.close()
  }

  func testARecordThisConnectionRewritesWithRawSQLIsReadAgain() throws {
    let rotating = try rotatingConnection()
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    let recorded = try XCTUnwrap(try rotating.scalar(String.self, Self.typesSQL))
    // Inside the transaction of the pass, before the table's use: not yet committed.
    try rotating.transaction { db in
      for target in 0..<Self.targets {
        if target == 7 {
          try db.execute(
            "UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'Note_chat7'")
        }
        try db.save(Note(id: 2, text: "pass 2"), target: "chat\(target)")
      }
    }
    XCTAssertEqual(try rotating.scalar(String.self, Self.typesSQL), recorded)
    // And outside a transaction.
    try rotating.execute(
      "UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'Note_chat7'")
    try rotating.save(Note(id: 3, text: "alone"), target: "chat7")
    XCTAssertEqual(try rotating.scalar(String.self, Self.typesSQL), recorded)
    try rotating.close()
  }

  func testAColumnThisConnectionAddsInsideATransactionIsSeen() throws {
    let rotating = try rotatingConnection()
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    var reads: [String] = []
    try rotating.transaction { db in
      for target in 0..<Self.targets {
        let note = Note(id: 2, text: "pass 2")
        guard target == 7 else {
          try db.save(note, target: "chat\(target)")
          continue
        }
        try db.execute(#"ALTER TABLE "Note_chat7" ADD COLUMN extra TEXT"#)
        reads = try described(on: db) { try db.save(note, target: "chat7") }
      }
    }
    XCTAssertFalse(reads.isEmpty, "the table was taken as checked before its change")
    // No longer as SwiftLite recorded it: another program's table, written as it is.
    XCTAssertEqual(try rotating.columnNames("Note_chat7"), ["id", "text", "extra"])
    try rotating.close()
  }

  func testWhatWasReadBeforeARollbackIsNotTrustedAfterIt() throws {
    let rotating = try rotatingConnection()
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    // In a transaction that rolls back, the record of chat7 goes: the table reads as
    // another program's, and what was worked out from that must not outlive the rollback.
    XCTAssertThrowsError(
      try rotating.transaction { db in
        try db.execute("DELETE FROM swiftlite_schema WHERE table_name = 'Note_chat7'")
        for target in 0..<Self.targets {
          try db.save(Note(id: 2, text: "pass 2"), target: "chat\(target)")
        }
        throw TestError()
      })
    let reads = try described(on: rotating) {
      try rotating.transaction { db in
        for target in 0..<Self.targets {
          try db.save(Note(id: 3, text: "pass 3"), target: "chat\(target)")
        }
      }
    }
    XCTAssertFalse(reads.isEmpty, "the tables were taken as checked before the rollback")
    XCTAssertTrue(try rotating.ownership(of: "Note_chat7") == .managed)
    XCTAssertEqual(try rotating.findAll(Note.self, orderBy: "id", target: "chat7").count, 3)
    try rotating.close()
  }

  func testADescriptionReadWithUncommittedWritesIsNotVouchedFor() throws {
    try db.createTable(for: Note.self, target: "a")
    let name = Note.tableName(target: "a")
    let catalogue = SchemaCatalogue.of(db)
    let outside = try SchemaCatalogue.describe(name, in: db)
    XCTAssertNotEqual(outside.checkpointGeneration, 0)
    XCTAssertTrue(catalogue.confirms(outside.checkpointGeneration, in: db))
    try db.execute("BEGIN")
    try db.run("UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = ?", [name])
    XCTAssertFalse(catalogue.confirms(outside.checkpointGeneration, in: db))
    let inside = try SchemaCatalogue.describe(name, in: db)
    XCTAssertEqual(inside.checkpointGeneration, 0, "a rollback could undo what it read")
    try db.execute("ROLLBACK")
    XCTAssertFalse(catalogue.confirms(outside.checkpointGeneration, in: db))
    let after = try SchemaCatalogue.describe(name, in: db)
    XCTAssertNotEqual(after.checkpointGeneration, 0)
    XCTAssertTrue(catalogue.confirms(after.checkpointGeneration, in: db))
  }

  func testARecordATriggerRewritesOnAModelWriteIsReadAgain() throws {
    let rotating = try rotatingConnection()
    try rotating.execute(
      """
      CREATE TRIGGER forget_types AFTER INSERT ON "Note_chat3" WHEN new.id = 3 BEGIN
        UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'Note_chat7';
      END
      """)
    for number in 0..<3 { try pass(number, on: rotating) }
    let recorded = try XCTUnwrap(try rotating.scalar(String.self, Self.typesSQL))
    // The save into chat3 inserts a row, and the trigger rewrites chat7's record.
    try pass(3, on: rotating)
    XCTAssertEqual(try rotating.scalar(String.self, Self.typesSQL), recorded)
    try rotating.close()
  }
}
