import Foundation

/// One column of a ``TableSchema``: as a model declares it, or as SQLite reports it.
public struct ColumnDefinition: Sendable, Hashable {
  /// The column name.
  public internal(set) var name: String
  /// The declared type, upper-cased: `INTEGER`, `REAL`, `TEXT`, `BLOB` (or whatever a
  /// hand-made table declared).
  public internal(set) var type: String
  /// Whether the column is `NOT NULL`.
  public internal(set) var isNotNull: Bool
  /// Whether the column has its own `UNIQUE` constraint.
  public internal(set) var isUnique: Bool
  /// The `DEFAULT` expression as SQL text, if any.
  public internal(set) var defaultSQL: String?
  /// The `CHECK` expression, when declared by a model (SQLite does not report it back).
  public internal(set) var check: String?
  /// The `COLLATE` name, when declared by a model.
  public internal(set) var collation: String?
  /// Whether values are stored as JSON text (nested Codable values).
  public internal(set) var isJSON: Bool
  /// The Swift type of the model property (`String`, `[String]`, `Mood`), when the column
  /// comes from a model; SQLite knows nothing of it.
  public internal(set) var swiftType: String?

  /// A column definition.
  init(
    name: String, type: String, isNotNull: Bool = false, isUnique: Bool = false,
    defaultSQL: String? = nil, check: String? = nil, collation: String? = nil,
    isJSON: Bool = false, swiftType: String? = nil
  ) {
    self.name = name
    self.type = type
    self.isNotNull = isNotNull
    self.isUnique = isUnique
    self.defaultSQL = defaultSQL
    self.check = check
    self.collation = collation
    self.isJSON = isJSON
    self.swiftType = swiftType
  }

  /// Whether the default is an expression SQLite evaluates per row (`CURRENT_TIME`,
  /// `CURRENT_DATE`, `CURRENT_TIMESTAMP` or one in parentheses), which `ALTER TABLE ADD
  /// COLUMN` refuses.
  var hasExpressionDefault: Bool {
    guard let text = defaultSQL?.trimmingCharacters(in: .whitespacesAndNewlines) else {
      return false
    }
    return text.hasPrefix("(")
      || ["CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"].contains(text.uppercased())
  }

  /// Whether two DEFAULT clauses are the same: SQLite reports `DEFAULT (1 + 2)` as
  /// `1 + 2`, without the parentheses the CREATE statement needs, so the parentheses
  /// around the whole expression (and spaces at its ends) do not count.
  static func sameDefault(_ a: String?, _ b: String?) -> Bool {
    // By bytes: a default that differs only in Unicode normalization is another default.
    a.map { ExactText(bareExpression($0)) } == b.map { ExactText(bareExpression($0)) }
  }

  /// `text` without the parentheses around the whole of it, at any depth, and trimmed.
  private static func bareExpression(_ text: String) -> String {
    var text = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
    while text.first == "(", text.last == ")", closesAtEnd(text) {
      text = Substring(text.dropFirst().dropLast().trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return String(text)
  }

  /// Whether the `(` that starts `text` is closed by its last character (so `(a) + (b)`
  /// is not one parenthesized expression), quotes skipped.
  private static func closesAtEnd(_ text: Substring) -> Bool {
    var depth = 0
    var quote: Character?
    for (offset, character) in text.enumerated() {
      if let open = quote {
        if character == open { quote = nil }
        continue
      }
      switch character {
      case "'", "\"", "`": quote = character
      case "(": depth += 1
      case ")":
        depth -= 1
        if depth == 0 { return offset == text.count - 1 }
      default: break
      }
    }
    return false
  }

  /// The storage classes a value may have once stored in this column, for checking that a
  /// type change kept every value (`nil`: any class is acceptable).
  var acceptedClasses: [String]? {
    switch type {
    case "INTEGER": return ["integer", "null"]
    case "REAL": return ["real", "null"]
    case "TEXT": return ["text", "null"]
    case "BLOB": return ["blob", "null"]
    default: return nil
    }
  }
}

extension SQLiteValue {
  /// The value as an SQL literal, for DEFAULT clauses SwiftLite writes.
  var sqlLiteral: String {
    switch self {
    case .real(let value) where value.isInfinite: return value < 0 ? "-9e999" : "9e999"
    case .real(let value): return "\(value)"
    default: return description
    }
  }
}
