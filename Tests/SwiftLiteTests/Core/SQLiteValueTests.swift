import Foundation
import XCTest

@testable import SwiftLite

/// A user type: an enum with a raw value adopts the protocol with no code.
enum Mood: String, SQLiteValueConvertible {
  case happy, grumpy
}

enum Priority: Int, SQLiteValueConvertible {
  case low = 1
  case high = 9
}

/// Binding and reading every Swift type of the mapping, through a real table.
final class SQLiteValueTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute("CREATE TABLE box(id INTEGER PRIMARY KEY, v)")  // no affinity: stored as bound
  }

  /// Stores `value` in a column without affinity, checks the storage class SQLite recorded
  /// and reads it back as `T`.
  private func roundTrip<T: SQLiteValueConvertible>(
    _ value: T, storedAs expected: String, file: StaticString = #filePath, line: UInt = #line
  ) throws -> T {
    try db.run("DELETE FROM box")
    try db.run("INSERT INTO box(v) VALUES (?)", [value])
    let row = try XCTUnwrap(try db.queryFirst("SELECT v, typeof(v) AS class FROM box"))
    XCTAssertEqual(try row.get(String.self, "class"), expected, file: file, line: line)
    return try row.get(T.self, "v")
  }

  // MARK: INTEGER

  func testIntegerExtremesKeepAll64Bits() throws {
    for value in [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max] {
      XCTAssertEqual(try roundTrip(value, storedAs: "integer"), value)
    }
    XCTAssertEqual(try roundTrip(Int.min, storedAs: "integer"), Int.min)
    XCTAssertEqual(try roundTrip(Int.max, storedAs: "integer"), Int.max)
    XCTAssertEqual(try db.scalar(Int64.self, "SELECT -9223372036854775808"), Int64.min)
  }

  func testEverySizedIntegerAtItsLimits() throws {
    XCTAssertEqual(try roundTrip(Int8.min, storedAs: "integer"), Int8.min)
    XCTAssertEqual(try roundTrip(Int8.max, storedAs: "integer"), Int8.max)
    XCTAssertEqual(try roundTrip(Int16.min, storedAs: "integer"), Int16.min)
    XCTAssertEqual(try roundTrip(Int32.max, storedAs: "integer"), Int32.max)
    XCTAssertEqual(try roundTrip(UInt8.max, storedAs: "integer"), UInt8.max)
    XCTAssertEqual(try roundTrip(UInt16.max, storedAs: "integer"), UInt16.max)
    XCTAssertEqual(try roundTrip(UInt32.max, storedAs: "integer"), UInt32.max)
    XCTAssertEqual(try roundTrip(UInt64(Int64.max), storedAs: "integer"), UInt64(Int64.max))
    XCTAssertEqual(try roundTrip(UInt(0), storedAs: "integer"), 0)
  }

  func testUnsignedAboveInt64MaxIsRefusedOnBind() throws {
    for value: any SQLiteValueConvertible in [UInt64(Int64.max) + 1, UInt64.max, UInt.max] {
      assertSQLiteError(try db.run("INSERT INTO box(v) VALUES (?)", [value])) { error in
        XCTAssertEqual(error.code, .mismatch)
        XCTAssertTrue(error.message.contains("parameter 1"), error.message)
        XCTAssertTrue(error.message.contains("64-bit"), error.message)
      }
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM box"), 0)
  }

  func testIntegerOutOfRangeOnReadNamesTheColumn() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT 300 AS small, -1 AS natural"))
    let small = assertDecodingError(try row.get(UInt8.self, "small"))
    if case .typeMismatch = small?.error {} else { XCTFail("expected typeMismatch: \(small!)") }
    XCTAssertEqual(small?.error.codingPathText, ["small"])
    XCTAssertTrue(small?.description.contains("column 'small'") == true, small!.description)
    XCTAssertTrue(small?.description.contains("UInt8") == true, small!.description)
    XCTAssertTrue(small?.description.contains("INTEGER") == true, small!.description)
    assertDecodingError(try row.get(Int8.self, "small"))
    assertDecodingError(try row.get(UInt32.self, "natural"))
    assertDecodingError(try row.get(UInt64.self, at: 1))
    XCTAssertEqual(try row.get(Int16.self, "small"), 300)
  }

  func testBoolIsZeroOrOne() throws {
    XCTAssertEqual(try roundTrip(true, storedAs: "integer"), true)
    XCTAssertEqual(try roundTrip(false, storedAs: "integer"), false)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT ?", [true]), 1)
    let row = try XCTUnwrap(try db.queryFirst("SELECT 2 AS flag, 'true' AS word"))
    assertDecodingError(try row.get(Bool.self, "flag"))
    assertDecodingError(try row.get(Bool.self, "word"))
  }

  // MARK: REAL

  func testRealsRoundTrip() throws {
    for value in [0.0, -0.5, 1.0 / 3.0, .pi, .greatestFiniteMagnitude, .leastNonzeroMagnitude] {
      XCTAssertEqual(try roundTrip(value, storedAs: "real"), value)
    }
    XCTAssertEqual(try roundTrip(Double.infinity, storedAs: "real"), .infinity)
    XCTAssertEqual(try roundTrip(-Double.infinity, storedAs: "real"), -.infinity)
    XCTAssertEqual(try roundTrip(Float(0.1), storedAs: "real"), Float(0.1))
    XCTAssertEqual(
      try roundTrip(Float.greatestFiniteMagnitude, storedAs: "real"), .greatestFiniteMagnitude)
  }

  func testNaNIsRefused() throws {
    let nans: [any SQLiteValueConvertible] = [
      Double.nan, Float.nan, SQLiteValue.real(.nan), Double?.some(.nan),
    ]
    for value in nans {
      assertSQLiteError(try db.run("INSERT INTO box(v) VALUES (?)", [value])) { error in
        XCTAssertEqual(error.code, .mismatch)
        XCTAssertTrue(error.message.contains("NaN"), error.message)
      }
    }
    assertSQLiteError(try db.run("INSERT INTO box(v) VALUES (:v)", ["v": Double.nan])) {
      XCTAssertEqual($0.code, .mismatch)
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM box"), 0)
  }

  func testIntegerReadsAsDoubleOnlyWhenExact() throws {
    XCTAssertEqual(try db.scalar(Double.self, "SELECT 42"), 42.0)
    XCTAssertEqual(try db.scalar(Double.self, "SELECT 9007199254740992"), 9_007_199_254_740_992)
    let row = try XCTUnwrap(try db.queryFirst("SELECT 9007199254740993 AS big, 1.5 AS half"))
    assertDecodingError(try row.get(Double.self, "big"))
    // No conversion the other way.
    let half = assertDecodingError(try row.get(Int.self, "half"))
    XCTAssertTrue(half?.description.contains("REAL") == true, half!.description)
  }

  func testDoubleTooLargeForFloatIsRefused() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT 1e300 AS huge"))
    assertDecodingError(try row.get(Float.self, "huge"))
    XCTAssertEqual(try row.get(Double.self, "huge"), 1e300)
  }

  // MARK: TEXT

  func testTextRoundTripsIncludingEmptyAndNUL() throws {
    for value in [
      "", "hello", "a\0b", "\0", "naïve café 日本 👩‍👩‍👧", String(repeating: "x", count: 100_000),
    ] {
      XCTAssertEqual(try roundTrip(value, storedAs: "text"), value)
    }
    try db.run("DELETE FROM box")
    try db.run("INSERT INTO box(v) VALUES (?)", ["a\0b"])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT length(CAST(v AS BLOB)) FROM box"), 3)
  }

  func testEmptyStringIsNotNull() throws {
    try db.run("INSERT INTO box(v) VALUES (?)", [""])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM box WHERE v IS NULL"), 0)
    XCTAssertEqual(try db.scalar(String?.self, "SELECT v FROM box"), "")
  }

  /// Text is never changed: invalid UTF-8 is an error naming the column when read as a
  /// String (or a raw value), and its exact bytes when read as Data or [UInt8]. Before, it
  /// read as "\u{FFFD}(", silently.
  func testInvalidUTF8IsAnErrorNotRepaired() throws {
    try db.execute("INSERT INTO box(v) VALUES (CAST(x'C328' AS TEXT))")
    func assertRefused<T>(_ body: @autoclosure () throws -> T, line: UInt = #line) {
      let failure = assertDecodingError(try body(), line: line)
      guard case .dataCorrupted(let context)? = failure?.error else {
        return XCTFail("\(String(describing: failure))", line: line)
      }
      XCTAssertEqual(context.codingPath.last?.stringValue, "v", line: line)
      XCTAssertTrue(failure!.description.contains("not valid UTF-8"), line: line)
      XCTAssertTrue(failure!.description.contains("read it as Data"), line: line)
    }
    // Materialized rows (query, queryFirst, copy) keep the bytes.
    let rows = try db.query("SELECT v, typeof(v) FROM box")
    let first = try XCTUnwrap(try db.queryFirst("SELECT v, typeof(v) FROM box"))
    for row in [rows[0], first] {
      XCTAssertEqual(try row.get(String.self, at: 1), "text")
      assertRefused(try row.get(String.self, at: 0))
      assertRefused(try row.get(String?.self, "v"))
      assertRefused(try row.get(SQLiteValue.self, at: 0))
      assertRefused(try row.get(Int.self, at: 0))
      assertRefused(try row[0])
      assertRefused(try row["v"])
      assertRefused(try row.values)
      XCTAssertFalse(try row.isNull("v"))
      XCTAssertEqual(try row.get(Data.self, "v"), Data([0xC3, 0x28]))
      XCTAssertEqual(try row.get([UInt8]?.self, "v"), [0xC3, 0x28])
      XCTAssertEqual(try row.withUnsafeBytes(at: 0) { Array($0) }, [0xC3, 0x28])
      XCTAssertEqual(row.description, "[v: x'c328' (TEXT, not UTF-8), typeof(v): 'text']")
    }
    // Rows read in place, and their copies.
    try db.forEachRow("SELECT v FROM box") { row in
      assertRefused(try row.get(String.self, at: 0))
      assertRefused(try row[0])
      XCTAssertEqual(try row.get([UInt8].self, at: 0), [0xC3, 0x28])
      XCTAssertEqual(try row.withUnsafeBytes(at: 0) { Array($0) }, [0xC3, 0x28])
      let copy = try row.copy()
      assertRefused(try copy.get(String.self, at: 0))
      XCTAssertEqual(try copy.get(Data.self, at: 0), Data([0xC3, 0x28]))
    }
    assertRefused(try db.scalar(String.self, "SELECT v FROM box"))
    XCTAssertEqual(try db.scalar(Data.self, "SELECT v FROM box"), Data([0xC3, 0x28]))
    // Valid text next to it reads as usual, and the file still holds the same bytes.
    try db.run("INSERT INTO box(v) VALUES ('ok')")
    XCTAssertEqual(
      try db.query("SELECT v FROM box ORDER BY id").map { try $0.get(Data.self, at: 0) },
      [Data([0xC3, 0x28]), Data("ok".utf8)])
    XCTAssertEqual(try db.scalar(String.self, "SELECT hex(v) FROM box WHERE id = 1"), "C328")
  }

  /// The one conversion between classes: TEXT reads as `Data` or `[UInt8]`, its UTF-8 bytes.
  func testTextReadsAsItsBytes() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT 'é', ''"))
    XCTAssertEqual(try row.get(Data.self, at: 0), Data([0xC3, 0xA9]))
    XCTAssertEqual(try row.get([UInt8].self, at: 1), [])
    try db.forEachRow("SELECT ?", ["a\0b"]) { row in
      XCTAssertEqual(try row.get([UInt8].self, at: 0), [0x61, 0, 0x62])
    }
  }

  func testCharacter() throws {
    XCTAssertEqual(try roundTrip(Character("é"), storedAs: "text"), "é")
    XCTAssertEqual(try roundTrip(Character("👩‍👩‍👧"), storedAs: "text"), "👩‍👩‍👧")
    let row = try XCTUnwrap(try db.queryFirst("SELECT 'ab' AS two, '' AS none"))
    assertDecodingError(try row.get(Character.self, "two"))
    assertDecodingError(try row.get(Character.self, "none"))
  }

  func testDateIsSQLiteTextInUTCWithMilliseconds() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000.123)
    try db.run("INSERT INTO box(v) VALUES (?)", [date])
    XCTAssertEqual(try db.scalar(String.self, "SELECT v FROM box"), "2023-11-14 22:13:20.123")
    let back = try XCTUnwrap(try db.scalar(Date.self, "SELECT v FROM box"))
    XCTAssertEqual(back.timeIntervalSince1970, date.timeIntervalSince1970, accuracy: 0.000_5)

    // Many milliseconds survive exactly (no truncation to the millisecond below).
    for millis in stride(from: Int64(1_700_000_000_000), to: 1_700_000_001_000, by: 7) {
      let exact = Date(timeIntervalSince1970: Double(millis) / 1000)
      let read = try XCTUnwrap(try roundTrip(exact, storedAs: "text"))
      XCTAssertEqual((read.timeIntervalSince1970 * 1000).rounded(), Double(millis))
    }
    // Sub-millisecond precision is rounded to the nearest millisecond.
    let fine = Date(timeIntervalSince1970: 1_700_000_000.123_9)
    let rounded = try roundTrip(fine, storedAs: "text")
    XCTAssertEqual(rounded.timeIntervalSince1970, 1_700_000_000.124, accuracy: 0.000_1)

    // Before 1970 too.
    let old = Date(timeIntervalSince1970: -0.5)
    try db.run("DELETE FROM box")
    try db.run("INSERT INTO box(v) VALUES (?)", [old])
    XCTAssertEqual(try db.scalar(String.self, "SELECT v FROM box"), "1969-12-31 23:59:59.500")
    XCTAssertEqual(try db.scalar(Date.self, "SELECT v FROM box"), old)

    XCTAssertEqual(
      try db.scalar(Date.self, "SELECT '2023-11-14T22:13:20Z'")?.timeIntervalSince1970,
      1_700_000_000)
    let row = try XCTUnwrap(try db.queryFirst("SELECT 'yesterday' AS d, 1700000000 AS n"))
    assertDecodingError(try row.get(Date.self, "d"))
    // INTEGER and REAL are Unix seconds.
    XCTAssertEqual(try row.get(Date.self, "n"), Date(timeIntervalSince1970: 1_700_000_000))
  }

  func testUUIDIsTheCanonicalString() throws {
    let uuid = UUID()
    XCTAssertEqual(try roundTrip(uuid, storedAs: "text"), uuid)
    XCTAssertEqual(try db.scalar(String.self, "SELECT v FROM box"), uuid.uuidString)
    let lower = uuid.uuidString.lowercased()
    XCTAssertEqual(try db.scalar(UUID.self, "SELECT ?", [lower]), uuid)
    XCTAssertThrowsError(try db.scalar(UUID.self, "SELECT 'not-a-uuid'"))
    XCTAssertThrowsError(try db.scalar(UUID.self, "SELECT ?", [Data(repeating: 1, count: 16)]))
  }

  func testURLIsTheAbsoluteString() throws {
    let url = try XCTUnwrap(URL(string: "https://example.com/a%20b/c?q=1&r=%C3%A9#frag"))
    XCTAssertEqual(try roundTrip(url, storedAs: "text"), url)
    XCTAssertEqual(try db.scalar(String.self, "SELECT v FROM box"), url.absoluteString)
    let file = URL(fileURLWithPath: "/tmp/some file.txt")
    XCTAssertEqual(try roundTrip(file, storedAs: "text"), file)
  }

  func testDecimalIsExactText() throws {
    let digits = "3.14159265358979323846264338327950288"
    let value = try XCTUnwrap(Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX")))
    XCTAssertEqual(try roundTrip(value, storedAs: "text"), value)
    XCTAssertEqual(try db.scalar(String.self, "SELECT v FROM box"), digits)
    XCTAssertEqual(
      try roundTrip(Decimal(string: "-0.01")!, storedAs: "text"), Decimal(string: "-0.01"))
    let row = try XCTUnwrap(try db.queryFirst("SELECT 'abc' AS t, 1.5 AS r"))
    assertDecodingError(try row.get(Decimal.self, "t"))
    // REAL reads through its shortest text (see DecimalReadingTests).
    XCTAssertEqual(try row.get(Decimal.self, "r"), Decimal(string: "1.5"))
    // Text that merely starts like a number is not read as one.
    for text in ["1.5abc", "12 34", "1,5", " 7", "", "-", ".", "1e", "NaN", "0x10"] {
      XCTAssertThrowsError(try db.scalar(Decimal.self, "SELECT ?", [text]), text)
    }
    for (text, value) in [("1e5", 100_000), ("+.5e1", 5), ("-12", -12), ("7.", 7)] {
      XCTAssertEqual(try db.scalar(Decimal.self, "SELECT ?", [text]), Decimal(value), text)
    }
  }

  func testDecimalNaNIsRefusedNotStoredUnreadable() throws {
    assertSQLiteError(try db.run("INSERT INTO box(v) VALUES (?)", [Decimal.nan])) { error in
      XCTAssertEqual(error.code, .mismatch)
      XCTAssertTrue(error.message.contains("NaN"), error.message)
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM box"), 0)
  }

  // MARK: BLOB

  func testEmptyBlobIsNotNull() throws {
    XCTAssertEqual(try roundTrip(Data(), storedAs: "blob"), Data())
    XCTAssertEqual(try roundTrip([UInt8](), storedAs: "blob"), [])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM box WHERE v IS NULL"), 0)
    XCTAssertEqual(try db.scalar(Data?.self, "SELECT v FROM box"), Data())
    try db.forEachRow("SELECT v FROM box") { row in
      XCTAssertEqual(try row[0], .blob(Data()))
      XCTAssertEqual(try row.withUnsafeBytes(at: 0) { $0.count }, 0)
    }
  }

  func testOneMegabyteBlob() throws {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<1_048_576).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    let data = Data(bytes)
    XCTAssertEqual(try roundTrip(data, storedAs: "blob"), data)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT length(v) FROM box"), 1_048_576)
    XCTAssertEqual(try roundTrip(bytes, storedAs: "blob"), bytes)
    try db.forEachRow("SELECT v FROM box") { row in
      XCTAssertEqual(try row.withUnsafeBytes(at: 0) { Data($0) }, data)
    }
  }

  func testBlobAndTextDoNotConvert() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT x'414243' AS b, 'ABC' AS t"))
    let blob = assertDecodingError(try row.get(String.self, "b"))
    XCTAssertTrue(blob?.description.contains("BLOB") == true, blob!.description)
    // TEXT reads as its bytes (see testTextReadsAsItsBytes); other classes do not.
    XCTAssertEqual(try row.get(Data.self, "t"), Data("ABC".utf8))
    let number = try XCTUnwrap(try db.queryFirst("SELECT 1 AS i"))
    let integer = assertDecodingError(try number.get(Data.self, "i"))
    XCTAssertTrue(integer?.description.contains("INTEGER") == true, integer!.description)
    assertDecodingError(try number.get([UInt8].self, "i"))
  }

  // MARK: NULL

  func testNullIsNeverEmptyOrZero() throws {
    try db.run("INSERT INTO box(v) VALUES (?)", [String?.none])
    let row = try XCTUnwrap(try db.queryFirst("SELECT v FROM box"))
    XCTAssertEqual(try row[0], .null)
    XCTAssertTrue(try row.isNull("v"))
    let failures: [(String, () throws -> Any)] = [
      ("String", { try row.get(String.self, "v") }), ("Int", { try row.get(Int.self, "v") }),
      ("Int64", { try row.get(Int64.self, "v") }), ("Double", { try row.get(Double.self, "v") }),
      ("Bool", { try row.get(Bool.self, "v") }), ("Data", { try row.get(Data.self, "v") }),
      ("[UInt8]", { try row.get([UInt8].self, "v") }),
      ("Date", { try row.get(Date.self, "v") }), ("Mood", { try row.get(Mood.self, "v") }),
    ]
    for (name, read) in failures {
      let failure = assertDecodingError(try read())
      if case .valueNotFound = failure?.error {
      } else {
        XCTFail("\(name): \(String(describing: failure))")
      }
      XCTAssertTrue(failure?.description.contains("NULL") == true, name)
      XCTAssertTrue(failure?.description.contains("column 'v'") == true, name)
    }
    XCTAssertNil(try row.get(String?.self, "v"))
    XCTAssertNil(try row.get(Int?.self, "v"))
    XCTAssertNil(try row.get(Data?.self, "v"))
    XCTAssertNil(try row.get(Mood?.self, "v"))
    XCTAssertNil(try db.scalar(Int.self, "SELECT v FROM box"))
  }

  func testOptionalsBindNullAndWrapValues() throws {
    let none: Int? = nil
    XCTAssertEqual(try db.scalar(String.self, "SELECT typeof(?)", [none]), "null")
    XCTAssertEqual(try db.scalar(String.self, "SELECT typeof(?)", [Int?.some(3)]), "integer")
    XCTAssertEqual(try db.scalar(String.self, "SELECT typeof(?)", [nil]), "null")
    let row = try XCTUnwrap(try db.queryFirst("SELECT 5, 'five'"))
    XCTAssertEqual(try row.get(Int?.self, at: 0), 5)
    // An optional does not hide a class mismatch.
    assertDecodingError(try row.get(Int?.self, at: 1))
  }

  // MARK: User types

  func testUserEnumRoundTrip() throws {
    XCTAssertEqual(try roundTrip(Mood.grumpy, storedAs: "text"), .grumpy)
    XCTAssertEqual(try db.scalar(String.self, "SELECT v FROM box"), "grumpy")
    XCTAssertEqual(try roundTrip(Priority.high, storedAs: "integer"), .high)
    XCTAssertEqual(Mood.storageClass, .text)
    XCTAssertEqual(Priority.storageClass, .integer)

    let row = try XCTUnwrap(try db.queryFirst("SELECT 'sad' AS mood, 5 AS priority"))
    let unknown = assertDecodingError(try row.get(Mood.self, "mood"))
    XCTAssertTrue(unknown?.description.contains("Mood") == true, unknown!.description)
    XCTAssertTrue(unknown?.description.contains("column 'mood'") == true, unknown!.description)
    assertDecodingError(try row.get(Priority.self, "priority"))
  }

  // MARK: SQLiteValue itself

  func testRawValuesRoundTripEveryStorageClass() throws {
    let values: [SQLiteValue] = [
      .integer(.min), .real(-2.5), .text("t\0x"), .blob(Data([0, 1, 2])), .blob(Data()), .null,
    ]
    for value in values {
      XCTAssertEqual(
        try roundTrip(value, storedAs: value.storageClass.rawValue.lowercased()), value)
    }
  }

  func testEveryStorageClassInMemoryToo() throws {
    let memory = try Connection.inMemory()
    try memory.execute("CREATE TABLE box(id INTEGER PRIMARY KEY, v)")
    let values: [SQLiteValue] = [
      .integer(.max), .integer(.min), .real(.pi), .text(""), .text("x\0y"),
      .blob(Data()), .blob(Data(repeating: 0xAB, count: 1 << 20)), .null,
    ]
    for value in values { try memory.run("INSERT INTO box(v) VALUES (?)", [value]) }
    let back = try memory.query("SELECT v FROM box ORDER BY id").map { try $0[0] }
    XCTAssertEqual(back, values)
    let classes = try memory.query("SELECT typeof(v) FROM box ORDER BY id").map {
      try $0.get(String.self, at: 0)
    }
    XCTAssertEqual(classes, values.map { $0.storageClass.rawValue.lowercased() })
  }

  func testSQLiteValueLiteralsAndDescription() {
    let values: [SQLiteValue] = [1, 2.5, "it's", nil, true]
    XCTAssertEqual(values, [.integer(1), .real(2.5), .text("it's"), .null, .integer(1)])
    XCTAssertEqual(values.map(\.description), ["1", "2.5", "'it''s'", "NULL", "1"])
    XCTAssertEqual(SQLiteValue.blob(Data([0, 255])).description, "x'00ff'")
    XCTAssertEqual(values.map(\.storageClass), [.integer, .real, .text, .null, .integer])
    XCTAssertTrue(SQLiteValue.null.isNull)
    XCTAssertFalse(SQLiteValue.text("").isNull)
  }

  func testStorageClassesOfTheStandardConversions() {
    XCTAssertEqual(Int.storageClass, .integer)
    XCTAssertEqual(UInt8.storageClass, .integer)
    XCTAssertEqual(Bool.storageClass, .integer)
    XCTAssertEqual(Float.storageClass, .real)
    XCTAssertEqual(Date.storageClass, .text)
    XCTAssertEqual(UUID.storageClass, .text)
    XCTAssertEqual(Decimal.storageClass, .text)
    XCTAssertEqual([UInt8].storageClass, .blob)
    XCTAssertEqual(Int?.storageClass, .integer)
  }
}

