import Foundation
import Synchronization

/// A folder holding one common database and one database per user, the layout of apps
/// where several people sign in on one device: `<prefix>_common.sqlite` and
/// `<prefix>_<user>.sqlite`.
///
/// ```swift
/// struct Settings: Model { var id: Int64?; var theme: String; static let primaryKey = ["id"] }
/// struct Message: Model { var id: Int64?; var text: String; static let primaryKey = ["id"] }
/// struct Contact: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
/// var common = Migrator()
/// common.registerModels("v1", Settings.self)
/// var perUser = Migrator()
/// perUser.registerModels("v1", Message.self, Contact.self)
/// let files = try DatabaseDirectory(
///   path: "db", prefix: "app", maximumReaderCount: 4,
///   common: common, perUser: perUser)                 // a DatabaseDirectory<DatabasePool>
/// let mine = try files.switchUser(to: "user-42")!     // opens db/app_user-42.sqlite, migrated
/// try await mine.write { db in try db.save(Message(id: 1, text: "Hi")) }  // a DatabasePool
/// try files.switchUser(to: nil)                       // signs out: waits, then closes
/// try files.eraseUser("user-42")                      // removes the file and its -wal, -shm
/// ```
///
/// **User ids** become file names through a reversible encoding (see the README): lowercase
/// letters, digits and `-` stay as they are, every other byte becomes `_` and two hex
/// digits. Any id is safe, `"../x"`, `"/"`, `"."`, `""`, a NUL or ids that differ only in
/// case included: names never leave the folder and never collide, even on a
/// case-insensitive file system, and ``users()`` gives the ids back. A file name holds 255
/// bytes, and a database's name leaves room for the longest suffix a file beside it gets
/// (`.bk00000000-journal`, 19 bytes), so an id whose database name would pass 236 bytes is
/// refused (``DatabaseDirectoryError/userIDTooLong(bytes:limit:)``). With the prefix `app`,
/// that is 225 lowercase ASCII characters (226 are refused), 37 `é` (38 are refused) or 25
/// CJK characters (26 are refused): every byte that does not stand for itself takes three.
/// Hashing a long id instead would lose the id, and a separate table of names could
/// disagree with the files.
///
/// Each database opens as the directory's `Database` type, a ``DatabaseQueue`` or a
/// ``DatabasePool`` (or any ``DatabaseAccess`` through
/// ``init(path:prefix:common:perUser:open:)``), and is brought up to date by the `common` or
/// `perUser` ``DatabasePreparation`` (a ``Migrator``, which may register models) when opened.
/// ``switchUser(to:)`` and ``currentUser`` give that type back, so a pool's own API (its
/// snapshots, its reader count) stays at hand:
///
/// ```swift
/// let files = try DatabaseDirectory(path: "users", prefix: "app", maximumReaderCount: 4)
/// let pool: DatabasePool? = try files.switchUser(to: "user-42")
/// ```
///
/// The common database exists only when a `common` preparation is given: without one, no
/// `<prefix>_common.sqlite` is created and ``common`` is `nil`. A file nothing prepares
/// would be an empty database that an app then has to migrate by hand anyway.
///
/// Ids are told apart by their UTF-8 bytes, like their file names: an id written in two
/// Unicode normalization forms is two users.
///
/// `DatabaseDirectory` is `Sendable`: switching users, erasing and reading the current user
/// are safe from any thread; switching and erasing run one at a time.
public final class DatabaseDirectory<Database: DatabaseAccess>: Sendable {
  /// The folder's path.
  public let path: String
  /// The file name prefix.
  public let prefix: String
  /// The common database, open from the initializer to ``close()``; `nil` when no `common`
  /// preparation was given (no common file is then created).
  public let common: Database?
  private let open: @Sendable (String) throws -> Database
  private let perUser: (any DatabasePreparation)?
  /// The signed-in user, read by any thread.
  private let current = Mutex<(id: String, database: Database)?>(nil)
  /// Serializes switching, erasing and closing, which wait for work in flight.
  private let operations = Mutex(())

  private static var suffix: String { ".sqlite" }
  /// The longest name SwiftLite or SQLite gives a file beside a database: a backup's
  /// temporary copy (`.bk` and 8 hex digits) with its `-journal`. Erasing renames to `.x`
  /// and 8 hex digits, which is shorter.
  private static var longestSatellite: String { ".bk00000000-journal" }
  private static var nameLimit: Int { 255 }

