import Foundation
import XCTest

@testable import SwiftLite

/// A date column keeps its format: the one a model declares, else (on a table another
/// program made) the one already in the column.
final class DateFormatTests: SQLiteTestCase {
  struct Item: Model, Equatable {
    var id: Int64?
    var day: Date
    static let primaryKey = ["id"]
  }

  /// Every column of a table as `quote()` gives it, row by row: equal dumps, equal bytes.
  private func quoted(_ table: String, _ columns: String) throws -> [String] {
    try db.query(
      "SELECT "
        + columns.split(separator: ",").map { "quote(\($0))" }.joined(separator: " || '|' || ")
        + " FROM " + table + " ORDER BY rowid"
    ).map { try $0.get(String.self, at: 0) }
  }

  func testAModelSavedUnchangedKeepsTheDayTextOfAnotherProgram() throws {
    try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, day DATETIME NOT NULL)")
    try db.execute("INSERT INTO item(day) VALUES ('2016-07-05'), ('2016-07-06')")
    try db.update(try XCTUnwrap(try db.find(Item.self, id: 1)))
    try db.save(try XCTUnwrap(try db.find(Item.self, id: 2)))
    XCTAssertEqual(try quoted("item", "id,day"), ["1|'2016-07-05'", "2|'2016-07-06'"])
    // A new row takes the column's format too, and that program still finds it.
    try db.insert(Item(id: nil, day: Date(timeIntervalSince1970: 1_609_545_600)))
    XCTAssertEqual(try db.scalar(Int64.self, "SELECT id FROM item WHERE day = '2021-01-02'"), 3)
  }

  func testEachFormatAnotherProgramUsesIsKept() throws {
    try db.execute(
      """
      CREATE TABLE event(id INTEGER PRIMARY KEY, a DATETIME, b TIMESTAMP, c TEXT, d TEXT,
        e INTEGER, f REAL, g DATETIME NOT NULL);
      INSERT INTO event VALUES (1, '2021-01-02 00:00:00', '2021-01-02 00:00:00.250',
        '2021-01-02T10:20:30Z', '2021-01-02T10:20:30.125Z', 1609582830, 1609582830.5,
        '2021-01-02');
      INSERT INTO event VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL, '2021-01-03');
      """)
    struct Event: Model {
      var id: Int64
      var a: Date?
      var b: Date?
      var c: Date?
      var d: Date?
      var e: Date?
      var f: Date?
      var g: Date
      static let primaryKey = ["id"]
    }
    let before = try quoted("event", "id,a,b,c,d,e,f,g")
    for event in try db.findAll(Event.self) { try db.save(event) }
    XCTAssertEqual(try quoted("event", "id,a,b,c,d,e,f,g"), before)
    // Row 2's dates, set now, are written as row 1's are.
    var second = try XCTUnwrap(try db.find(Event.self, id: 2))
    let instant = Date(timeIntervalSince1970: 1_609_669_230)  // 2021-01-03 10:20:30
    (second.a, second.b, second.c, second.d, second.e, second.f) =
      (instant, instant, instant, instant, instant, instant)
    try db.update(second)
    XCTAssertEqual(
      try quoted("event", "id,a,b,c,d,e,f,g").last,
      "2|'2021-01-03 10:20:30'|'2021-01-03 10:20:30.000'|'2021-01-03T10:20:30Z'|"
        + "'2021-01-03T10:20:30.000Z'|1609669230|1609669230.0|'2021-01-03'")
  }

  func testAnEmptyColumnOfAnotherProgramTakesALosslessFormatByItsType() throws {
    try db.execute(
      "CREATE TABLE log(id INTEGER PRIMARY KEY, day DATE, at INTEGER, seen REAL, stamp DATETIME)")
    struct Log: Model {
      var id: Int64?
      var day: Date
      var at: Date
      var seen: Date
      var stamp: Date
      static let primaryKey = ["id"]
    }
    let instant = Date(timeIntervalSince1970: 1_609_582_830.5)  // 2021-01-02 10:20:30.500
    let whole = Date(timeIntervalSince1970: 1_609_582_830)
    try db.insert(Log(id: nil, day: instant, at: instant, seen: instant, stamp: instant))
    try db.insert(Log(id: nil, day: whole, at: whole, seen: whole, stamp: whole))
    XCTAssertEqual(
      try quoted("log", "day,at,seen,stamp"),
      [
        "'2021-01-02 10:20:30.500'|1609582830.5|1609582830.5|'2021-01-02 10:20:30.500'",
        "'2021-01-02 10:20:30.000'|1609582830|1609582830.0|'2021-01-02 10:20:30.000'",
      ])
  }

  func testADeclaredFormatIsWrittenAndDecidesTheTypeOfACreatedColumn() throws {
    struct Stamp: Model, Equatable {
      var id: Int64?
      var day: Date
      var at: Date
      var seen: Date?
      var iso: Date
      var plain: Date
      static let primaryKey = ["id"]
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "day": [.dateFormat(.date)], "at": [.dateFormat(.unixSeconds)],
        "seen": [.dateFormat(.unixSecondsReal)], "iso": [.dateFormat(.iso8601)],
      ]
    }
    let instant = Date(timeIntervalSince1970: 1_609_582_830.5)
    try db.insert(
      Stamp(id: nil, day: instant, at: instant, seen: instant, iso: instant, plain: instant))
    XCTAssertEqual(
      try quoted("Stamp", "day,at,seen,iso,plain"),
      ["'2021-01-02'|1609582830|1609582830.5|'2021-01-02T10:20:30Z'|'2021-01-02 10:20:30.500'"])
    XCTAssertEqual(
      try db.query("SELECT type FROM pragma_table_info('Stamp')").map {
        try $0.get(String.self, at: 0)
      },
      ["INTEGER", "TEXT", "INTEGER", "REAL", "TEXT", "TEXT"])
    // On a table another program made, the declaration wins over the values found there.
    try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, day DATETIME NOT NULL)")
    try db.execute("INSERT INTO item(day) VALUES ('2016-07-05 00:00:00')")
    struct DayItem: Model {
      var id: Int64?
      var day: Date
      static let tableName = "item"
      static let primaryKey = ["id"]
      static let columnConstraints: [String: [ColumnConstraint]] = ["day": [.dateFormat(.date)]]
    }
    try db.update(try XCTUnwrap(try db.find(DayItem.self, id: 1)))
    XCTAssertEqual(try quoted("item", "day"), ["'2016-07-05'"])
  }

  func testAFormatOnAPropertyThatIsNotADateIsRefused() {
    struct Wrong: Model {
      var id: Int64?
      var name: String
      static let primaryKey = ["id"]
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "name": [.dateFormat(.date)]
      ]
    }
    guard
      case .invalidDeclaration(_, let reason) = thrownError(
        ModelError.self, { try db.save(Wrong(id: nil, name: "x")) })
    else { return XCTFail("expected invalidDeclaration") }
    XCTAssertTrue(reason.contains("'name'"), reason)
  }

  func testARowMappedModelWritesTheColumnsFormatToo() throws {
    struct Visit: Model, RowMapped {
      var id: Int64?
      var day: Date
      var left: Date?
      static let primaryKey = ["id"]
      static let mappedColumns = ["id", "day", "left"]
      init(id: Int64?, day: Date, left: Date?) {
        (self.id, self.day, self.left) = (id, day, left)
      }
      init(row: MappedRow) throws {
        id = try row.get(0)
        day = try row.get(1)
        left = try row.get(2)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(id, at: 0)
        try row.set(day, at: 1)
        try row.set(left, at: 2)
      }
    }
    try db.execute(
      """
      CREATE TABLE Visit(id INTEGER PRIMARY KEY, day DATE NOT NULL, left DATETIME);
      INSERT INTO Visit VALUES (1, '2016-07-05', '2016-07-05 18:00:00'), (2, '2016-07-06', NULL);
      """)
    let before = try quoted("Visit", "id,day,left")
    for visit in try db.findAll(Visit.self) {
      try db.save(visit)
      try db.update(visit)
    }
    XCTAssertEqual(try quoted("Visit", "id,day,left"), before)
    try db.insert(
      Visit(id: nil, day: Date(timeIntervalSince1970: 0), left: Date(timeIntervalSince1970: 0)))
    XCTAssertEqual(try quoted("Visit", "day,left").last, "'1970-01-01'|'1970-01-01 00:00:00'")
  }
  func testAMixedColumnKeepsEveryRowsDateOnAPlainUpdateAndSave() throws {
    // The first value is a day, or whole seconds: the others hold more, which is kept.
    try db.execute(
      """
      CREATE TABLE mixed(id INTEGER PRIMARY KEY, day DATETIME, at INTEGER);
      INSERT INTO mixed VALUES (1, '2021-01-02', 1609582830),
        (2, '2021-01-02 10:11:12', 1609582830.5), (3, '2021-01-02 10:11:12.250', NULL),
        (4, '2021-01-02 10:11', NULL), (5, '2021-01-02T10:11:12.123456', NULL);
      """)
    struct Mixed: Model {
      var id: Int64?
      var day: Date
      var at: Date?
      static let primaryKey = ["id"]
      static let tableName = "mixed"
    }
    let before = try quoted("mixed", "id,day,at")
    for row in try db.findAll(Mixed.self, orderBy: "id") { try db.update(row) }
    let after = try quoted("mixed", "id,day,at")
    XCTAssertEqual(Array(after.prefix(3)), Array(before.prefix(3)))
    // Other forms than the first value's: the nearest lossless form of the day's family.
    XCTAssertEqual(
      Array(after.suffix(2)),
      ["4|'2021-01-02 10:11:00'|NULL", "5|'2021-01-02 10:11:12.123'|NULL"])
    let reread = try db.findAll(Mixed.self, orderBy: "id")
    for row in reread { try db.save(row) }
    XCTAssertEqual(try quoted("mixed", "id,day,at"), after)
  }

  func testARowMappedModelKeepsTheFormsFoundToo() throws {
    struct Mapped: Model, RowMapped {
      var id: Int64?
      var day: Date
      static let primaryKey = ["id"]
      static let tableName = "mapped"
      static let mappedColumns = ["id", "day"]
      init(row: MappedRow) throws {
        id = try row.get(0)
        day = try row.get(1)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(id, at: 0)
        try row.set(day, at: 1)
      }
    }
    try db.execute(
      """
      CREATE TABLE mapped(id INTEGER PRIMARY KEY, day DATETIME NOT NULL);
      INSERT INTO mapped VALUES (1, '2016-07-05T10:11:12+02:00'), (2, '2016-07-05T10:11:12.5+02:00');
      """)
    let before = try quoted("mapped", "id,day")
    for row in try db.findAll(Mapped.self, orderBy: "id") { try db.update(row) }
    XCTAssertEqual(
      try quoted("mapped", "id,day"),
      [before[0], "2|'2016-07-05T10:11:12.500+02:00'"])
  }
}
