/// Finds the values interpolated as a whole `ORDER BY`, `GROUP BY` or `PARTITION BY` term.
///
/// `"SELECT name FROM user ORDER BY \(column)"` binds `column`, so SQLite orders by a
/// constant: every row ties, and they come back in no particular order, without an error.
/// (A bound integer is a constant too: `ORDER BY 2` written in the SQL means the second
/// column, a bound `2` does not.) An ``SQL`` value keeps where its `\(value)` parameters
/// are, and this check reads the whole text around each when the SQL runs: a parameter
/// that is a whole term of one of those clauses binds a value that refuses to bind, so
/// every call that runs the SQL throws `SQLiteError` `.misuse`, naming the clause and
/// `\(identifier:)`.
///
/// A term is whole when the parameter (alone in parentheses or not) follows `ORDER BY`,
/// `GROUP BY`, `PARTITION BY` or a comma of such a list, and is followed by the end of the text, a comma, a `)`, a `;`, or
/// a word that ends a term (`ASC`, `DESC`, `COLLATE`, `NULLS`, `LIMIT`, ...). A value in an
/// expression (`ORDER BY abs(x - \(n))`, `CASE WHEN a = \(x) ...`) stays a value. Comments,
/// string literals and quoted names are skipped as SQLite skips them. `?` written in the
/// text itself is not checked: only interpolated values are known to be values.
enum ConstantTermCheck {
  /// The arguments of `sql`, those of the `\(value)` parameters that are whole terms
  /// replaced by values that refuse to bind, so that running the SQL throws `.misuse`.
  static func checkedArguments(of sql: SQL) -> [(any SQLiteValueConvertible)?] {
    var arguments = sql.arguments
    guard !sql.valueParameters.isEmpty, mayHoldAClause(sql.text) else { return arguments }
    let tokens = Self.tokens(of: sql.text)
    for parameter in sql.valueParameters {
      guard let index = tokens.firstIndex(where: { $0.start == parameter.offset }),
        tokens[index].kind == .parameter, parameter.argument < arguments.count,
        let clause = wholeTermClause(tokens, at: index)
      else { continue }
      let message =
        "a value interpolated as a whole \(clause) term is bound, so SQLite "
        + (clause == "ORDER BY" ? "orders" : clause == "GROUP BY" ? "groups" : "partitions")
        + " by a constant, not by a column: interpolate a column's name as "
        + "\\(identifier: name) or as a Column (a bound integer is no column number either)"
      arguments[parameter.argument] = RefusedValue(
        error: SQLiteError.misuse(message, sql: sql.text))
    }
    return arguments
  }

