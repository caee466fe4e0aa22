import Foundation

/// The recorded shape of one model step of a ``Migrator``: the tables its models had when
/// the step was written, kept as a JSON file in the app's source tree and shipped as a
/// resource, so that a fresh install replays that shape rather than today's model.
///
/// A snapshot holds everything a model step applies: each table's columns in order (name,
/// declared type, nullability, UNIQUE, DEFAULT, CHECK, COLLATE, Swift type), primary key,
/// AUTOINCREMENT, STRICT, indexes, foreign keys and full-text indexes, the table's earlier
/// names, and the model's renamed properties (new name -> old column names), droppable
/// columns and lossy-convertible columns as they were declared then.
///
/// The file format is this type's own, not that of ``TableSchema``: it must stay readable by
/// every later version of SwiftLite, whatever becomes of the types it was made from. It is
/// JSON with sorted keys, pretty-printed, one file per step (see
/// ``MigrationSnapshots/fileName(forStep:)``), so that a new step adds a file and a review
/// shows what changed. ``formatVersion`` says which version of the format wrote it: a later
/// version of SwiftLite adds fields that older files lack (read as absent, such as the
/// full-text indexes of a model), and a file from a newer format than this version knows is
/// refused with ``MigrationSnapshotError/newerFormat(step:version:supported:)``. Empty
/// lists and maps (indexes, foreign keys, renames, permissions) are left out of the file and
/// read as empty; so will be every field a later format adds.
///
/// Snapshots are written by `SwiftLiteTesting` (in a test, when recording is asked for),
/// never made from today's models while the app runs.
///
/// `Sendable`, `Hashable` and `Codable`: a value.
public struct SchemaSnapshot: Sendable, Hashable, Codable {
  /// The newest version of the file format this version of SwiftLite writes and reads.
  /// Version 2 added full-text indexes, earlier table names and more than one old name per
  /// column; a snapshot that has none of them is written as version 1, so the file of a step
  /// that did not change keeps its bytes, and older versions of SwiftLite still read it.
  public static let currentFormatVersion = 2

  /// The version of the format the snapshot was written in.
  public internal(set) var formatVersion: Int
  /// The name of the migrator's step it records.
  public internal(set) var step: String
  /// The tables of the step's models, in the order the step creates or migrates them.
  public internal(set) var tables: [Table]

  /// A snapshot of `tables` for the step `step`, in the oldest format that holds them all
  /// (version 1 unless a table has what version 2 added).
  public init(step: String, tables: [Table]) {
    self.formatVersion = tables.contains(where: \.needsFormat2) ? 2 : 1
    self.step = step
    self.tables = tables
  }

  /// One table as a model step gives it.
  public struct Table: Sendable, Hashable, Codable {
    /// The table name.
    public internal(set) var name: String
    /// The columns, in order.
    public internal(set) var columns: [TableColumn]
    /// The primary key's columns, in key order.
    public internal(set) var primaryKey: [String]
    /// Whether the single INTEGER primary key is `AUTOINCREMENT`.
    public internal(set) var autoIncrement: Bool
    /// Whether the table is `STRICT`.
    public internal(set) var isStrict: Bool
    /// The indexes the model declared (and those SwiftLite adds for foreign keys).
    public internal(set) var indexes: [Index]
    /// The foreign keys.
    public internal(set) var foreignKeys: [Reference]
    /// Renamed columns, new name -> old name, as the model declared them for this step.
    public internal(set) var renamedColumns: [String: String]
    /// Older names of columns renamed more than once, new name -> old names after the one
    /// in ``renamedColumns``, newest first (the model's `previousPropertyNames`).
    public internal(set) var previousColumnNames: [String: [String]] = [:]
    /// The names the table had before, newest first (the model's `previousTableNames`):
    /// a file with a table under one of them, and none under ``name``, has it renamed.
    public internal(set) var previousNames: [String] = []
    /// The table's full-text indexes (the model's `fullTextIndexes`), created with the table
    /// and recreated with it. A file of format 1 has none.
    public internal(set) var fullTextIndexes: [TextIndex] = []
    /// Columns the step may drop with their values, sorted.
    public internal(set) var droppableColumns: [String]
    /// Columns whose unconvertible values the step may set to NULL, sorted.
    public internal(set) var lossyConvertibleColumns: [String]

