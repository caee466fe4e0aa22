/// The table options a CREATE TABLE statement ends with, `WITHOUT ROWID` and `STRICT`
/// (<https://sqlite.org/lang_createtable.html>), read from the statement as
/// `sqlite_schema` stores it.
///
/// `PRAGMA table_list` reports them too, but it walks every table of the schema to find
/// one (its cost grows with the file's tables); the statement is at hand already. The text
/// is one SQLite accepted: it is read as SQLite's tokenizer reads it as far as matters here
/// (strings, quoted names, comments, parentheses), not parsed.
struct TableOptions: Equatable {
  /// Whether the table is `WITHOUT ROWID`.
  var isWithoutRowID = false
  /// Whether the table is `STRICT`.
  var isStrict = false

  /// No options (a view, a virtual table, a statement not at hand).
  init() {}

  /// The options of `sql`, a CREATE TABLE (or CREATE VIRTUAL TABLE, which has none)
  /// statement: the words after the parenthesis that closes the column list.
  init(createStatement sql: String) {
    let bytes = Array(sql.utf8)
    var index = 0
    var depth = 0
    var end: Int?
    scan: while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
        index = Self.skipQuoted(bytes, from: index)
      case UInt8(ascii: "-"), UInt8(ascii: "/"):
        let skipped = Self.skipComment(bytes, from: index)
        index = skipped == index ? index + 1 : skipped
      case UInt8(ascii: "("):
        depth += 1
        index += 1
      case UInt8(ascii: ")"):
        depth -= 1
        index += 1
        if depth == 0 {
          end = index
          break scan
        }
      default:
        index += 1
      }
    }
    guard var index = end else { return }
    var words: [String] = []
    var word: [UInt8] = []
    while index <= bytes.count {
      let byte = index < bytes.count ? bytes[index] : UInt8(ascii: " ")
      if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/") {
        let skipped = Self.skipComment(bytes, from: index)
        if skipped != index {
          index = skipped
          continue
        }
      }
      if Self.isWordByte(byte) {
        word.append(byte)
      } else if !word.isEmpty {
        words.append(String(decoding: word, as: UTF8.self).uppercased())
        word = []
      }
      index += 1
    }
    isStrict = words.contains("STRICT")
    isWithoutRowID = zip(words, words.dropFirst()).contains { $0 == "WITHOUT" && $1 == "ROWID" }
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
  }

  /// The position after the string or quoted name starting at `start` (a doubled closing
  /// quote stands for itself inside it; `[...]` has no escape).
  private static func skipQuoted(_ bytes: [UInt8], from start: Int) -> Int {
    let open = bytes[start]
    let close = open == UInt8(ascii: "[") ? UInt8(ascii: "]") : open
    var index = start + 1
    while index < bytes.count {
      if bytes[index] == close {
        if close != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == close {
          index += 2
          continue
        }
        return index + 1
      }
      index += 1
    }
    return index
  }

  /// The position after the comment starting at `start`, or `start` when none starts there.
  private static func skipComment(_ bytes: [UInt8], from start: Int) -> Int {
    guard start + 1 < bytes.count else { return start }
    switch (bytes[start], bytes[start + 1]) {
    case (UInt8(ascii: "-"), UInt8(ascii: "-")):
      var index = start + 2
      while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
      return index
    case (UInt8(ascii: "/"), UInt8(ascii: "*")):
      var index = start + 2
      while index + 1 < bytes.count
        && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
      {
        index += 1
      }
      return min(index + 2, bytes.count)
    default:
      return start
    }
  }
}
