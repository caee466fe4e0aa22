/// A foreign key from a model's columns to another table, declared in ``Model/foreignKeys``.
///
/// ```swift
/// struct Grade: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
/// struct SchoolClass: Model {
///   var id: Int64?
///   var gradeID: Int64
///   static let primaryKey = ["id"]
///   static let foreignKeys = [ForeignKey(["gradeID"], references: Grade.tableName, onDelete: .cascade)]
/// }
/// ```
public struct ForeignKey: Sendable, Hashable {
  /// The referencing columns of this model.
  public let columns: [String]
  /// The referenced table.
  public let table: String
  /// The referenced columns (the parent's primary key when empty).
  public let parentColumns: [String]
  /// What happens to this row when the referenced row is deleted.
  public let onDelete: Action
  /// What happens to this row when the referenced key changes.
  public let onUpdate: Action

  /// A foreign key.
  /// - Parameters:
  ///   - columns: this model's columns.
  ///   - table: the parent table (for a model: `Parent.tableName`).
  ///   - parentColumns: the parent's columns; its primary key when empty.
  ///   - onDelete: the action on delete; `.noAction` by default, `.cascade` for owned rows.
  ///   - onUpdate: the action on update.
  public init(
    _ columns: [String], references table: String, _ parentColumns: [String] = [],
    onDelete: Action = .noAction, onUpdate: Action = .noAction
  ) {
    self.columns = columns
    self.table = table
    self.parentColumns = parentColumns
    self.onDelete = onDelete
    self.onUpdate = onUpdate
  }

  /// SQLite's foreign key actions. See <https://sqlite.org/foreignkeys.html#fk_actions>.
  ///
  /// `Codable` as its SQL words (`"CASCADE"`), as schema snapshots record it.
  public enum Action: String, Sendable, Hashable, Codable {
    /// `NO ACTION`.
    case noAction = "NO ACTION"
    /// `RESTRICT`.
    case restrict = "RESTRICT"
    /// `SET NULL`.
    case setNull = "SET NULL"
    /// `SET DEFAULT`.
    case setDefault = "SET DEFAULT"
    /// `CASCADE`.
    case cascade = "CASCADE"
  }
}
