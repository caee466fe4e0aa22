import Foundation
import XCTest

@testable import SwiftLite

/// Each date format writes what SQLite's own functions write, and a stored value is
/// recognised in the format that writes it back byte for byte.
final class SQLiteDateFormatTests: SQLiteTestCase {
  func testEachFormatWritesWhatSQLiteWrites() throws {
    // 2016-07-05 12:34:56.789 UTC.
    let date = Date(timeIntervalSince1970: 1_467_722_096.789)
    let sqlite = try XCTUnwrap(
      db.query(
        """
        SELECT date(?1, 'unixepoch'), datetime(?1, 'unixepoch'),
          strftime('%Y-%m-%d %H:%M:%f', ?1, 'unixepoch'),
          strftime('%Y-%m-%dT%H:%M:%SZ', ?1, 'unixepoch'),
          strftime('%Y-%m-%dT%H:%M:%fZ', ?1, 'unixepoch'), CAST(unixepoch(?1, 'unixepoch') AS INTEGER)
        """, [1_467_722_096.789]
      ).first)
    let formats: [SQLiteDateFormat] = [
      .date, .dateTime, .dateTimeMilliseconds, .iso8601, .iso8601Milliseconds, .unixSeconds,
    ]
    for (index, format) in formats.enumerated() {
      XCTAssertEqual(try format.value(for: date), try sqlite.value(at: index), "\(format)")
    }
    XCTAssertEqual(try SQLiteDateFormat.unixSecondsReal.value(for: date), .real(1_467_722_096.789))
    XCTAssertEqual(SQLiteDateFormat.standard, .dateTimeMilliseconds)
    XCTAssertEqual(try SQLiteDateFormat.standard.value(for: date), try date.sqliteValue())
    XCTAssertEqual(SQLiteDateFormat.unixSeconds.storageClass, .integer)
    XCTAssertEqual(SQLiteDateFormat.unixSecondsReal.storageClass, .real)
    XCTAssertEqual(SQLiteDateFormat.iso8601.storageClass, .text)
  }

  func testAStoredValueIsInTheFormatThatWritesItBack() {
    let cases: [(SQLiteValue, SQLiteDateFormat?)] = [
      (.text("2016-07-05"), .date),
      (.text("2021-01-02 00:00:00"), .dateTime),
      (.text("2021-01-02 00:00:00.000"), .dateTimeMilliseconds),
      (.text("2021-01-02T10:20:30Z"), .iso8601),
      (.text("2021-01-02T10:20:30.500Z"), .iso8601Milliseconds),
      (.integer(1_467_722_096), .unixSeconds),
      (.real(1_467_722_096.5), .unixSecondsReal),
      // Read as dates, but no format writes these bytes back.
      (.text("2021-02-30"), nil), (.text("2021-01-02 10:20"), nil),
      (.text("2021-01-02T10:20:30"), nil), (.text("2021-01-02 10:20:30+02:00"), nil),
      (.text("2021-01-02 10:20:30.5"), nil), (.text("not a date"), nil),
      (.blob(Data([1])), nil), (.null, nil), (.real(.infinity), nil),
    ]
    for (value, format) in cases {
      XCTAssertEqual(SQLiteDateFormat(of: value), format, "\(value)")
    }
  }

  func testShorterFormsDropWhatTheyCannotHoldAsSQLiteDoes() throws {
    let late = Date(timeIntervalSince1970: 1_467_763_199.999)  // 2016-07-05 23:59:59.999
    XCTAssertEqual(try SQLiteDateFormat.date.value(for: late), .text("2016-07-05"))
    XCTAssertEqual(try SQLiteDateFormat.dateTime.value(for: late), .text("2016-07-05 23:59:59"))
    XCTAssertEqual(try SQLiteDateFormat.unixSeconds.value(for: late), .integer(1_467_763_199))
    let before1970 = Date(timeIntervalSince1970: -0.5)
    XCTAssertEqual(try SQLiteDateFormat.unixSeconds.value(for: before1970), .integer(-1))
    XCTAssertThrowsError(try SQLiteDateFormat.date.value(for: Date(timeIntervalSince1970: 1e12)))
    XCTAssertThrowsError(
      try SQLiteDateFormat.unixSecondsReal.value(for: Date(timeIntervalSince1970: .infinity)))
  }
}