    /// The table as `schema` describes it (with its full-text indexes), with the model's
    /// renames (new name -> old names, newest first), earlier names and permissions.
    init(
      _ schema: TableSchema, renamed: [String: [String]], previousNames: [String] = [],
      droppable: Set<String>, lossy: Set<String>
    ) {
      name = schema.name
      columns = schema.columns.map(TableColumn.init)
      primaryKey = schema.primaryKey
      autoIncrement = schema.autoIncrement
      isStrict = schema.isStrict
      indexes = schema.indexes.map {
        Index(name: $0.name, columns: $0.columns, isUnique: $0.isUnique)
      }
      foreignKeys = schema.foreignKeys.map(Reference.init)
      renamedColumns = renamed.compactMapValues(\.first)
      previousColumnNames = renamed.mapValues { Array($0.dropFirst()) }.filter { !$0.value.isEmpty }
      self.previousNames = previousNames
      fullTextIndexes = schema.fullTextIndexes.map(TextIndex.init)
      droppableColumns = droppable.sorted()
      lossyConvertibleColumns = lossy.sorted()
    }

    /// The table of `model` as compiled now, with its declared renames and permissions.
    /// - Throws: ``ModelError`` when the model cannot be mapped.
    init<M: Model>(model: M.Type) throws {
      self.init(
        try TableSchema(model), renamed: M.propertyRenames, previousNames: M.previousTableNames,
        droppable: M.droppableColumns, lossy: M.lossyConvertibleColumns)
    }

    /// Every old name of each renamed column, new name -> old names, newest first.
    var columnRenames: [String: [String]] {
      var renames = renamedColumns.mapValues { [$0] }
      for (name, old) in previousColumnNames {
        for column in old where !(renames[name] ?? []).contains(column) {
          renames[name, default: []].append(column)
        }
      }
      return renames
    }

    /// The table as a snapshot of format `version` can record it: before format 2, without
    /// full-text indexes (a model's own are then no difference from the snapshot).
    func recordable(inFormat version: Int) -> Self {
      var table = self
      if version < 2 { table.fullTextIndexes = [] }
      return table
    }

    /// Whether the table has what format 1 cannot hold.
    var needsFormat2: Bool {
      !previousColumnNames.isEmpty || !previousNames.isEmpty || !fullTextIndexes.isEmpty
    }

    /// The schema the step gives the table.
    public var schema: TableSchema {
      var schema = TableSchema(
        name: name, columns: columns.map(\.definition), primaryKey: primaryKey,
        autoIncrement: autoIncrement,
        indexes: indexes.map {
          TableSchema.IndexDefinition(name: $0.name, columns: $0.columns, isUnique: $0.isUnique)
        },
        foreignKeys: foreignKeys.map(\.foreignKey), isStrict: isStrict)
      schema.fullTextIndexes = fullTextIndexes.map { $0.index(of: name) }
      return schema
    }

    /// The statements that create the table as recorded: `CREATE TABLE`, then one
    /// `CREATE INDEX` per index, then the FTS5 table and triggers of each full-text index.
    public var createStatements: [String] {
      let schema = schema
      return [schema.createTableSQL()] + schema.indexes.map(schema.createIndexSQL)
        + schema.fullTextIndexes.flatMap {
          $0.creationSteps(keyColumns: schema.fullTextKeyColumns, indexRows: false).map(\.sql)
        }
    }

