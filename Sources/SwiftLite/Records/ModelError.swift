/// A model type that SwiftLite cannot map to a table, or a model operation that found
/// nothing to act on.
public enum ModelError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A property's type gives no column type; the hint says how to declare it.
  case cannotInferType(model: String, property: String, type: String, hint: String)
  /// The model's declaration is inconsistent (no primary key, a key or constraint naming a
  /// property that does not exist, ...).
  case invalidDeclaration(model: String, reason: String)
  /// `update` or `remove` found no row with this primary key.
  case notFound(table: String, key: [SQLiteValue])

  /// A sentence naming the model, the property and what to do.
  public var description: String {
    switch self {
    case .cannotInferType(let model, let property, let type, let hint):
      return "\(model).\(property): cannot infer a column type for \(type); \(hint)"
    case .invalidDeclaration(let model, let reason):
      return "\(model): \(reason)"
    case .notFound(let table, let key):
      return "no row in \(table) with primary key "
        + key.map(\.description).joined(separator: ", ")
    }
  }
}
