import Foundation
import XCTest

@testable import SwiftLite

/// A line of one target (`Line_<target>`), with an index: describing its table asks
/// `pragma_index_list` for it.
private struct Line: Model, Equatable {
  var id: Int64
  var text: String
  static let primaryKey = ["id"]
  static let indexes = [TableIndex(["text"])]
}

/// A connection keeps what it read of each table for as long as `PRAGMA schema_version`
/// says the schema is the one it read: a first use of the table after that runs no pragma.
/// A change to the schema by any connection, or one a rollback undid though the schema
/// version comes back, is read afresh.
final class DescriptionReuseTests: SQLiteTestCase {
  /// The pragmas traced while `body` runs on `connection`, but the schema and data
  /// versions' (read to learn whether anything changed, not of any table).
  private func pragmas(on connection: Connection, _ body: () throws -> Void) rethrows
    -> [String]
  {
    try connection.traced(body).filter {
      $0.hasPrefix("-- PRAGMA") && !$0.contains("schema_version") && !$0.contains("data_version")
    }
  }

  private func indexNames(_ table: String, on connection: Connection) throws -> [String]? {
    try SchemaCatalogue.describe(table, in: connection).schema?.indexes.map(\.name)
  }

  func testAPassOverMoreTargetsThanTheCacheHoldsRunsNoPragmaOnceTheTablesWereRead() throws {
    let targets = Connection.attachmentCapacity + 44
    try db.transaction { db in
      for target in 0..<targets { try db.createTable(for: Line.self, target: "t\(target)") }
    }
    let reopened = try Connection(path: databasePath)
    func pass(_ number: Int) throws {
      try reopened.transaction { db in
        for target in 0..<targets {
          try db.save(Line(id: Int64(number), text: "pass \(number)"), target: "t\(target)")
        }
      }
    }
    try pass(0)
    // Each use of the second pass is a first use again (the cache holds fewer tables).
    let ran = try pragmas(on: reopened) { try pass(1) }
    XCTAssertEqual(ran, [], "\(ran.count) pragmas for \(targets) first uses")
    XCTAssertEqual(try reopened.findAll(Line.self, orderBy: "id", target: "t7").count, 2)
    try reopened.close()
  }

  func testAnIndexMadeByAnotherConnectionIsSeen() throws {
    try db.createTable(for: Line.self, target: "a")
    XCTAssertEqual(try indexNames("Line_a", on: db), ["Line_a_on_text"])
    try openSecondConnection().execute(#"CREATE INDEX extra ON "Line_a" (id, text)"#)
    XCTAssertEqual(try indexNames("Line_a", on: db), ["Line_a_on_text", "extra"])
    XCTAssertTrue(try db.needsMigration(Line.self, target: "a"))
  }

  func testAnIndexRolledBackToASavepointIsGoneThoughTheSchemaVersionComesBack() throws {
    try db.createTable(for: Line.self, target: "a")
    try db.transaction { db in
      var versionWithIndex: Int?
      XCTAssertThrowsError(
        try db.savepoint { db in
          try db.execute(#"CREATE INDEX extra ON "Line_a" (id, text)"#)
          versionWithIndex = try db.scalar(Int.self, "PRAGMA schema_version")
          XCTAssertEqual(try indexNames("Line_a", on: db), ["Line_a_on_text", "extra"])
          throw TestError()
        })
      try db.execute("CREATE TABLE unrelated (x)")
      XCTAssertEqual(try db.scalar(Int.self, "PRAGMA schema_version"), versionWithIndex)
      XCTAssertEqual(try indexNames("Line_a", on: db), ["Line_a_on_text"])
    }
  }

  func testAnIndexRolledBackIsGoneThoughAnotherConnectionBringsTheSchemaVersionBack() throws {
    try db.createTable(for: Line.self, target: "a")
    var versionWithIndex: Int?
    XCTAssertThrowsError(
      try db.transaction { db in
        try db.execute(#"CREATE INDEX extra ON "Line_a" (id, text)"#)
        versionWithIndex = try db.scalar(Int.self, "PRAGMA schema_version")
        XCTAssertEqual(try indexNames("Line_a", on: db), ["Line_a_on_text", "extra"])
        throw TestError()
      })
    try openSecondConnection().execute("CREATE TABLE unrelated (x)")
    XCTAssertEqual(try db.scalar(Int.self, "PRAGMA schema_version"), versionWithIndex)
    XCTAssertEqual(try indexNames("Line_a", on: db), ["Line_a_on_text"])
    XCTAssertFalse(try db.needsMigration(Line.self, target: "a"))
  }

  func testAViewRemadeByAnotherConnectionWithOtherColumnsIsSeen() throws {
    try db.createTable(for: Line.self, target: "a")
    try db.execute(#"CREATE VIEW recent AS SELECT id FROM "Line_a""#)
    for _ in 0..<2 {
      XCTAssertEqual(
        try SchemaCatalogue.describe("recent", in: db).schema?.columns.map(\.name), ["id"])
    }
    try openSecondConnection().execute(
      #"DROP VIEW recent; CREATE VIEW recent AS SELECT id, text FROM "Line_a""#)
    let description = try SchemaCatalogue.describe("recent", in: db)
    XCTAssertEqual(description.kind, .view)
    XCTAssertEqual(description.schema?.columns.map(\.name), ["id", "text"])
  }

  func testAColumnAddedByAnotherConnectionIsSeenInOneStatement() throws {
    try db.createTable(for: Line.self, target: "a")
    XCTAssertFalse(try db.needsMigration(Line.self, target: "a"))
    try openSecondConnection().execute(#"ALTER TABLE "Line_a" ADD COLUMN extra TEXT"#)
    clearExecutedSQL()
    XCTAssertEqual(
      try SchemaCatalogue.describe("Line_a", in: db).schema?.columns.map(\.name),
      ["id", "text", "extra"])
    let reads = executedSQL.filter(TargetRotationTests.readsSchema)
    XCTAssertEqual(reads.count, 1, reads.joined(separator: "\n"))
  }
}
