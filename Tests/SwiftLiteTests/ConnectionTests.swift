import XCTest
@testable import SwiftLite

final class ConnectionTests: XCTestCase {
  func testSmoke() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let db = try Connection(path: dir.appendingPathComponent("a.sqlite").path)
    try db.execute("CREATE TABLE t(a INTEGER, b TEXT, c BLOB, d REAL); CREATE INDEX i ON t(a)")
    try db.run("INSERT INTO t VALUES (?, ?, ?, ?)", [Int64.max, "x\0y", Data(), 1.5])
    try db.run("INSERT INTO t VALUES (:a, :b, :c, :d)", ["a": 1, "b": "", "c": nil, "d": nil])
    let rows = try db.query("SELECT * FROM t ORDER BY a")
    XCTAssertEqual(rows.count, 2)
    XCTAssertEqual(try rows[1].get(Int64.self, "a"), Int64.max)
    XCTAssertEqual(try rows[1].get(String.self, "b"), "x\0y")
    XCTAssertEqual(try rows[1].get(Data.self, "c"), Data())
    XCTAssertEqual(try rows[0].get(String.self, "b"), "")
    XCTAssertNil(try rows[0].get(Data?.self, "c"))
    XCTAssertThrowsError(try rows[0].get(Int.self, "b")) { print($0) }
    XCTAssertThrowsError(try db.run("INSERT INTO t VALUES (?)", [1])) { print($0) }
    let q = try DatabaseQueue(path: dir.appendingPathComponent("b.sqlite").path)
    try q.write { try $0.execute("CREATE TABLE x(a)") }
    XCTAssertThrowsError(try q.read { try $0.run("INSERT INTO x VALUES (1)") }) { print($0) }
    try q.write { db in try q.write { try $0.run("INSERT INTO x VALUES (1)") } }
    XCTAssertEqual(try q.read { try $0.scalar(Int.self, "SELECT count(*) FROM x") }, 1)
  }
}
