import Foundation
import SwiftLiteTesting
import XCTest

@testable import SwiftLite

// Snapshots record a model's full-text indexes: a fresh install replaying an early step
// builds them, and the checks of SwiftLiteTesting compare them.

private struct Article: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  static let primaryKey = ["id"]
  static let fullTextIndexes = [
    FullTextIndex(Article.self, columns: ["title", "body"], tokenizer: .porter(), prefixes: [2])
  ]
}

/// The same table without the index, as a snapshot of format 1 records it.
private struct PlainArticle: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  static let tableName = "Article"
  static let primaryKey = ["id"]
}

final class MigrationSnapshotFullTextTests: ModelTestCase {
  func testASnapshotRecordsAndReplaysTheFullTextIndexes() throws {
    let table = try SchemaSnapshot.Table(model: Article.self)
    XCTAssertEqual(table.fullTextIndexes.map(\.name), ["Article_fts"])
    XCTAssertEqual(table.fullTextIndexes.first?.prefixes, [2])
    let snapshot = SchemaSnapshot(step: "v1", tables: [table])
    XCTAssertEqual(snapshot.formatVersion, 2)
    let json = String(decoding: try snapshot.jsonData(), as: UTF8.self)
    XCTAssertTrue(json.contains("\"fullTextIndexes\""), json)
    XCTAssertEqual(try SchemaSnapshot(jsonData: Data(json.utf8)), snapshot)
    XCTAssertEqual(table.schema.fullTextIndexes, try TableSchema(Article.self).fullTextIndexes)

    // A fresh install replays the step from its snapshot alone (the model as compiled now
    // has lost the index), and gets the index.
    var migrator = Migrator(snapshots: try MigrationSnapshots([snapshot]))
    migrator.registerModels("v1", PlainArticle.self)
    let db = try open()
    try migrator.migrate(db)
    try db.execute("INSERT INTO Article (title, body) VALUES ('Running', 'far and wide')")
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM Article_fts WHERE Article_fts MATCH 'run'"),
      1)
  }

  func testAFileOfFormat1StillLoadsWithNoFullTextIndexes() throws {
    let old = """
      {"formatVersion":1,"step":"v1","tables":[{"autoIncrement":false,
      "columns":[{"json":false,"name":"id","notNull":false,"type":"INTEGER","unique":false}],
      "name":"Article","primaryKey":["id"],"strict":false}]}
      """
    let snapshot = try SchemaSnapshot(jsonData: Data(old.utf8))
    XCTAssertEqual(snapshot.tables.first?.fullTextIndexes, [])
    XCTAssertEqual(snapshot.tables.first?.previousNames, [])
    // Unchanged, a step without anything format 2 added is written as format 1.
    let plain = SchemaSnapshot(
      step: "v1", tables: [try SchemaSnapshot.Table(model: PlainArticle.self)])
    XCTAssertEqual(plain.formatVersion, 1)
    XCTAssertFalse(String(decoding: try plain.jsonData(), as: UTF8.self).contains("fullText"))
  }

  /// A snapshot of format 2 whose index differs from the model's: the snapshot check
  /// reports it, and so does the migrator's own check.
  func testTheChecksCompareTheFullTextIndexes() throws {
    var table = try SchemaSnapshot.Table(model: Article.self)
    table.fullTextIndexes[0].columns = ["title"]
    let stale = SchemaSnapshot(step: "v1", tables: [table])
    XCTAssertEqual(stale.formatVersion, 2)
    let folder = directory.appendingPathComponent("snapshots")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try stale.jsonData().write(to: folder.appendingPathComponent("v1.json"))
    var migrator = Migrator(snapshots: try MigrationSnapshots([stale]))
    migrator.registerModels("v1", Article.self)
    XCTAssertThrowsError(try migrator.checkSnapshots())
    let report = try MigrationSnapshotCheck(migrator, directory: folder).run(record: false)
    XCTAssertFalse(report.passed)
    XCTAssertTrue(report.description.contains("full-text index Article_fts"), report.description)

    // The history check: the step applied matches its snapshot only with the index.
    var current = Migrator(
      snapshots: try MigrationSnapshots([
        SchemaSnapshot(step: "v1", tables: [try SchemaSnapshot.Table(model: Article.self)])
      ]))
    current.registerModels("v1", Article.self)
    let history = try MigrationHistoryCheck(current).run()
    XCTAssertTrue(history.passed, history.description)
  }
}

extension MigrationSnapshotFullTextTests {
  /// A snapshot of format 1 could not record full-text indexes: a model that declares one
  /// is no difference, and its step still goes through the model, which creates the index
  /// (as it did when the file was written).
  func testAFormat1SnapshotIsNotADifferenceAndItsStepCreatesTheIndex() throws {
    let old = SchemaSnapshot(
      step: "v1", tables: [try SchemaSnapshot.Table(model: PlainArticle.self)])
    XCTAssertEqual(old.formatVersion, 1)
    let folder = directory.appendingPathComponent("snapshots")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try old.jsonData().write(to: folder.appendingPathComponent("v1.json"))
    var migrator = Migrator(snapshots: try MigrationSnapshots([old]))
    migrator.registerModels("v1", Article.self)
    XCTAssertNoThrow(try migrator.checkSnapshots())
    let report = try MigrationSnapshotCheck(migrator, directory: folder).run(record: false)
    XCTAssertTrue(report.passed, report.description)
    let db = try open()
    try migrator.migrate(db)
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'Article_fts'"), 1)
  }
}
