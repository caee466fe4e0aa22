/// The column names of a result and their positions, shared by a statement and its rows so
/// that a name is looked up once per statement, not once per row.
@usableFromInline final class ColumnLayout: Sendable {
  let names: [String]
  /// The first position of each name, by its bytes.
  private let positions: [ExactText: Int]
  /// The first position of each name with its ASCII letters lowercased, by its bytes.
  private let foldedPositions: [ExactText: Int]

  init(names: [String]) {
    self.names = names
    var positions: [ExactText: Int] = [:]
    var folded: [ExactText: Int] = [:]
    positions.reserveCapacity(names.count)
    folded.reserveCapacity(names.count)
    for (index, name) in names.enumerated() {
      let exact = ExactText(name)
      if positions[exact] == nil { positions[exact] = index }
      let lowered = name.asciiCaseFolded
      if folded[lowered] == nil { folded[lowered] = index }
    }
    self.positions = positions
    self.foldedPositions = folded
  }

  /// The first column with this name, compared as SQLite compares column names: by their
  /// bytes, ASCII letters without regard to case, other letters as they are (`"caf\u{E9}"`
  /// and `"cafe\u{301}"` are two names, `"\u{C9}t\u{E9}"` and `"\u{E9}t\u{E9}"` too).
  @usableFromInline func index(of name: String) -> Int? {
    positions[ExactText(name)] ?? foldedPositions[name.asciiCaseFolded]
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
