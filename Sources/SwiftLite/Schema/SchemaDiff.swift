/// The differences between a table as stored and the schema wanted for it: the list of
/// ``SchemaChange`` values, in the order a plan lists them, and which stored column feeds
/// each wanted column.
///
/// A pure comparison of values read beforehand (``StoredTable/init(_:for:)``): it runs
/// no SQL. A caller that wants the table to keep some features of its own (an extra index,
/// a declared type name) changes `desired` before diffing.
///
/// Texts (names, defaults, recorded definitions) are compared by their bytes, as SQLite
/// compares them: a default `'caf\u{E9}'` changed to `'cafe\u{301}'` is a change, though
/// the two are equal Swift strings.
struct SchemaDiff {
  /// What is known of a stored table: its schema as SQLite's pragmas report it, and what
  /// SwiftLite recorded when it last gave the table its shape.
  struct StoredTable {
    /// The schema from the pragmas (no CHECK, COLLATE or AUTOINCREMENT).
    var schema: TableSchema
    /// The CREATE TABLE statement SwiftLite recorded for the table, `nil` when it did not
    /// create it.
    var definition: String?
    /// The columns' Swift types as recorded (JSON), `nil` when not recorded.
    var swiftTypes: String?
    /// The table's own CREATE statement from `sqlite_schema`; read only for a table with no
    /// record whose wanted schema declares a CHECK, COLLATE or AUTOINCREMENT.
    var createSQL: String?

    /// Reads what is known of `table`, or `nil` when there is no such table.
    /// - Throws: `SQLiteError` when reading fails.
    static func read(_ table: String, for desired: TableSchema, in db: Connection) throws
      -> StoredTable?
    {
      StoredTable(try SchemaCatalogue.describe(table, in: db), for: desired)
    }
  }

  /// A wanted column and the stored column whose values it takes.
  struct ColumnSource {
    /// The wanted column.
    var target: ColumnDefinition
    /// The stored column's name.
    var source: String
  }

  /// The schema wanted.
  let desired: TableSchema
  /// The stored schema, as the pragmas report it.
  let stored: TableSchema
  /// The primary key of each table a foreign key references, by folded name.
  let parentKeys: [ExactText: [String]]
  /// The changes, in the order a plan lists them.
  private(set) var changes: [SchemaChange] = []
  /// For each wanted column that has one, in the wanted order, the stored column feeding it.
  private(set) var sources: [ColumnSource] = []
  /// Wanted columns with no stored source: they take their default.
  private(set) var added: [ColumnDefinition] = []
  /// Stored columns that feed no wanted column.
  private(set) var removed: [ColumnDefinition] = []
  /// Wanted columns whose Swift type changed since the record (whether or not their SQL
  /// type did): every row is decoded as the model to check them.
  private(set) var swiftTypeChanges: [String] = []
  /// The definition to record when the table is altered in place: the wanted one with the
  /// columns in the order the table has them, added ones last (as ADD COLUMN puts them).
  private(set) var alteredDefinition = ""
  /// Whether the record already holds ``alteredDefinition`` and the wanted Swift types.
  private(set) var recordIsCurrent = false

  /// The differences from `stored` to `desired`.
  /// - Parameter renamed: new column name -> old column names, newest first.
  /// - Parameter parentKeys: the primary key of each table the foreign keys reference (by
  ///   its name with ASCII case folded), so that a key written without parent columns
  ///   (`REFERENCES category`) equals the same key naming them (`REFERENCES category(id)`).
  init(
    from stored: StoredTable, to desired: TableSchema, renamed: [String: [String]],
    parentKeys: [ExactText: [String]] = [:]
  ) {
    self.desired = desired
    self.stored = stored.schema
    self.parentKeys = parentKeys
    mapColumns(renamed: renamed)
    compareColumns()
    compareTable()
    compareRecord(stored)
    compareIndexes()
  }

  /// Whether a stored and a wanted column have the same declared type. The one place
  /// types are compared (by their text today).
  static func sameType(_ stored: ColumnDefinition, _ desired: ColumnDefinition) -> Bool {
    stored.type == desired.type
  }

  /// Whether any change needs the rebuild.
  var needsRebuild: Bool { changes.contains(where: \.needsRebuild) }

  /// Whether a column is renamed (the copy carries it across under its new name).
  var carriesRenames: Bool { sources.contains { $0.source != $0.target.name } }

  // MARK: Comparisons, in the order their changes are listed

