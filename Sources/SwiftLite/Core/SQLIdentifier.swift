/// Quoting of SQL identifiers (table, column, index and savepoint names).
///
/// Values are bound, never spliced; identifiers cannot be bound, so every identifier that
/// SwiftLite writes into SQL goes through ``quote(_:)``.
public enum SQLIdentifier {
  /// The identifier in double quotes, with inner double quotes doubled:
  /// `my "table"` becomes `"my ""table"""`. Safe for any name, including SQL keywords.
  public static func quote(_ identifier: String) -> String {
    // Quotes are found byte by byte, as SQLite reads them: a quote followed by a combining
    // mark is one Swift `Character` that is not `"`, which a search by characters (or
    // Foundation's) leaves undoubled, ending the identifier early.
    guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
    var bytes: [UInt8] = [UInt8(ascii: "\"")]
    bytes.reserveCapacity(identifier.utf8.count + 4)
    for byte in identifier.utf8 {
      bytes.append(byte)
      if byte == UInt8(ascii: "\"") { bytes.append(byte) }
    }
    bytes.append(UInt8(ascii: "\""))
    return String(decoding: bytes, as: UTF8.self)
  }
}
