import Foundation
import SwiftLite

/// A note as release 4 (today's app) stores it: release 3 renamed `pinned` to `isPinned`
/// and indexed the text, release 4 renamed `body` to `content` (the index follows).
public struct Note: Model, Sendable, Equatable {
  public var id: Int64?
  public var folderID: Int64
  public var title: String
  public var content: String
  /// Stored as a JSON array of strings.
  public var tags: [String]
  public var isPinned: Bool
  public var createdAt: Date
  public static let primaryKey = ["id"]
  public static let tableName = "note"
  public static let foreignKeys = [
    ForeignKey(["folderID"], references: Folder.tableName, onDelete: .cascade)
  ]
  /// Release 4's rename: the column `body` becomes `content`, keeping its text.
  public static let renamedProperties = ["content": "body"]
  public static let fullTextIndexes = [FullTextIndex(Note.self, columns: ["title", "content"])]
  /// The note's folder.
  public static let folder = belongsTo(Folder.self)

  /// A note; `id` is `nil` until it is inserted.
  public init(
    id: Int64? = nil, folderID: Int64, title: String, content: String, tags: [String] = [],
    isPinned: Bool = false, createdAt: Date
  ) {
    self.id = id
    self.folderID = folderID
    self.title = title
    self.content = content
    self.tags = tags
    self.isPinned = isPinned
    self.createdAt = createdAt
  }
}
