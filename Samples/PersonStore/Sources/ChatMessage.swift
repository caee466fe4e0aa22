import Foundation
import SwiftLite

/// A chat message, stored in one table per chat:
/// `db.save(message, target: "42")` writes to `ChatMessage_42`.
public struct ChatMessage: Model, Equatable, Sendable {
  /// Assigned by SQLite.
  public var messageID: Int64?
  /// Who wrote it.
  public var sender: String
  /// The text.
  public var text: String
  /// When it was sent (stored as `YYYY-MM-DD HH:MM:SS.SSS` text in UTC, as SQLite writes dates).
  public var sentAt: Date

  /// `messageID`, never reused (AUTOINCREMENT).
  public static let primaryKey = ["messageID"]
  /// Ids are never reused, even after deletes.
  public static let autoIncrement = true

  /// A message.
  public init(messageID: Int64? = nil, sender: String, text: String, sentAt: Date) {
    self.messageID = messageID
    self.sender = sender
    self.text = text
    self.sentAt = sentAt
  }
}
