import SwiftLite

/// One column of a table as a property of its generated model.
struct GeneratedProperty {
  /// The column's exact name.
  let column: String
  /// The property's Swift name, unescaped.
  let name: String
  /// The Swift type, without `?`.
  let type: String
  /// Whether the property is optional (a nullable column, or an integer rowid key).
  let isOptional: Bool
  /// The column's declared type, as SQLite reports it (empty when it has none).
  let declaredType: String

  /// The Swift type for a column, from its declared type by SQLite's affinity rules:
  /// INTEGER -> `Int64`, TEXT -> `String`, REAL -> `Double`, BLOB (also no declared type and
  /// STRICT `ANY`, which store values as given) -> `Data`, which reads BLOB and TEXT as their
  /// bytes, NUMERIC -> `Decimal`; and from
  /// the declared type's words: `DATE`, `TIME` (DATETIME, TIMESTAMP) -> `Date`, `BOOL` ->
  /// `Bool`, where the affinity lets those values through unchanged.
  static func swiftType(declaredType: String, strict: Bool) -> String {
    let upper = declaredType.uppercased()
    let affinity = ColumnAffinity(declaredType: declaredType, strict: strict)
    switch affinity {
    case .integer:
      return "Int64"
    case .real:
      return "Double"
    case .text:
      return upper.contains("DATE") || upper.contains("TIME") ? "Date" : "String"
    case .blob:
      return "Data"
    case .numeric:
      if upper.contains("BOOL") { return "Bool" }
      if upper.contains("DATE") || upper.contains("TIME") { return "Date" }
      return "Decimal"
    }
  }

  /// The type as declared on the property.
  var declaration: String { type + (isOptional ? "?" : "") }
}