final class DateRangeTests: XCTestCase {
  func testDatesTheTextFormCannotHoldAreRefusedWhenBound() throws {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE t(d TEXT)")
    let outside = [
      Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity),
      Date(timeIntervalSince1970: -62_135_596_801), Date(timeIntervalSince1970: 253_402_300_800),
    ]
    for date in outside {
      XCTAssertThrowsError(try db.run("INSERT INTO t VALUES (?)", [date])) { error in
        XCTAssertEqual((error as? SQLiteError)?.code, .mismatch)
      }
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 0)
    let edges = [
      Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799),
    ]
    for date in edges { try db.run("INSERT INTO t VALUES (?)", [date]) }
    XCTAssertEqual(try db.query("SELECT d FROM t").map { try $0.get(Date.self, at: 0) }, edges)
  }
}

final class FloatReadingTests: XCTestCase {
  func testFloatReadsIntegersOnlyWhenExact() throws {
    let db = try Connection.inMemory()
    let row = try XCTUnwrap(db.queryFirst("SELECT 16777216, 16777217, 2.5"))
    XCTAssertEqual(try row.get(Float.self, at: 0), 16_777_216)
    XCTAssertThrowsError(try row.get(Float.self, at: 1)) { error in
      XCTAssertTrue("\(error)".contains("INTEGER 16777217"), "\(error)")
    }
    XCTAssertEqual(try row.get(Float.self, at: 2), 2.5)
  }
}

