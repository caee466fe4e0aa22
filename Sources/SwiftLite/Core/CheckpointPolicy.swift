/// Who checkpoints a WAL database: SQLite by itself, at a threshold of yours, or an external
/// replicator such as Litestream that follows the `-wal` file and must be the one to reset it.
///
/// Set it with ``OpenOptions/checkpoints``. See <https://sqlite.org/wal.html#ckpt>.
public enum CheckpointPolicy: Sendable, Hashable {
  /// SQLite's default: a commit that leaves the log at 1,000 pages or more runs a passive
  /// checkpoint, and closing the file's last connection checkpoints and removes the log.
  case sqlite
  /// A commit that leaves the log at `pages` or more runs a passive checkpoint; 0 turns
  /// automatic checkpoints off (`PRAGMA wal_autocheckpoint`). Explicit checkpoints of every
  /// mode are allowed.
  case automatic(pages: Int)
  /// An external replicator owns the log. Automatic checkpoints run at `automaticPages`
  /// (0, the default, turns them off: the replicator checkpoints); closing a connection
  /// never checkpoints (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`), so the log is left for the
  /// replicator to read; and explicit ``CheckpointMode/restart`` and
  /// ``CheckpointMode/truncate`` checkpoints are refused with `SQLiteError` `.misuse`,
  /// because resetting the log under the replicator would make it start a new snapshot.
  case external(automaticPages: Int = 0)

  /// The automatic checkpoint threshold the policy sets, or `nil` for SQLite's own.
  var automaticPages: Int? {
    switch self {
    case .sqlite: nil
    case .automatic(let pages), .external(let pages): max(0, pages)
    }
  }
}
