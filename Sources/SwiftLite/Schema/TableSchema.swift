import Synchronization

/// A table's shape: columns, primary key, indexes and foreign keys.
///
/// ``TableSchema/init(_:target:)`` infers it from a ``Model`` type; ``SchemaInspector`` reads
/// it from a database with SQLite's pragmas. ``AutoMigration`` compares the two.
public struct TableSchema: Sendable, Hashable {
  /// The table name.
  public internal(set) var name: String
  /// The columns, in order.
  public internal(set) var columns: [ColumnDefinition]
  /// The primary key's columns, in key order.
  public internal(set) var primaryKey: [String]
  /// Whether a single INTEGER primary key is declared `AUTOINCREMENT`.
  public internal(set) var autoIncrement: Bool
  /// The indexes SwiftLite manages (not those behind UNIQUE or PRIMARY KEY constraints).
  public internal(set) var indexes: [IndexDefinition]
  /// The foreign keys.
  public internal(set) var foreignKeys: [ForeignKey]
  /// Whether the table is `STRICT`.
  public internal(set) var isStrict: Bool
  /// The FTS5 indexes over the table's text (``Model/fullTextIndexes``).
  public internal(set) var fullTextIndexes: [FullTextIndex] = []

  /// An index as it is (or should be) in the database.
  public struct IndexDefinition: Sendable, Hashable {
    /// The index name.
    public internal(set) var name: String
    /// The indexed columns, in order.
    public internal(set) var columns: [String]
    /// Whether it is a unique index.
    public internal(set) var isUnique: Bool
  }

  /// A schema made of its parts.
  init(
    name: String, columns: [ColumnDefinition], primaryKey: [String], autoIncrement: Bool = false,
    indexes: [IndexDefinition] = [], foreignKeys: [ForeignKey] = [], isStrict: Bool = false
  ) {
    self.name = name
    self.columns = columns
    self.primaryKey = primaryKey
    self.autoIncrement = autoIncrement
    self.indexes = indexes
    self.foreignKeys = foreignKeys
    self.isStrict = isStrict
  }

  /// The schema a model type asks for, inferred from the type alone (no instance).
  /// - Parameters:
  ///   - model: the model type.
  ///   - target: selects the per-target table ``Model/tableName(target:)``; `nil` for the
  ///     model's own table, as in every model operation.
  /// - Throws: ``ModelError`` when a property's type cannot be inferred or the declaration
  ///   names properties that do not exist.
  public init<M: Model>(_ model: M.Type, target: String? = nil) throws {
    try self.init(model, table: target.map { M.tableName(target: $0) })
  }

  /// The schema a model asks for, for the table named `table` (the model's own when `nil`).
  init<M: Model>(_ model: M.Type, table: String?) throws {
    var schema = try Self.cachedSchema(for: model)
    if let table, table != schema.name {
      schema.indexes = schema.indexes.enumerated().map { position, index in
        // Index names are unique per database: an explicit name shared by every target
        // table would make the second target's CREATE INDEX fail. The indexes after the
        // declared ones are those of foreign keys, named by default.
        let declared = position < M.indexes.count ? M.indexes[position] : TableIndex(index.columns)
        return IndexDefinition(
          name: declared.name.map { $0 + "_" + table } ?? declared.resolvedName(table: table),
          columns: index.columns, isUnique: index.isUnique)
      }
      schema.fullTextIndexes = schema.fullTextIndexes.map { $0.retargeted(to: table) }
      schema.name = table
    }
    self = schema
  }

  /// The column with this name, spelled with the same bytes (two names that differ only in
  /// Unicode normalization are two columns to SQLite).
  public func column(named name: String) -> ColumnDefinition? {
    columns.first { $0.name.hasSameBytes(as: name) }
  }

  /// Whether the primary key is one INTEGER column, an alias of SQLite's rowid.
  public var hasRowIDAlias: Bool {
    primaryKey.count == 1 && column(named: primaryKey[0])?.type == "INTEGER"
  }

  // MARK: SQL

