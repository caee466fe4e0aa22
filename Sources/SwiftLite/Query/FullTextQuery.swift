/// An FTS5 full-text query, the pattern bound to `MATCH ?` (see
/// <https://sqlite.org/fts5.html#full_text_query_syntax>).
///
/// Text a user typed is not a safe query: FTS5 reads `AND`, `OR`, `NOT`, `NEAR`, `*`, `^`,
/// `:`, `-`, parentheses and quotes as syntax, so "rock & roll (live" is a syntax error and
/// "title:secret" searches another column. The factories here turn such text into a query
/// of quoted words, where every character is only ever text to match:
///
/// ```swift
/// FullTextQuery.allWords(in: "Zoë \"NEAR\" (ca")   // "Zoë" "NEAR" "(ca": all three words
/// FullTextQuery.prefixes(in: "zo sm")               // "zo"* "sm"*: search as you type
/// ```
///
/// Words are separated by blanks and by control characters: a NUL (which would end the query
/// where FTS5 reads it, even inside a quoted word), a tab, an escape and the others are never
/// part of a word.
///
/// ``init(raw:)`` takes FTS5 syntax as written, for queries your code builds.
public struct FullTextQuery: Sendable, Hashable, CustomStringConvertible {
  /// The query in FTS5 syntax, as it is bound to `MATCH`.
  public let text: String

  /// A query in FTS5 syntax, used as it is: a syntax error in it makes the search throw
  /// `SQLiteError` (`fts5: syntax error ...`). Never pass a user's input here; use
  /// ``allWords(in:)`` and the other factories.
  public init(raw text: String) { self.text = text }

  /// Rows holding every word of `input` (in any order and any column).
  public static func allWords(in input: String) -> FullTextQuery {
    FullTextQuery(raw: quotedWords(input).joined(separator: " "))
  }

  /// Rows holding at least one word of `input`.
  public static func anyWord(in input: String) -> FullTextQuery {
    FullTextQuery(raw: quotedWords(input).joined(separator: " OR "))
  }

  /// Rows holding the words of `input` next to each other, in this order.
  public static func phrase(_ input: String) -> FullTextQuery {
    FullTextQuery(raw: quote(String(input.map { isSeparator($0) ? " " : $0 })))
  }

  /// Rows holding, for every word of `input`, a word that starts with it ("ann" finds
  /// "Annabel"): the query of a search field that updates as the user types.
  public static func prefixes(in input: String) -> FullTextQuery {
    FullTextQuery(raw: quotedWords(input).map { $0 + "*" }.joined(separator: " "))
  }

  /// Whether the query holds no word: it matches no row.
  public var isEmpty: Bool { text.allSatisfy { $0 == "\"" || $0.isWhitespace } }

  /// The query text.
  public var description: String { text }

  /// The words of `input` (split at blanks and control characters), each an FTS5 string.
  /// No words give one empty string, which matches nothing (an empty query would be a
  /// syntax error).
  private static func quotedWords(_ input: String) -> [String] {
    let words = input.split(whereSeparator: isSeparator).map { quote(String($0)) }
    return words.isEmpty ? [quote("")] : words
  }

  /// Whether the character separates words: a blank, or a control character. FTS5 reads a
  /// query up to its first NUL, so a NUL left in a quoted word would leave the quote
  /// unterminated; the other control characters its tokenizers never put in a word either.
  /// A control character is a grapheme of its own (only CR LF pairs, a blank).
  private static func isSeparator(_ character: Character) -> Bool {
    character.isWhitespace
      || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }

  /// An FTS5 string: in double quotes, a quote inside doubled. Inside one, FTS5 reads no
  /// syntax at all. Quotes are found scalar by scalar, as FTS5 reads them: a quote followed
  /// by a combining mark is one Swift `Character` that is not `"`, and searching by
  /// characters left it undoubled (the fuzzer found it).
  private static func quote(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    result.append("\"")
    for scalar in text.unicodeScalars {
      result.append(scalar)
      if scalar == "\"" { result.append(scalar) }
    }
    result.append("\"")
    return String(result)
  }
}
