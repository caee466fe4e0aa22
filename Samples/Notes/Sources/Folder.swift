import Foundation
import SwiftLite

/// A folder of notes; deleting it deletes its notes. Unchanged since release 1.
public struct Folder: Model, Sendable, Equatable {
  public var id: Int64?
  public var name: String
  public var createdAt: Date
  public static let primaryKey = ["id"]
  public static let tableName = "folder"
  /// The folder's notes (their `folderID`).
  public static let notes = hasMany(Note.self)

  /// A folder; `id` is `nil` until it is inserted.
  public init(id: Int64? = nil, name: String, createdAt: Date) {
    self.id = id
    self.name = name
    self.createdAt = createdAt
  }
}
