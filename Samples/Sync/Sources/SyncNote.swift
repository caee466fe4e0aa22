import SwiftLite

/// A note as every device stores it: one row per note, never deleted, so that a delete
/// travels and competes like any other edit.
///
/// What a model needs to sync well:
/// - a key that two devices can never both make: a UUID as text (an INTEGER key counted up
///   on each device would collide);
/// - no UNIQUE constraint two devices can both satisfy apart (two notes titled "Todo" made
///   offline would make the second apply fail with a `.constraint` conflict);
/// - the version every edit stamps, `updatedAt` and `deviceID`, and a tombstone flag
///   instead of a DELETE.
public struct SyncNote: Model, Equatable, Sendable {
  /// A UUID, made by the device that creates the note.
  public var id: String
  /// The text; empty once deleted.
  public var body: String
  /// When the last edit was made (milliseconds, see `SyncDevice`), never earlier than the
  /// edit it replaced.
  public var updatedAt: Int64
  /// The device that made the last edit.
  public var deviceID: String
  /// A tombstone: the note was deleted at `updatedAt`.
  public var isDeleted: Bool

  /// The key: the UUID, the same on every copy.
  public static let primaryKey = ["id"]

  /// The edit's version, as the policy compares them.
  public var version: SyncVersion { SyncVersion(updatedAt: updatedAt, deviceID: deviceID) }
}

/// The order of edits: the later `updatedAt` wins; equal timestamps are broken by the
/// larger device id (plain string comparison). Two edits of one note made by one device
/// never share a version (see `SyncDevice`).
public struct SyncVersion: Comparable, Hashable, Sendable {
  /// When the edit was made.
  public var updatedAt: Int64
  /// Who made it.
  public var deviceID: String

  /// Orders by timestamp, then by device id.
  public static func < (lhs: SyncVersion, rhs: SyncVersion) -> Bool {
    (lhs.updatedAt, lhs.deviceID) < (rhs.updatedAt, rhs.deviceID)
  }
}
