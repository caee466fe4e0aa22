/// One row of the `users` table, without its password: the store keeps only a salted hash
/// of it, and never hands that out.
public struct Contact: Sendable, Hashable, Identifiable {
  /// The `AUTOINCREMENT` id SQLite gave the contact; never reused after a delete.
  public let id: Int64
  /// The phone number, unique in the table.
  public var phone: String
  /// The display name.
  public var name: String

  /// Creates a contact value, as read from the store or to pass to
  /// ``ContactsStore/update(_:)``.
  /// - Parameters:
  ///   - id: the contact's id.
  ///   - phone: the phone number.
  ///   - name: the display name.
  public init(id: Int64, phone: String, name: String) {
    self.id = id
    self.phone = phone
    self.name = name
  }
}

/// How ``ContactsStore/page(limit:offset:orderedBy:)`` orders contacts. Each case is a fixed
/// `ORDER BY` clause, ending with `id` so that pages never overlap or skip a row.
public enum ContactOrder: Sendable, Hashable, CaseIterable {
  /// Oldest first (`ORDER BY id`).
  case id
  /// Newest first (`ORDER BY id DESC`).
  case newestFirst
  /// By name, ignoring ASCII case, then by id.
  case name
  /// By phone number, as text.
  case phone

  /// The clause, built from fixed column names only.
  var orderByClause: String {
    switch self {
    case .id: return "ORDER BY id"
    case .newestFirst: return "ORDER BY id DESC"
    case .name: return "ORDER BY name COLLATE NOCASE, id"
    case .phone: return "ORDER BY phone, id"
    }
  }
}
