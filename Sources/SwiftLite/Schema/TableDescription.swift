/// What the main database says of one table or view, as one statement of
/// ``SchemaCatalogue`` reads it: whether it exists, its CREATE statement, its columns,
/// indexes and foreign keys as SQLite's pragmas report them, and SwiftLite's record of it.
///
/// Everything the first use of a model's table needs to know is here, so that it reads the
/// schema once instead of once per question.
struct TableDescription {
  /// What the name denotes in the main database.
  enum Kind {
    /// Nothing (or an index or trigger).
    case missing
    /// A table (ordinary, virtual or shadow).
    case table
    /// A view.
    case view
  }

  /// The name asked for (the schema may spell it in another ASCII case).
  let name: String
  /// What the name denotes.
  private(set) var kind: Kind = .missing
  /// The name as the schema spells it, `nil` when missing.
  private(set) var storedName: String?
  /// The CREATE statement stored in `sqlite_schema`, `nil` when missing.
  private(set) var sql: String?
  /// The columns (hidden and generated ones left out), primary key, indexes and foreign
  /// keys as the pragmas report them, and STRICT (a view has columns only); `nil` when
  /// missing. Named ``name``.
  private(set) var schema: TableSchema?
  /// The columns no write may give a value: generated columns (`GENERATED ALWAYS AS`,
  /// VIRTUAL or STORED) and the hidden columns of a virtual table, in table order. A model
  /// reads them and never writes them. Empty when the pragmas were skipped (the table's
  /// CREATE statement being SwiftLite's, which has none).
  private(set) var readOnlyColumns: [ColumnDefinition] = []
  /// WITHOUT ROWID and STRICT.
  private(set) var options = TableOptions()
  /// The column sets that identify a row: the primary key (or `rowid`), then each unique
  /// index that is not partial and names only columns (`[["rowid"]]` when missing, as
  /// empty pragmas say).
  private(set) var uniqueKeys: [[String]] = [["rowid"]]
  /// SwiftLite's record of the table (under any ASCII case of its name), whether or not
  /// it still describes the table; `nil` when there is none.
  private(set) var recordRow: AutoMigration.RecordRow?
  /// A TEMP table or view of this connection with the same name (type, name), which SQL
  /// naming no schema would use in its place; `nil` when none.
  private(set) var hiddenBy: (type: String, name: String)?
  /// The schema the description was asked to expect, when the table's CREATE statement is
  /// the one it writes (see ``SchemaCatalogue/describe(_:expecting:in:)``).
  private(set) var expectedSchema: TableSchema?

  /// Which reading of the table's row and pragmas this is: the catalogue numbers each (1,
  /// 2, ...) and a description it keeps and hands out again (``reused(record:hiddenBy:expecting:)``)
  /// keeps its number, with the record read afresh; 0 when not numbered. Two descriptions of
  /// a table with the same number and the same record say the same of it.
  var reading: UInt64 = 0
  /// The catalogue's ``SchemaCatalogue/generation`` under which this description was read
  /// from a state it vouches for (see ``SchemaCatalogue/Checkpoint``): while the
  /// catalogue's checks find nothing changed since, it still holds. 0 when none.
  var checkpointGeneration: UInt64 = 0

  /// The description of a name that denotes nothing.
  init(missing name: String) { self.name = name }

  /// Whether the name is a table.
  var isTable: Bool { kind == .table }

  /// Whether the table is `WITHOUT ROWID`.
  var isWithoutRowID: Bool { options.isWithoutRowID }

  /// The table's schema, `nil` for a view or nothing.
  var tableSchema: TableSchema? { kind == .table ? schema : nil }

  /// The record of a table SwiftLite manages, or `nil`: no record, a record of something
  /// that is not a table, or a record that no longer describes the table (another program
  /// dropped and made it again, or altered it, since SwiftLite's last change). Statements
  /// compare as SQLite compares text, byte for byte.
  var record: AutoMigration.Record? {
    guard kind == .table, let row = recordRow else { return nil }
    if let recorded = row.tableSQL {
      guard let sql, recorded.hasSameBytes(as: sql) else { return nil }
    }
    return AutoMigration.Record(
      definition: row.definition, swiftTypes: row.swiftTypes, isAdopted: row.origin == "adopted")
  }
}

extension TableDescription {
  /// This description, read earlier, for a new first use of the table: with SwiftLite's
  /// record as `record` (just read), and expecting `expected` (a schema and the CREATE
  /// statement it writes).
  func reused(
    record: AutoMigration.RecordRow?, hiddenBy temporary: (type: String, name: String)?,
    expecting expected: (schema: TableSchema, sql: String)?
  ) -> TableDescription {
    var description = self
    description.recordRow = record
    description.hiddenBy = temporary
    guard let expected, kind == .table, let sql, sql.hasSameBytes(as: expected.sql) else {
      description.expectedSchema = nil
      return description
    }
    description.expectedSchema = expected.schema
    return description
  }

