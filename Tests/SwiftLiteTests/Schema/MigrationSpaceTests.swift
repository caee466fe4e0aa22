import Foundation
import XCTest

@testable import SwiftLite

private struct SpaceItemV1: Model {
  var id: Int64?
  var text: String
  var note: String
  static let primaryKey = ["id"]
  static let tableName = "item"
  static let indexes = [TableIndex(["text"])]
}

/// `note` becomes nullable: a rebuild.
private struct SpaceItemV2: Model {
  var id: Int64?
  var text: String
  var note: String?
  static let primaryKey = ["id"]
  static let tableName = "item"
  static let indexes = [TableIndex(["text"])]
}

final class MigrationSpaceTests: SQLiteTestCase {
  private func fill(_ count: Int) throws {
    try db.transaction { db in
      for number in 0..<count {
        _ = try db.insert(
          SpaceItemV1(
            id: nil, text: "item \(number) " + String(repeating: "x", count: 200), note: "n"))
      }
    }
  }

  private func pragma(_ name: String) throws -> Int {
    try db.scalar(Int.self, "PRAGMA " + name) ?? -1
  }

  func testARebuildPlanSaysHowManyPagesItFrees() throws {
    try fill(2_000)
    let pageSize = try pragma("page_size")
    let bytes = try db.scalar(Int.self, "SELECT sum(pgsize) FROM dbstat WHERE name = 'item'")
    let used = (bytes ?? 0) / pageSize
    let plan = try db.migrationPlan(for: SpaceItemV2.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    let freed = try XCTUnwrap(plan.freedPages)
    XCTAssertEqual(freed, used)
    XCTAssertGreaterThan(freed, 100)
    XCTAssertTrue(plan.description.contains("frees \(freed) page(s)"), plan.description)
    XCTAssertEqual(try pragma("freelist_count"), 0)
    try db.migrate(SpaceItemV2.self)
    // The old table's pages are free now; the file did not shrink.
    let free = try pragma("freelist_count")
    XCTAssertGreaterThanOrEqual(free, freed - 3)
    XCTAssertLessThanOrEqual(free, freed + freed / 5)  // new indexes pack tighter than old
    // Plans that do not rebuild free nothing.
    XCTAssertEqual(try db.migrationPlan(for: SpaceItemV2.self).freedPages, 0)
  }

  func testAMigratorAskedToReclaimSpaceVacuumsAfterTheLastStep() throws {
    try fill(2_000)
    var release2 = Migrator()
    release2.registerModels("v2", SpaceItemV2.self)
    try release2.migrate(db)
    let wasted = try pragma("freelist_count")
    XCTAssertGreaterThan(wasted, 100)
    let pagesBefore = try pragma("page_count")

    try db.execute("DROP TABLE \(Migrator.recordTable)")
    var reclaiming = Migrator()
    reclaiming.reclaimsSpace = true
    reclaiming.registerModels("v2", SpaceItemV2.self)
    reclaiming.register("v3: a note") { db in
      _ = try db.run("UPDATE item SET note = NULL WHERE id = 1")
    }
    XCTAssertEqual(try reclaiming.migrate(db), ["v2", "v3: a note"])
    XCTAssertEqual(try pragma("freelist_count"), 0)
    XCTAssertLessThanOrEqual(try pragma("page_count"), pagesBefore - wasted)
    XCTAssertEqual(try db.count(SpaceItemV2.self), 2_000)
    // Nothing applied: no VACUUM.
    XCTAssertEqual(try reclaiming.migrate(db), [])
  }

  /// VACUUM may renumber the rows of a table without an INTEGER PRIMARY KEY; its
  /// external-content full-text index is rebuilt after, so a search finds the right rows.
  func testReclaimingSpaceRebuildsFullTextIndexesOverImplicitRowids() throws {
    try db.execute("CREATE TABLE doc(title TEXT NOT NULL, body TEXT NOT NULL)")
    try db.createFullTextIndex(FullTextIndex(table: "doc", columns: ["title", "body"]))
    try db.transaction { db in
      for number in 0..<300 {
        _ = try db.run(
          "INSERT INTO doc(title, body) VALUES (?, ?)",
          ["doc \(number)", number % 3 == 0 ? "needle" : "hay"])
      }
      _ = try db.run("DELETE FROM doc WHERE rowid % 2 = 0")
    }
    var migrator = Migrator()
    migrator.reclaimsSpace = true
    migrator.register("scratch") { db in
      try db.execute("CREATE TABLE scratch(data BLOB)")
      _ = try db.run("INSERT INTO scratch VALUES (zeroblob(400000))")
      try db.execute("DROP TABLE scratch")
    }
    let expected = try db.query(
      "SELECT title FROM doc WHERE body = 'needle' ORDER BY title"
    ).map { try $0.get(String.self, at: 0) }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT max(rowid) FROM doc"), 299)
    try migrator.migrate(db)
    // Rebuilding the index after VACUUM frees its old segments: a few pages.
    XCTAssertLessThan(try pragma("freelist_count"), 10)
    let found = try db.query(
      """
      SELECT doc.title FROM doc_fts JOIN doc ON doc.rowid = doc_fts.rowid
      WHERE doc_fts MATCH 'needle' ORDER BY doc.title
      """
    ).map { try $0.get(String.self, at: 0) }
    XCTAssertEqual(found, expected)
    // VACUUM renumbered the rows: the index follows.
    XCTAssertEqual(try db.scalar(Int.self, "SELECT max(rowid) FROM doc"), 150)
    try db.execute("INSERT INTO doc_fts(doc_fts) VALUES ('integrity-check')")
  }

  func testAPoolWithOpenReadersRefusesToReclaimSpace() throws {
    let pool = try poolWithAReaderOpen()
    defer { try? pool.close() }
    var migrator = Self.reclaimingMigrator()
    XCTAssertThrowsError(try migrator.migrate(pool)) { error in
      guard case MigratorError.cannotReclaimSpace(let reason) = error else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertTrue(reason.contains("reader"), reason)
    }
    XCTAssertEqual(try migrator.pendingMigrations(pool), ["t"])
    migrator.reclaimsSpace = false
    XCTAssertEqual(try migrator.migrate(pool), ["t"])
  }

  /// The async form refuses the same way, and applies nothing.
  func testTheAsyncMigrateRefusesToReclaimSpaceWithReadersOpen() throws {
    let pool = try poolWithAReaderOpen()
    defer { try? pool.close() }
    let reclaiming = Self.reclaimingMigrator()
    let outcome = try resultOfTask { () async -> String in
      do {
        return "applied \(try await reclaiming.migrate(pool))"
      } catch MigratorError.cannotReclaimSpace(let reason) {
        return reason.contains("reader") ? "refused" : reason
      } catch {
        return "\(error)"
      }
    }
    XCTAssertEqual(outcome, "refused")
    XCTAssertEqual(try reclaiming.pendingMigrations(pool), ["t"])
    XCTAssertEqual(
      try pool.read { db in
        try db.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 't'")
      },
      0)
  }

  /// At launch no reader is open yet: a pool prepared by a reclaiming migrator vacuums.
  func testAPoolPreparedAtLaunchReclaimsSpace() throws {
    try fill(1_000)
    try db.migrate(SpaceItemV2.self)
    XCTAssertGreaterThan(try pragma("freelist_count"), 0)
    try db.close()
    db = nil
    var migrator = Migrator()
    migrator.reclaimsSpace = true
    migrator.register("touch") { db in _ = try db.run("UPDATE item SET note = note") }
    let pool = try DatabasePool(path: databasePath, preparation: migrator)
    defer { try? pool.close() }
    XCTAssertEqual(try pool.read { db in try db.scalar(Int.self, "PRAGMA freelist_count") }, 0)
  }

  /// A pool on the test's file, its connection closed first, with one reader open.
  private func poolWithAReaderOpen() throws -> DatabasePool {
    try db.close()
    db = nil
    let pool = try DatabasePool(path: databasePath)
    _ = try pool.read { db in try db.scalar(Int.self, "SELECT 1") }
    return pool
  }

  /// A migrator that reclaims space, with one migration "t" that makes table `t`.
  private static func reclaimingMigrator() -> Migrator {
    var migrator = Migrator()
    migrator.reclaimsSpace = true
    migrator.register("t") { db in try db.execute("CREATE TABLE t(x)") }
    return migrator
  }
}