/// A date is stored rounded to the millisecond: the range check applies to what is stored.
final class DateRoundingEdgeTests: XCTestCase {
  func testADateThatRoundsIntoTheYear10000IsRefused() throws {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE t(d TEXT)")
    // Before: stored as "10000-01-01 00:00:00.000", outside the documented years 1 to 9999.
    XCTAssertThrowsError(
      try db.run("INSERT INTO t VALUES (?)", [Date(timeIntervalSince1970: 253_402_300_799.9996)])
    ) { XCTAssertEqual(($0 as? SQLiteError)?.code, .mismatch) }
    try db.run("INSERT INTO t VALUES (?)", [Date(timeIntervalSince1970: 253_402_300_799.9994)])
    // Half a millisecond before the year 1 rounds to its first instant, which is stored.
    try db.run("INSERT INTO t VALUES (?)", [Date(timeIntervalSince1970: -62_135_596_800.0004)])
    XCTAssertEqual(
      try db.query("SELECT d FROM t").map { try $0.get(Date.self, at: 0) },
      [
        Date(timeIntervalSince1970: 253_402_300_799.999),
        Date(timeIntervalSince1970: -62_135_596_800),
      ])
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT d FROM t WHERE rowid = 1"), "9999-12-31 23:59:59.999")
  }
}

