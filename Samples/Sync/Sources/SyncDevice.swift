import Foundation
import SwiftLite
import Synchronization

/// One copy of the notes: a database file that a device edits offline, and the changesets
/// it sends and receives.
///
/// Conflicts resolve row by row, by ``SyncVersion``: when two devices edited one note,
/// the edit with the later `updatedAt` wins, equal timestamps going to the larger device id;
/// a delete is an edit too (a tombstone with its own timestamp). Every copy that has seen
/// the same edits holds the same rows, whatever the order they arrived in.
///
/// What travels is SQLite's own changeset format. A session records which notes changed;
/// the outgoing changeset then holds each of them as a whole row, an INSERT, made by a
/// second session on a scratch in-memory copy: the session's own UPDATEs carry only the
/// columns an edit changed, and the winner of a conflict must bring all of its columns, or
/// the loser's other columns would survive on one copy and not on the other.
public final class SyncDevice: Sendable {
  /// This device's id (any text; the larger wins ties).
  public let id: String
  /// The device's database.
  public let database: DatabaseQueue
  private let clock: @Sendable () -> Int64
  /// The session recording local edits since the last ``outgoing()``.
  private let session: Mutex<DatabaseSession>

  /// Opens (or creates) the device's database.
  /// - Parameters:
  ///   - path: the database file.
  ///   - id: the device id.
  ///   - clock: the time of an edit, in milliseconds; the wall clock by default.
  /// - Throws: `SQLiteError`, `ChangesetError` when SQLite has no session extension.
  public init(
    path: String, id: String,
    clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
  ) throws {
    self.id = id
    self.clock = clock
    database = try DatabaseQueue(path: path)
    session = Mutex(try Self.startSession(database))
  }

  private static func startSession(_ database: DatabaseQueue) throws -> DatabaseSession {
    let session = try database.makeSession()
    try session.attach(SyncNote.self)
    return session
  }

  // MARK: Editing offline

  /// Creates a note.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func create(_ body: String) throws -> SyncNote {
    let note = SyncNote(
      id: UUID().uuidString, body: body, updatedAt: clock(), deviceID: id, isDeleted: false)
    try database.write { db in try db.save(note) }
    return note
  }

  /// Changes a note's text (or brings a deleted note back).
  /// - Returns: the note as saved, or `nil` when this copy has no such note.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func edit(_ noteID: String, body: String) throws -> SyncNote? {
    try change(noteID) {
      $0.body = body
      $0.isDeleted = false
    }
  }

  /// Deletes a note: a tombstone that wins or loses against other edits like an edit.
  /// - Returns: the tombstone, or `nil` when this copy has no such note.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func delete(_ noteID: String) throws -> SyncNote? {
    try change(noteID) {
      $0.body = ""
      $0.isDeleted = true
    }
  }

  /// Saves an edit of a note with a version newer than the note's: a device whose clock
  /// lags behind the note's timestamp still makes an edit that wins over the one it
  /// replaced (else its own copy would keep it while every other copy dropped it).
  private func change(_ noteID: String, _ edit: (inout SyncNote) -> Void) throws -> SyncNote? {
    try database.write { db in
      guard var note = try db.find(SyncNote.self, id: noteID) else { return nil }
      var version = SyncVersion(updatedAt: clock(), deviceID: id)
      if version <= note.version {
        version.updatedAt = note.updatedAt + (id > note.deviceID ? 0 : 1)
      }
      edit(&note)
      note.updatedAt = version.updatedAt
      note.deviceID = id
      try db.save(note)
      return note
    }
  }

  /// The notes that are not deleted, by id.
  /// - Throws: `SQLiteError`, `DecodingError`.
  public func notes() throws -> [SyncNote] {
    try database.read { db in
      try db.findAll(SyncNote.self).filter { !$0.isDeleted }.sorted { $0.id < $1.id }
    }
  }

  /// Every row, tombstones included, as SQLite quotes its values: equal lists mean equal
  /// copies.
  /// - Throws: `SQLiteError`.
  public func quotedRows() throws -> [String] {
    try database.read { db in try Self.quotedRows(db) }
  }

  /// The rows of a connection's `SyncNote` table, as ``quotedRows()`` gives them.
  /// - Throws: `SQLiteError`.
  public static func quotedRows(_ db: Connection) throws -> [String] {
    try db.query(
      "SELECT quote(id) || ',' || quote(body) || ',' || quote(updatedAt) || ',' || "
        + "quote(deviceID) || ',' || quote(isDeleted) FROM SyncNote ORDER BY id"
    ).map { try $0.get(String.self, at: 0) }
  }

  // MARK: Exchanging

  /// The notes edited here since the last call, each as a whole row (see the type's
  /// documentation); empty when nothing changed. Recording starts afresh.
  /// - Throws: `SQLiteError`, `ChangesetError`.
  public func outgoing() throws -> Changeset {
    // The next session starts before the current one is read: an edit made in between is
    // in both, and sent twice, which changes nothing (an equal version is dropped).
    let next = try Self.startSession(database)
    let recorded = try session.withLock { current in
      defer { current = next }
      let changeset = try current.changeset()
      try current.close()
      return changeset
    }
    var ids: [SQLiteValue] = []
    for change in try recorded.changes() {
      // The key is among the old values of an UPDATE or DELETE, the new ones of an INSERT.
      guard let key = change.primaryKey.firstIndex(of: true),
        let value = (change.old ?? change.new)?[key] ?? nil
      else { continue }
      ids.append(value)
    }
    guard !ids.isEmpty else { return Changeset(data: Data()) }
    let rows = try database.read { db in
      try ids.compactMap { try db.find(SyncNote.self, key: [$0]) }
    }
    let scratch = try Connection.inMemory()
    let rowSession = try Session(on: scratch)
    try rowSession.attach(SyncNote.self)
    try scratch.transaction { db in try db.save(rows) }
    return try rowSession.changeset()
  }

  /// Applies another device's changeset, in one transaction, by the policy: a note this copy
  /// lacks is inserted; a note it has takes the incoming row when its version is newer.
  /// - Throws: `ChangesetError` (`.schemaMismatch` when the other device runs another
  ///   version of the model, `.malformed`, `.aborted` for a change that is not a whole
  ///   row); `SQLiteError`. Nothing is applied then.
  public func receive(_ changeset: Changeset) throws {
    try database.apply(changeset) { conflict in
      guard conflict.kind == .conflict, let incoming = Self.version(conflict.new, conflict),
        let current = Self.version(conflict.current, conflict)
      else { return .abort }
      return incoming > current ? .replace : .omit
    }
  }

  /// The version in a conflict's values (new or current).
  private static func version(_ values: [SQLiteValue?]?, _ conflict: ChangesetConflict)
    -> SyncVersion?
  {
    guard let values, let time = conflict.columns.firstIndex(of: "updatedAt"),
      let device = conflict.columns.firstIndex(of: "deviceID"),
      case .integer(let updatedAt)? = values[time], case .text(let deviceID)? = values[device]
    else { return nil }
    return SyncVersion(updatedAt: updatedAt, deviceID: deviceID)
  }
}
