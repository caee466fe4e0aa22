/// The tokenizer of a ``FullTextIndex``: how FTS5 splits text into the terms it indexes and
/// matches (its `tokenize` option, <https://sqlite.org/fts5.html#tokenizers>).
///
/// ```swift
/// struct Note: Model { var id: Int64?; var title: String; var body: String; static let primaryKey = ["id"] }
/// struct Part: Model { var id: Int64?; var code: String; static let primaryKey = ["id"] }
///
/// FullTextIndex(Note.self, columns: ["title", "body"])                          // .unicode61()
/// FullTextIndex(Note.self, columns: ["body"], tokenizer: .porter())            // "runs" finds "running"
/// FullTextIndex(Part.self, columns: ["code"], tokenizer: .trigram())           // any substring of 3+
/// FullTextIndex(Note.self, columns: ["body"], tokenizer: "unicode61 tokenchars '-'")  // FTS5's own words
/// ```
///
/// A string literal is the option's text as FTS5 reads it. Changing a model's tokenizer is
/// a planned change: the migration recreates the index and indexes every row again.
public struct FullTextTokenizer: Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The `tokenize` option's text, such as `unicode61 remove_diacritics 2`.
  public let text: String

  /// A tokenizer written in FTS5's syntax.
  public init(_ text: String) { self.text = text }

  /// A tokenizer written in FTS5's syntax.
  public init(stringLiteral text: String) { self.init(text) }

  /// `unicode61`: words of letters and digits in every script, case folded; with
  /// `removeDiacritics` 2 (the default) accents are folded too ("zoe" finds "Zoë"); 1 folds
  /// only precomposed ones, 0 none.
  public static func unicode61(removeDiacritics: Int = 2) -> FullTextTokenizer {
    FullTextTokenizer("unicode61 remove_diacritics \(removeDiacritics)")
  }

  /// `ascii`: words of ASCII letters and digits (every other character is part of a word),
  /// ASCII case folded.
  public static let ascii = FullTextTokenizer("ascii")

  /// `porter`: English stems of the words another tokenizer finds ("running" finds "runs").
  public static func porter(_ base: FullTextTokenizer = .unicode61()) -> FullTextTokenizer {
    FullTextTokenizer("porter " + base.text)
  }

  /// `trigram`: every sequence of three characters, so a query finds any substring of at
  /// least three characters ("ello" finds "Hello"); shorter queries find nothing. Case
  /// folded unless `caseSensitive`.
  public static func trigram(caseSensitive: Bool = false) -> FullTextTokenizer {
    FullTextTokenizer("trigram case_sensitive " + (caseSensitive ? "1" : "0"))
  }

  /// The option's text.
  public var description: String { text }
}
