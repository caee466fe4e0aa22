/// A `Codable` type stored as rows of one table: a table SwiftLite creates on the first
/// write and migrates when the type changes, or an existing table it maps onto as it is.
///
/// Only ``primaryKey`` is required; everything else has a default:
///
/// ```swift
/// struct Person: Model {
///   var personID: Int64?          // assigned by SQLite when nil
///   var name: String
///   var age: Int
///   var likes: [String]           // stored as JSON text
///
///   static let primaryKey = ["personID"]
///   static let renamedProperties = ["name": "personName"]   // new name -> old name
///   static let indexes = [TableIndex(["age"])]
/// }
/// let db = try Connection.inMemory()
///
/// try db.save(Person(personID: nil, name: "Ann", age: 30, likes: ["tea"]))
/// let adults = try db.findAll(Person.self, where: "age >= ?", [18], orderBy: "name")
/// ```
///
/// The columns are inferred from the type alone (no instance needed): the property types of
/// ``SQLiteValueConvertible`` map to their storage class (optionals are nullable, the rest
/// NOT NULL); any other `Codable` property (arrays, sets, dictionaries, nested structs) is
/// stored as JSON text and read back to the same type.
public protocol Model: Codable {
  /// The table's name. Default: the type's name, without the types it is nested in, so
  /// `Chat.Message` and `Mail.Message` would share `Message`: give such types their own.
  /// A connection reads it once, at the model's first use: it must not change while the
  /// program runs.
  static var tableName: String { get }

  /// The primary key's properties, in key order. Required: at least one. Each names a
  /// stored property by its coding key (its column name, when `CodingKeys` renames it),
  /// ignoring ASCII case as SQLite does.
  static var primaryKey: [String] { get }

  /// For a single integer primary key, whether it is declared `AUTOINCREMENT` (rowids are
  /// then never reused). Either way a `nil` key is assigned by SQLite on insert. Default `false`.
  static var autoIncrement: Bool { get }

  /// Properties that are not stored; they must have defaults when decoded. Default: none.
  /// Declare it with its type, `static let ignoredProperties: Set<String> = [...]`: written as
  /// `static let ignoredProperties = [...]`, the array literal declares a new `[String]` property
  /// of the model, which SwiftLite never reads.
  static var ignoredProperties: Set<String> { get }

  /// Renamed properties, new name -> old column name, so migration carries the old
  /// column's values into the new one. Default: none.
  static var renamedProperties: [String: String] { get }

  /// Older names of properties renamed more than once, new name -> the column names it had
  /// before, newest first, after the one in ``renamedProperties`` (which may be left out:
  /// then the first name here is the newest). A file from any release is migrated from
  /// whichever of those columns it has: a property `name` renamed `fullName`, then
  /// `displayName`, declares `["displayName": ["fullName", "name"]]`. Default: none.
  static var previousPropertyNames: [String: [String]] { get }

  /// The names the table had in earlier releases, newest first. A file that has a table
  /// SwiftLite made under one of them, and none under ``tableName``, gets it renamed
  /// (`ALTER TABLE ... RENAME TO`) with its rows, indexes, triggers, full-text indexes and
  /// SwiftLite's record of it, before any other change. A file that has both tables is
  /// refused with ``MigrationError/tableRenameConflict(table:previousName:)``. A read of the
  /// model on a file that still has the old table throws
  /// ``MigrationError/needsMigration(table:changes:reason:)`` (it never finds no rows). To
  /// plan what follows the rename, planning renames the table in a savepoint it rolls back
  /// at once (a connection that cannot write plans the rename alone). A per-target table
  /// (``tableName(target:)``) is not renamed. Default: none.
  static var previousTableNames: [String] { get }

  /// Constraints per column: unique, default (a value or an expression), check, collate,
  /// not-null overrides, and the format a `Date` is written in (``ColumnConstraint``).
  /// Default: none (non-optional properties are NOT NULL).
  static var columnConstraints: [String: [ColumnConstraint]] { get }

  /// Indexes over one or more columns. Default: none.
  static var indexes: [TableIndex] { get }

  /// Foreign keys to other tables: created with a table SwiftLite makes, and followed by
  /// associations (``Model/belongsTo(_:using:)``...). Over a table another program made, a model
  /// may declare none: associations then follow the keys SQLite reports for the table, and
  /// a declared key that contradicts them is ``RelationError/foreignKeyMismatch(model:table:declared:reported:)``
  /// at the model's first use. Default: none.
  static var foreignKeys: [ForeignKey] { get }

