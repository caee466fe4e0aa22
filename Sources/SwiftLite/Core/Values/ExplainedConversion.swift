/// A conversion whose refusal deserves more than "expected T, stored CLASS": a type whose
/// text forms are specific (a date, a decimal number) says what it accepts, so that the
/// error for a TEXT it refuses does not read like a contradiction.
protocol ExplainedConversion {
  /// Why `stored`, of a class this type may read, was refused; `nil` to say nothing more.
  static func expectation(for stored: SQLiteValue) -> String?
}

extension Optional: ExplainedConversion where Wrapped: ExplainedConversion {
  static func expectation(for stored: SQLiteValue) -> String? {
    Wrapped.expectation(for: stored)
  }
}
