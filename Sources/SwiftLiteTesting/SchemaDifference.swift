/// How one object of a schema (`table note`, `view v`, `trigger t`) differs from what was
/// expected: the lines of ``DatabaseSchema/description`` found only on one side.
///
/// `Sendable` and `Hashable`: a value, for XCTest and Swift Testing alike.
public struct SchemaDifference: Sendable, Hashable, CustomStringConvertible {
  /// The object: `table <name>`, `view <name>` or `trigger <name>`, lower-cased.
  public let object: String
  /// The lines expected and not found.
  public let expected: [String]
  /// The lines found and not expected.
  public let actual: [String]
  /// Whether the object is missing altogether.
  public let isMissing: Bool
  /// Whether the object was not expected at all.
  public let isUnexpected: Bool

  /// A difference of `object`.
  public init(
    object: String, expected: [String], actual: [String], isMissing: Bool = false,
    isUnexpected: Bool = false
  ) {
    self.object = object
    self.expected = expected
    self.actual = actual
    self.isMissing = isMissing
    self.isUnexpected = isUnexpected
  }

  /// The object, then `- expected` and `+ found` lines.
  public var description: String {
    let heading =
      isMissing ? object + " is missing" : isUnexpected ? object + " was not expected" : object
    return
      ([heading] + expected.map { "  - expected: " + $0 } + actual.map { "  + found:    " + $0 })
      .joined(separator: "\n")
  }
}
