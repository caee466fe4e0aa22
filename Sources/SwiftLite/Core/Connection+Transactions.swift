// SwiftLite's own statements around the closures of `DatabaseQueue` and `DatabasePool`
// (a read's BEGIN and COMMIT, its `query_only` pragmas), run through the statement cache.
extension Connection {
  /// Runs one statement of SwiftLite's own (a BEGIN, a COMMIT, a pragma) through the
  /// statement cache, without arguments, stepping it to its end. Takes its text as a
  /// `String`, so that it never goes through the interpolated form of a layer above.
  /// - Throws: `SQLiteError` when it fails.
  func runCached(_ sql: String) throws {
    try withCachedStatement(sql, bind: { _ in }, Self.stepToEnd(_:))
  }

  /// Steps `statement` until it has no more rows.
  private static func stepToEnd(_ statement: Statement) throws {
    while try statement.step() {}
  }
}
