import Foundation

extension RelationError: LocalizedError {
  /// The same text as `description`, so `localizedDescription` shows it on every platform.
  public var errorDescription: String? { description }
}
