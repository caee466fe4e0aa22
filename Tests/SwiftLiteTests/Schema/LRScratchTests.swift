import Foundation
import SwiftLite
import XCTest

final class LRScratchTests: XCTestCase {
  struct Ev: Model {
    var id: Int64?
    var at: Date
    static let primaryKey = ["id"]
    static let tableName = "ev"
  }
  func roundTrip(_ values: [String]) throws {
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE ev(id INTEGER PRIMARY KEY, at DATETIME NOT NULL)")
    for v in values { try db.execute("INSERT INTO ev(at) VALUES (\(v))") }
    let q = "SELECT group_concat(quote(at), ' ; ') FROM ev"
    let before = try db.scalar(String.self, q)
    for e in try db.findAll(Ev.self, orderBy: "id") { try db.update(e) }
    let after = try db.scalar(String.self, q)
    print("RT", before ?? "", "=>", after ?? "", before == after ? "SAME" : "CHANGED")
  }
  func testFormats() throws {
    try roundTrip(["'2016-07-05 10:11'", "'2016-07-06 11:12'"])
    try roundTrip(["'2016-07-05T10:11:12'", "'2016-07-06T11:12:13'"])
    try roundTrip(["'2016-07-05T10:11:12.123'"])
    try roundTrip(["'2016-07-05 10:11:12+02:00'"])
    try roundTrip(["'2016-07-05T10:11:12Z'"])
    try roundTrip(["'2016-07-05T10:11:12.5Z'"])
    try roundTrip(["1609459200", "1609459201"])
    try roundTrip(["1609459200.5", "1609459201.25"])
    try roundTrip(["1609459200.123456"])
    try roundTrip(["'2016-07-05 10:11:12.1'"])
    try roundTrip(["'2016-07-05 10:11:12.123456'"])
    try roundTrip(["2457574.5"])
  }
  func testStringOverNumeric() throws {
    struct P: Model {
      var id: Int64?
      var price: String
      static let primaryKey = ["id"]
      static let tableName = "p"
    }
    struct D: Model {
      var id: Int64?
      var price: Decimal
      static let primaryKey = ["id"]
      static let tableName = "p"
    }
    let db = try Connection(path: ":memory:")
    try db.execute("CREATE TABLE p(id INTEGER PRIMARY KEY, price NUMERIC NOT NULL); INSERT INTO p VALUES (1, 'abc'), (2, 3), (3, 2.5)")
    do { print("S", try db.findAll(P.self).map(\.price)) } catch { print("S error:", error) }
    let before = try db.scalar(String.self, "SELECT group_concat(quote(price), ';') FROM p")
    try db.execute("DELETE FROM p WHERE id = 1")
    for d in try db.findAll(D.self) { try db.update(d) }
    print("D", before ?? "", try db.scalar(String.self, "SELECT group_concat(quote(price), ';') FROM p") ?? "")
  }
  func testDeclarationNamingSwiftProperty() throws {
    struct M: Model {
      var id: Int64?
      var categoryID: Int64
      static let primaryKey = ["id"]
      static let indexes = [TableIndex(["categoryID"])]
      enum CodingKeys: String, CodingKey { case id, categoryID = "category_id" }
    }
    let db = try Connection(path: ":memory:")
    do { try db.save(M(id: nil, categoryID: 1)) } catch { print("DECL", type(of: error), error) }
  }
}
