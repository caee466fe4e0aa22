internal import CSQLite

/// How a WAL checkpoint copies the write-ahead log back into the database file.
/// See <https://sqlite.org/c3ref/wal_checkpoint_v2.html>.
public enum CheckpointMode: Sendable, Hashable {
  /// Copies as much as it can without waiting for readers or writers.
  case passive
  /// Waits (within the busy timeout) for the writer, then copies everything.
  case full
  /// As `.full`, then waits for readers so the next writer starts the log from its
  /// beginning.
  case restart
  /// As `.restart`, then truncates the `-wal` file to zero bytes.
  case truncate

  var rawValue: Int32 {
    switch self {
    case .passive: SQLITE_CHECKPOINT_PASSIVE
    case .full: SQLITE_CHECKPOINT_FULL
    case .restart: SQLITE_CHECKPOINT_RESTART
    case .truncate: SQLITE_CHECKPOINT_TRUNCATE
    }
  }
}
