import Foundation

/// A name of a table, column or other schema object, equal to another, and hashing alike,
/// exactly when SQLite takes them for the same name: ASCII letters without regard to case,
/// every other byte as it is.
///
/// `"\u{C4}"` and `"\u{E4}"` (Ä and ä) are two names to SQLite, and so are `"caf\u{E9}"` and
/// `"cafe\u{301}"`; Swift's `lowercased()` and `==` would take each pair for one. Sets and
/// dictionaries of names that SwiftLite keeps (tables a session leaves out, the tables of a
/// changeset) are keyed by `SQLName`.
struct SQLName: Hashable, Sendable {
  /// The name as it was given.
  let name: String
  /// The name with its ASCII capital letters lowercased, compared by its bytes.
  private let folded: ExactText

  init(_ name: String) {
    self.name = name
    self.folded = name.asciiCaseFolded
  }

  static func == (lhs: SQLName, rhs: SQLName) -> Bool { lhs.folded == rhs.folded }

  func hash(into hasher: inout Hasher) { folded.hash(into: &hasher) }
}

extension String {
  /// The name with ASCII letters lower-cased, compared and hashed by its bytes: as SQLite
  /// compares identifiers (other letters are compared exactly: `É` and `é`, or `é` written
  /// precomposed and as `e` and a combining accent, are different names to SQLite).
  var asciiCaseFolded: ExactText {
    guard utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return ExactText(self) }
    return ExactText(
      String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self))
  }
}
