import SwiftLite

/// One row of the `user` table: a user with an id, a name and an age.
///
/// ```swift
/// let ann = User(userId: "u1", userName: "Ann", userAge: 34)
/// try UserDAO.shared.create(ann)
/// ```
public struct User: Sendable, Hashable {
  /// The primary key (`user_id TEXT PRIMARY KEY`).
  public var userId: String
  /// The user's name (`user_name TEXT NOT NULL`).
  public var userName: String
  /// The user's age in years (`user_age INTEGER NOT NULL`).
  public var userAge: Int

  /// Creates a user value; nothing is stored until you pass it to ``UserDAO/create(_:)``.
  /// - Parameters:
  ///   - userId: the primary key.
  ///   - userName: the name.
  ///   - userAge: the age in years.
  public init(userId: String, userName: String, userAge: Int) {
    self.userId = userId
    self.userName = userName
    self.userAge = userAge
  }
}

extension User {
  /// Reads a user from a row holding the columns `user_id`, `user_name` and `user_age`.
  /// - Throws: `DecodingError` naming the column when one is missing, NULL, or of
  ///   another storage class (nothing is silently read as `""` or `0`).
  init(row: Row) throws {
    self.init(
      userId: try row.get(String.self, "user_id"),
      userName: try row.get(String.self, "user_name"),
      userAge: try row.get(Int.self, "user_age"))
  }
}
