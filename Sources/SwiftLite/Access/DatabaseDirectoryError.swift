import Foundation

/// Why a ``DatabaseDirectory`` refused an operation. Nothing was changed on disk.
public enum DatabaseDirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The prefix is empty, too long, or holds something other than ASCII letters, digits
  /// and `-` (an `_` would let two prefixes claim the same files).
  case invalidPrefix(String)
  /// The user id's database file name would take more than `limit` bytes: a file name holds
  /// 255, less the longest suffix of a file beside the database (`.bk00000000-journal`).
  case userIDTooLong(bytes: Int, limit: Int)
  /// Another connection (in this process or another) still has the user's database open,
  /// so it was not erased.
  case databaseInUse(user: String, path: String)
  /// A file system operation failed.
  case fileSystem(path: String, reason: String)

  /// What went wrong, and what to do.
  public var description: String {
    switch self {
    case .invalidPrefix(let prefix):
      "invalid database prefix '\(prefix)': use 1 to 64 ASCII letters, digits or '-'"
    case .userIDTooLong(let bytes, let limit):
      "user id too long: its file name would take \(bytes) bytes, over the \(limit) a file "
        + "name can hold here; use a shorter id (a hash of it, for example)"
    case .databaseInUse(let user, let path):
      "the database of user '\(user)' (\(path)) is still open elsewhere: close its "
        + "connections before erasing it; nothing was deleted"
    case .fileSystem(let path, let reason):
      "file system error on '\(path)': \(reason)"
    }
  }
}

extension DatabaseDirectoryError: LocalizedError {
  /// The same text as ``description``, so `localizedDescription` shows it on every platform.
  public var errorDescription: String? { description }
}
