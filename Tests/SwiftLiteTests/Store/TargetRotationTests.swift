import Foundation
import XCTest

@testable import SwiftLite

/// A message of one chat: one table per chat (`ChatLine_<chat>`).
private struct ChatLine: Model, Equatable {
  var id: Int64
  var text: String
  static let primaryKey = ["id"]
}

/// Per-target tables used in rotation, more of them than a connection keeps checked: each
/// use past that cache checks its table again, and that check reads the schema at most
/// twice (counted from the trace), however many tables the file holds.
final class TargetRotationTests: SQLiteTestCase {
  private static let targets = 5_000

  func testEachFirstUseInARotationOfFiveThousandTargetsReadsTheSchemaAtMostTwice() throws {
    try db.transaction { db in
      for target in 0..<Self.targets {
        try db.createTable(for: ChatLine.self, target: "chat\(target)")
      }
    }
    // A connection that opens the file afresh, as the app does at its next launch.
    let reopened = try Connection(path: databasePath)
    let log = Unchecked<[String]>([])
    reopened.trace = { log.value.append($0) }
    var worst: (reads: [String], target: Int)?
    var schemaReads = 0
    var otherStatements = 0
    for pass in 0..<2 {
      try reopened.transaction { db in
        for target in 0..<Self.targets {
          log.value = []
          try db.save(ChatLine(id: Int64(pass), text: "pass \(pass)"), target: "chat\(target)")
          let statements = log.value.filter { !$0.hasPrefix("--") }
          let reads = statements.filter(Self.readsSchema)
          schemaReads += reads.count
          otherStatements += statements.count - reads.count
          if reads.count > (worst?.reads.count ?? 0) { worst = (reads, target) }
        }
      }
    }
    reopened.trace = nil
    XCTAssertLessThanOrEqual(
      worst?.reads.count ?? 0, 2,
      "chat\(worst?.target ?? -1):\n" + (worst?.reads ?? []).joined(separator: "\n"))
    // The cache holds 256 tables: every use was a first use, nearly all of them one read.
    XCTAssertLessThanOrEqual(schemaReads, 2 * Self.targets + 10)
    XCTAssertEqual(otherStatements, 2 * Self.targets, "each use runs its INSERT and nothing else")
    for target in [0, 1, 2_499, Self.targets - 1] {
      XCTAssertEqual(
        try reopened.findAll(ChatLine.self, orderBy: "id", target: "chat\(target)"),
        [ChatLine(id: 0, text: "pass 0"), ChatLine(id: 1, text: "pass 1")])
    }
    XCTAssertEqual(
      try reopened.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"),
      Self.targets + 1, "no table was made or rebuilt by the rotation")
    try reopened.close()
  }

  func testChangesByAnotherConnectionBetweenPassesAreSeenAtTheNextFirstUse() throws {
    struct ChatLineWithTag: Model {
      var id: Int64
      var text: String
      var tag: String?
      static let tableName = "ChatLine"
      static let primaryKey = ["id"]
    }
    let targets = 600  // more than a connection keeps checked: each pass checks every table
    try db.transaction { db in
      for target in 0..<targets { try db.createTable(for: ChatLine.self, target: "chat\(target)") }
    }
    let rotating = try Connection(path: databasePath)
    func pass(_ number: Int) throws {
      try rotating.transaction { db in
        for target in 0..<targets {
          try db.save(ChatLine(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
        }
      }
    }
    try pass(0)
    // Between the passes, another connection migrates one table, drops another, and
    // replaces a third with a table of its own.
    let other = try openSecondConnection()
    try other.migrate(ChatLineWithTag.self, target: "chat7")
    try other.dropTable(for: ChatLine.self, target: "chat8")
    try other.execute(
      """
      DROP TABLE "ChatLine_chat9";
      CREATE TABLE "ChatLine_chat9" (id INTEGER PRIMARY KEY, text TEXT NOT NULL, tag TEXT);
      """)
    let foreignSQL = try other.storedSQL("ChatLine_chat9")
    try pass(1)
    // The model's table again (the column it does not have, empty, is dropped).
    XCTAssertEqual(try rotating.columnNames("ChatLine_chat7"), ["id", "text"])
    XCTAssertEqual(try rotating.findAll(ChatLine.self, orderBy: "id", target: "chat7").count, 2)
    // Made again by the first write.
    XCTAssertEqual(
      try rotating.findAll(ChatLine.self, target: "chat8"), [ChatLine(id: 1, text: "pass 1")])
    // Another program's table now: written as it is, never altered.
    XCTAssertEqual(try rotating.storedSQL("ChatLine_chat9"), foreignSQL)
    XCTAssertEqual(
      try rotating.findAll(ChatLine.self, target: "chat9"), [ChatLine(id: 1, text: "pass 1")])
    XCTAssertFalse(try rotating.needsMigration(ChatLine.self, target: "chat9"))
    XCTAssertEqual(try rotating.findAll(ChatLine.self, target: "chat10").count, 2)
    try rotating.close()
  }

  func testARecordAnotherConnectionRewroteBetweenPassesIsReadAgainThoughTheSchemaStands() throws {
    let targets = 300  // more than a connection keeps checked: each pass checks every table
    try db.transaction { db in
      for target in 0..<targets { try db.createTable(for: ChatLine.self, target: "chat\(target)") }
    }
    let rotating = try Connection(path: databasePath)
    func pass(_ number: Int) throws {
      try rotating.transaction { db in
        for target in 0..<targets {
          try db.save(ChatLine(id: Int64(number), text: "pass \(number)"), target: "chat\(target)")
        }
      }
    }
    let typesSQL = "SELECT swift_types FROM swiftlite_schema WHERE table_name = 'ChatLine_chat7'"
    try pass(0)
    try pass(1)  // each table checked again, as worked out before
    let recorded = try XCTUnwrap(try rotating.scalar(String.self, typesSQL))
    let version = try rotating.scalar(Int.self, "PRAGMA schema_version")
    // Another connection makes the record one of a release before Swift types were
    // recorded: a row changes, the schema does not.
    try openSecondConnection().execute(
      "UPDATE swiftlite_schema SET swift_types = NULL WHERE table_name = 'ChatLine_chat7'")
    XCTAssertEqual(try rotating.scalar(Int.self, "PRAGMA schema_version"), version)
    try pass(2)
    // The first write after the change completed the record again: the record was read,
    // not taken from what the connection had worked out before.
    XCTAssertEqual(try rotating.scalar(String.self, typesSQL), recorded)
    XCTAssertEqual(try rotating.findAll(ChatLine.self, target: "chat7").count, 3)
    try rotating.close()
  }

  /// Whether a traced statement reads the schema: `sqlite_schema`, a schema pragma,
  /// SwiftLite's record table, or the data version (the catalogue's check that nothing
  /// changed). Lines SQLite reports as `-- ...` are the inner steps of the
  /// statement before them (the pragmas a table-valued `pragma_...` function runs).
  static func readsSchema(_ sql: String) -> Bool {
    guard !sql.hasPrefix("--") else { return false }
    let text = sql.lowercased()
    return text.contains("sqlite_schema") || text.contains("sqlite_master")
      || text.contains("pragma_") || text.contains("swiftlite_schema")
      || [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info",
        "foreign_key_list", "schema_version", "data_version",
      ].contains { text.hasPrefix("pragma " + $0) || text.contains("pragma " + $0) }
  }
}
