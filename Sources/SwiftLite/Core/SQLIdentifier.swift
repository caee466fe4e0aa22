/// Quoting of SQL identifiers (table, column, index and savepoint names).
///
/// Values are bound, never spliced; identifiers cannot be bound, so every identifier that
/// SwiftLite writes into SQL goes through ``quote(_:)``.
public enum SQLIdentifier {
  /// The identifier in double quotes, with inner double quotes doubled:
  /// `my "table"` becomes `"my ""table"""`. Safe for any name, including SQL keywords.
  public static func quote(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
