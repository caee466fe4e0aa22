// libFuzzer targets over the code that parses or escapes what a user hands in. Built with
// the library's sources into one executable by Scripts/fuzz.sh (`swiftc
// -sanitize=fuzzer,address`), outside the package's normal build; the target is chosen by
// the SWIFTLITE_FUZZ_TARGET environment variable. Each target states the property it
// checks and stops the process (a crash libFuzzer records) when it does not hold.

import Foundation

/// One in-memory connection per process, for the targets that ask SQLite.
nonisolated(unsafe) private var connection: Connection?

private func database() -> Connection {
  if let connection { return connection }
  let db = try! Connection.inMemory()
  try! db.execute("CREATE VIRTUAL TABLE doc USING fts5(body)")
  try! db.execute("INSERT INTO doc(body) VALUES ('alpha beta'), ('gamma \"delta\"'), ('')")
  try! db.execute("CREATE TABLE t(a, b)")
  connection = db
  return db
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition {
    FileHandle.standardError.write(Data(("property failed: " + message() + "\n").utf8))
    abort()
  }
}

/// SQLite's date text: never a crash, and a text read as a date is one SQLite's own
/// `julianday()` reads as the same instant (SQLite may read more: 'now', Julian numbers).
private func fuzzDateText(_ text: String) {
  guard let date = SQLiteDateText.parse(text) else { return }
  let db = database()
  let julian = try? db.scalar(
    Int64.self, "SELECT CAST(round((julianday(?) - 2440587.5) * 86400000.0) AS INTEGER)",
    [text])
  check(julian != nil, "SwiftLite reads \(text.debugDescription) as a date, SQLite does not")
  let ours = Int64((date.timeIntervalSince1970 * 1000).rounded())
  if let julian { check(abs(julian - ours) <= 1, "\(text.debugDescription): \(ours) vs \(julian)") }
  // A text form found in a column writes back its own text, and widens for a date it
  // cannot hold without losing the millisecond.
  guard let form = DateTextForm(of: text) else { return }
  check((try? form.text(for: date)) == text, "\(text.debugDescription) not written back")
  for shift in [0.001, 0.25, 1, 61, 3_600.5] {
    let later = date.addingTimeInterval(shift)
    guard let written = try? form.text(for: later) else { continue }
    let back = SQLiteDateText.parse(written).map { ($0.timeIntervalSince1970 * 1000).rounded() }
    check(
      back == (later.timeIntervalSince1970 * 1000).rounded(),
      "\(text.debugDescription) + \(shift)s written \(written.debugDescription)")
  }
}

/// FTS query escaping: whatever the input, each factory's query is valid FTS5 syntax.
private func fuzzFullTextQuery(_ text: String) {
  let db = database()
  for query in [
    FullTextQuery.allWords(in: text), .anyWord(in: text), .phrase(text), .prefixes(in: text),
  ] where !query.isEmpty {
    do {
      _ = try db.query("SELECT rowid FROM doc WHERE doc MATCH ?", [query.text])
    } catch {
      check(false, "\(text.debugDescription) gave \(query.text.debugDescription): \(error)")
    }
  }
}

/// Identifier quoting and interpolation: no input changes the statement's shape. A quoted
/// name is one identifier (the statement has the same parameters, and fails only for a
/// missing column); an interpolated value is one parameter.
private func fuzzSQLShape(_ text: String) {
  let db = database()
  let value: SQL = "SELECT a FROM t WHERE b = \(text) ORDER BY a"
  check(value.arguments.count == 1, "a value became \(value.arguments.count) parameters")
  do {
    let statement = try db.prepare(value.text)
    check(statement.parameterCount == 1, "\(text.debugDescription) changed the parameters")
  } catch {
    check(false, "an interpolated value broke the SQL: \(error)")
  }
  guard !text.utf8.contains(0) else { return }
  let named: SQL = "SELECT \(identifier: text) FROM t WHERE b = \(1)"
  do {
    let statement = try db.prepare(named.text)
    check(statement.parameterCount == 1, "\(text.debugDescription) changed the parameters")
  } catch let error as SQLiteError {
    check(
      error.message.hasPrefix("no such column"),
      "a quoted identifier \(text.debugDescription) gave: \(error.message)")
  } catch {
    check(false, "\(error)")
  }
}

