import Foundation
import SwiftLite

/// A contacts book in one SQLite file: the `users` table of a classic CRUD demo, with
/// passwords kept as salted PBKDF2 hashes.
///
/// ```swift
/// let store = try ContactsStore(path: "contacts.sqlite")
/// let id = try store.add(phone: "555-0100", name: "Ann Lee", password: "correct horse")
/// do {
///   try store.add(phone: "555-0100", name: "Someone else", password: nil)
/// } catch let error as ContactsError {
///   print(error)   // A contact with phone 555-0100 already exists.
/// }
/// let anns = try store.search(name: "ann")                  // LIKE, case-insensitive (ASCII)
/// let firstPage = try store.page(limit: 20, offset: 0, orderedBy: .name)
/// let ok = try store.verifyPassword("correct horse", phone: "555-0100")
/// ```
///
/// - Values are always bound to `?` parameters; SQL text holds fixed names only.
/// - The duplicate-phone error comes from the constraint error's kind
///   (`SQLiteError.constraintKind == .unique`), never from matching its message.
/// - Passwords are hashed outside the database queue, so a slow hash never blocks other
///   readers and writers of the store.
/// - `ContactsStore` is `Sendable`: one instance can serve any number of threads and tasks.
public final class ContactsStore: Sendable {
  /// The path the store was opened with.
  public let path: String
  /// The hasher used for new passwords and for checking them. Keep its iteration count
  /// for the life of a file: hashes made with another count do not verify.
  public let hasher: PasswordHasher
  private let dbQueue: DatabaseQueue

  /// Opens (creating when missing) the database file and its `users` table.
  /// - Parameters:
  ///   - path: the file path, or `":memory:"`.
  ///   - hasher: how passwords are hashed; 600,000 PBKDF2 iterations by default.
  /// - Throws: `SQLiteError` when the file cannot be opened or is not a database.
  public init(path: String, hasher: PasswordHasher = PasswordHasher()) throws {
    self.path = path
    self.hasher = hasher
    dbQueue = try DatabaseQueue(path: path)
    try dbQueue.write { db in
      try db.execute(
        """
        CREATE TABLE IF NOT EXISTS users (
          id            INTEGER PRIMARY KEY AUTOINCREMENT,
          phone         TEXT    NOT NULL UNIQUE,
          name          TEXT    NOT NULL,
          password_hash BLOB,
          password_salt BLOB
        )
        """)
    }
  }

  // MARK: Changing contacts

  /// Adds a contact.
  /// - Parameters:
  ///   - phone: the phone number; must not be empty and must not belong to another contact.
  ///   - name: the name; must not be empty.
  ///   - password: the password to hash and keep, or `nil` for none (then
  ///     ``verifyPassword(_:phone:)`` is always `false`); must not be empty.
  /// - Returns: the new contact's id.
  /// - Throws: ``ContactsError/phoneAlreadyExists(_:)`` for a phone already in the book
  ///   (nothing is added), ``ContactsError/emptyField(_:)``, ``ContactsError/cryptoFailure(_:)``,
  ///   or `SQLiteError` for a database failure.
  @discardableResult
  public func add(phone: String, name: String, password: String?) throws -> Int64 {
    try Self.requireNonEmpty(phone: phone, name: name)
    let hash = try password.map(makeHash)
    do {
      return try dbQueue.write { db in
        try db.run(
          "INSERT INTO users (phone, name, password_hash, password_salt) VALUES (?, ?, ?, ?)",
          [phone, name, hash?.key, hash?.salt])
        return db.lastInsertRowID
      }
    } catch let error as SQLiteError where error.constraintKind == .unique {
      // `phone` is the table's only UNIQUE column (the id is a rowid, reported as
      // .primaryKey), so the kind alone says which value collided.
      throw ContactsError.phoneAlreadyExists(phone)
    }
  }

  /// Saves a contact's phone and name.
  /// - Parameter contact: the new values; its id picks the row.
  /// - Throws: ``ContactsError/contactNotFound(id:)`` when no contact has that id,
  ///   ``ContactsError/phoneAlreadyExists(_:)`` when another contact has the new phone,
  ///   ``ContactsError/emptyField(_:)``, or `SQLiteError`.
  public func update(_ contact: Contact) throws {
    try Self.requireNonEmpty(phone: contact.phone, name: contact.name)
    let changed: Int
    do {
      changed = try dbQueue.write { db in
        try db.run(
          "UPDATE users SET phone = ?, name = ? WHERE id = ?",
          [contact.phone, contact.name, contact.id])
      }
    } catch let error as SQLiteError where error.constraintKind == .unique {
      throw ContactsError.phoneAlreadyExists(contact.phone)
    }
    if changed == 0 { throw ContactsError.contactNotFound(id: contact.id) }
  }

  /// Replaces a contact's password (or removes it, with `nil`).
  /// - Parameters:
  ///   - password: the new password, hashed with a fresh salt; `nil` for none.
  ///   - id: the contact's id.
  /// - Throws: ``ContactsError/contactNotFound(id:)``, ``ContactsError/emptyField(_:)``,
  ///   ``ContactsError/cryptoFailure(_:)``, or `SQLiteError`.
  public func setPassword(_ password: String?, forContact id: Int64) throws {
    let hash = try password.map(makeHash)
    let changed = try dbQueue.write { db in
      try db.run(
        "UPDATE users SET password_hash = ?, password_salt = ? WHERE id = ?",
        [hash?.key, hash?.salt, id])
    }
    if changed == 0 { throw ContactsError.contactNotFound(id: id) }
  }