  /// Whether `stored` (a row of `sqlite_schema`, just read) is still this description's:
  /// the same kind, spelling and CREATE statement, byte for byte.
  func isDescribed(by stored: (type: String, name: String, sql: String?)?) -> Bool {
    guard let stored, let storedName, stored.name.hasSameBytes(as: storedName),
      (stored.type == "view") == (kind == .view)
    else { return false }
    switch (stored.sql, sql) {
    case (nil, nil): return true
    case (let now?, let then?): return now.hasSameBytes(as: then)
    default: return false
    }
  }
}

extension TableDescription {
  /// What the rows of the describing statement say (see ``SchemaCatalogue/Part``), before
  /// the table's row of `sqlite_schema` is known for sure.
  struct Parts {
    /// The row of `sqlite_schema` the catalogue pointed at, when it still holds the name:
    /// type, name, sql.
    var stored: (type: String, name: String, sql: String?)?
    /// The rowid of ``stored``: the catalogue's, or the one the light statement found by
    /// name (see `SchemaCatalogue.Form.light`).
    var storedRowID: Int64?
    var columns: [ColumnDefinition] = []
    /// Generated and hidden columns (xinfo's `hidden` other than 0).
    var readOnlyColumns: [ColumnDefinition] = []
    /// Whether `pragma_table_xinfo` knows the name (as a table or a view); `false` too
    /// when the statement skipped it, the table's CREATE statement being the expected one.
    var hasColumns = false
    var primaryKey: [(position: Int, name: String)] = []
    var indexOrder: [String] = []
    var indexes:
      [String: (origin: String, unique: Bool, partial: Bool, columns: [(Int, String?)])] =
        [:]
    var foreignKeys:
      [Int: (columns: [String], parents: [String], table: String, update: String, delete: String)] =
        [:]
    /// What the statement read of the record table: its row of `sqlite_schema` (or, when
    /// the catalogue knows of none, its columns joined by commas as `name`); `nil` when none.
    var recordTable: (type: String?, name: String, sql: String?)?
    var record: AutoMigration.RecordRow?
    /// `PRAGMA schema_version` as the statement read it.
    var schemaVersion: Int64?
    /// `PRAGMA data_version` as the statement read it.
    var dataVersion: Int64?
    /// A TEMP table or view of the name (type, name).
    var temporary: (type: String, name: String)?

    /// Reads the rows: each one's first column says which part it belongs to.
    init(_ rows: [Row], name: String) throws {
      for row in rows { try read(row, name: name) }
    }

    /// No rows read yet.
    init() {}

    /// Reads one row of the describing statement (see ``init(_:name:)``).
    mutating func read(_ row: Row, name: String) throws {
      switch try row.get(Int.self, at: 0) {
      case SchemaCatalogue.Part.stored:
        // The catalogue's row of the name, unless the row now holds another object.
        let stored = try row.get(String.self, at: 2)
        guard SchemaCatalogue.sameName(stored, name) else { return }
        self.stored = (try row.get(String.self, at: 1), stored, try row.get(String?.self, at: 3))
        storedRowID = try row.get(Int64?.self, at: 4)
      case SchemaCatalogue.Part.column:
        hasColumns = true
        guard try row.get(Int.self, at: 6) == 0 else {
          // A generated column, or a hidden column of a virtual table: read, never written.
          readOnlyColumns.append(
            ColumnDefinition(
              name: try row.get(String.self, at: 1),
              type: try row.get(String.self, at: 2).uppercased(), isNotNull: false))
          return
        }
        let column = try row.get(String.self, at: 1)
        let position = try row.get(Int.self, at: 5)
        if position > 0 { primaryKey.append((position, column)) }
        columns.append(
          ColumnDefinition(
            name: column, type: try row.get(String.self, at: 2).uppercased(),
            isNotNull: try row.get(Bool.self, at: 3),
            defaultSQL: try row.get(String?.self, at: 4)))
      case SchemaCatalogue.Part.index:
        let index = try row.get(String.self, at: 1)
        if indexes[index] == nil {
          indexOrder.append(index)
          indexes[index] = (
            try row.get(String.self, at: 2), try row.get(Bool.self, at: 3),
            try row.get(Bool.self, at: 4), []
          )
        }
        indexes[index]?.columns.append(
          (try row.get(Int.self, at: 5), try row.get(String?.self, at: 6)))
      case SchemaCatalogue.Part.foreignKey:
        let id = try row.get(Int.self, at: 1)
        if foreignKeys[id] == nil {
          foreignKeys[id] = (
            [], [], try row.get(String.self, at: 3), try row.get(String.self, at: 6),
            try row.get(String.self, at: 7)
          )
        }
        foreignKeys[id]?.columns.append(try row.get(String.self, at: 4))
        if let parent = try row.get(String?.self, at: 5) {
          foreignKeys[id]?.parents.append(parent)
        }
      case SchemaCatalogue.Part.recordTable:
        if let found = try row.get(String?.self, at: 2) {
          recordTable = (
            try row.get(String?.self, at: 1), found, try row.get(String?.self, at: 3)
          )
        }
      case SchemaCatalogue.Part.schemaVersion:
        schemaVersion = try row.get(Int64.self, at: 1)
        dataVersion = try row.get(Int64?.self, at: 2)
      case SchemaCatalogue.Part.temporary:
        temporary = (try row.get(String.self, at: 1), try row.get(String.self, at: 2))
      case SchemaCatalogue.Part.record:
        let found = try AutoMigration.RecordRow(row)
        // The spelling asked for wins over the schema's, as a lookup by either would.
        if record == nil || found.tableName.hasSameBytes(as: name) { record = found }
      default:
        return
      }
    }
  }

