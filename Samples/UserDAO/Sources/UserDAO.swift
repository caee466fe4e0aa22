import Foundation
import SwiftLite
import Synchronization

/// A data access object for the `user` table, written by hand on SwiftLite's
/// `DatabaseQueue`, `Connection` and `Row`.
///
/// ```swift
/// try UserDAO.configure(directory: "/tmp/demo")   // optional; default: current directory
/// let dao = try UserDAO.shared
/// try dao.create(User(userId: "u1", userName: "Ann", userAge: 34))
/// if let ann = try dao.findById("u1") { print(ann.userName) }
/// try dao.modify(User(userId: "u1", userName: "Ann", userAge: 35))
/// try dao.remove("u1")
/// ```
///
/// - The database is the file ``fileName`` in a directory you choose. It is opened once
///   and stays open; it is not reopened around every call.
/// - Every value is bound to a `?` parameter; the SQL text holds only fixed table and
///   column names, so a name like `O'Brien` or `'; DROP TABLE user; --` is just data.
/// - Failures throw: `SQLiteError` from SQLite, ``UserDAOError/userNotFound(userId:)``
///   when ``modify(_:)`` or ``remove(_:)`` finds no row. Nothing is logged and dropped.
/// - `UserDAO` is `Sendable`: its `DatabaseQueue` runs one call at a time, so any thread
///   or task may use the same instance.
public final class UserDAO: Sendable {
  /// The name of the database file inside the chosen directory.
  public static let fileName = "UserList.sqlite"

  /// The full path of the database file.
  public let path: String
  private let dbQueue: DatabaseQueue

  /// Opens (creating when missing) `UserList.sqlite` in `directory`, and creates the
  /// `user` table if it does not exist yet.
  /// - Parameter directory: an existing directory; the current directory by default.
  /// - Throws: `SQLiteError` (`.cannotOpen` when the directory does not exist or is not
  ///   writable, `.notADatabase` when the file is not a database).
  public init(directory: String = FileManager.default.currentDirectoryPath) throws {
    let directoryURL = URL(fileURLWithPath: directory, isDirectory: true)
    path = directoryURL.appendingPathComponent(Self.fileName).path
    dbQueue = try DatabaseQueue(path: path)
    try dbQueue.write { db in
      try db.execute(
        """
        CREATE TABLE IF NOT EXISTS user (
          user_id   TEXT    NOT NULL PRIMARY KEY,
          user_name TEXT    NOT NULL,
          user_age  INTEGER NOT NULL
        )
        """)
    }
  }

  // MARK: The shared instance

  // The only mutable state of this type, behind a lock the compiler checks.
  private static let sharedInstance = Mutex<UserDAO?>(nil)

  /// The shared DAO. The first use opens `UserList.sqlite` in the current directory,
  /// unless ``configure(directory:)`` chose another directory before.
  /// - Throws: `SQLiteError` when the file cannot be opened (the next use tries again).
  public static var shared: UserDAO {
    get throws {
      try sharedInstance.withLock { instance in
        if let instance { return instance }
        let dao = try UserDAO()
        instance = dao
        return dao
      }
    }
  }

  /// Makes ``shared`` a DAO on `UserList.sqlite` in `directory`, opening it now so that a
  /// wrong directory is reported here. Callers already holding the previous instance keep
  /// using the previous file.
  /// - Parameter directory: an existing directory.
  /// - Returns: the new shared instance.
  /// - Throws: `SQLiteError` as ``init(directory:)`` does; ``shared`` is unchanged then.
  @discardableResult
  public static func configure(directory: String) throws -> UserDAO {
    let dao = try UserDAO(directory: directory)
    sharedInstance.withLock { $0 = dao }
    return dao
  }

  // MARK: Reading

  /// The user with this id, or `nil` when there is none.
  /// - Parameter userId: the primary key to look for.
  /// - Throws: `SQLiteError`, or `DecodingError` when the stored row is malformed.
  public func findById(_ userId: String) throws -> User? {
    try dbQueue.read { db in
      try db.queryFirst(
        "SELECT user_id, user_name, user_age FROM user WHERE user_id = ?", [userId]
      ).map(User.init(row:))
    }
  }

  /// Every user, ordered by id.
  /// - Throws: `SQLiteError`, or `DecodingError` when a stored row is malformed.
  public func findAll() throws -> [User] {
    try dbQueue.read { db in
      try db.query("SELECT user_id, user_name, user_age FROM user ORDER BY user_id")
        .map(User.init(row:))
    }
  }

  // MARK: Writing

  /// Inserts `user` as a new user.
  /// - Parameter user: the user to store.
  /// - Throws: ``UserDAOError/userExists(userId:)`` when a user already has its id (nothing
  ///   is changed), `SQLiteError` for a database failure.
  public func create(_ user: User) throws {
    do {
      try dbQueue.write { db in
        try db.run(
          "INSERT INTO user (user_id, user_name, user_age) VALUES (?, ?, ?)",
          [user.userId, user.userName, user.userAge])
      }
    } catch let error as SQLiteError where error.constraintKind == .primaryKey {
      throw UserDAOError.userExists(userId: user.userId)
    }
  }

  /// Stores `user`: inserts it, or updates the stored user with the same id (one UPSERT,
  /// so the row is updated in place, never deleted and inserted again).
  /// - Parameter user: the user to store.
  /// - Throws: `SQLiteError`.
  public func save(_ user: User) throws {
    try dbQueue.write { db in
      try db.run(
        """
        INSERT INTO user (user_id, user_name, user_age) VALUES (?, ?, ?)
        ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name, user_age = excluded.user_age
        """,
        [user.userId, user.userName, user.userAge])
    }
  }

  /// Saves the name and age of the stored user with `user.userId`.
  /// - Parameter user: the new values; its id picks the row.
  /// - Throws: ``UserDAOError/userNotFound(userId:)`` when no user has that id (nothing is
  ///   changed), `SQLiteError` for a database failure.
  public func modify(_ user: User) throws {
    let changed = try dbQueue.write { db in
      try db.run(
        "UPDATE user SET user_name = ?, user_age = ? WHERE user_id = ?",
        [user.userName, user.userAge, user.userId])
    }
    if changed == 0 { throw UserDAOError.userNotFound(userId: user.userId) }
  }

  /// Deletes the user with this id.
  /// - Parameter userId: the primary key of the user to delete.
  /// - Throws: ``UserDAOError/userNotFound(userId:)`` when no user has that id,
  ///   `SQLiteError` for a database failure.
  public func remove(_ userId: String) throws {
    let changed = try dbQueue.write { db in
      try db.run("DELETE FROM user WHERE user_id = ?", [userId])
    }
    if changed == 0 { throw UserDAOError.userNotFound(userId: userId) }
  }
}
