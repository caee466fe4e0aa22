/// The column names of a result and their positions, shared by a statement and its rows so
/// that a name is looked up once per statement, not once per row.
@usableFromInline final class ColumnLayout: Sendable {
  let names: [String]
  private let positions: [String: Int]
  private let lowercasedPositions: [String: Int]

  init(names: [String]) {
    self.names = names
    var positions: [String: Int] = [:]
    var lowercased: [String: Int] = [:]
    for (index, name) in names.enumerated() {
      if positions[name] == nil { positions[name] = index }
      if lowercased[name.lowercased()] == nil { lowercased[name.lowercased()] = index }
    }
    self.positions = positions
    self.lowercasedPositions = lowercased
  }

  /// The first column with this name; SQLite compares names without regard to ASCII case.
  @usableFromInline func index(of name: String) -> Int? {
    positions[name] ?? lowercasedPositions[name.lowercased()]
  }
}

/// A `CodingKey` naming a column, used in decoding errors.
public struct ColumnKey: CodingKey, Sendable, Hashable {
  /// The column name.
  public let stringValue: String
  /// The column position, when known.
  public let intValue: Int?
  /// A key for a named column.
  public init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }
  /// A key for a column position.
  public init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}