  /// The description from the statement's parts and the table's row of `sqlite_schema`
  /// (`nil` when the name denotes nothing). When the statement is `expected`'s own (the
  /// pragmas for columns and foreign keys were then not run), those come from `expected`.
  init(
    name: String, parts: Parts, stored: (type: String, name: String, sql: String?)?,
    expected: (schema: TableSchema, sql: String)? = nil
  ) {
    self.name = name
    recordRow = parts.record
    hiddenBy = parts.temporary
    guard let stored else { return }
    kind = stored.type == "view" ? .view : .table
    storedName = stored.name
    sql = stored.sql
    if kind == .table, let sql = stored.sql { options = TableOptions(createStatement: sql) }
    var columns = parts.columns
    readOnlyColumns = parts.readOnlyColumns
    var primaryKey = parts.primaryKey.sorted { $0.position < $1.position }.map(\.name)
    var foreignKeys = parts.foreignKeys.keys.sorted().compactMap { id -> ForeignKey? in
      guard let entry = parts.foreignKeys[id] else { return nil }
      return ForeignKey(
        entry.columns, references: entry.table, entry.parents,
        onDelete: ForeignKey.Action(rawValue: entry.delete) ?? .noAction,
        onUpdate: ForeignKey.Action(rawValue: entry.update) ?? .noAction)
    }
    if !parts.hasColumns {
      // A table has columns: the pragmas were skipped, for the expected statement only.
      guard kind == .table, let expected, let sql, sql.hasSameBytes(as: expected.sql)
      else { return }
      // As the pragmas report them: declared types upper-cased, a rowid alias without NOT
      // NULL (the statement does not say it), UNIQUE from the indexes below, no CHECK,
      // COLLATE or Swift type (the diff reads those from SwiftLite's record).
      let alias = expected.schema.hasRowIDAlias ? expected.schema.primaryKey.first : nil
      columns = expected.schema.columns.map {
        ColumnDefinition(
          name: $0.name, type: $0.type.uppercased(), isNotNull: $0.isNotNull && $0.name != alias,
          defaultSQL: $0.defaultSQL)
      }
      primaryKey = expected.schema.primaryKey
      foreignKeys = expected.schema.foreignKeys
      expectedSchema = expected.schema
    }
    var indexes: [TableSchema.IndexDefinition] = []
    uniqueKeys = [primaryKey.isEmpty ? ["rowid"] : primaryKey]
    for indexName in parts.indexOrder {
      guard let entry = parts.indexes[indexName] else { continue }
      let named = entry.columns.sorted { $0.0 < $1.0 }.map(\.1)
      let indexed = named.map { $0 ?? "" }
      switch entry.origin {
      case "c": indexes.append(.init(name: indexName, columns: indexed, isUnique: entry.unique))
      case "u" where indexed.count == 1:
        if let index = columns.firstIndex(where: { $0.name == indexed[0] }) {
          columns[index].isUnique = true
        }
      default: break
      }
      // An index on an expression has no name for that part: it cannot be a conflict target.
      if entry.unique, !entry.partial, named.allSatisfy({ $0 != nil }) {
        uniqueKeys.append(named.compactMap { $0 })
      }
    }
    schema = TableSchema(
      name: name, columns: columns, primaryKey: primaryKey, autoIncrement: false,
      indexes: indexes.sorted { $0.name < $1.name }, foreignKeys: foreignKeys,
      isStrict: options.isStrict)
  }
}