    private enum CodingKeys: String, CodingKey {
      case name, columns, primaryKey, autoIncrement
      case isStrict = "strict"
      case indexes, foreignKeys, renamedColumns, droppableColumns, lossyConvertibleColumns
      case previousColumnNames, previousNames, fullTextIndexes
    }

    /// Reads a table; the lists and maps a file leaves out are empty.
    /// - Throws: `DecodingError` when a required field is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decode(String.self, forKey: .name)
      columns = try container.decode([TableColumn].self, forKey: .columns)
      primaryKey = try container.decode([String].self, forKey: .primaryKey)
      autoIncrement = try container.decode(Bool.self, forKey: .autoIncrement)
      isStrict = try container.decode(Bool.self, forKey: .isStrict)
      indexes = try container.decodeIfPresent([Index].self, forKey: .indexes) ?? []
      foreignKeys = try container.decodeIfPresent([Reference].self, forKey: .foreignKeys) ?? []
      renamedColumns =
        try container.decodeIfPresent([String: String].self, forKey: .renamedColumns) ?? [:]
      droppableColumns =
        try container.decodeIfPresent([String].self, forKey: .droppableColumns) ?? []
      lossyConvertibleColumns =
        try container.decodeIfPresent([String].self, forKey: .lossyConvertibleColumns) ?? []
      previousColumnNames =
        try container.decodeIfPresent([String: [String]].self, forKey: .previousColumnNames)
        ?? [:]
      previousNames = try container.decodeIfPresent([String].self, forKey: .previousNames) ?? []
      fullTextIndexes =
        try container.decodeIfPresent([TextIndex].self, forKey: .fullTextIndexes) ?? []
    }

