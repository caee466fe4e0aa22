import Foundation
import SwiftLite
import XCTest

/// A test case with a fresh directory of its own for database files, removed afterwards.
class ModelTestCase: XCTestCase {
  private(set) var directory: URL!

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SwiftLiteModelTests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    if let directory { try? FileManager.default.removeItem(at: directory) }
    try super.tearDownWithError()
  }

  /// A database file path in this test's directory.
  func path(_ name: String = "test.sqlite") -> String {
    directory.appendingPathComponent(name).path
  }

  /// A new connection to a file of this test's directory.
  func open(_ name: String = "test.sqlite") throws -> Connection {
    try Connection(path: path(name))
  }
}

/// The error thrown by `body`, failing the test when it throws none or another type.
func thrownError<E: Error>(
  _ type: E.Type, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
) -> E? {
  do {
    try body()
    XCTFail("expected \(E.self), nothing was thrown", file: file, line: line)
  } catch let error as E {
    return error
  } catch {
    XCTFail("expected \(E.self), got \(Swift.type(of: error)): \(error)", file: file, line: line)
  }
  return nil
}

extension Connection {
  /// The column names of a table, by `PRAGMA table_info`.
  func columnNames(_ table: String) throws -> [String] {
    try query("PRAGMA table_info(" + SQLIdentifier.quote(table) + ")").map {
      try $0.get(String.self, "name")
    }
  }

  /// The CREATE statement stored for a table, index or trigger.
  func storedSQL(_ name: String) throws -> String? {
    try scalar(String.self, "SELECT sql FROM sqlite_schema WHERE name = ?", [name])
  }

  /// The names of the indexes on a table (automatic ones included).
  func indexNames(_ table: String) throws -> [String] {
    try query("PRAGMA index_list(" + SQLIdentifier.quote(table) + ")").map {
      try $0.get(String.self, "name")
    }.sorted()
  }

  /// Every row of a table as text (`typeof:quote` per column), in rowid order.
  func dump(_ table: String) throws -> [String] {
    try query("SELECT * FROM " + SQLIdentifier.quote(table) + " ORDER BY rowid").map { row in
      try row.values.map { "\($0.storageClass):\($0)" }.joined(separator: "|")
    }
  }

  /// The whole schema and every row of every table: equal snapshots mean an unchanged file.
  func snapshot() throws -> [String] {
    var lines = try query(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name"
    ).map { row in try row.values.map(\.description).joined(separator: " | ") }
    let tables = try query(
      "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
    ).map { try $0.get(String.self, at: 0) }
    for table in tables {
      lines.append("-- rows of " + table)
      lines += try dump(table)
    }
    return lines
  }
}

/// A snapshot of a database file taken through a connection of its own.
func snapshot(ofFile path: String) throws -> [String] {
  try Connection(path: path).snapshot()
}
