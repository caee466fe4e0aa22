import SwiftLite

/// A `Person`, first version: a model whose table SwiftLite creates on first use.
public struct Person: Model, Equatable, Sendable {
  /// Assigned by SQLite on insert when `nil` (an INTEGER PRIMARY KEY).
  public var personID: Int64?
  /// The name (renamed to `name` in ``PersonV2``).
  public var personName: String
  /// Age in years.
  public var personAge: Int
  /// Height in metres (dropped in ``PersonV2``).
  public var personHeight: Double
  /// Things the person likes: an array, stored as JSON text.
  public var personLikes: [String]

  /// Table `Person`.
  public static let tableName = "Person"
  /// `personID`.
  public static let primaryKey = ["personID"]

  /// A person.
  public init(
    personID: Int64? = nil, personName: String, personAge: Int, personHeight: Double,
    personLikes: [String]
  ) {
    self.personID = personID
    self.personName = personName
    self.personAge = personAge
    self.personHeight = personHeight
    self.personLikes = personLikes
  }
}

/// The same `Person` after the app evolved: `personName` renamed to `name`, `email`
/// added, `personHeight` removed (with permission, since it holds values).
public struct PersonV2: Model, Equatable, Sendable {
  /// The same key as before.
  public var personID: Int64?
  /// Was `personName`: its values are carried across.
  public var name: String
  /// Age in years.
  public var personAge: Int
  /// Things the person likes.
  public var personLikes: [String]
  /// New, optional: existing rows get NULL.
  public var email: String?

  /// The same table as ``Person``.
  public static let tableName = "Person"
  /// `personID`.
  public static let primaryKey = ["personID"]
  /// New name -> old name: the old column's values move to the new one.
  public static let renamedProperties = ["name": "personName"]
  /// Dropping `personHeight` loses its values: the model must say it may.
  public static let droppableColumns: Set<String> = ["personHeight"]
  /// Look-ups by name are common.
  public static let indexes = [TableIndex(["name"])]

  /// A person.
  public init(
    personID: Int64? = nil, name: String, personAge: Int, personLikes: [String],
    email: String? = nil
  ) {
    self.personID = personID
    self.name = name
    self.personAge = personAge
    self.personLikes = personLikes
    self.email = email
  }
}
