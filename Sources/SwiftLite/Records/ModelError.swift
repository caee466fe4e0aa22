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
  /// The model's table does not exist, and the model may not create it (its
  /// ``Model/schemaPolicy`` is ``SchemaPolicy/mapped``, or automatic migration is off).
  case tableNotFound(table: String)
  /// An existing table that SwiftLite does not manage does not fit the model: every
  /// problem found, each with its fix. Nothing was read or written.
  case incompatibleTable(model: String, table: String, problems: [String])
  /// A write the table cannot take from this model (a NOT NULL column the model has no
  /// property for, say); refused before anything was written.
  case writeRefused(table: String, reason: String)

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
    case .tableNotFound(let table):
      return "no table named \(table); this model does not create it (schemaPolicy .mapped, "
        + "or automatic migration off): create it in a migration, or check the name"
    case .incompatibleTable(let model, let table, let problems):
      return "\(model) does not fit the existing table \(table), which SwiftLite does not "
        + "change:\n" + problems.map { "  - " + $0 }.joined(separator: "\n")
    case .writeRefused(let table, let reason):
      return "cannot write to \(table): \(reason)"
    }
  }
}
