import Foundation
import SwiftLite
import XCTest

@testable import SwiftLiteCodeGen

/// The models generated from `Fixtures/store.sql`'s rows (`GeneratedStore.swift`, compiled
/// here) write every row they read back as it was: dates in the format found in each
/// column, text in a column with no type as text.
final class GeneratedRoundTripTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("GeneratedRoundTripTests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  private static let fixture = here.appendingPathComponent("Fixtures/store.sql").path
  private static let golden = here.appendingPathComponent("GeneratedStore.swift").path

  func testOutputMatchesTheGoldenFile() throws {
    let generated = try ModelGenerator(path: Self.fixture).source()
    let golden = try String(contentsOfFile: Self.golden, encoding: .utf8)
    XCTAssertEqual(
      generated, golden,
      "regenerate with `swift run swiftlite-gen Tests/CodeGenTests/Fixtures/store.sql > "
        + "Tests/CodeGenTests/GeneratedStore.swift`")
    XCTAssertTrue(golden.contains(#""OrderDate": [.dateFormat(.date)]"#))
    XCTAssertTrue(golden.contains(#""InvoiceDate": [.dateFormat(.dateTime)]"#))
    XCTAssertTrue(golden.contains("var region: String?"), "no type, text found: a String")
  }

  /// Every value of every table through `quote()`, and the schema.
  private func dump(_ db: Connection) throws -> [[UInt8]] {
    var lines: [String] = []
    let tables = try db.query(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        + "ORDER BY name"
    ).map { try $0.get(String.self, at: 0) }
    for table in tables {
      let columns = try db.query("SELECT name FROM pragma_table_info(?)", [table]).map {
        "quote(" + SQLIdentifier.quote(try $0.get(String.self, at: 0)) + ")"
      }
      lines += try db.query(
        "SELECT " + columns.joined(separator: " || '|' || ") + " FROM "
          + SQLIdentifier.quote(table) + " ORDER BY rowid"
      ).map { table + ": " + (try $0.get(String.self, at: 0)) }
    }
    lines += try db.query("SELECT type, name, sql FROM sqlite_schema ORDER BY name").map {
      try $0.values.map(\.description).joined(separator: " | ")
    }
    return lines.map { Array($0.utf8) }
  }

  private func saveEveryRowUnchanged<M: Model>(_ model: M.Type, _ db: Connection) throws {
    let rows = try db.findAll(model)
    XCTAssertFalse(rows.isEmpty, "\(model) has rows")
    for row in rows {
      try db.save(row)
      try db.update(row)
      XCTAssertEqual(try db.update(row, from: row), [])
    }
  }

  func testEveryRowSavedUnchangedKeepsEveryByte() throws {
    let path = directory.appendingPathComponent("store.sqlite").path
    let maker = try Connection(path: path)
    try maker.execute(String(contentsOfFile: Self.fixture, encoding: .utf8))
    try maker.close()
    let db = try Connection(path: path)
    let before = try dump(db)
    try saveEveryRowUnchanged(Categories.self, db)
    try saveEveryRowUnchanged(Customers.self, db)
    try saveEveryRowUnchanged(Employees.self, db)
    try saveEveryRowUnchanged(Orders.self, db)
    try saveEveryRowUnchanged(OrderDetails.self, db)
    try saveEveryRowUnchanged(Products.self, db)
    try saveEveryRowUnchanged(Track.self, db)
    try saveEveryRowUnchanged(Employee.self, db)
    try saveEveryRowUnchanged(Invoice.self, db)
    try db.close()
    let after = try dump(Connection(path: path))
    XCTAssertEqual(after.count, before.count)
    for (new, old) in zip(after, before) where new != old {
      XCTFail(
        "changed:\n  before: \(String(decoding: old, as: UTF8.self))\n  after:  "
          + String(decoding: new, as: UTF8.self))
      break
    }
  }
}