  /// `CREATE TABLE "name" (...)`, with a different table name when given.
  func createTableSQL(as tableName: String? = nil) -> String {
    "CREATE TABLE " + SQLIdentifier.quote(tableName ?? name) + createTableBody
  }

  /// What `CREATE TABLE "name"` is followed by: ` (...)` and ` STRICT`. The table's name
  /// is not in it (foreign keys name the tables they reference as declared).
  var createTableBody: String {
    let rowIDAlias = hasRowIDAlias
    var parts = columns.map(columnSQL)
    if !rowIDAlias {
      parts.append(
        "PRIMARY KEY (" + primaryKey.map(SQLIdentifier.quote).joined(separator: ", ") + ")")
    }
    for key in foreignKeys {
      var text =
        "FOREIGN KEY (" + key.columns.map(SQLIdentifier.quote).joined(separator: ", ")
        + ") REFERENCES " + SQLIdentifier.quote(key.table)
      if !key.parentColumns.isEmpty {
        text += " (" + key.parentColumns.map(SQLIdentifier.quote).joined(separator: ", ") + ")"
      }
      text += " ON DELETE " + key.onDelete.rawValue + " ON UPDATE " + key.onUpdate.rawValue
      parts.append(text)
    }
    return " (" + parts.joined(separator: ", ") + ")" + (isStrict ? " STRICT" : "")
  }

  /// One column's definition as it appears in CREATE TABLE or ALTER TABLE ADD COLUMN.
  func columnSQL(_ column: ColumnDefinition) -> String {
    var text = SQLIdentifier.quote(column.name) + " " + column.type
    if hasRowIDAlias && column.name == primaryKey[0] {
      text += " PRIMARY KEY" + (autoIncrement ? " AUTOINCREMENT" : "")
    } else if column.isNotNull {
      text += " NOT NULL"
    }
    if column.isUnique { text += " UNIQUE" }
    if let defaultSQL = column.defaultSQL { text += " DEFAULT " + defaultSQL }
    if let collation = column.collation { text += " COLLATE " + SQLIdentifier.quote(collation) }
    if let check = column.check { text += " CHECK (" + check + ")" }
    return text
  }

  /// `CREATE [UNIQUE] INDEX` for one of ``indexes``.
  func createIndexSQL(_ index: IndexDefinition) -> String {
    "CREATE " + (index.isUnique ? "UNIQUE " : "") + "INDEX " + SQLIdentifier.quote(index.name)
      + " ON " + SQLIdentifier.quote(name) + " ("
      + index.columns.map(SQLIdentifier.quote).joined(separator: ", ") + ")"
  }

  // MARK: Inference

  private static let cache = Mutex<[ObjectIdentifier: TableSchema]>([:])

  private static func cachedSchema<M: Model>(for model: M.Type) throws -> TableSchema {
    let key = ObjectIdentifier(model)
    if let schema = cache.withLock({ $0[key] }) { return schema }
    let schema = try infer(model)
    cache.withLock { $0[key] = schema }
    return schema
  }

