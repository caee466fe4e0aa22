import Foundation

/// A text that is equal to another, and hashes alike, only when their UTF-8 bytes are the
/// same: how SQLite compares text (with the BINARY collation) and the non-ASCII letters of
/// names.
///
/// Swift's `==` on `String` is canonical equivalence instead: "caf\u{E9}" (NFC) and
/// "cafe\u{301}" (NFD) are equal Swift strings and two different texts to SQLite. Wherever
/// SwiftLite decides whether two texts are the same (values, SQL texts, table names, keys
/// of its caches), it compares them as `ExactText` or with `String.hasSameBytes(as:)`.
struct ExactText: Hashable, Sendable {
  /// The text.
  let string: String

  init(_ string: String) { self.string = string }

  static func == (lhs: ExactText, rhs: ExactText) -> Bool {
    lhs.string.hasSameBytes(as: rhs.string)
  }

  func hash(into hasher: inout Hasher) { string.hashBytes(into: &hasher) }
}

extension String {
  /// Whether the text holds a NUL character, where SQLite would stop reading it. Reads a
  /// native string's bytes in place: the generic `utf8.contains(0)` costs about 20
  /// instructions a byte.
  var containsNUL: Bool {
    utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? utf8.contains(0)
  }

  /// Whether the two strings hold the same UTF-8 bytes (see ``ExactText``).
  @inline(__always) func hasSameBytes(as other: String) -> Bool {
    // Two copies of one string (a cached statement's SQL and the caller's constant, a
    // model's table name) have the same representation: the same bytes, with no copy or
    // comparison of them. A `String` is two words; equal words are one small string or
    // one shared, immutable storage with the same count. Inlined, so that this check
    // retains neither string.
    if MemoryLayout<String>.size == MemoryLayout<(UInt, UInt)>.size,
      unsafeBitCast(self, to: (UInt, UInt).self) == unsafeBitCast(other, to: (UInt, UInt).self)
    {
      return true
    }
    return comparesBytes(with: other)
  }

  /// The byte comparison of ``hasSameBytes(as:)`` for two representations.
  @inline(never) private func comparesBytes(with other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    var (left, right) = (self, other)
    return left.withUTF8 { leftBytes in
      right.withUTF8 { rightBytes in
        guard let leftBase = leftBytes.baseAddress, let rightBase = rightBytes.baseAddress else {
          return true  // both empty: the counts are equal
        }
        return memcmp(leftBase, rightBase, leftBytes.count) == 0
      }
    }
  }

  /// Feeds the UTF-8 bytes to `hasher`, with their count (so that a list of texts does not
  /// hash as their concatenation): the hash that goes with ``hasSameBytes(as:)``.
  func hashBytes(into hasher: inout Hasher) {
    var text = self
    text.withUTF8 { bytes in
      hasher.combine(bytes.count)
      hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
  }
}
