import Foundation
import XCTest

@testable import SwiftLite

/// A message of one chat: one table per chat (`Probe_<chat>`).
private struct Probe: Model, Equatable {
  var id: Int64
  var text: String
  static let primaryKey = ["id"]
}

/// The per-target catalogue (Schema/SchemaCatalogue+Checkpoint.swift): a
/// model table checked before, used again after the connection's cache let it go, must
/// not be trusted when something it depends on may have changed, and should be trusted
/// when nothing did.
final class CheckpointTrustTests: SQLiteTestCase {
  /// More than a connection keeps checked: each pass checks every table again.
  private static let targets = Connection.attachmentCapacity + 44
  private static let typesSQL =
    "SELECT swift_types FROM swiftlite_schema WHERE table_name = 'Probe_chat7'"

  private func makeTables() throws {
    try db.transaction { db in
      for target in 0..<Self.targets {
        try db.createTable(for: Probe.self, target: "chat\(target)")
      }
    }
  }

  private func pass(_ number: Int, on connection: Connection) throws {
    try connection.transaction { db in
      for target in 0..<Self.targets {
        try db.save(Probe(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
      }
    }
  }

  /// The statements `body` runs on `connection` that read the schema, but the check.
  private func described(on connection: Connection, _ body: () throws -> Void) rethrows
    -> [String]
  {
    let log = Unchecked<[String]>([])
    connection.trace = { log.value.append($0) }
    defer { connection.trace = nil }
    try body()
    return log.value.filter {
      TargetRotationTests.readsSchema($0) && $0 != SchemaCatalogue.checkSQL
    }
  }

  /// Runs `body` after this connection's `UPDATE ... RETURNING` of the record of
  /// `Probe_chat7` has stepped once (`finished`: to its end), then ends that statement.
  private func rewritingRecord<T>(
    on connection: Connection, finished: Bool, _ body: () throws -> T
  ) throws -> T {
    let statement = try connection.prepare(
      "UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'Probe_chat7'"
        + " RETURNING table_name")
    defer { statement.reset() }
    XCTAssertTrue(try statement.step())
    if finished {
      while try statement.step() {}
      statement.reset()
    }
    return try body()
  }

  /// This connection rewrites the record with an `UPDATE ... RETURNING` it has stepped
  /// once: the row is changed (and visible to this connection) but SQLite adds the
  /// statement's changes to `sqlite3_total_changes` only when it ends. The check then sees
  /// no number moved and trusts the blueprint made before the rewrite.
  func testARecordRewrittenByAPendingUpdateReturningIsReadAgain() throws {
    try makeTables()
    let rotating = try Connection(path: databasePath)
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    let recorded = try XCTUnwrap(try rotating.scalar(String.self, Self.typesSQL))
    var saved = false
    let reads = try rewritingRecord(on: rotating, finished: false) {
      try described(on: rotating) {
        do {
          try rotating.save(Probe(id: 9, text: "after"), target: "chat7")
          saved = true
        } catch let error as SQLiteError {
          // Read again, the record is to be written back, which SQLite cannot commit while
          // the UPDATE is still running: the save says so.
          XCTAssertEqual(error.code, .busy, "\(error)")
        }
      }
    }
    XCTAssertFalse(
      reads.isEmpty, "the table was made from a blueprint whose record this connection rewrote")
    if !saved { try rotating.save(Probe(id: 9, text: "after"), target: "chat7") }
    // Read again, the write completes the record again, as it does when the same rewrite
    // is a finished statement.
    XCTAssertEqual(try rotating.scalar(String.self, Self.typesSQL), recorded)
    try rotating.close()
  }

  /// The finished-statement case of the test above: the same rewrite, run
  /// to its end, moves the connection's total changes and the table is read again.
  func testARecordRewrittenByAFinishedUpdateReturningIsReadAgain() throws {
    try makeTables()
    let rotating = try Connection(path: databasePath)
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    let recorded = try XCTUnwrap(try rotating.scalar(String.self, Self.typesSQL))
    let reads = try rewritingRecord(on: rotating, finished: true) {
      try described(on: rotating) {
        try rotating.save(Probe(id: 9, text: "after"), target: "chat7")
      }
    }
    XCTAssertFalse(reads.isEmpty)
    XCTAssertEqual(try rotating.scalar(String.self, Self.typesSQL), recorded)
    try rotating.close()
  }

  /// A backup into the rotating connection from a file whose record of one
  /// table differs is seen (the backup moves the destination's schema version).
  func testABackupIntoTheConnectionIsSeen() throws {
    try makeTables()
    let rotating = try Connection(path: databasePath)
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    let recorded = try XCTUnwrap(try rotating.scalar(String.self, Self.typesSQL))
    let source = try Connection(path: path("source.sqlite"))
    try rotating.backup(to: source)
    try source.execute(
      "UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'Probe_chat7'")
    try source.backup(to: rotating)
    try source.close()
    XCTAssertNil(try rotating.scalar(String.self, Self.typesSQL))
    let reads = try described(on: rotating) {
      try rotating.save(Probe(id: 9, text: "after"), target: "chat7")
    }
    XCTAssertFalse(reads.isEmpty)
    XCTAssertEqual(try rotating.scalar(String.self, Self.typesSQL), recorded)
    try rotating.close()
  }

  /// A queue's pass over the tables, in one write.
  private func queuePass(_ number: Int, on queue: DatabaseQueue) throws {
    try queue.write { db in
      for target in 0..<Self.targets {
        try db.save(Probe(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
      }
    }
  }

  /// The describing statements (not the check) that `body` runs on the queue's connection.
  private func described(on queue: DatabaseQueue, _ body: () throws -> Void) throws -> Int {
    let log = Locked<[String]>([])
    try queue.writeWithoutTransaction { db in db.trace = { sql in log.mutate { $0.append(sql) } } }
    defer { _ = try? queue.writeWithoutTransaction { db in db.trace = nil } }
    try body()
    return log.value.filter { $0.hasPrefix("WITH version(value, data)") }.count
  }

  /// Between two passes of a plain connection, what a queue's read runs first and last
  /// (`PRAGMA query_only = 1`, then `= 0`, both flag pragmas that expire every statement of
  /// the connection) changes nothing a description depends on; yet the check statement,
  /// prepared again, counts as moved and every table is described again. Once the
  /// IMMEDIATE case above is fixed, this is what a queue's read between writes would do.
  func testTheQueryOnlyPragmasOfAReadDoNotUndoTheCheckpoint() throws {
    try makeTables()
    let rotating = try Connection(path: databasePath)
    try pass(0, on: rotating)
    try pass(1, on: rotating)
    try rotating.execute("PRAGMA query_only = 1")
    try rotating.execute("PRAGMA query_only = 0")
    let reads = try described(on: rotating) { try pass(2, on: rotating) }
    XCTAssertEqual(
      reads.filter { $0.hasPrefix("WITH version(value, data)") }.count, 0,
      "each table was described again")
    try rotating.close()
  }
}
