import ExistingDatabaseSample
import Foundation
import SwiftLite
import XCTest

final class ExistingDatabaseSampleTests: TemporaryDirectoryTestCase {
  private var path: String { directory.appendingPathComponent("music-store.sqlite").path }

  private func runDemo() throws -> [String] {
    var lines: [String] = []
    try ExistingDatabaseDemo(path: path, output: { lines.append($0) }).run()
    return lines
  }

  func testTheDemoReadsAndWritesTheStoreWithoutChangingItsSchema() throws {
    let lines = try runDemo()
    XCTAssertTrue(lines.contains("Schema unchanged: true"), lines.joined(separator: "\n"))
    XCTAssertTrue(lines.contains("  #1 AC/DC"))
    XCTAssertTrue(lines.contains("Albums per artist (raw SQL): AC/DC 2, Accept 2, Aerosmith 1"))
    XCTAssertTrue(lines.contains("  Leonie Köhler, Germany, since 7/4/2016"), "\(lines)")
    XCTAssertTrue(lines.contains("January 2021 invoices: #1 1.98, #2 25.0"))
    XCTAssertTrue(
      lines.contains { $0.hasPrefix("The store's own CHECK still holds: CHECK constraint failed") })
    XCTAssertTrue(lines.contains { $0.hasPrefix("Migration plan for Invoice Line") }, "\(lines)")

    // The file as another program sees it: the store's schema, the rows written, no
    // bookkeeping table.
    let db = try Connection(path: path, options: .readOnly)
    XCTAssertFalse(try SchemaInspector(db).tableExists(AutoMigration.recordTable))
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT Country FROM Customer WHERE Email = 'ann@example.com'"),
      "Australia")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT CreatedAt FROM Customer WHERE Email = 'ann@example.com'"),
      "2023-11-14 22:13:20", "written in the form the column's dates already have")
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM [Invoice Line]"), 4)
    XCTAssertEqual(try db.scalar(String.self, "PRAGMA integrity_check"), "ok")
  }

  func testTheExecutableRunsTwice() throws {
    for _ in 0..<2 {
      let output = try runSample("ExistingDatabase")
      XCTAssertTrue(output.contains("Schema unchanged: true"), output)
    }
  }
}