  /// FTS5 full-text indexes over text columns of the table, each declared with
  /// `FullTextIndex(Self.self, columns: [...])`. They belong to the table: created with it,
  /// and recreated against the new columns, in the same transaction, by every migration
  /// that renames or removes an indexed column, rebuilds the table or changes the index.
  /// Indexes stay where a declaration is removed (drop one with `dropFullTextIndex(_:)`), and
  /// a table SwiftLite does not manage gets none (make them with `createFullTextIndex(_:)`).
  /// Default: none.
  static var fullTextIndexes: [FullTextIndex] { get }

  /// Columns that migration may drop even though they still hold values. Default: none
  /// (dropping a column with data is refused with ``MigrationError``).
  /// Declare it with its type, `static let droppableColumns: Set<String> = [...]`: written as
  /// `static let droppableColumns = [...]`, the array literal declares a new `[String]` property
  /// of the model, which SwiftLite never reads.
  static var droppableColumns: Set<String> { get }

  /// Columns whose values migration may set to NULL when they cannot convert to the new
  /// type. Default: none (such a change is refused with ``MigrationError``).
  /// Declare it with its type, `static let lossyConvertibleColumns: Set<String> = [...]`: written as
  /// `static let lossyConvertibleColumns = [...]`, the array literal declares a new `[String]` property
  /// of the model, which SwiftLite never reads.
  static var lossyConvertibleColumns: Set<String> { get }

  /// Create the table `STRICT` (SQLite 3.37 or later). Default `false`.
  static var isStrict: Bool { get }

  /// What SwiftLite may do to the table: create and migrate it (``SchemaPolicy/automatic``,
  /// the default), only create it, or only map onto it as it is. A table SwiftLite did not
  /// create is never changed, whatever the policy.
  static var schemaPolicy: SchemaPolicy { get }

  /// Whether migrating an adopted table (one another program made) may rebuild it even
  /// though its CREATE statement has clauses SQLite cannot report (CHECK, COLLATE,
  /// constraint names, AUTOINCREMENT), which the rebuilt table would not have unless the
  /// model declares them. Default `false`: such a rebuild is refused.
  static var allowsRebuildingAdoptedTable: Bool { get }

  /// The table for one target of the same model (one table per target, same columns), for
  /// example one message table per chat. Default: `"<tableName>_<target>"`.
  static func tableName(target: String) -> String
}

extension Model {
  /// The type's name.
  public static var tableName: String { String(describing: Self.self) }
  /// `false`.
  public static var autoIncrement: Bool { false }
  /// None.
  public static var ignoredProperties: Set<String> { [] }
  /// None.
  public static var renamedProperties: [String: String] { [:] }
  /// None.
  public static var previousPropertyNames: [String: [String]] { [:] }
  /// None.
  public static var previousTableNames: [String] { [] }
  /// None.
  public static var columnConstraints: [String: [ColumnConstraint]] { [:] }
  /// None.
  public static var indexes: [TableIndex] { [] }
  /// None.
  public static var foreignKeys: [ForeignKey] { [] }
  /// None.
  public static var fullTextIndexes: [FullTextIndex] { [] }
  /// None.
  public static var droppableColumns: Set<String> { [] }
  /// None.
  public static var lossyConvertibleColumns: Set<String> { [] }
  /// `false`.
  public static var isStrict: Bool { false }
  /// ``SchemaPolicy/automatic``.
  public static var schemaPolicy: SchemaPolicy { .automatic }
  /// `false`.
  public static var allowsRebuildingAdoptedTable: Bool { false }
  /// `"<tableName>_<target>"`.
  public static func tableName(target: String) -> String { tableName + "_" + target }
}

extension Model {
  /// Every declared old name of each renamed property, new name -> old column names,
  /// newest first: the one of ``renamedProperties``, then those of ``previousPropertyNames``.
  static var propertyRenames: [String: [String]] {
    var renames = renamedProperties.mapValues { [$0] }
    for (name, old) in previousPropertyNames {
      for column in old where !(renames[name] ?? []).contains(column) {
        renames[name, default: []].append(column)
      }
    }
    return renames
  }
}
