import Foundation
import XCTest

@testable import SwiftLite

/// Dates are written as SQLite writes them and read as SQLite's date functions read them,
/// checked against SQLite itself.
final class DateTextTests: SQLiteTestCase {
  /// The instant SQLite's `julianday()` gives a text, in milliseconds since 1970 (rounded:
  /// a Julian day as a Double keeps about a twentieth of a millisecond), or `nil` for NULL.
  private func sqliteMilliseconds(_ text: String) throws -> Int64? {
    try db.scalar(
      Int64.self, "SELECT CAST(round((julianday(?) - 2440587.5) * 86400000.0) AS INTEGER)",
      [text])
  }

  private func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  func testEveryTimeValueFormatReadsAsSQLiteReadsIt() throws {
    let texts = [
      // Formats 2 to 10, with a space or T.
      "2023-11-14", "2023-11-14 22:13", "2023-11-14 22:13:20", "2023-11-14 22:13:20.123",
      "2023-11-14T22:13", "2023-11-14T22:13:20", "2023-11-14T22:13:20.123",
      "22:13", "22:13:20", "22:13:20.250",
      // Any number of fraction digits, counted to the nearest millisecond.
      "2023-11-14 22:13:20.5", "2023-11-14 22:13:20.123456789", "2023-11-14 22:13:20.0004",
      "2023-11-14 22:13:20.9996", "1969-12-31 23:59:59.9995",
      // Time zones: converted to UTC.
      "2023-11-14T22:13:20.500Z", "2023-11-14T22:13:20Z", "2023-11-14T22:13:20.123z",
      "2023-11-14 22:13:20+02:00", "2023-11-14 22:13:20.5-05:30", "2023-11-14 22:13 +14:00",
      "2023-11-14 22:13:20 Z ", "22:13Z", "22:13:20+02:00", "00:30-01:00",
      // SQLite's leniencies: repeated separators, trailing blanks, hour 24, day 31 of any
      // month, year 0 and negative years.
      "2023-11-14  22:13", "2023-11-14TT22:13", "2023-11-14 ", "2021-01-01 24:00",
      "2021-02-30", "2021-04-31 12:00", "2023-11-14\u{0}junk",
      "0000-01-01", "0000-02-29", "-0044-03-15 12:00", "-0100-02-29", "-4713-11-24 12:00",
      // Edges of the years 1 to 9999 and the Gregorian switch.
      "0001-01-01 00:00:00.000", "9999-12-31 23:59:59.999", "1582-10-04", "1582-10-15",
    ]
    for text in texts {
      let expected = try XCTUnwrap(try sqliteMilliseconds(text), "SQLite reads \(text)")
      let date = try XCTUnwrap(try db.scalar(Date.self, "SELECT ?", [text]), text)
      XCTAssertEqual(milliseconds(date), expected, text)
      // Written as whole seconds, the second SQLite gives (the date keeps digits past the
      // millisecond, which SQLite rounds before it takes the second).
      XCTAssertEqual(
        try SQLiteDateFormat.unixSeconds.value(for: date),
        .integer(
          try XCTUnwrap(
            db.scalar(Int64.self, "SELECT CAST(strftime('%s', ?) AS INTEGER)", [text]))),
        text)
      // Written back, the date is SQLite's own text for that instant.
      let year = try db.scalar(
        Int.self, "SELECT CAST(strftime('%Y', julianday(?)) AS INTEGER)", [text])
      if (1...9999).contains(year ?? 0) {
        XCTAssertEqual(
          try db.scalar(String.self, "SELECT ?", [date]),
          try db.scalar(String.self, "SELECT strftime('%Y-%m-%d %H:%M:%f', julianday(?))", [text]),
          text)
      }
    }
    XCTAssertEqual(
      try db.scalar(Date.self, "SELECT '12:00'"),
      try db.scalar(Date.self, "SELECT '2000-01-01 12:00'"), "a time alone is on 2000-01-01")
  }

  func testTextsSQLiteRejectsAreRejected() throws {
    let texts = [
      "2021-13-01", "2021-1-1", "2021-01-1", "2021-00-10", "2021-01-32", "2021-01-01 25:00",
      "2021-01-01 10:60", "2021-01-01 10:00:60", "2021-01-01 10:00:00.", "2021-01-01 10",
      "2021-01-01 10:0", "2021-01-01Z", "2021-01-01 +01:00", "2021-01-01 10:00+0100",
      "2021-01-01 10:00+15:00", "2021-01-01 10:00+01", "2021-01-01 10:00 x",
      " 2021-01-01", "2021/01/01", "10000-01-01", "21-01-01", "yesterday", "",
      "9999-12-31 23:59:59.999-01:00", "9999-12-31 23:59:59.9995", "-4713-11-24 11:59:59.999",
      "-4714-01-01", "1:00", "12:00:00.5.5",
      // Found by the date fuzzer: a fraction of more than 308 digits overflows to NaN, which
      // SQLite answers with NULL; converting it trapped.
      "13:13:08." + String(repeating: "3", count: 320),
      "2021-01-01 13:13:08." + String(repeating: "9", count: 400) + "Z",
    ]
    for text in texts {
      XCTAssertNil(try sqliteMilliseconds(text), "SQLite rejects \(text)")
      let failure = assertDecodingError(try db.scalar(Date.self, "SELECT ?", [text]))
      XCTAssertTrue(failure?.description.contains("YYYY-MM-DD HH:MM:SS.SSS") == true, text)
    }
    // SQLite also reads 'now' and a Julian day number written as text: not dates here,
    // where a number is Unix seconds.
    for text in ["now", "2460000.5", "12"] {
      XCTAssertNotNil(try sqliteMilliseconds(text), text)
      assertDecodingError(try db.scalar(Date.self, "SELECT ?", [text]))
    }
  }