/// SQLite's date functions count days in the proleptic Gregorian calendar;
/// Foundation's Gregorian calendar turns Julian before 1582-10-15.
final class DateCalendarTests: XCTestCase {
  func testDatesBefore1582AreWrittenInTheProlepticGregorianCalendar() throws {
    let db = try Connection.inMemory()
    for seconds: Int64 in [
      -14_000_000_000, -12_219_292_801, -62_135_596_800, -62_135_596_800 + 86_399,
    ] {
      let date = Date(timeIntervalSince1970: Double(seconds))
      // Before: 1526-05-01 for SQLite's 1526-05-11, 0001-01-03 for 0001-01-01.
      XCTAssertEqual(
        try db.scalar(String.self, "SELECT ?", [date]),
        try db.scalar(
          String.self, "SELECT strftime('%Y-%m-%d %H:%M:%f', ?, 'unixepoch')", [seconds]))
      XCTAssertEqual(try db.scalar(Int64.self, "SELECT unixepoch(?)", [date]), seconds)
      XCTAssertEqual(try db.scalar(Date.self, "SELECT ?", [date]), date)
    }
    // 1000 is not a leap year in the Gregorian calendar: as in SQLite's date functions,
    // February 29 rolls over into March 1.
    XCTAssertEqual(
      try db.scalar(Date.self, "SELECT '1000-02-29T12:00:00.5Z'"),
      try db.scalar(Date.self, "SELECT '1000-03-01 12:00:00.500'"))
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT strftime('%Y-%m-%d', julianday('1000-02-29'))"),
      "1000-03-01")
    XCTAssertEqual(
      try db.scalar(Date.self, "SELECT '2000-02-29T12:00:00.5Z'"),
      Date(timeIntervalSince1970: 951_825_600.5))
  }
}

