// What `update(_:from:)` needs: which values changed, and the UPDATE of those columns only.
extension ModelTable {
  /// `UPDATE ... SET` of the columns at `positions` only, then the key condition.
  func updateSQL(setting positions: [Int]) -> String {
    "UPDATE " + quotedName + " SET "
      + positions.enumerated().map { ordinal, position in
        Self.assignment(
          SQLIdentifier.quote(mapping.columns[position]), parameter: ordinal + 1,
          keepsOnNull: mapping.notNullDefaults[position] != nil, keepsText: keepsText[position])
      }.joined(separator: ", ") + " WHERE " + keyCondition
  }

  /// Whether two values are the same bytes: the same storage class and, for text, the same
  /// UTF-8 (not Unicode equivalence, as `String`'s `==` has it: an `é` written precomposed
  /// and one written with a combining accent are different text to SQLite); a REAL by its
  /// bits.
  static func sameBytes(_ a: SQLiteValue, _ b: SQLiteValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.integer(let x), .integer(let y)): return x == y
    case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
    case (.text(let x), .text(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.blob(let x), .blob(let y)): return x == y
    default: return false
    }
  }
}