  private static func infer<M: Model>(_ model: M.Type) throws -> TableSchema {
    let modelName = String(describing: model)
    func invalid(_ reason: String) -> ModelError {
      .invalidDeclaration(model: modelName, reason: reason)
    }
    let properties = try SchemaProbe.properties(of: model, ignoring: M.ignoredProperties).filter {
      !M.ignoredProperties.contains($0.name)
    }
    let names = Set(properties.map(\.name))
    guard !M.primaryKey.isEmpty else {
      throw invalid("declare a primary key: static let primaryKey = [\"id\"]")
    }
    // The key names properties by their coding keys (their columns), as SQLite compares
    // names: without regard to ASCII case.
    var primaryKey: [String] = []
    for key in M.primaryKey {
      guard
        let name = names.contains(key)
          ? key : properties.first(where: { $0.name.asciiCaseFolded == key.asciiCaseFolded })?.name
      else {
        throw invalid("primary key '\(key)' is not a stored property")
      }
      primaryKey.append(name)
    }
    let declared =
      Set(M.columnConstraints.keys).union(M.indexes.flatMap(\.columns))
      .union(M.foreignKeys.flatMap(\.columns)).union(M.renamedProperties.keys)
      .union(M.fullTextIndexes.flatMap(\.columns))
    for name in declared.sorted() where !names.contains(name) {
      // A `CodingKeys` rename hides the Swift name: declarations name a property by its
      // coding key, which is all a decoder sees.
      let keys = properties.map { "'\($0.name)'" }.joined(separator: ", ")
      throw invalid(
        "'\(name)' is named in the model's declarations but no stored property has that coding "
          + "key; declarations name properties by their coding keys (their columns): \(keys)")
    }
    let columns = try properties.map { property -> ColumnDefinition in
      var column = ColumnDefinition(
        name: property.name, type: "TEXT", isNotNull: !property.isOptional,
        swiftType: property.typeName)
      switch property.kind {
      case .value(let storageClass): column.type = storageClass.rawValue
      case .json: column.isJSON = true
      }
      for constraint in M.columnConstraints[property.name] ?? [] {
        switch constraint {
        case .unique: column.isUnique = true
        case .notNull(let flag): column.isNotNull = flag
        case .default(.real(let value)) where value.isNaN:
          // `DEFAULT nan` would be read as the text 'nan'; SQLite has no NaN to store.
          throw invalid(
            "the default of '\(property.name)' is NaN, which SQLite cannot store; "
              + "make the property optional with no default, or choose a number")
        case .default(let value): column.defaultSQL = value.sqlLiteral
        case .defaultExpression(let expression): column.defaultSQL = expression
        case .check(let expression): column.check = expression
        case .collate(let name): column.collation = name
        case .dateFormat(let format):
          guard property.typeName == "Date" else {
            throw invalid("'\(property.name)' declares a date format but is not a Date")
          }
          column.type = format.storageClass.rawValue
        }
      }
      return column
    }
    let table = M.tableName
    var indexes = M.indexes.map {
      IndexDefinition(
        name: $0.resolvedName(table: table), columns: $0.columns, isUnique: $0.isUnique)
    }
    // Each foreign key gets an index on its columns, unless an index, the primary key or a
    // UNIQUE column already starts with them: without one, every delete or key change of a
    // parent row scans the whole child table, and so does every fetch of a parent's children.
    for key in M.foreignKeys {
      let columns = key.columns
      let covered =
        indexes.contains { Array($0.columns.prefix(columns.count)) == columns }
        || Array(primaryKey.prefix(columns.count)) == columns
        || (columns.count == 1 && M.columnConstraints[columns[0]]?.contains(.unique) == true)
      if !covered {
        let index = TableIndex(columns)
        indexes.append(
          IndexDefinition(name: index.resolvedName(table: table), columns: columns, isUnique: false)
        )
      }
    }
    var schema = TableSchema(
      name: table, columns: columns, primaryKey: primaryKey, autoIncrement: M.autoIncrement,
      indexes: indexes, foreignKeys: M.foreignKeys, isStrict: M.isStrict)
    schema.fullTextIndexes = try checkedFullTextIndexes(of: model, schema, invalid)
    if M.autoIncrement && !schema.hasRowIDAlias {
      throw invalid("autoIncrement needs a single integer primary key")
    }
    if !schema.hasRowIDAlias {
      // SQLite lets NULL into a PRIMARY KEY that is not a rowid alias, and NULL keys never
      // conflict: save() of a model with a nil key would insert a new row every time.
      for index in schema.columns.indices where primaryKey.contains(schema.columns[index].name) {
        schema.columns[index].isNotNull = true
      }
    }
    if schema.isStrict {
      // STRICT tables accept only INT, INTEGER, REAL, TEXT, BLOB and ANY.
      for index in schema.columns.indices where schema.columns[index].type == "BLOB" {
        if properties[index].typeName.hasPrefix("SQLiteValue") {
          schema.columns[index].type = "ANY"
        }
      }
    }
    return schema
  }
}
