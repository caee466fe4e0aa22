import Foundation
import XCTest

@testable import SwiftLite

/// The text form of a date found in a column: recognised from the text, written back byte
/// for byte, and widened to the nearest form that holds a date it cannot.
final class DateTextFormTests: SQLiteTestCase {
  func testEachCommonFormIsFoundAndWrittenBackByteForByte() throws {
    let texts = [
      "2016-07-05", "2016-07-05 10:11", "2016-07-05T10:11", "2016-07-05 10:11:12",
      "2016-07-05T10:11:12", "2016-07-05 10:11:12.5", "2016-07-05 10:11:12.12",
      "2016-07-05 10:11:12.123", "2016-07-05 10:11:12.1234", "2016-07-05 10:11:12.123456",
      "2016-07-05T10:11:12Z", "2016-07-05T10:11:12.5Z", "2016-07-05T10:11:12.123z",
      "2016-07-05 10:11:12+02:00", "2016-07-05T10:11-05:30", "2016-07-05 23:30:00.250+14:00",
      "2016-07-05 00:10:00-01:00", "0001-01-01 00:00:00", "9999-12-31 23:59:59.999",
    ]
    for text in texts {
      let form = try XCTUnwrap(DateTextForm(of: text), text)
      let date = try XCTUnwrap(SQLiteDateText.parse(text), text)
      XCTAssertEqual(try form.text(for: date), text)
      // The date read is the instant SQLite reads, to the millisecond.
      let julian = try XCTUnwrap(
        db.scalar(
          Double.self, "SELECT (julianday(?) - 2440587.5) * 86400000.0", [text]))
      XCTAssertEqual(
        (date.timeIntervalSince1970 * 1000).rounded(), julian.rounded(), accuracy: 1, text)
    }
  }

  func testTextsNoFormWritesBackAreInNone() {
    let texts = [
      "2021-02-30", "2021-01-01 24:00", "10:11:12", "2016-07-05  10:11", "2016-07-05 10:11 ",
      "2016-07-05 10:11:12 Z", "2016-07-05 10:11:12-00:00", "2016-07-05 10:11:12.",
      "2016-07-05 10:11:12.1234567890", "-0044-03-15", "not a date", "",
    ]
    for text in texts { XCTAssertNil(DateTextForm(of: text), text) }
  }

  func testADateTheFormCannotHoldIsWrittenInTheNearestFormThatHoldsIt() throws {
    func written(_ form: String, _ date: String) throws -> String {
      try XCTUnwrap(DateTextForm(of: form)).text(for: XCTUnwrap(SQLiteDateText.parse(date)))
    }
    XCTAssertEqual(try written("2021-01-02", "2021-01-03 00:00"), "2021-01-03")
    XCTAssertEqual(try written("2021-01-02", "2021-01-02 10:11:12"), "2021-01-02 10:11:12")
    XCTAssertEqual(try written("2021-01-02", "2021-01-02 10:11"), "2021-01-02 10:11:00")
    XCTAssertEqual(try written("2021-01-02", "2021-01-02 10:11:12.5"), "2021-01-02 10:11:12.500")
    XCTAssertEqual(try written("2021-01-02T10:11", "2021-01-02 10:11:12"), "2021-01-02T10:11:12")
    XCTAssertEqual(
      try written("2021-01-02 10:11:12", "2021-01-02 10:11:12.25"), "2021-01-02 10:11:12.250")
    XCTAssertEqual(
      try written("2021-01-02 10:11:12.5", "2021-01-02 10:11:12.25"), "2021-01-02 10:11:12.250")
    XCTAssertEqual(
      try written("2021-01-02 10:11:12.5", "2021-01-02 10:11:13"), "2021-01-02 10:11:13.0")
    XCTAssertEqual(
      try written("2021-01-02T10:11:12+02:00", "2021-01-02 08:11:12.5"),
      "2021-01-02T10:11:12.500+02:00")
    XCTAssertEqual(
      try written("2021-01-02T10:11Z", "2021-01-02 10:11:12"), "2021-01-02T10:11:12Z")
  }

  func testAFoundColumnFormNeverDropsAFractionOfASecond() throws {
    let half = Date(timeIntervalSince1970: 1_467_722_096.5)
    XCTAssertEqual(ColumnDateForm(foundIn: .integer(1)), .wholeSeconds)
    XCTAssertEqual(try ColumnDateForm.wholeSeconds.value(for: half), .real(1_467_722_096.5))
    XCTAssertEqual(
      try ColumnDateForm.wholeSeconds.value(for: Date(timeIntervalSince1970: 1_467_722_096)),
      .integer(1_467_722_096))
    // A declared format drops what it cannot hold, as declared.
    XCTAssertEqual(
      try ColumnDateForm.declared(.unixSeconds).value(for: half), .integer(1_467_722_096))
    XCTAssertEqual(ColumnDateForm(foundIn: .text("2021-01-02 00:00:00.000")), .standard)
    XCTAssertTrue(ColumnDateForm.standard.isStandard)
    XCTAssertNil(ColumnDateForm(foundIn: .blob(Data([1]))))
  }
}