  /// Opens (creating the folder when missing) the common database when `common` is given,
  /// brought up to date by it; each database is opened by `open`.
  /// - Parameters:
  ///   - path: the folder.
  ///   - prefix: the file name prefix: 1 to 64 ASCII letters, digits or `-`.
  ///   - common: what brings the common database up to date when it opens, such as a
  ///     `Migrator`; `nil` (default) for no common database.
  ///   - perUser: the same for each user's database.
  ///   - open: opens the database at a path (called for the common database here, for a
  ///     user's database in ``switchUser(to:)``); it must be safe from any thread.
  /// - Throws: ``DatabaseDirectoryError`` for a bad prefix or a folder that cannot be made;
  ///   what `open` throws; `SQLiteError` or ``MigratorError`` from migrating the common
  ///   database.
  public init(
    path: String, prefix: String, common: (any DatabasePreparation)? = nil,
    perUser: (any DatabasePreparation)? = nil,
    open: @escaping @Sendable (_ path: String) throws -> Database
  ) throws {
    let allowed: (UInt8) -> Bool = {
      (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) || (0x30...0x39).contains($0)
        || $0 == 0x2D
    }
    guard (1...64).contains(prefix.utf8.count), prefix.utf8.allSatisfy(allowed) else {
      throw DatabaseDirectoryError.invalidPrefix(prefix)
    }
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true)
    } catch {
      throw DatabaseDirectoryError.fileSystem(path: path, reason: error.localizedDescription)
    }
    self.path = path
    self.prefix = prefix
    self.open = open
    self.perUser = perUser
    self.common = try common.map { preparation in
      try Self.open(
        (path as NSString).appendingPathComponent(prefix + "_common" + Self.suffix), open,
        preparation)
    }
  }

  // MARK: Users

  /// The signed-in user's id and database, read together, or `nil`.
  public var currentUser: (id: String, database: Database)? { current.withLock { $0 } }

  /// The path of a user's database file (whether or not it exists).
  /// - Throws: ``DatabaseDirectoryError/userIDTooLong(bytes:limit:)``.
  public func databasePath(forUser id: String) throws -> String {
    let name = prefix + "_" + UserFileName.encode(id) + Self.suffix
    let limit = Self.nameLimit - Self.longestSatellite.utf8.count
    guard name.utf8.count <= limit else {
      throw DatabaseDirectoryError.userIDTooLong(bytes: name.utf8.count, limit: limit)
    }
    return (path as NSString).appendingPathComponent(name)
  }

  /// Signs a user in: opens (creating when missing) and migrates their database, then
  /// closes the previous user's after the work in flight on it is done. `nil` signs out.
  ///
  /// When opening the new database fails, the previous user stays signed in.
  /// - Returns: the new user's database, of the directory's own type, or `nil` after
  ///   signing out.
  /// - Throws: ``DatabaseDirectoryError/userIDTooLong(bytes:limit:)``; `SQLiteError` or
  ///   ``MigratorError`` from opening or migrating; `SQLiteError` from closing the previous
  ///   database (which then stays signed in).
  @discardableResult
  public func switchUser(to id: String?) throws -> Database? {
    try operations.withLock { _ in
      let previous = current.withLock { $0 }
      if let previous, let id, Self.same(previous.id, id) { return previous.database }
      let next = try id.map { id in
        (id: id, database: try Self.open(databasePath(forUser: id), open, perUser))
      }
      if let previous {
        do {
          try previous.database.close()
        } catch {
          try? next?.database.close()
          throw error
        }
      }
      current.withLock { $0 = next }
      return next?.database
    }
  }

  /// The ids of the users who have a database in the folder, sorted.
  /// - Throws: ``DatabaseDirectoryError/fileSystem(path:reason:)`` when the folder cannot
  ///   be read.
  public func users() throws -> [String] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      throw DatabaseDirectoryError.fileSystem(path: path, reason: error.localizedDescription)
    }
    let start = prefix + "_"
    return names.compactMap { name -> String? in
      guard name.hasPrefix(start), name.hasSuffix(Self.suffix) else { return nil }
      let encoded = name.dropFirst(start.count).dropLast(Self.suffix.count)
      return UserFileName.decode(encoded)
    }.sorted()
  }

  /// Erases a user's database: signs them out first when signed in (waiting for work in
  /// flight), then removes the file with its `-wal`, `-shm` and `-journal`. A user with no
  /// database is nothing to erase.
  ///
  /// When another connection still has the database open, nothing is deleted. The database
  /// file is renamed away first, in one step, so a failure never leaves half a database.
  /// An open connection is always seen on a WAL database (`.pool`); in rollback-journal
  /// mode (`.queue` by default) SQLite holds no lock while a connection is idle, so only
  /// one that is reading or writing is seen.
  /// - Throws: ``DatabaseDirectoryError/databaseInUse(user:path:)`` while another
  ///   connection has the database open or is using it;
  ///   ``DatabaseDirectoryError/fileSystem(path:reason:)``; `SQLiteError` from closing.
  public func eraseUser(_ id: String) throws {
    let file = try databasePath(forUser: id)
    try operations.withLock { _ in
      if let signedIn = current.withLock({ $0 }), Self.same(signedIn.id, id) {
        try signedIn.database.close()
        current.withLock { $0 = nil }
      }
      let manager = FileManager.default
      guard manager.fileExists(atPath: file) else {
        for satellite in ["-wal", "-shm", "-journal"] {
          try? manager.removeItem(atPath: file + satellite)
        }
        return
      }
      try Self.withExclusiveAccess(to: file, user: id) {
        // One rename takes the database away; what is left are files no database uses.
        // A short suffix: a name near the file system's limit must still fit.
        let doomed = file + ".x" + String(UInt32.random(in: .min ... .max), radix: 16)
        do {
          try manager.moveItem(atPath: file, toPath: doomed)
        } catch {
          throw DatabaseDirectoryError.fileSystem(path: file, reason: error.localizedDescription)
        }
        for satellite in ["-wal", "-shm", "-journal"] {
          try? manager.removeItem(atPath: file + satellite)
        }
        try? manager.removeItem(atPath: doomed)
      }
    }
  }

  /// Closes the current user's database and the common one (if any), after the work in
  /// flight.
  /// - Throws: `SQLiteError` from closing.
  public func close() throws {
    try operations.withLock { _ in
      if let signedIn = current.withLock({ $0 }) {
        try signedIn.database.close()
        current.withLock { $0 = nil }
      }
      try common?.close()
    }
  }

  // MARK: Internals

  /// Ids are told apart by their UTF-8 bytes, as their file names are: `"é"` written as one
  /// scalar or as `e` and a combining accent are two users, though Swift's `==` calls the
  /// strings equal.
  private static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

  private static func open(
    _ file: String, _ open: (String) throws -> Database,
    _ preparation: (any DatabasePreparation)?
  ) throws -> Database {
    let database = try open(file)
    try preparation?.prepareOnOpen(database)
    return database
  }

  /// Runs `body` while holding the database so that no other connection can use it: a
  /// WAL database is taken out of WAL mode (which SQLite refuses while another connection
  /// has it open), then an exclusive lock is taken (refused while another one reads or
  /// writes). On failure the file is left as it was.
  private static func withExclusiveAccess(
    to file: String, user: String, _ body: () throws -> Void
  ) throws {
    var options = OpenOptions()
    options.busyTimeout = 0
    options.flags = [.readWrite, .noMutex]
    let probe = try Connection(path: file, options: options)
    defer { try? probe.close() }
    let inUse = DatabaseDirectoryError.databaseInUse(user: user, path: file)
    let wasWAL = (try? probe.journalMode()) == .wal
    if wasWAL {
      guard (try? probe.setJournalMode(.delete)) == .delete else { throw inUse }
    }
    do {
      try probe.execute("BEGIN EXCLUSIVE")
    } catch {
      if wasWAL { _ = try? probe.setJournalMode(.wal) }
      throw inUse
    }
    do {
      try body()
    } catch {
      try? probe.execute("ROLLBACK")
      if wasWAL { _ = try? probe.setJournalMode(.wal) }
      throw error
    }
    try? probe.execute("ROLLBACK")
  }
}

