internal import CSQLite

/// How a ``Connection`` opens its file, and the settings it starts with.
public struct OpenOptions: Sendable {
  /// The `SQLITE_OPEN_*` flags passed to `sqlite3_open_v2`. Default:
  /// `[.readWrite, .create, .noMutex]`. See <https://sqlite.org/c3ref/open.html>.
  public var flags: OpenFlags = [.readWrite, .create, .noMutex]
  /// The name of the VFS (SQLite's operating-system layer) that opens the file, as
  /// registered with `sqlite3_vfs_register`, or `nil` (the default) for SQLite's default
  /// VFS (`"unix"` on Linux). Passed to `sqlite3_open_v2`; a ``DatabasePool`` opens its
  /// readers with it too, and ``Connection/backup(toPath:pagesPerStep:progress:)`` writes
  /// its copy through it. An unknown name fails the open with `SQLiteError`. See
  /// <https://sqlite.org/vfs.html>.
  public var vfs: String?
  /// Enforce foreign keys (`PRAGMA foreign_keys = ON`). Default `true`.
  public var foreignKeys = true
  /// Seconds to wait for another connection's lock before `SQLITE_BUSY`. Default 5.
  public var busyTimeout: Double = 5
  /// A journal mode to set when opening, such as `.wal`; `nil` keeps the file's own.
  public var journalMode: JournalMode?
  /// How hard SQLite syncs to disk (`PRAGMA synchronous`), or `nil` (the default) for
  /// SwiftLite's choice: `.normal` whenever the journal mode is WAL after the connection
  /// opens (a ``DatabasePool``, a `journalMode` of `.wal`, a file already in WAL, or a later
  /// ``Connection/setJournalMode(_:)`` to `.wal`), and the build's default (`FULL` on most
  /// systems) otherwise.
  ///
  /// In WAL mode `NORMAL` syncs at checkpoints only, not at every commit. SQLite documents
  /// what that trades (<https://sqlite.org/pragma.html#pragma_synchronous>): the file is
  /// never corrupted, but a power loss or an OS crash may roll back the last transactions
  /// committed before it (a killed process loses nothing). Set `.full` to keep every
  /// commit durable at the cost of one sync per commit.
  public var synchronous: SynchronousMode?
  /// Who checkpoints the write-ahead log of a WAL file. Default ``CheckpointPolicy/sqlite``:
  /// SQLite, every 1,000 pages. Use ``CheckpointPolicy/external(automaticPages:)`` when a
  /// replicator such as Litestream follows the file (see <doc:ReplicatingWithLitestream>).
  public var checkpoints = CheckpointPolicy.sqlite
  /// Whether a double-quoted word that names no column may be taken as a string literal,
  /// SQLite's legacy quirk (<https://sqlite.org/quirks.html#dblquote>). Default `false`:
  /// `"name"` is always an identifier, so a misspelled one is an error, not a string.
  public var doubleQuotedStringLiterals = false
  /// How many prepared statements the connection keeps, keyed by SQL. Default 64.
  public var statementCacheCapacity = 64
  /// Whether a model's first write may create its table, or migrate a table SwiftLite
  /// created when the model changed. Default `true`. Turn it off in apps that change the
  /// schema only through explicit migrations: a missing or outdated table then gives an
  /// error instead. Tables another program made are never changed either way.
  ///
  /// A database opened with a preparation (``DatabaseQueue/init(path:options:preparation:)``,
  /// ``DatabasePool/init(path:options:maximumReaderCount:preparation:)``, a
  /// ``DatabaseDirectory``) is brought up to date when it opens, and the tables the
  /// preparation covers are never migrated by a first write, whatever this says (their
  /// changes belong to the preparation's next step); other models' tables still follow it.
  public var automaticMigration = true
  /// Runs on every new connection once it is open and set up, before anything else uses
  /// it: the place to add functions and collations (``Connection/createFunction(_:argumentCount:deterministic:_:)``,
  /// ``Connection/addUnicodeCaseFolding(replacingLike:)``) or set pragmas. A
  /// ``DatabasePool`` runs it on its writer and on each reader it opens, so what it adds
  /// is available to every read and write. `nil` (the default) runs nothing.
  ///
  /// ```swift
  /// var options = OpenOptions()
  /// options.connectionSetup = { db in try db.addUnicodeCaseFolding() }
  /// let pool = try DatabasePool(path: "app.sqlite", options: options)
  /// ```
  /// An error it throws fails the open, and the connection is closed.
  public var connectionSetup: (@Sendable (Connection) throws -> Void)?

  /// The default options: read-write, create when missing, foreign keys on.
  public init() {}

  /// Options for reading only: the file must exist and cannot be written.
  public static var readOnly: OpenOptions {
    var options = OpenOptions()
    options.flags = [.readOnly, .noMutex]
    return options
  }
}

/// The flags of `sqlite3_open_v2`, named as SQLite names them.
public struct OpenFlags: OptionSet, Sendable {
  /// The raw `SQLITE_OPEN_*` bits.
  public let rawValue: Int32
  /// Wraps raw `SQLITE_OPEN_*` bits.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// `SQLITE_OPEN_READONLY`.
  public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
  /// `SQLITE_OPEN_READWRITE`.
  public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
  /// `SQLITE_OPEN_CREATE`: create the file when missing.
  public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
  /// `SQLITE_OPEN_URI`: interpret the path as a `file:` URI.
  public static let uri = OpenFlags(rawValue: SQLITE_OPEN_URI)
  /// `SQLITE_OPEN_MEMORY`: an in-memory database.
  public static let memory = OpenFlags(rawValue: SQLITE_OPEN_MEMORY)
  /// `SQLITE_OPEN_NOMUTEX`: no per-connection mutex (the connection is used by one thread
  /// at a time, as SwiftLite's types guarantee).
  public static let noMutex = OpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
  /// `SQLITE_OPEN_FULLMUTEX`: serialize every call on a mutex.
  public static let fullMutex = OpenFlags(rawValue: SQLITE_OPEN_FULLMUTEX)
  /// `SQLITE_OPEN_SHAREDCACHE`.
  public static let sharedCache = OpenFlags(rawValue: SQLITE_OPEN_SHAREDCACHE)
  /// `SQLITE_OPEN_PRIVATECACHE`.
  public static let privateCache = OpenFlags(rawValue: SQLITE_OPEN_PRIVATECACHE)
  /// `SQLITE_OPEN_NOFOLLOW`: refuse a path that is a symbolic link.
  public static let noFollow = OpenFlags(rawValue: SQLITE_OPEN_NOFOLLOW)
}

/// SQLite's sync levels. See <https://sqlite.org/pragma.html#pragma_synchronous>.
public enum SynchronousMode: String, Sendable {
  /// No syncs: fastest; an OS crash or power loss may corrupt the file.
  case off
  /// Syncs at the critical moments only. In WAL mode the file cannot be corrupted, but the
  /// last commits may be rolled back by a power loss.
  case normal
  /// Syncs at every commit: a committed transaction survives a power loss.
  case full
  /// Like `full`, and also syncs the directory of a rollback journal when it is deleted.
  case extra
}

/// SQLite's journal modes. See <https://sqlite.org/pragma.html#pragma_journal_mode>.
public enum JournalMode: String, Sendable {
  /// The default rollback journal, deleted after each transaction.
  case delete
  /// The rollback journal is truncated instead of deleted.
  case truncate
  /// The rollback journal's header is zeroed instead.
  case persist
  /// The journal is kept in memory.
  case memory
  /// Write-ahead log: readers do not block the writer, nor the writer readers.
  case wal
  /// No journal: no rollback, no atomic commit.
  case off
}