/// One family of `Codable` types decoded from arbitrary rows: never a crash, only a
/// value or a `DecodingError`.
private struct Decoded: Codable {
  struct Inner: Codable {
    var x: Int
    var y: [String]
  }
  var id: Int64
  var name: String?
  var score: Double
  var flag: Bool
  var when: Date?
  var data: Data
  var tags: [String]
  var inner: Inner?
  var small: Int8
  var big: UInt64?
}

private func fuzzRowDecoder(_ bytes: [UInt8]) {
  let names = ["id", "name", "score", "flag", "when", "data", "tags", "inner", "small", "big"]
  var values: [SQLiteValue] = []
  var position = 0
  func next() -> UInt8 {
    defer { position += 1 }
    return position < bytes.count ? bytes[position] : 0
  }
  for _ in names {
    let kind = next() % 6
    let length = Int(next() % 24)
    let payload = (0..<length).map { _ in next() }
    switch kind {
    case 0: values.append(.null)
    case 1:
      let number = payload.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
      values.append(.integer(number))
    case 2:
      let bits = payload.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      values.append(.real(Double(bitPattern: bits)))
    case 3: values.append(.text(String(decoding: payload, as: UTF8.self)))
    case 4: values.append(.blob(Data(payload)))
    default:
      values.append(
        .text(["[]", "[\"a\"]", "{\"x\":1,\"y\":[]}", "2021-01-01", "1.5"][length % 5]))
    }
  }
  let row = Row(columns: names, values: values)
  do {
    _ = try RowDecoder().decode(Decoded.self, from: row)
  } catch is DecodingError {
  } catch {
    check(false, "decoding threw \(error), not a DecodingError")
  }
}

/// Changeset bytes: whatever they hold, reading, inverting and applying them gives a
/// result or a typed error, never a crash or a hang, and a failed apply changes nothing.
private func fuzzChangeset(_ bytes: [UInt8]) {
  let db = database()
  let changeset = Changeset(data: Data(bytes))
  _ = try? changeset.changes()
  _ = try? changeset.inverted()
  _ = try? changeset.concatenated(with: changeset)
  let before = try? db.scalar(Int.self, "SELECT count(*) FROM t")
  do {
    try db.apply(changeset) { _ in .omit }
  } catch {
    let after = try? db.scalar(Int.self, "SELECT count(*) FROM t")
    check(before == after, "a failed apply changed the table: \(error)")
  }
  _ = try? db.execute("DELETE FROM t")
}

/// Schema snapshot files: any bytes read as a snapshot give one or a typed error.
private func fuzzSnapshot(_ bytes: [UInt8]) {
  guard let snapshot = try? SchemaSnapshot(jsonData: Data(bytes)) else { return }
  // What reads back writes back to the same snapshot.
  if let data = try? snapshot.jsonData() {
    check((try? SchemaSnapshot(jsonData: data)) != nil, "a snapshot's own JSON does not read")
  }
}

private let target = ProcessInfo.processInfo.environment["SWIFTLITE_FUZZ_TARGET"] ?? "date"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let text = String(decoding: bytes, as: UTF8.self)
  switch target {
  case "date": fuzzDateText(text)
  case "fts": fuzzFullTextQuery(text)
  case "sql": fuzzSQLShape(text)
  case "decoder": fuzzRowDecoder(bytes)
  case "changeset": fuzzChangeset(bytes)
  case "snapshot": fuzzSnapshot(bytes)
  default: check(false, "unknown SWIFTLITE_FUZZ_TARGET \(target)")
  }
  return 0
}
