import Foundation

/// What a connection's statements read and change, learned from SQLite itself: the
/// authorizer reports the tables a statement reads or writes while it is prepared, and the
/// update, commit and rollback hooks report the tables that transactions changed.
///
/// The connection owns it and hands it, unretained, to SQLite's callbacks as their context;
/// it is used on the connection's thread only. Table names are lowercased, as SQLite
/// compares them.
final class TableActivity {
  /// The tables read by the statement being prepared now by the connection itself, or `nil`
  /// outside such a prepare (SQLite's own re-prepares then report to nobody).
  var preparingReads: Set<String>?
  /// The tables an INSERT, UPDATE or DELETE of the statement being prepared writes (its
  /// triggers' included).
  var preparingWrites: Set<String>?
  /// The tables read by the statements run since a recording started, or `nil`.
  var recordedReads: Set<String>?
  /// Whether changes are tracked: the hooks are installed, and a DELETE without WHERE
  /// deletes row by row so that the update hook sees it.
  var tracksChanges = false
  /// The table or view that the DROP being prepared names, from its action code until the
  /// authorizer's next call (see ``DroppedObject``).
  var droppedObject: DroppedObject?
  /// The tables changed by the transaction in progress.
  var pendingChanges: Set<String> = []
  /// The tables changed by transactions committed since the last ``takeCommittedChanges()``.
  var committedChanges: Set<String> = []

  /// The tables committed since the last call, and forgets them.
  func takeCommittedChanges() -> Set<String> {
    defer { committedChanges = [] }
    return committedChanges
  }

  /// Notes that a statement ran and changed rows: the tables it writes changed. In
  /// autocommit mode the statement's own transaction has already committed.
  func noteWrites(_ tables: Set<String>, inTransaction: Bool) {
    guard tracksChanges, !tables.isEmpty else { return }
    if inTransaction {
      pendingChanges.formUnion(tables)
    } else {
      committedChanges.formUnion(tables)
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