  func testWrittenAsStrftimeWritesIt() throws {
    for seconds in [1_700_000_000.5, 0, -0.001, 951_782_400, -62_135_596_800, 253_402_300_799.999] {
      let date = Date(timeIntervalSince1970: seconds)
      XCTAssertEqual(
        try db.scalar(String.self, "SELECT ?", [date]),
        try db.scalar(
          String.self, "SELECT strftime('%Y-%m-%d %H:%M:%f', ?, 'unixepoch')", [seconds]))
    }
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT ?", [Date(timeIntervalSince1970: 1_700_000_000.5)]),
      "2023-11-14 22:13:20.500")
  }

  func testIntegerAndRealAreUnixSeconds() throws {
    let row = try XCTUnwrap(
      try db.queryFirst(
        "SELECT 1700000000, 1700000000.25, -1, strftime('%s', '2023-11-14 22:13:20'), "
          + "unixepoch('2023-11-14 22:13:20'), 1e999, 9007199254740993"))
    XCTAssertEqual(try row.get(Date.self, at: 0), Date(timeIntervalSince1970: 1_700_000_000))
    XCTAssertEqual(try row.get(Date.self, at: 1), Date(timeIntervalSince1970: 1_700_000_000.25))
    XCTAssertEqual(try row.get(Date.self, at: 2), Date(timeIntervalSince1970: -1))
    // strftime('%s') writes TEXT, which reads as a date too; unixepoch() writes INTEGER.
    assertDecodingError(try row.get(Date.self, at: 3))
    XCTAssertEqual(try row.get(Date.self, at: 4), Date(timeIntervalSince1970: 1_700_000_000))
    let infinite = assertDecodingError(try row.get(Date.self, at: 5))
    XCTAssertTrue(infinite?.description.contains("Unix seconds") == true)
    assertDecodingError(try row.get(Date.self, at: 6))
  }

  func testDefaultTimestampsReadBackThroughAnSQLTable() throws {
    try db.execute(
      """
      CREATE TABLE event(
        id INTEGER PRIMARY KEY,
        created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
        now_text DEFAULT (datetime('now')),
        day DEFAULT (date('now')),
        current_day DEFAULT CURRENT_DATE,
        clock DEFAULT CURRENT_TIME)
      """)
    try db.run("INSERT INTO event DEFAULT VALUES")
    let row = try XCTUnwrap(try db.queryFirst("SELECT * FROM event"))
    let created = try row.get(Date.self, "created")
    XCTAssertEqual(
      Int64(created.timeIntervalSince1970),
      try db.scalar(Int64.self, "SELECT unixepoch(created) FROM event"))
    XCTAssertEqual(try row.get(Date.self, "now_text"), created)
    let day = try row.get(Date.self, "day")
    XCTAssertEqual(try row.get(Date.self, "current_day"), day)
    XCTAssertEqual(day.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400), 0)
    XCTAssertTrue((0..<86_400).contains(created.timeIntervalSince(day)))
    let clock = try row.get(Date.self, "clock")
    XCTAssertEqual(
      clock, try db.scalar(Date.self, "SELECT '2000-01-01 ' || clock FROM event"))
    // CURRENT_TIMESTAMP is this very moment, not some other reading of the text.
    XCTAssertLessThan(abs(created.timeIntervalSinceNow), 86_400)

    // Dates written by SwiftLite sort with it.
    let hour: TimeInterval = 3600
    try db.run("INSERT INTO event(id, created) VALUES (2, ?)", [created - hour])
    try db.run("INSERT INTO event(id, created) VALUES (3, ?)", [created + hour])
    XCTAssertEqual(
      try db.query("SELECT id FROM event ORDER BY created").map { try $0.get(Int.self, at: 0) },
      [2, 1, 3])
    XCTAssertEqual(
      try db.scalar(
        Int.self,
        // Against row 1's own CURRENT_TIMESTAMP text, not the clock: the second may tick over
        // between the insert and this query.
        "SELECT count(*) FROM event WHERE created < (SELECT created FROM event WHERE id = 1)"),
      1)
  }

  func testStoredDatesCompareWithSQLitesDateText() throws {
    try db.execute("CREATE TABLE log(id INTEGER PRIMARY KEY, at TEXT)")
    let base = 1_699_920_000.0  // 2023-11-14 00:00:00 UTC
    let dates = [
      base - 0.001, base, base + 43_200.5, base + 86_399, base + 86_399.5, base + 86_400,
      base - 86_400 * 400, base + 86_400 * 400,
    ].map { Date(timeIntervalSince1970: $0) }
    for date in dates { try db.run("INSERT INTO log(at) VALUES (?)", [date]) }
    func ids(_ condition: String, _ arguments: StatementArguments = []) throws -> [Int] {
      try db.query("SELECT id FROM log WHERE " + condition + " ORDER BY id", arguments).map {
        try $0.get(Int.self, at: 0)
      }
    }
    // Text comparison is time comparison. As with any text strftime('%f') writes, 23:59:59.000
    // (row 4) sorts after '2023-11-14 23:59:59': a whole day is `>= day AND < next day`.
    XCTAssertEqual(try ids("at BETWEEN '2023-11-14' AND '2023-11-14 23:59:59'"), [2, 3])
    XCTAssertEqual(
      try ids(
        "at BETWEEN datetime('2023-11-14') AND datetime('2023-11-14', '+1 day', '-1 second')"),
      [2, 3])
    XCTAssertEqual(try ids("at BETWEEN '2023-11-14' AND '2023-11-14 23:59:59.999'"), [2, 3, 4, 5])
    XCTAssertEqual(try ids("at >= '2023-11-14' AND at < '2023-11-15'"), [2, 3, 4, 5])
    XCTAssertEqual(
      try ids("at >= date(?) AND at < date(?, '+1 day')", [dates[2], dates[2]]), [2, 3, 4, 5])
    XCTAssertEqual(try ids("datetime(at) = datetime(?)", [dates[2]]), [3])
    XCTAssertEqual(try ids("date(at) = '2023-11-14'"), [2, 3, 4, 5])
    XCTAssertEqual(try ids("at < CURRENT_TIMESTAMP"), [1, 2, 3, 4, 5, 6, 7, 8])
    // ORDER BY the text is ORDER BY the instant.
    let byText = try db.query("SELECT id FROM log ORDER BY at").map { try $0.get(Int.self, at: 0) }
    XCTAssertEqual(
      byText,
      try db.query("SELECT id FROM log ORDER BY julianday(at)").map {
        try $0.get(Int.self, at: 0)
      })
    XCTAssertEqual(byText, dates.indices.sorted { dates[$0] < dates[$1] }.map { $0 + 1 })
  }

  /// Files written by earlier versions hold `2023-11-14T22:13:20.500Z`: still read, and one
  /// UPDATE (the README's) turns them into the text SQLite's functions write.
  func testOlderISOTextReadsAndConvertsWithTheReadmeUpdate() throws {
    try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, at TEXT)")
    let olds = ["2023-11-14T22:13:20.500Z", "1969-12-31T23:59:59.500Z", "0001-01-01T00:00:00.000Z"]
    for old in olds { try db.run("INSERT INTO t(at) VALUES (?)", [old]) }
    let now = Date(timeIntervalSince1970: 1_700_000_000.123)
    try db.run("INSERT INTO t(at) VALUES (?)", [now])
    let before = try db.query("SELECT at FROM t ORDER BY id").map { try $0.get(Date.self, at: 0) }
    XCTAssertEqual(before[0], Date(timeIntervalSince1970: 1_700_000_000.5))
    XCTAssertEqual(before[1], Date(timeIntervalSince1970: -0.5))

    let changed = try db.run(
      "UPDATE t SET at = strftime('%Y-%m-%d %H:%M:%f', at) WHERE at LIKE '____-__-__T%'")
    XCTAssertEqual(changed, 3)
    XCTAssertEqual(
      try db.query("SELECT at FROM t ORDER BY id").map { try $0.get(String.self, at: 0) },
      try before.map { try XCTUnwrap(try db.scalar(String.self, "SELECT ?", [$0])) })
    XCTAssertEqual(
      try db.query("SELECT at FROM t ORDER BY id").map { try $0.get(Date.self, at: 0) }, before)
  }

  func testATextThatIsNotADateNamesTheColumnAndTheAcceptedForms() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT 'Tuesday' AS at, x'00' AS blob"))
    let failure = try XCTUnwrap(assertDecodingError(try row.get(Date.self, "at")))
    guard case .typeMismatch(_, let context) = failure.error else {
      return XCTFail("\(failure.error)")
    }
    XCTAssertEqual(context.codingPath.last?.stringValue, "at")
    for part in ["column 'at'", "not a date", "YYYY-MM-DD", "YYYY-MM-DD HH:MM:SS.SSS", "HH:MM"] {
      XCTAssertTrue(failure.description.contains(part), failure.description)
    }
    let optional = assertDecodingError(try row.get(Date?.self, "at"))
    XCTAssertTrue(optional?.description.contains("not a date") == true)
    let blob = assertDecodingError(try row.get(Date.self, "blob"))
    XCTAssertTrue(blob?.description.hasSuffix("stored BLOB") == true, blob!.description)
  }
}
