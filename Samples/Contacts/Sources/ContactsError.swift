import Foundation

/// The errors of the Contacts sample, each with a sentence to show the user.
///
/// Database failures other than these reach the caller as SwiftLite's `SQLiteError`.
public enum ContactsError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// Another contact already has this phone number (the `UNIQUE` constraint on `phone`).
  case phoneAlreadyExists(String)
  /// No contact has this id; nothing was changed.
  case contactNotFound(id: Int64)
  /// A required field (`"phone"`, `"name"` or `"password"`) was empty.
  case emptyField(String)
  /// A page was asked for with a negative limit or offset.
  case invalidPage(limit: Int, offset: Int)
  /// libcrypto reported a failure in the named function.
  case cryptoFailure(String)

  /// A sentence to show the user.
  public var description: String {
    switch self {
    case .phoneAlreadyExists(let phone):
      return "A contact with phone \(phone) already exists."
    case .contactNotFound(let id):
      return "No contact with id \(id)."
    case .emptyField(let field):
      return "The \(field) must not be empty."
    case .invalidPage(let limit, let offset):
      return "Invalid page: limit \(limit) and offset \(offset) must not be negative."
    case .cryptoFailure(let function):
      return "The password could not be processed (\(function) failed)."
    }
  }

  /// The same sentence as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }
}