  /// Whether the text holds `by` in any case: without it, no parameter is a term.
  private static func mayHoldAClause(_ text: String) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte | 0x20 == UInt8(ascii: "y") && previous | 0x20 == UInt8(ascii: "b") { return true }
      previous = byte
    }
    return false
  }

  /// `ORDER BY`, `GROUP BY` or `PARTITION BY` when the parameter token at `index` is a whole
  /// term of such a clause, else `nil`.
  private static func wholeTermClause(_ tokens: [Token], at index: Int) -> String? {
    // A value in parentheses, `(?)` or `((?))`, is as constant as a bare one.
    var before = index - 1
    var after = index + 1
    while before >= 0, after < tokens.count,
      tokens[before].kind == .punctuation(UInt8(ascii: "(")),
      tokens[after].kind == .punctuation(UInt8(ascii: ")"))
    {
      before -= 1
      after += 1
    }
    guard endsTerm(after < tokens.count ? tokens[after] : nil) else { return nil }
    guard before >= 0 else { return nil }
    if let clause = clause(endingAt: before, tokens) { return clause }
    guard tokens[before].kind == .punctuation(UInt8(ascii: ",")) else { return nil }
    // A comma: walk back over the terms before it, at this depth of parentheses.
    var depth = 0
    var position = before - 1
    while position >= 0 {
      let token = tokens[position]
      switch token.kind {
      case .punctuation(UInt8(ascii: ")")): depth += 1
      case .punctuation(UInt8(ascii: "(")):
        if depth == 0 { return nil }
        depth -= 1
      case .punctuation(UInt8(ascii: ";")): return nil
      case .word(let word) where depth == 0:
        if let clause = clause(endingAt: position, tokens) { return clause }
        // `IS DISTINCT FROM` and `IS NOT DISTINCT FROM` are operators of a term.
        if word == "FROM", position > 0, tokens[position - 1].kind == .word("DISTINCT") {
          break
        }
        if listEnders.contains(word) { return nil }
      default: break
      }
      position -= 1
    }
    return nil
  }

  /// The clause whose `BY` is the token at `index`, or `nil`.
  private static func clause(endingAt index: Int, _ tokens: [Token]) -> String? {
    guard index > 0, tokens[index].kind == .word("BY"),
      case .word(let word) = tokens[index - 1].kind,
      ["ORDER", "GROUP", "PARTITION"].contains(word)
    else { return nil }
    return word + " BY"
  }

  /// Whether the token after a parameter ends the term it started.
  private static func endsTerm(_ next: Token?) -> Bool {
    guard let next else { return true }
    switch next.kind {
    case .punctuation(let byte): return [UInt8(ascii: ","), 0x29, 0x3B].contains(byte)  // , ) ;
    case .word(let word): return termEnders.contains(word)
    default: return false
    }
  }

  /// The words that may follow a whole term.
  private static let termEnders: Set<String> = [
    "ASC", "DESC", "COLLATE", "NULLS", "LIMIT", "OFFSET", "HAVING", "WINDOW", "ORDER", "UNION",
    "EXCEPT", "INTERSECT", "RETURNING", "ROWS", "RANGE", "GROUPS",
  ]

  /// The words that no ORDER BY, GROUP BY or PARTITION BY term holds outside parentheses:
  /// walking back from a comma, one of them means the comma belongs to another list.
  private static let listEnders: Set<String> = [
    "SELECT", "FROM", "WHERE", "HAVING", "WINDOW", "LIMIT", "OFFSET", "VALUES", "SET", "ON",
    "USING", "RETURNING", "UNION", "EXCEPT", "INTERSECT", "INTO", "JOIN", "WITH", "DO", "ROWS",
    "RANGE", "GROUPS",
  ]

  // MARK: Tokens

  private struct Token {
    enum Kind: Equatable {
      /// A keyword or a bare name, ASCII letters upper-cased.
      case word(String)
      /// `?` or `?NNN`.
      case parameter
      /// One byte of punctuation or of an operator.
      case punctuation(UInt8)
      /// A string, a quoted name, a number, a named parameter.
      case other
    }
    let kind: Kind
    /// The UTF-8 offset of the token's first byte.
    let start: Int
  }

  /// The tokens of `text`, without blanks and comments, as SQLite's tokenizer splits it.
  private static func tokens(of text: String) -> [Token] {
    let bytes = Array(text.utf8)
    var tokens: [Token] = []
    var position = 0
    func isWordByte(_ byte: UInt8) -> Bool {
      byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
        || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
        || (0x61...0x7A).contains(byte)
    }
    /// The position after the quote closing the one at `start` (a doubled one is inside).
    func skipQuoted(from start: Int, closing: UInt8) -> Int {
      var index = start + 1
      while index < bytes.count {
        if bytes[index] == closing {
          if closing != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == closing {
            index += 2
            continue
          }
          return index + 1
        }
        index += 1
      }
      return bytes.count
    }
    while position < bytes.count {
      let byte = bytes[position]
      let next = position + 1 < bytes.count ? bytes[position + 1] : 0
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
        position += 1
      case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
        while position < bytes.count, bytes[position] != 0x0A { position += 1 }
      case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
        position += 2
        while position < bytes.count,
          !(bytes[position] == UInt8(ascii: "*") && position + 1 < bytes.count
            && bytes[position + 1] == UInt8(ascii: "/"))
        {
          position += 1
        }
        position = min(position + 2, bytes.count)
      case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
        let closing = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
        tokens.append(Token(kind: .other, start: position))
        position = skipQuoted(from: position, closing: closing)
      case UInt8(ascii: "?"):
        tokens.append(Token(kind: .parameter, start: position))
        position += 1
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
      case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"), 0x30...0x39:
        tokens.append(Token(kind: .other, start: position))
        position += 1
        while position < bytes.count, isWordByte(bytes[position]) || bytes[position] == 0x2E {
          position += 1
        }
      case _ where isWordByte(byte):
        let start = position
        while position < bytes.count, isWordByte(bytes[position]) { position += 1 }
        let word = String(
          decoding: bytes[start..<position].map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 },
          as: UTF8.self)
        tokens.append(Token(kind: .word(word), start: start))
      default:
        tokens.append(Token(kind: .punctuation(byte), start: position))
        position += 1
      }
    }
    return tokens
  }

  // MARK: The refusing value

  /// What a refused parameter binds: nothing; converting it throws the refusal.
  private struct RefusedValue: SQLiteValueConvertible {
    let error: SQLiteError
    static var storageClass: SQLiteValue.StorageClass { .null }
    func sqliteValue() throws -> SQLiteValue { throw error }
    init(error: SQLiteError) { self.error = error }
    init?(sqliteValue: SQLiteValue) { return nil }
  }
}
