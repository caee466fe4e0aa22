/// One difference between a table as stored and the schema wanted for it, as
/// ``AutoMigration`` finds it when planning. ``MigrationPlan/schemaChanges`` lists them; the
/// ``description`` of each is its line in ``MigrationPlan/changes``.
///
/// ```swift
/// struct PersonV1: Model { var id: Int64?; var name: String?; static let primaryKey = ["id"]; static let tableName = "Person" }
/// struct Person: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }  // now NOT NULL
/// let db = try Connection.inMemory()
/// try db.save(PersonV1(id: 1, name: "Ann"))  // the table as an earlier release made it
///
/// let plan = try db.migrationPlan(for: Person.self)
/// if plan.schemaChanges.contains(where: \.needsRebuild) { print("the table will be rebuilt") }
/// ```
public enum SchemaChange: Sendable, Hashable, CustomStringConvertible {
  /// The table does not exist yet: it is created.
  case tableCreated(table: String)
  /// The table exists under an earlier name (the model's `previousTableNames`): it is
  /// renamed, with its rows, indexes and triggers, before any other change.
  case tableRenamed(from: String, to: String)
  /// A column the table lacks; existing rows take its default.
  case columnAdded(ColumnDefinition)
  /// A stored column the schema no longer has.
  case columnRemoved(String)
  /// A stored column that feeds a column of another name (declared renamed, or a name that
  /// differs only in ASCII case).
  case columnRenamed(from: String, to: String)
  /// A column whose declared SQL type changes (named as wanted).
  case columnRetyped(String, from: String, to: String)
  /// A column that became NOT NULL (`isNotNull`) or nullable. `nullsTakeDefault`: the NULLs
  /// it holds take its default, as the rows of an added column do.
  case nullabilityChanged(String, isNotNull: Bool, nullsTakeDefault: Bool)
  /// A column that gained or lost its own UNIQUE constraint.
  case uniqueChanged(String, isUnique: Bool)
  /// A column whose DEFAULT expression changed (SQL text, `nil` for none).
  case defaultChanged(String, from: String?, to: String?)
  /// The primary key's columns (stored names, then wanted names).
  case primaryKeyChanged(from: [String], to: [String])
  /// The set of foreign keys changed.
  case foreignKeysChanged
  /// The table became STRICT (`true`) or stopped being STRICT.
  case strictChanged(isStrict: Bool)
  /// A CHECK, COLLATE or AUTOINCREMENT changed, which SQLite's pragmas do not report: seen
  /// through the definition SwiftLite recorded when it last gave the table its shape.
  case constraintsChanged
  /// The schema declares a CHECK, COLLATE or AUTOINCREMENT that a table SwiftLite did not
  /// create (no record) may lack: it is rebuilt unless its CREATE statement is SwiftLite's.
  case constraintsUnverifiable
  /// A column's Swift type changed within one SQL type (`String` to `[String]`): SQLite
  /// sees nothing, and every row is decoded as the new type before committing.
  case swiftTypeChanged(String, from: String, to: String)
  /// An index the table lacks.
  case indexAdded(TableSchema.IndexDefinition)
  /// An index the schema no longer has.
  case indexRemoved(TableSchema.IndexDefinition)
  /// A full-text index the model declares and the database lacks (named): it is created
  /// and indexes every row.
  case fullTextIndexAdded(String)
  /// A full-text index whose FTS5 table differs from the declaration (its columns,
  /// tokenizer or prefix indexes): it is dropped, created again and indexes every row.
  case fullTextIndexChanged(String)
  /// A full-text index whose triggers differ from those SwiftLite writes (such as those of
  /// an earlier version, whose update trigger fired on every update): they are replaced.
  case fullTextTriggersChanged(String)

  /// Whether the change needs SQLite's table rebuild; otherwise `CREATE TABLE`,
  /// `ALTER TABLE ... ADD COLUMN`, `CREATE INDEX` / `DROP INDEX` or a check of the rows is
  /// enough.
  ///
  /// An added column needs the rebuild when ADD COLUMN cannot add it: UNIQUE, NOT NULL
  /// without a default, or a default SQLite evaluates per row (`CURRENT_TIMESTAMP`, one in
  /// parentheses). (One in the primary key also changes the key, listed separately.)
  public var needsRebuild: Bool {
    switch self {
    case .tableCreated, .tableRenamed, .swiftTypeChanged, .indexAdded, .indexRemoved,
      .fullTextIndexAdded,
      .fullTextIndexChanged, .fullTextTriggersChanged:
      return false
    case .columnAdded(let column):
      return column.isUnique || (column.isNotNull && (column.defaultSQL ?? "NULL") == "NULL")
        || column.hasExpressionDefault
    case .columnRemoved, .columnRenamed, .columnRetyped, .nullabilityChanged, .uniqueChanged,
      .defaultChanged, .primaryKeyChanged, .foreignKeysChanged, .strictChanged,
      .constraintsChanged, .constraintsUnverifiable:
      return true
    }
  }

  /// The change in words, one line: `column note removed`, `index Item_on_price added`.
  public var description: String {
    switch self {
    case .tableCreated(let table):
      return "table \(table) does not exist"
    case .tableRenamed(let old, let new):
      return "table \(old) renamed to \(new)"
    case .columnAdded(let column):
      return "column \(column.name) added"
    case .columnRemoved(let name):
      return "column \(name) removed"
    case .columnRenamed(let old, let new):
      return "column \(old) renamed to \(new)"
    case .columnRetyped(let name, let old, let new):
      return "column \(name) type changed from \(old) to \(new)"
    case .nullabilityChanged(let name, let isNotNull, let nullsTakeDefault):
      guard isNotNull else { return "column \(name) became nullable" }
      return "column \(name) became NOT NULL"
        + (nullsTakeDefault ? " (NULLs take its default)" : "")
    case .uniqueChanged(let name, let isUnique):
      return "column \(name) " + (isUnique ? "became UNIQUE" : "is no longer UNIQUE")
    case .defaultChanged(let name, _, _):
      return "column \(name) default changed"
    case .primaryKeyChanged(let old, let new):
      return "primary key changed from (\(old.joined(separator: ", "))) to "
        + "(\(new.joined(separator: ", ")))"
    case .foreignKeysChanged:
      return "foreign keys changed"
    case .strictChanged(let isStrict):
      return isStrict ? "table became STRICT" : "table is no longer STRICT"
    case .constraintsChanged:
      return "column constraints changed (CHECK, COLLATE or AUTOINCREMENT)"
    case .constraintsUnverifiable:
      return "CHECK, COLLATE or AUTOINCREMENT declared by the model, unverifiable on a table "
        + "SwiftLite did not create"
    case .swiftTypeChanged(let name, let old, let new):
      return "column \(name) Swift type changed from \(old) to \(new)"
    case .indexAdded(let index):
      return "index \(index.name) added"
    case .indexRemoved(let index):
      return "index \(index.name) removed"
    case .fullTextIndexAdded(let name):
      return "full-text index \(name) added"
    case .fullTextIndexChanged(let name):
      return "full-text index \(name) changed (columns, tokenizer or prefix indexes)"
    case .fullTextTriggersChanged(let name):
      return "triggers of full-text index \(name) updated"
    }
  }
}
