import Foundation

/// What a connection's statements read and change, learned from SQLite itself: the
/// authorizer reports the tables a statement reads or writes (and whether it changes the
/// schema) while it is prepared, and the update, commit and rollback hooks report the
/// tables that transactions changed.
///
/// The connection owns it, and so do the statements of its ``Connection/prepare(_:)``,
/// which report what they change when they run; SQLite's callbacks get it, unretained, as
/// their context. It is used on the connection's thread only. Table names have their ASCII
/// letters lowercased, as SQLite compares them (``SQLName``).
final class TableActivity {
  /// Whether the authorizer is installed: statements prepared now learn their tables.
  var tracksReads = false
  /// Whether changes are tracked: the hooks are installed, and a DELETE without WHERE
  /// deletes row by row so that the update hook sees it.
  var tracksChanges = false
  /// The tables read by the statement being prepared now by the connection itself, or `nil`
  /// outside such a prepare (SQLite's own re-prepares then report to nobody).
  var preparingReads: Set<String>?
  /// The tables an INSERT, UPDATE or DELETE of the statement being prepared writes (its
  /// triggers' included).
  var preparingWrites: Set<String>?
  /// Whether the statement being prepared creates, drops or alters something.
  var preparingSchemaChange = false
  /// The table or view that the DROP being prepared names, from its action code until the
  /// authorizer's next call (see ``DroppedObject``).
  var droppedObject: DroppedObject?
  /// The tables read by the statements run since a recording started, or `nil`.
  var recordedReads: Set<String>?
  /// What the transaction in progress changed.
  var pendingChanges: CommittedChanges = []
  /// What transactions committed since the last ``takeCommittedChanges()`` changed.
  var committedChanges: CommittedChanges = []

  /// Starts a prepare whose tables are learned.
  func beginPreparing() {
    preparingReads = []
    preparingWrites = []
    preparingSchemaChange = false
    droppedObject = nil
  }

  /// Ends a prepare: what it learned.
  func endPreparing() -> (reads: Set<String>, writes: Set<String>, changesSchema: Bool) {
    defer {
      preparingReads = nil
      preparingWrites = nil
      preparingSchemaChange = false
    }
    return (preparingReads ?? [], preparingWrites ?? [], preparingSchemaChange)
  }

  /// What was committed since the last call, and forgets it.
  func takeCommittedChanges() -> CommittedChanges {
    defer { committedChanges = [] }
    return committedChanges
  }

  /// Notes that a statement ran: the tables it writes changed when it changed rows, and
  /// everything when it changed the schema. In autocommit mode the statement's own
  /// transaction has already committed.
  func noteRun(writes: Set<String>, changesSchema: Bool, inTransaction: Bool) {
    guard tracksChanges, changesSchema || !writes.isEmpty else { return }
    let changes = CommittedChanges(tables: writes, changesEverything: changesSchema)
    if inTransaction {
      pendingChanges.formUnion(changes)
    } else {
      committedChanges.formUnion(changes)
    }
  }

  /// Notes a change whose tables are not known (a backup into the database, C calls on
  /// its handle): every result may be stale once it commits.
  func noteEverythingChanged(inTransaction: Bool) {
    guard tracksChanges else { return }
    if inTransaction {
      pendingChanges.changesEverything = true
    } else {
      committedChanges.changesEverything = true
    }
  }

  /// Notes that a statement ran: a recording in progress learns the tables it reads.
  func noteReads(_ tables: Set<String>?) {
    guard recordedReads != nil, let tables else { return }
    recordedReads?.formUnion(tables)
  }

  /// The object of a DROP TABLE, DROP VIEW or DROP of a virtual table, as the authorizer
  /// named it: SQLite then authorizes a delete of that same object, which is the drop.
  struct DroppedObject {
    let name: [UInt8]
    let database: [UInt8]?

    init(name: UnsafePointer<CChar>, database: UnsafePointer<CChar>?) {
      self.name = Self.bytes(name)
      self.database = database.map(Self.bytes)
    }

    /// Whether a delete of `name` in `database` is of this object (names compared by bytes,
    /// as SQLite passes the same names twice).
    func matches(_ name: UnsafePointer<CChar>, _ database: UnsafePointer<CChar>?) -> Bool {
      Self.bytes(name) == self.name && database.map(Self.bytes) == self.database
    }

    private static func bytes(_ text: UnsafePointer<CChar>) -> [UInt8] {
      Array(UnsafeBufferPointer(start: text, count: strlen(text))).map { UInt8(bitPattern: $0) }
    }
  }
}
