/// A preparation that brings the tables of some models to their shape as compiled now when
/// a database opens: automatic migration at launch instead of at each model's first write.
///
/// ```swift
/// struct Folder: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
/// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
///
/// let dbQueue = try DatabaseQueue(
///   path: "notes.sqlite", preparation: ModelPreparation(Folder.self, Note.self))
/// ```
/// The tables are created or migrated in the order given, each in its own IMMEDIATE
/// transaction (as a model's first write would): when one fails, it is left as it was, the
/// database is closed and the open rethrows. It keeps no
/// history: for SQL steps, renames across releases and one schema whatever the path, use a
/// `Migrator` with snapshots instead. On a read-only database it changes nothing and throws
/// ``MigrationError/readOnlyConnection(table:strategy:)`` for the first table that needs work.
///
/// `Sendable`: it holds the models' metatypes only.
public struct ModelPreparation: DatabasePreparation {
  private let models: [Migrator.StepModel]

  #if compiler(>=6.2)
    /// A preparation for `models`, whose tables are created or migrated in this order.
    public init<each M: Model & SendableMetatype>(_ models: repeat (each M).Type) {
      var entries: [Migrator.StepModel] = []
      repeat entries.append(Migrator.StepModel((each M).self))
      self.models = entries
    }
  #else
    /// A preparation for `models`, whose tables are created or migrated in this order.
    public init<each M: Model>(_ models: repeat (each M).Type) {
      var entries: [Migrator.StepModel] = []
      repeat entries.append(Migrator.StepModel((each M).self))
      self.models = entries
    }
  #endif

  /// The models' tables.
  public var preparedTables: Set<String> { Set(models.map(\.tableName)) }

  /// Creates or migrates the models' tables, in order, on the writing connection.
  /// - Throws: ``ModelError``, ``MigrationError`` or `SQLiteError`; the table that failed
  ///   is left as it was.
  public func prepare(_ database: any DatabaseAccess) throws {
    try database.writeWithoutTransaction { db in
      if db.isReadOnly {
        for model in models {
          let plan = try model.plan(db)
          if !plan.isEmpty {
            throw MigrationError.readOnlyConnection(
              table: plan.table, strategy: plan.strategy.rawValue)
          }
        }
        return
      }
      defer { db.removeAllAttachments() }
      for model in models { try model.migrate(db) }
    }
  }
}
