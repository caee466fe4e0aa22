import Foundation

/// Swift spellings of SQL names: identifiers for properties and types, and string literals
/// that keep the exact name.
enum SwiftName {
  /// Words Swift reserves, which a property must escape with backticks.
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
    "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
    "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
    "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
  ]

  /// Names a property cannot take even escaped: they would clash with what the generated
  /// type declares itself, or with the model protocols' requirements.
  static let reservedProperties: Set<String> = [
    "init", "self", "Self", "Type", "Protocol", "CodingKeys", "tableName", "primaryKey",
    "mappedColumns", "schemaPolicy", "write",
  ]

  /// Type names a table cannot take: Swift's and SwiftLite's own, used by generated code.
  static let reservedTypes: Set<String> = [
    "Any", "Self", "Type", "Protocol", "String", "Int", "Int64", "Double", "Bool", "Data", "Date",
    "Decimal", "Model", "RowMapped", "MappedRow", "MappedRowWriter", "SchemaPolicy",
    "SQLiteValue", "CodingKeys", "CodingKey", "Foundation", "SwiftLite", "Optional", "Array",
    "Equatable", "Hashable", "Sendable", "Codable", "Encodable", "Decodable", "Error", "Never",
    "Void",
  ]

  /// The words of a SQL name: split at anything that is not a letter or digit, and where a
  /// lowercase letter or digit meets an uppercase one (`CustomerId` -> Customer, Id).
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previous: Character?
    // ASCII identifiers only (accents dropped: `ünïcode` -> `unicode`); other letters split words.
    let folded = name.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
    for character in folded {
      guard character.isASCII, character.isLetter || character.isNumber else {
        if !current.isEmpty { words.append(current) }
        current = ""
        previous = nil
        continue
      }
      if let previous, character.isUppercase, previous.isLowercase || previous.isNumber {
        words.append(current)
        current = ""
      }
      current.append(character)
      previous = character
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// `first_name`, `First Name`, `FIRST_NAME` -> `firstName`; a name that starts with a
  /// digit gets a leading `_`; a name with no letters or digits becomes `fallback`.
  static func property(_ name: String, fallback: String) -> String {
    let parts = words(name)
    guard !parts.isEmpty else { return fallback }
    var result = parts[0].lowercased()
    for part in parts.dropFirst() { result += capitalized(part) }
    if result.first?.isNumber == true { result = "_" + result }
    return result
  }

  /// `order_items`, `order items` -> `OrderItems`; `fallback` for a name with no letters.
  static func type(_ name: String, fallback: String) -> String {
    let parts = words(name)
    guard !parts.isEmpty else { return fallback }
    var result = parts.map(capitalized).joined()
    if result.first?.isNumber == true { result = "_" + result }
    return result
  }

  /// A word with its first letter uppercased and the rest lowercased, unless the word mixes
  /// cases already (`iPhone` stays recognisable as `IPhone`).
  private static func capitalized(_ word: String) -> String {
    let rest = word.dropFirst()
    let keepsCase = rest.contains(where: \.isUppercase) && rest.contains(where: \.isLowercase)
    return word.prefix(1).uppercased() + (keepsCase ? String(rest) : rest.lowercased())
  }

  /// A property name as it must be written in a declaration: keywords in backticks.
  static func escaped(_ identifier: String) -> String {
    keywords.contains(identifier) ? "`" + identifier + "`" : identifier
  }

  /// A Swift string literal holding exactly `text`.
  static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          result += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