  /// Deletes a contact. Its id is never given to another contact (`AUTOINCREMENT`).
  /// - Parameter id: the contact's id.
  /// - Throws: ``ContactsError/contactNotFound(id:)`` when no contact has that id, or
  ///   `SQLiteError`.
  public func delete(id: Int64) throws {
    let changed = try dbQueue.write { db in
      try db.run("DELETE FROM users WHERE id = ?", [id])
    }
    if changed == 0 { throw ContactsError.contactNotFound(id: id) }
  }

  /// Deletes every contact.
  /// - Returns: how many were deleted.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func deleteAll() throws -> Int {
    try dbQueue.write { db in try db.run("DELETE FROM users") }
  }

  // MARK: Reading contacts

  /// The contact with this id, or `nil`.
  /// - Parameter id: the contact's id.
  /// - Throws: `SQLiteError`, or `DecodingError` for a malformed row.
  public func contact(id: Int64) throws -> Contact? {
    try dbQueue.read { db in
      try db.queryFirst("SELECT id, phone, name FROM users WHERE id = ?", [id])
        .map(Self.contact(from:))
    }
  }

  /// Every contact, oldest first.
  /// - Throws: `SQLiteError`, or `DecodingError` for a malformed row.
  public func all() throws -> [Contact] {
    try dbQueue.read { db in
      try db.query("SELECT id, phone, name FROM users ORDER BY id").map(Self.contact(from:))
    }
  }

  /// The contacts whose name contains `text`, ordered by name.
  ///
  /// Uses `LIKE` with a bound pattern: `%` and `_` in `text` match themselves, not "any
  /// text" and "any character". Matching ignores case for ASCII letters only (SQLite's
  /// `LIKE`); an empty `text` matches every contact.
  /// - Parameter text: the text to look for.
  /// - Throws: `SQLiteError`, or `DecodingError` for a malformed row.
  public func search(name text: String) throws -> [Contact] {
    let pattern = "%" + Self.escapeLike(text) + "%"
    return try dbQueue.read { db in
      try db.query(
        "SELECT id, phone, name FROM users WHERE name LIKE ? ESCAPE '\\'"
          + " ORDER BY name COLLATE NOCASE, id",
        [pattern]
      ).map(Self.contact(from:))
    }
  }

  /// The number of contacts.
  /// - Throws: `SQLiteError`.
  public func count() throws -> Int {
    try dbQueue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM users") ?? 0 }
  }

  /// One page of contacts: at most `limit` of them, after skipping `offset`, in `order`.
  ///
  /// ```swift
  /// let pageSize = 20
  /// let third = try store.page(limit: pageSize, offset: 2 * pageSize, orderedBy: .name)
  /// ```
  /// - Parameters:
  ///   - limit: the page size (`LIMIT`).
  ///   - offset: how many contacts come before the page (`OFFSET`).
  ///   - order: the order of the whole list; `.id` (oldest first) by default.
  /// - Returns: the page; empty past the end.
  /// - Throws: ``ContactsError/invalidPage(limit:offset:)`` for a negative limit or offset
  ///   (SQLite would read a negative limit as "no limit"), `SQLiteError`, or `DecodingError`.
  public func page(limit: Int, offset: Int, orderedBy order: ContactOrder = .id) throws
    -> [Contact]
  {
    guard limit >= 0, offset >= 0 else {
      throw ContactsError.invalidPage(limit: limit, offset: offset)
    }
    // The ORDER BY clause is one of four fixed strings; the numbers are bound.
    let sql = "SELECT id, phone, name FROM users " + order.orderByClause + " LIMIT ? OFFSET ?"
    return try dbQueue.read { db in
      try db.query(sql, [limit, offset]).map(Self.contact(from:))
    }
  }

  // MARK: Passwords

  /// Checks the password of the contact with this phone number.
  ///
  /// An unknown phone, or a contact without a password, gives `false` after the same
  /// amount of hashing work, so the answer's timing does not reveal which phones exist.
  /// - Parameters:
  ///   - password: the password to check.
  ///   - phone: the contact's phone number.
  /// - Returns: `true` only when the contact exists and the password matches.
  /// - Throws: ``ContactsError/cryptoFailure(_:)``, `SQLiteError`, or `DecodingError`.
  public func verifyPassword(_ password: String, phone: String) throws -> Bool {
    let stored: PasswordHash? = try dbQueue.read { db in
      guard
        let row = try db.queryFirst(
          "SELECT password_hash, password_salt FROM users WHERE phone = ?", [phone]),
        let key = try row.get(Data?.self, "password_hash"),
        let salt = try row.get(Data?.self, "password_salt")
      else { return nil }
      return PasswordHash(key: key, salt: salt)
    }
    guard let stored else {
      _ = try hasher.deriveKey(password, salt: Data(count: PasswordHasher.saltLength))
      return false
    }
    return try hasher.verify(password, against: stored)
  }

  // MARK: Helpers

  private func makeHash(_ password: String) throws -> PasswordHash {
    guard !password.isEmpty else { throw ContactsError.emptyField("password") }
    return try hasher.hash(password)
  }

  private static func requireNonEmpty(phone: String, name: String) throws {
    if phone.isEmpty { throw ContactsError.emptyField("phone") }
    if name.isEmpty { throw ContactsError.emptyField("name") }
  }

  /// `text` with `\`, `%` and `_` escaped by `\`, for `LIKE ? ESCAPE '\'`.
  static func escapeLike(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  private static func contact(from row: Row) throws -> Contact {
    Contact(
      id: try row.get(Int64.self, "id"),
      phone: try row.get(String.self, "phone"),
      name: try row.get(String.self, "name"))
  }
}
