/// How a model maps onto an existing table that SwiftLite does not manage: which column
/// each property reads and writes, checked once per connection by reading the schema only.
///
/// Names match as SQLite matches them, ignoring ASCII case (a `customerId` property reads
/// the `CustomerId` column); `CodingKeys` rename properties as usual. Declared types are
/// judged by their ``ColumnAffinity``, not their text: a `String` fits `NVARCHAR(120)`, a
/// `Double` fits `NUMERIC(10,2)` (an INTEGER value `25` reads `25.0`). Columns the model
/// lacks are fine for reads, and for inserts when they are nullable or have a default.
struct TableMapping {
  /// The table name, as the model names it.
  let table: String
  /// The model's stored properties (coding keys), in column order.
  let properties: [String]
  /// The column each property reads and writes, in the same order.
  let columns: [String]
  /// The primary key's properties, in key order.
  let keyProperties: [String]
  /// Why an insert from this model cannot succeed, or `nil`.
  let insertRefusal: String?
  /// Why `save` (an insert or update by primary key) cannot work on this table, or `nil`.
  let upsertRefusal: String?
  /// The properties whose columns make the table's own primary key when the model's key
  /// is another (a unique column): an update never changes them, since that would move
  /// the row (and strand the rows that reference it).
  let identityProperties: Set<String>
  /// For a table another program made (mapped or adopted), the declared type of each
  /// property's column (empty for a column to add); `nil` for a table SwiftLite created.
  /// Such a table's dates keep the format its columns already use.
  let storedTypes: [String]?
  /// Per property, the DEFAULT of its column when that column is NOT NULL (so a NULL, which
  /// it cannot hold, means "the default"), else `nil`. A model's `nil` there is written as
  /// the default by an insert and leaves the stored value by an update.
  let notNullDefaults: [String?]
  /// The table's foreign keys as SQLite reports them (`PRAGMA foreign_key_list`), their
  /// columns named as the model's properties where it has them: what associations use when
  /// the model declares no key to their parent. For a table SwiftLite manages, the model's.
  let foreignKeys: [ForeignKey]
  /// The table's own primary key, as properties where the model has them (what a foreign
  /// key that names no parent columns references); empty for a table without one.
  let tableKey: [String]
  /// Per property, whether its column is generated (`GENERATED ALWAYS AS`) or a hidden
  /// column of a virtual table: read, never written by an insert, update or upsert.
  let readOnly: [Bool]

  /// The positions of the properties that writes give a value, in order.
  var writtenPositions: [Int] { readOnly.indices.filter { !readOnly[$0] } }

  /// The mapping of a table SwiftLite manages: every column is a property of the same name.
  init(managed schema: TableSchema) {
    table = schema.name
    properties = schema.columns.map(\.name)
    columns = properties
    keyProperties = schema.primaryKey
    insertRefusal = nil
    upsertRefusal = nil
    identityProperties = []
    storedTypes = nil
    notNullDefaults = schema.columns.map { $0.isNotNull ? $0.defaultSQL : nil }
    foreignKeys = schema.foreignKeys
    tableKey = schema.primaryKey
    readOnly = schema.columns.map { _ in false }
  }

  /// Checks that a model fits an existing table, listing every problem at once.
  /// - Parameters:
  ///   - model: the model's name, for messages.
  ///   - desired: the schema the model would create (its columns are its properties).
  ///   - declaredKey: the model's primary key, naming properties or their columns.
  ///   - db: the connection; only read.
  /// - Throws: ``ModelError/incompatibleTable(model:table:problems:)``; `SQLiteError`.
  /// - Parameter adding: whether properties without a column are columns to add (when
  ///   adopting the table), not problems.
  init(
    model: String, desired: TableSchema, declaredKey: [String], adding: Bool = false,
    in db: Connection
  ) throws {
    try self.init(
      model: model, desired: desired, declaredKey: declaredKey, adding: adding,
      stored: SchemaCatalogue.describe(desired.name, in: db))
  }