/// Decimal is stored as text so that no digit is lost: reading must not lose any either.
final class DecimalDigitsTests: XCTestCase {
  func testTextWithMoreDigitsThanDecimalHoldsIsRefusedNotRounded() throws {
    let db = try Connection.inMemory()
    for text in [
      "123456789012345678901234567890123456789012345",
      "0.123456789012345678901234567890123456789012345",
    ] {
      // Before: read as 123456789012345678901234567890123456789000000, silently.
      XCTAssertThrowsError(try db.scalar(Decimal.self, "SELECT ?", [text]), text)
    }
    for text in [
      "340282366920938463463374607431768211455", "-0.00000000000000000000000000000000000001",
      "00012.50000", "1E5", "-0", "12345678901234567890123456789012345678e-90",
    ] {
      let decimal = try XCTUnwrap(try db.scalar(Decimal.self, "SELECT ?", [text]), text)
      XCTAssertEqual(decimal, Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
    }
    for value in [Decimal.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.pi, 0] {
      XCTAssertEqual(try db.scalar(Decimal.self, "SELECT ?", [value]), value)
    }
  }
}

/// Decimal reads INTEGER and REAL too.
final class DecimalReadingTests: SQLiteTestCase {
  func testIntegerReadsExactlyAndRealThroughItsShortestText() throws {
    let row = try XCTUnwrap(
      try db.queryFirst(
        "SELECT 9223372036854775807, -9223372036854775808, 0, 0.1, -2.5, 1e20, 123456.789, "
          + "1.5e100, 5e-324, 1e999, '1.5abc', ' 1', '0x10', 1.7976931348623157e308"))
    XCTAssertEqual(try row.get(Decimal.self, at: 0), Decimal(Int64.max))
    XCTAssertEqual(try row.get(Decimal.self, at: 0).description, "9223372036854775807")
    XCTAssertEqual(try row.get(Decimal.self, at: 1).description, "-9223372036854775808")
    XCTAssertEqual(try row.get(Decimal.self, at: 2), 0)
    // 0.1 as a Double is 0.1000000000000000055511151231257827...: its shortest text is 0.1.
    XCTAssertEqual(try row.get(Decimal.self, at: 3), Decimal(string: "0.1"))
    XCTAssertEqual(try row.get(Decimal.self, at: 4), Decimal(string: "-2.5"))
    XCTAssertEqual(try row.get(Decimal.self, at: 5), Decimal(string: "100000000000000000000"))
    XCTAssertEqual(try row.get(Decimal.self, at: 6), Decimal(string: "123456.789"))
    XCTAssertEqual(try row.get(Decimal.self, at: 7), Decimal(string: "15e99"))
    // Beyond a Decimal's exponent range, and infinity: refused, not rounded.
    for index in [8, 9, 13] {
      let failure = assertDecodingError(try row.get(Decimal.self, at: index))
      XCTAssertTrue(failure?.description.contains("stored REAL") == true, "\(index)")
    }
    // Text that is not a plain decimal number is still refused.
    for index in 10...12 {
      let failure = assertDecodingError(try row.get(Decimal.self, at: index))
      XCTAssertTrue(failure?.description.contains("not a plain decimal number") == true)
    }
  }
}
