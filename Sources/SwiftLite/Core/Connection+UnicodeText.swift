import Foundation

// Case-insensitive text beyond ASCII. SQLite's own NOCASE collation and LIKE operator fold
// only A-Z: "ZOË" neither equals nor is LIKE "Zoë" there. These fold with Unicode case
// folding instead.
extension Connection {
  /// The name of the collation that ``addUnicodeCaseFolding(replacingLike:)`` adds:
  /// `UNICODE_NOCASE`, which orders and compares text ignoring case in every script
  /// (`'ZOË' = 'zoë' COLLATE UNICODE_NOCASE` holds).
  public static let unicodeNoCaseCollation = "UNICODE_NOCASE"

  /// The name of the function that ``addUnicodeCaseFolding(replacingLike:)`` adds:
  /// `unicode_like(pattern, text)` and `unicode_like(pattern, text, escape)`, the `LIKE`
  /// operator with Unicode case folding (`unicode_like('zo%', 'ZOË')` is 1).
  public static let unicodeLikeFunction = "unicode_like"

  /// Adds the ``unicodeNoCaseCollation`` collation and the ``unicodeLikeFunction``
  /// function to this connection.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE person(name TEXT)")
  /// try db.run("INSERT INTO person VALUES ('Zoë'), ('zoe')")
  ///
  /// try db.addUnicodeCaseFolding()
  /// let rows = try db.query("SELECT * FROM person WHERE unicode_like(?, name)", ["%ZOË%"])
  /// let sorted = try db.query("SELECT name FROM person ORDER BY name COLLATE UNICODE_NOCASE")
  /// ```
  ///
  /// In a pattern, `%` matches any run of characters and `_` exactly one character (a
  /// grapheme, as Swift counts them); with an escape character, that character followed by
  /// `%`, `_` or itself matches it literally. A NULL argument gives NULL, as `LIKE` does.
  /// - Parameter replacingLike: also makes SQLite's own `LIKE` operator fold Unicode case
  ///   (it replaces the `like()` function). SQLite then no longer uses an index for `LIKE`.
  ///   Default `false`.
  /// - Throws: `SQLiteError` from registering them; `.misuse` once closed.
  public func addUnicodeCaseFolding(replacingLike: Bool = false) throws {
    try createCollation(Self.unicodeNoCaseCollation) { left, right in
      let (left, right) = (Self.foldCase(left), Self.foldCase(right))
      return left == right ? .orderedSame : (left < right ? .orderedAscending : .orderedDescending)
    }
    var names = [Self.unicodeLikeFunction]
    if replacingLike { names.append("like") }
    for name in names {
      for count in [2, 3] {
        try createFunction(name, argumentCount: count, deterministic: true) { arguments in
          try Self.unicodeLike(arguments)
        }
      }
    }
  }

  /// The text with Unicode case folding applied ("ZOË" and "zoë" both give "zoë").
  static func foldCase(_ text: String) -> String {
    text.folding(options: [.caseInsensitive], locale: nil)
  }

  /// `unicode_like(pattern, text[, escape])`.
  private static func unicodeLike(_ arguments: [SQLiteValue]) throws -> Int? {
    var escape: Character?
    if arguments.count == 3 {
      guard case .text(let text) = arguments[2] else {
        if arguments[2].isNull { return nil }
        throw UnicodeLikeError.badEscape
      }
      guard text.count == 1, let character = text.first else { throw UnicodeLikeError.badEscape }
      escape = character
    }
    guard let pattern = Self.text(arguments[0]), let text = Self.text(arguments[1]) else {
      return nil
    }
    return matchesLike(pattern: pattern, text: text, escape: escape) ? 1 : 0
  }

  /// A value as text the way `LIKE` reads it (numbers as their text), `nil` for NULL.
  private static func text(_ value: SQLiteValue) -> String? {
    switch value {
    case .text(let text): return text
    case .integer(let number): return String(number)
    case .real(let number): return String(number)
    case .blob(let data): return String(decoding: data, as: UTF8.self)
    case .null: return nil
    }
  }

  /// Whether `text` matches a `LIKE` pattern, both case-folded.
  static func matchesLike(pattern: String, text: String, escape: Character?) -> Bool {
    enum Token: Equatable {
      case literal(Character)
      case one
      case any
    }
    // The pattern is read before folding, so an escape or wildcard stays what it is; each
    // literal run is folded on its own (a folded character may become several: "ß" -> "ss").
    var tokens: [Token] = []
    var literal = ""
    func flush() {
      tokens += foldCase(literal).map(Token.literal)
      literal = ""
    }
    var iterator = pattern.makeIterator()
    while let character = iterator.next() {
      if let escape, character == escape {
        literal.append(iterator.next() ?? character)
      } else if character == "%" {
        flush()
        if tokens.last != .any { tokens.append(.any) }
      } else if character == "_" {
        flush()
        tokens.append(.one)
      } else {
        literal.append(character)
      }
    }
    flush()
    let characters = Array(foldCase(text))
    // Wildcard matching with one backtracking point: the last `%` seen.
    var (t, c) = (0, 0)
    var star: (token: Int, character: Int)?
    while c < characters.count {
      if t < tokens.count, tokens[t] == .one || tokens[t] == .literal(characters[c]) {
        t += 1
        c += 1
      } else if t < tokens.count, tokens[t] == .any {
        star = (t, c)
        t += 1
      } else if let last = star {
        star = (last.token, last.character + 1)
        t = last.token + 1
        c = last.character + 1
      } else {
        return false
      }
    }
    while t < tokens.count, tokens[t] == .any { t += 1 }
    return t == tokens.count
  }
}

/// The error of `unicode_like` with a bad escape argument; its description becomes the
/// statement's error message.
private enum UnicodeLikeError: Error, CustomStringConvertible {
  case badEscape
  var description: String { "ESCAPE expression must be a single character" }
}