  /// As ``init(model:desired:declaredKey:adding:in:)``, for the table as `description`
  /// describes it (just read on the connection).
  init(
    model: String, desired: TableSchema, declaredKey: [String], adding: Bool = false,
    stored description: TableDescription
  ) throws {
    // A view maps as a table does, for reading (and for writing, where its triggers let).
    guard let stored = description.schema else {
      throw ModelError.tableNotFound(table: desired.name)
    }
    let storedByName = Dictionary(
      stored.columns.map { ($0.name.asciiCaseFolded, $0) }, uniquingKeysWith: { a, _ in a })
    var problems: [String] = []
    var columns: [String] = []
    var claimed: [ExactText: String] = [:]
    var storedTypes: [String] = []
    var notNullDefaults: [String?] = []
    var readOnly: [Bool] = []
    let readOnlyByName = Dictionary(
      description.readOnlyColumns.map { ($0.name.asciiCaseFolded, $0) },
      uniquingKeysWith: { a, _ in a })
    let available = stored.columns.map(\.name).joined(separator: ", ")
    for property in desired.columns {
      let generated = readOnlyByName[property.name.asciiCaseFolded]
      readOnly.append(storedByName[property.name.asciiCaseFolded] == nil && generated != nil)
      guard let column = storedByName[property.name.asciiCaseFolded] ?? generated else {
        storedTypes.append("")
        notNullDefaults.append(nil)
        if adding {
          columns.append(property.name)
          continue
        }
        // Names are told apart by their bytes, as SQLite tells them apart; one that differs
        // only in Unicode normalization looks the same in a message, so say so.
        // (String's == is canonical equivalence: here, exactly the lookalike wanted.)
        // (Compared as Strings: `asciiCaseFolded` is an ExactText, whose == is by bytes.)
        let lookalike = stored.columns.first {
          $0.name.asciiCaseFolded.string == property.name.asciiCaseFolded.string
        }
        problems.append(
          "property '\(property.name)' has no column (the table has: \(available)); name its "
            + "column in CodingKeys, or list it in ignoredProperties"
            + (lookalike.map {
              " (column \($0.name) has the same letters in another Unicode normalization form: "
                + "spell it with the same bytes)"
            } ?? ""))
        columns.append(property.name)
        continue
      }
      if let other = claimed[column.name.asciiCaseFolded] {
        problems.append(
          "properties '\(other)' and '\(property.name)' both map to column \(column.name); "
            + "rename one in CodingKeys")
      }
      claimed[column.name.asciiCaseFolded] = property.name
      columns.append(column.name)
      storedTypes.append(column.type)
      notNullDefaults.append(column.isNotNull ? column.defaultSQL : nil)
      let affinity = ColumnAffinity(declaredType: column.type, strict: stored.isStrict)
      let kind = ValueKind(property)
      if !kind.accepts(affinity, strict: stored.isStrict) {
        problems.append(
          "property '\(property.name)' (\(property.swiftType ?? property.type)) does not fit "
            + "column \(column.name) declared \(column.type.isEmpty ? "with no type" : column.type) "
            + "(\(affinity.rawValue) affinity): " + kind.fix(for: affinity))
      }
    }
    // The key may name a property or its column.
    var keyProperties: [String] = []
    for name in declaredKey {
      let folded = name.asciiCaseFolded
      if let index = desired.columns.firstIndex(where: { $0.name.asciiCaseFolded == folded })
        ?? columns.firstIndex(where: { $0.asciiCaseFolded == folded })
      {
        keyProperties.append(desired.columns[index].name)
      } else {
        problems.append("primary key '\(name)' names no property of the model")
      }
    }
    guard problems.isEmpty else {
      throw ModelError.incompatibleTable(model: model, table: desired.name, problems: problems)
    }
    table = desired.name
    properties = desired.columns.map(\.name)
    self.columns = columns
    self.keyProperties = keyProperties
    self.storedTypes = storedTypes
    self.notNullDefaults = notNullDefaults
    func property(_ column: String) -> String {
      let folded = column.asciiCaseFolded
      guard let index = columns.firstIndex(where: { $0.asciiCaseFolded == folded }) else {
        return column
      }
      return desired.columns[index].name
    }
    foreignKeys = stored.foreignKeys.map {
      ForeignKey(
        $0.columns.map(property), references: $0.table, $0.parentColumns, onDelete: $0.onDelete,
        onUpdate: $0.onUpdate)
    }
    self.tableKey = stored.primaryKey.map(property)
    self.readOnly = readOnly

    let tableKey = Set(stored.primaryKey.map(\.asciiCaseFolded))
    let modelKey = Set(keyProperties.map(\.asciiCaseFolded))
    identityProperties = Set(
      zip(desired.columns.map(\.name), columns).filter { property, column in
        tableKey.contains(column.asciiCaseFolded) && !modelKey.contains(property.asciiCaseFolded)
      }.map(\.0))

    // Inserts leave the columns the model lacks to their default (or NULL).
    let written = Set(columns.map(\.asciiCaseFolded))
    let rowIDAlias =
      !description.isWithoutRowID && stored.primaryKey.count == 1
      && stored.column(named: stored.primaryKey[0])?.type == "INTEGER"
    let required = stored.columns.filter { column in
      !written.contains(column.name.asciiCaseFolded) && column.isNotNull
        && column.defaultSQL == nil && !(rowIDAlias && column.name == stored.primaryKey[0])
    }
    insertRefusal =
      required.isEmpty
      ? nil
      : "column" + (required.count == 1 ? " " : "s ")
        + required.map(\.name).joined(separator: ", ")
        + " must be given a value (NOT NULL, no default) and the model has no property for "
        + (required.count == 1 ? "it" : "them") + "; add one"
    // ON CONFLICT needs the key to be the primary key or a unique index of the table.
    let keyColumns = Set(
      keyProperties.compactMap { key in
        desired.columns.firstIndex { $0.name == key }.map { columns[$0].asciiCaseFolded }
      })
    let uniqueKeys = description.uniqueKeys.map { Set($0.map(\.asciiCaseFolded)) }
    upsertRefusal =
      uniqueKeys.contains(keyColumns)
      ? nil
      : "save() inserts or updates by primary key, and (" + keyProperties.joined(separator: ", ")
        + ") is neither the table's primary key nor a unique index; use insert() and update()"
  }
}