    /// Writes a table, leaving out empty lists and maps (other than the columns and key).
    /// - Throws: `EncodingError` (not expected).
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(columns, forKey: .columns)
      try container.encode(primaryKey, forKey: .primaryKey)
      try container.encode(autoIncrement, forKey: .autoIncrement)
      try container.encode(isStrict, forKey: .isStrict)
      if !indexes.isEmpty { try container.encode(indexes, forKey: .indexes) }
      if !foreignKeys.isEmpty { try container.encode(foreignKeys, forKey: .foreignKeys) }
      if !renamedColumns.isEmpty { try container.encode(renamedColumns, forKey: .renamedColumns) }
      if !droppableColumns.isEmpty {
        try container.encode(droppableColumns, forKey: .droppableColumns)
      }
      if !lossyConvertibleColumns.isEmpty {
        try container.encode(lossyConvertibleColumns, forKey: .lossyConvertibleColumns)
      }
      if !previousColumnNames.isEmpty {
        try container.encode(previousColumnNames, forKey: .previousColumnNames)
      }
      if !previousNames.isEmpty { try container.encode(previousNames, forKey: .previousNames) }
      if !fullTextIndexes.isEmpty {
        try container.encode(fullTextIndexes, forKey: .fullTextIndexes)
      }
    }
  }

  /// One column of a recorded table.
  public struct TableColumn: Sendable, Hashable, Codable {
    /// The column name.
    public internal(set) var name: String
    /// The declared type (`INTEGER`, `REAL`, `TEXT`, `BLOB`, `ANY`).
    public internal(set) var type: String
    /// Whether the column is `NOT NULL`.
    public internal(set) var isNotNull: Bool
    /// Whether the column has its own `UNIQUE` constraint.
    public internal(set) var isUnique: Bool
    /// The `DEFAULT` expression as SQL text.
    public internal(set) var defaultSQL: String?
    /// The `CHECK` expression.
    public internal(set) var check: String?
    /// The `COLLATE` name.
    public internal(set) var collation: String?
    /// Whether values are stored as JSON text.
    public internal(set) var isJSON: Bool
    /// The Swift type of the property, as SwiftLite records it.
    public internal(set) var swiftType: String?

    init(_ column: ColumnDefinition) {
      name = column.name
      type = column.type
      isNotNull = column.isNotNull
      isUnique = column.isUnique
      defaultSQL = column.defaultSQL
      check = column.check
      collation = column.collation
      isJSON = column.isJSON
      swiftType = column.swiftType
    }

    var definition: ColumnDefinition {
      ColumnDefinition(
        name: name, type: type, isNotNull: isNotNull, isUnique: isUnique, defaultSQL: defaultSQL,
        check: check, collation: collation, isJSON: isJSON, swiftType: swiftType)
    }

    private enum CodingKeys: String, CodingKey {
      case name, type
      case isNotNull = "notNull"
      case isUnique = "unique"
      case defaultSQL = "default"
      case check, collation
      case isJSON = "json"
      case swiftType
    }
  }

  /// One index of a recorded table.
  public struct Index: Sendable, Hashable, Codable {
    /// The index name.
    public internal(set) var name: String
    /// The indexed columns, in order.
    public internal(set) var columns: [String]
    /// Whether the index is `UNIQUE`.
    public internal(set) var isUnique: Bool

    private enum CodingKeys: String, CodingKey {
      case name, columns
      case isUnique = "unique"
    }
  }

  /// One foreign key of a recorded table.
  public struct Reference: Sendable, Hashable, Codable {
    /// The referencing columns.
    public internal(set) var columns: [String]
    /// The parent table.
    public internal(set) var table: String
    /// The parent's columns; empty for its primary key.
    public internal(set) var parentColumns: [String]
    /// The action on delete of the parent row.
    public internal(set) var onDelete: ForeignKey.Action
    /// The action on update of the parent key.
    public internal(set) var onUpdate: ForeignKey.Action

    init(_ key: ForeignKey) {
      columns = key.columns
      table = key.table
      parentColumns = key.parentColumns
      onDelete = key.onDelete
      onUpdate = key.onUpdate
    }

    var foreignKey: ForeignKey {
      ForeignKey(
        columns, references: table, parentColumns, onDelete: onDelete, onUpdate: onUpdate)
    }

    private enum CodingKeys: String, CodingKey {
      case columns, table, parentColumns, onDelete, onUpdate
    }

    /// Reads a foreign key; parent columns left out are the parent's primary key.
    /// - Throws: `DecodingError` when a required field is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      columns = try container.decode([String].self, forKey: .columns)
      table = try container.decode(String.self, forKey: .table)
      parentColumns = try container.decodeIfPresent([String].self, forKey: .parentColumns) ?? []
      onDelete = try container.decode(ForeignKey.Action.self, forKey: .onDelete)
      onUpdate = try container.decode(ForeignKey.Action.self, forKey: .onUpdate)
    }

    /// Writes a foreign key, leaving out empty parent columns.
    /// - Throws: `EncodingError` (not expected).
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(columns, forKey: .columns)
      try container.encode(table, forKey: .table)
      if !parentColumns.isEmpty { try container.encode(parentColumns, forKey: .parentColumns) }
      try container.encode(onDelete, forKey: .onDelete)
      try container.encode(onUpdate, forKey: .onUpdate)
    }
  }

  // MARK: The file

  /// The snapshot as its file holds it: JSON, keys sorted, pretty-printed, ending with a
  /// newline, so the same snapshot always gives the same bytes.
  /// - Throws: `EncodingError` (not expected for a snapshot).
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }

  /// The snapshot a file holds.
  /// - Throws: ``MigrationSnapshotError/newerFormat(step:version:supported:)`` for a file
  ///   written in a format newer than this version of SwiftLite reads; `DecodingError` for
  ///   one that is not a snapshot.
  public init(jsonData: Data) throws {
    let snapshot = try JSONDecoder().decode(Self.self, from: jsonData)
    guard snapshot.formatVersion <= Self.currentFormatVersion else {
      throw MigrationSnapshotError.newerFormat(
        step: snapshot.step, version: snapshot.formatVersion,
        supported: Self.currentFormatVersion)
    }
    self = snapshot
  }
}
