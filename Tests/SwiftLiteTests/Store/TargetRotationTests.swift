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

  /// Whether a traced statement reads the schema: `sqlite_schema`, a schema pragma, or
  /// SwiftLite's record table. Lines SQLite reports as `-- ...` are the inner steps of the
  /// statement before them (the pragmas a table-valued `pragma_...` function runs).
  static func readsSchema(_ sql: String) -> Bool {
    guard !sql.hasPrefix("--") else { return false }
    let text = sql.lowercased()
    return text.contains("sqlite_schema") || text.contains("sqlite_master")
      || text.contains("pragma_") || text.contains("swiftlite_schema")
      || [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info",
        "foreign_key_list", "schema_version",
      ].contains { text.hasPrefix("pragma " + $0) || text.contains("pragma " + $0) }
  }
}