extension DatabaseDirectory where Database == DatabaseQueue {
  /// A directory whose databases open as ``DatabaseQueue``s.
  /// - Parameters:
  ///   - path: the folder.
  ///   - prefix: the file name prefix: 1 to 64 ASCII letters, digits or `-`.
  ///   - options: how each database opens (as for ``Connection/init(path:options:)``).
  ///   - common: what brings the common database up to date; `nil` for none (no file).
  ///   - perUser: the same for each user's database.
  /// - Throws: as ``DatabaseDirectory/init(path:prefix:common:perUser:open:)``.
  public convenience init(
    path: String, prefix: String, options: OpenOptions = OpenOptions(),
    common: (any DatabasePreparation)? = nil, perUser: (any DatabasePreparation)? = nil
  ) throws {
    try self.init(path: path, prefix: prefix, common: common, perUser: perUser) {
      try DatabaseQueue(path: $0, options: options)
    }
  }
}

extension DatabaseDirectory where Database == DatabasePool {
  /// A directory whose databases open as ``DatabasePool``s (WAL): one writer, reads beside
  /// it on up to `maximumReaderCount` readers.
  /// - Parameters:
  ///   - path: the folder.
  ///   - prefix: the file name prefix: 1 to 64 ASCII letters, digits or `-`.
  ///   - maximumReaderCount: the readers of each pool.
  ///   - options: how each database opens (as for ``Connection/init(path:options:)``).
  ///   - common: what brings the common database up to date; `nil` for none (no file).
  ///   - perUser: the same for each user's database.
  /// - Throws: as ``DatabaseDirectory/init(path:prefix:common:perUser:open:)``.
  public convenience init(
    path: String, prefix: String, maximumReaderCount: Int, options: OpenOptions = OpenOptions(),
    common: (any DatabasePreparation)? = nil, perUser: (any DatabasePreparation)? = nil
  ) throws {
    try self.init(path: path, prefix: prefix, common: common, perUser: perUser) {
      try DatabasePool(path: $0, options: options, maximumReaderCount: maximumReaderCount)
    }
  }
}
