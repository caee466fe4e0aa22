/// The errors ``UserDAO`` adds to SwiftLite's own `SQLiteError`.
public enum UserDAOError: Error, Sendable, Hashable, CustomStringConvertible {
  /// ``UserDAO/modify(_:)`` or ``UserDAO/remove(_:)`` found no user with this id:
  /// nothing was changed.
  case userNotFound(userId: String)
  /// ``UserDAO/create(_:)`` found a user with this id already: nothing was changed.
  case userExists(userId: String)

  /// A sentence to show the user.
  public var description: String {
    switch self {
    case .userNotFound(let userId): return "No user with id '\(userId)'."
    case .userExists(let userId): return "A user with id '\(userId)' already exists."
    }
  }
}