/// What a property stores, for judging which column affinities it fits.
private enum ValueKind {
  case integer, real, text, date, decimal, blob, any

  init(_ column: ColumnDefinition) {
    switch (column.type, column.swiftType) {
    case (_, "Date"): self = .date
    case (_, "Decimal"): self = .decimal
    case ("INTEGER", _): self = .integer
    case ("REAL", _): self = .real
    case ("TEXT", _): self = .text
    case ("ANY", _): self = .any
    default: self = column.swiftType?.hasPrefix("SQLiteValue") == true ? .any : .blob
    }
  }

  /// Whether values of this kind, written into a column of `affinity`, stay readable as
  /// the property's type.
  func accepts(_ affinity: ColumnAffinity, strict: Bool) -> Bool {
    if affinity == .blob { return true }  // stored as given (or STRICT ANY)
    switch self {
    case .any: return true
    // An integer written into a REAL column comes back REAL: no longer an Int.
    case .integer: return affinity == .integer || (!strict && affinity == .numeric)
    // A whole Double written into an INTEGER or NUMERIC column is stored as an INTEGER,
    // which reads back as the same Double.
    case .real: return affinity == .real || (!strict && [.integer, .numeric].contains(affinity))
    // Text that looks like a number would be stored as one: only TEXT keeps it. But a
    // NUMERIC column (DATETIME, DECIMAL, BOOLEAN...) keeps the text that is not a number,
    // such as another program's dates: a String reads it as it is (a number stored there
    // is an error naming the column and the row).
    case .text: return affinity == .text || (!strict && affinity == .numeric)
    // Dates and decimals also read INTEGER and REAL values, so a NUMERIC column (which
    // stores a decimal's text as a number) fits them.
    case .decimal: return affinity == .text || (!strict && affinity == .numeric)
    // A date is written in its column's format: Unix seconds in an INTEGER or REAL column.
    case .date: return true
    case .blob: return false
    }
  }

  /// How to make a property fit a column of `affinity`.
  func fix(for affinity: ColumnAffinity) -> String {
    let types: String
    switch affinity {
    case .integer: types = "Int, Int64, Bool or Date (Unix seconds)"
    case .real: types = "Double or Date (Unix seconds)"
    case .text: types = "String (or Date, UUID, URL, Decimal, or a Codable value stored as JSON)"
    case .numeric: types = "Int, Double, Bool, Decimal or Date"
    case .blob: types = "any type"
    }
    return "declare the property as " + types + ", or read the column with SQL of your own"
  }
}

extension TableMapping {
  /// Every column, each under its property's name (`"col" AS "prop"` where the two differ,
  /// in case only): the select list that reads rows as the model.
  var selectionList: String {
    zip(columns, properties).map { column, property in
      column == property
        ? SQLIdentifier.quote(column)
        : SQLIdentifier.quote(column) + " AS " + SQLIdentifier.quote(property)
    }.joined(separator: ", ")
  }
}

extension TableMapping {
  /// The property that reads a column (matched as SQLite matches names), or the column's
  /// own name when no property does.
  func property(forColumn column: String) -> String {
    if let index = columns.firstIndex(of: column) { return properties[index] }
    let folded = column.asciiCaseFolded
    guard let index = columns.firstIndex(where: { $0.asciiCaseFolded == folded }) else {
      return column
    }
    return properties[index]
  }
}