  /// Which stored column feeds each wanted column: the same name, else the newest declared
  /// old name the table has, else a name that differs only in ASCII case; then the stored
  /// columns left over.
  private mutating func mapColumns(renamed: [String: [String]]) {
    let storedNames = Set(stored.columns.map { ExactText($0.name) })
    // SQLite's names ignore ASCII case: a stored column whose name differs only in case
    // is the same column, renamed (userID -> userId), not one removed and one added.
    let storedByFoldedName = Dictionary(
      stored.columns.map { ($0.name.asciiCaseFolded, $0.name) }, uniquingKeysWith: { a, _ in a })
    let desiredFoldedNames = Set(desired.columns.map(\.name.asciiCaseFolded))
    func renamedSource(of name: String) -> String? {
      for declared in renamed[name] ?? [] {
        if let old = storedByFoldedName[declared.asciiCaseFolded],
          !desiredFoldedNames.contains(old.asciiCaseFolded)
        {
          return old
        }
      }
      return storedByFoldedName[name.asciiCaseFolded]
    }
    for column in desired.columns {
      if storedNames.contains(ExactText(column.name)) {
        sources.append(ColumnSource(target: column, source: column.name))
      } else if let old = renamedSource(of: column.name) {
        sources.append(ColumnSource(target: column, source: old))
        changes.append(.columnRenamed(from: old, to: column.name))
      } else {
        added.append(column)
        changes.append(.columnAdded(column))
      }
    }
    let used = Set(sources.map { ExactText($0.source) })
    removed = stored.columns.filter { !used.contains(ExactText($0.name)) }
    changes += removed.map { .columnRemoved($0.name) }
  }

  /// Type, nullability, UNIQUE and default of each column that has a source.
  private mutating func compareColumns() {
    for column in sources {
      let (target, source) = (column.target, column.source)
      guard let old = stored.column(named: source) else { continue }
      if !Self.sameType(old, target) {
        changes.append(.columnRetyped(target.name, from: old.type, to: target.type))
      }
      let isKey = desired.hasRowIDAlias && target.name == desired.primaryKey.first
      if old.isNotNull != target.isNotNull && !isKey {
        // A column made NOT NULL with a default takes the default where it held NULL, as
        // the rows of a new column do (the copy writes NULL explicitly otherwise, and fails).
        let backfills = target.isNotNull && target.defaultSQL.map { $0 != "NULL" } == true
        changes.append(
          .nullabilityChanged(
            target.name, isNotNull: target.isNotNull, nullsTakeDefault: backfills))
      }
      if old.isUnique != target.isUnique {
        changes.append(.uniqueChanged(target.name, isUnique: target.isUnique))
      }
      if !ColumnDefinition.sameDefault(old.defaultSQL, target.defaultSQL) {
        changes.append(.defaultChanged(target.name, from: old.defaultSQL, to: target.defaultSQL))
      }
    }
  }

  /// `key` with the parent columns it implies (the parent's primary key) written out.
  private func withParentColumns(_ key: ForeignKey) -> ForeignKey {
    guard key.parentColumns.isEmpty, let parent = parentKeys[key.table.asciiCaseFolded],
      !parent.isEmpty
    else { return key }
    return ForeignKey(
      key.columns, references: key.table, parent, onDelete: key.onDelete,
      onUpdate: key.onUpdate)
  }

  /// Primary key, foreign keys (compared with stored names) and STRICT.
  private mutating func compareTable() {
    let sourceOf = Dictionary(
      sources.map { (ExactText($0.target.name), $0.source) }, uniquingKeysWith: { a, _ in a })
    let keySources = desired.primaryKey.map { ExactText(sourceOf[ExactText($0)] ?? $0) }
    if keySources != stored.primaryKey.map(ExactText.init) {
      changes.append(.primaryKeyChanged(from: stored.primaryKey, to: desired.primaryKey))
    }
    let desiredKeys = desired.foreignKeys.map { key in
      ForeignKey(
        key.columns.map { sourceOf[ExactText($0)] ?? $0 }, references: key.table,
        key.parentColumns,
        onDelete: key.onDelete, onUpdate: key.onUpdate)
    }
    // Names compared as SQLite compares them: `REFERENCES REGION` is the key to `region`.
    func folded(_ key: ForeignKey) -> FoldedForeignKey {
      let key = withParentColumns(key)
      return FoldedForeignKey(
        columns: key.columns.map(\.asciiCaseFolded), table: key.table.asciiCaseFolded,
        parentColumns: key.parentColumns.map(\.asciiCaseFolded), onDelete: key.onDelete,
        onUpdate: key.onUpdate)
    }
    if Set(desiredKeys.map(folded)) != Set(stored.foreignKeys.map(folded)) {
      changes.append(.foreignKeysChanged)
    }
    if desired.isStrict != stored.isStrict {
      changes.append(.strictChanged(isStrict: desired.isStrict))
    }
  }

