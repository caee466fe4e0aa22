import Foundation
import SwiftLite

/// The note types of earlier releases, as those releases compiled them: the demo runs each
/// release's app on one file. A real app keeps only today's `Note`; the snapshots of
/// `MigrationSnapshots/` remember the older shapes for it.
public enum NotesHistory {
  /// Releases 1 and 2: `pinned` and `body`, no full-text index.
  public struct NoteV1: Model, Sendable {
    public var id: Int64?
    public var folderID: Int64
    public var title: String
    public var body: String
    public var tags: [String]
    public var pinned: Bool
    public var createdAt: Date
    public static let primaryKey = ["id"]
    public static let tableName = "note"
    public static let foreignKeys = [
      ForeignKey(["folderID"], references: Folder.tableName, onDelete: .cascade)
    ]

    /// A release-1 note.
    public init(
      id: Int64? = nil, folderID: Int64, title: String, body: String, tags: [String],
      pinned: Bool = false, createdAt: Date
    ) {
      self.id = id
      self.folderID = folderID
      self.title = title
      self.body = body
      self.tags = tags
      self.pinned = pinned
      self.createdAt = createdAt
    }
  }

  /// Release 3: `pinned` renamed `isPinned`, title and body indexed for full-text search.
  public struct NoteV3: Model, Sendable {
    public var id: Int64?
    public var folderID: Int64
    public var title: String
    public var body: String
    public var tags: [String]
    public var isPinned: Bool
    public var createdAt: Date
    public static let primaryKey = ["id"]
    public static let tableName = "note"
    public static let foreignKeys = [
      ForeignKey(["folderID"], references: Folder.tableName, onDelete: .cascade)
    ]
    public static let renamedProperties = ["isPinned": "pinned"]
    public static let fullTextIndexes = [FullTextIndex(NoteV3.self, columns: ["title", "body"])]
  }
}