  /// What the pragmas cannot see: CHECK, COLLATE and AUTOINCREMENT through the recorded
  /// definition, and the Swift types through the recorded ones.
  private mutating func compareRecord(_ storedTable: StoredTable) {
    // The order of columns is not a reason to rebuild: the definitions are compared, and
    // recorded, with the columns in the order the table has them (added ones last, as
    // ADD COLUMN puts them).
    let storedPosition = Dictionary(
      stored.columns.enumerated().map { (ExactText($1.name), $0) }, uniquingKeysWith: { a, _ in a })
    var withoutAdded = desired
    withoutAdded.columns.removeAll { column in
      added.contains { $0.name.hasSameBytes(as: column.name) }
    }
    withoutAdded.columns.sort {
      (storedPosition[ExactText($0.name)] ?? .max) < (storedPosition[ExactText($1.name)] ?? .max)
    }
    let definition = withoutAdded.createTableSQL()
    if added.isEmpty {
      alteredDefinition = definition
    } else {
      var inStoredOrder = withoutAdded
      inStoredOrder.columns += added
      alteredDefinition = inStoredOrder.createTableSQL()
    }

    // The record is compared only when nothing the pragmas saw rebuilds the table already
    // (an added column aside).
    let pragmasSawRebuild = changes.contains { change in
      if case .columnAdded = change { return false }
      return change.needsRebuild
    }
    if let record = storedTable.definition {
      if !pragmasSawRebuild && !record.hasSameBytes(as: definition) {
        changes.append(.constraintsChanged)
      }
    } else if !pragmasSawRebuild && desired.declaresUnreportedConstraints {
      // A table SwiftLite did not create (no record): the pragmas cannot tell whether it
      // has the CHECK, COLLATE or AUTOINCREMENT the model declares. Unless its CREATE
      // statement is the one SwiftLite would write, rebuild it so that it does, rather than
      // record what may not be true.
      if storedTable.createSQL?.hasSameBytes(as: definition) != true {
        changes.append(.constraintsUnverifiable)
      }
    }

    // A Swift type may change within one storage class (String to [String], Int to Bool,
    // an enum that lost a case): SQLite sees nothing, but rows would stop decoding. The
    // types recorded last time tell (when they are recorded as the model has them now,
    // none changed: the text is not decoded).
    let desiredTypes = AutoMigration.swiftTypesText(desired)
    if let recorded = storedTable.swiftTypes,
      desiredTypes.map({ !$0.utf8.elementsEqual(recorded.utf8) }) ?? true,
      let old = AutoMigration.decodeSwiftTypes(recorded)
    {
      for column in sources {
        let (target, source) = (column.target, column.source)
        guard let was = old[source], let now = target.swiftType, !was.hasSameBytes(as: now)
        else { continue }
        if let storedColumn = stored.column(named: source), Self.sameType(storedColumn, target) {
          // A change of SQL type is already listed; this one SQLite cannot see.
          changes.append(.swiftTypeChanged(target.name, from: was, to: now))
        }
        swiftTypeChanges.append(target.name)
      }
    }
    recordIsCurrent =
      storedTable.definition?.hasSameBytes(as: alteredDefinition) == true
      && storedTable.swiftTypes.map(ExactText.init) == desiredTypes.map(ExactText.init)
  }

  /// The model is the truth for the indexes on its table.
  private mutating func compareIndexes() {
    let storedIndexes = Set(stored.indexes)
    let desiredIndexes = Set(desired.indexes)
    changes += stored.indexes.filter { !desiredIndexes.contains($0) }.map { .indexRemoved($0) }
    changes += desired.indexes.filter { !storedIndexes.contains($0) }.map { .indexAdded($0) }
  }
}

extension TableSchema {
  /// Whether the schema declares a CHECK, COLLATE or AUTOINCREMENT, which SQLite's pragmas
  /// do not report back.
  var declaresUnreportedConstraints: Bool {
    autoIncrement || columns.contains { $0.check != nil || $0.collation != nil }
  }
}

extension SchemaDiff.StoredTable {
  /// What is known of a described table, or `nil` when it is not a table. Its CREATE
  /// statement is kept only for a table with no record whose wanted schema declares a
  /// CHECK, COLLATE or AUTOINCREMENT.
  init?(_ description: TableDescription, for desired: TableSchema) {
    guard let schema = description.tableSchema else { return nil }
    let record = description.record
    self.init(schema: schema, definition: record?.definition, swiftTypes: record?.swiftTypes)
    if definition == nil && desired.declaresUnreportedConstraints {
      createSQL = description.sql
    }
  }
}

/// A foreign key with its names as SQLite compares them (ASCII case folded, other bytes
/// exact), for telling whether two declarations are the same key.
private struct FoldedForeignKey: Hashable {
  let columns: [ExactText]
  let table: ExactText
  let parentColumns: [ExactText]
  let onDelete: ForeignKey.Action
  let onUpdate: ForeignKey.Action
}
