/// A model's table checked against its model on this connection, with its SQL written once.
///
/// Kept per connection and per (model type, table name): the first use of a model on a
/// connection checks (and, for a table SwiftLite manages, creates or migrates) its table;
/// later uses find this and go straight to the cached statements.
@usableFromInline final class ModelTable {
  let mapping: TableMapping
  @usableFromInline let keyPositions: [Int]
  let otherPositions: [Int]
  /// The positions an insert writes, in the order of its parameters: every property but
  /// those of generated or hidden columns.
  let writtenPositions: [Int]
  /// What the table was made from, which holds no statement: kept by the connection for
  /// more tables than it keeps prepared (see ``ModelTableBlueprints``).
  let blueprint: Blueprint
  let ignored: Set<String>
  /// The model's own mapping, when it has one (``RowMapped``): used instead of `Codable`.
  let mapped: (any RowMapped.Type)?
  /// For a mapped model: position in its `mappedColumns` -> property index (a slot of
  /// ``values``), and -> parameter of the insert and upsert statements (property index + 1).
  private let slots: ColumnMap?
  let parameters: ColumnMap?
  /// The values a mapped model was last encoded into (see ``encode(_:)``), made on first use.
  private lazy var valueList = ValueList(count: mapping.properties.count)
  /// The encoder of ``encode(_:)``, made on first use: a save or an insert binds through
  /// its writer's own.
  private var madeEncoder: RowEncoder?
  /// The last read map and the statement layout it was computed for.
  private var readLayout: ColumnLayout?
  private var readMap: ColumnMap?
  /// Per property: the format the model declares for a `Date` property (``standard`` for
  /// an undeclared one, to be settled by ``resolveDateFormats(_:)``); `nil` for the others.
  private var dateFormats: [ColumnDateForm?]
  /// Per property: whether it is a `Date` without a declared format.
  private let undeclaredDates: [Bool]
  private var dateFormatsResolved = false
  /// Per property: whether it is `Data`, which an update writes as TEXT over TEXT.
  let keepsText: [Bool]
  /// ``dateFormats`` by position of a mapped model's `mappedColumns`, once resolved and
  /// when some format is not the standard one.
  private(set) var positionDateFormats: PositionDateForms?
  /// ``dateFormats`` by property for the `Codable` encoders, once resolved and when some
  /// format is not the standard one (empty: all standard).
  private(set) var encodedDateFormats: [ColumnDateForm?] = []

  // The statements other than the insert and upsert are written on first use: a table
  // checked again after the connection's cache let it go is often only saved into.
  private(set) lazy var selectSQL = "SELECT " + mapping.selectionList + " FROM " + quotedName
  let insertSQL: String
  let upsertSQL: String
  private(set) lazy var updateSQL: String? =
    otherPositions.isEmpty ? nil : updateSQL(setting: otherPositions)
  /// `selectSQL` with `keyCondition`: a lookup by primary key.
  @usableFromInline lazy var findSQL = selectSQL + " WHERE " + keyCondition
  private(set) lazy var keyCondition = keyPositions.map {
    SQLIdentifier.quote(mapping.columns[$0]) + " = ?"
  }.joined(separator: " AND ")
  let quotedName: String
  /// ` RETURNING` of every column under its property's name (see `insertAndFetch`).
  private(set) lazy var returningClause = " RETURNING " + mapping.selectionList

  /// The table of `model`, mapped by `mapping`; `slots` from ``mappedSlots(_:properties:)``.
  convenience init<M: Model>(_ model: M.Type, mapping: TableMapping, slots: ColumnMap?) {
    // The schema was inferred (and cached) before the mapping was made.
    let columns = (try? TableSchema(model, table: mapping.table))?.columns ?? []
    let formats = mapping.properties.map { property -> SQLiteDateFormat?? in
      guard columns.first(where: { $0.name == property })?.swiftType == "Date" else {
        return .none
      }
      for case .dateFormat(let format) in M.columnConstraints[property] ?? [] {
        return .some(format)
      }
      return .some(nil)
    }
    self.init(
      Blueprint(
        mapping: mapping, ignored: M.ignoredProperties, mapped: M.self as? any RowMapped.Type,
        slots: slots,
        dateFormats: formats.map { $0.map { $0.map(ColumnDateForm.declared) ?? .standard } },
        undeclaredDates: formats.map { $0 == .some(nil) },
        keepsText: mapping.properties.map { property in
          columns.first(where: { $0.name == property })?.swiftType == "Data"
        }))
  }

  /// For a ``RowMapped`` model, where each position of its `mappedColumns` is among
  /// `properties` (its stored properties, in column order); `nil` for other models.
  /// - Throws: ``ModelError/invalidDeclaration(model:reason:)`` when `mappedColumns` does
  ///   not list each stored property exactly once.
  static func mappedSlots<M: Model>(_ model: M.Type, properties: [String]) throws -> ColumnMap? {
    guard let mapped = M.self as? any RowMapped.Type else { return nil }
    let declared = mapped.mappedColumns
    var slots: [Int] = []
    var problems: [String] = []
    var seen = Set<Int>()
    for name in declared {
      guard
        let index = properties.firstIndex(of: name)
          ?? properties.firstIndex(where: { $0.asciiCaseFolded == name.asciiCaseFolded })
      else {
        problems.append("'\(name)' is not a stored property")
        slots.append(-1)
        continue
      }
      if !seen.insert(index).inserted { problems.append("'\(name)' is listed twice") }
      slots.append(index)
    }
    let unlisted = properties.indices.filter { !seen.contains($0) }.map { properties[$0] }
    if !unlisted.isEmpty {
      problems.append("stored properties missing: " + unlisted.joined(separator: ", "))
    }
    guard problems.isEmpty else {
      throw ModelError.invalidDeclaration(
        model: String(describing: model),
        reason: "mappedColumns must list each stored property once: "
          + problems.joined(separator: "; "))
    }
    return ColumnMap(indexes: ContiguousArray(slots), names: declared, available: properties)
  }

  /// The table a blueprint describes: made anew, with no statement prepared yet.
  init(_ blueprint: Blueprint) {
    self.blueprint = blueprint
    mapping = blueprint.mapping
    ignored = blueprint.ignored
    mapped = blueprint.mapped
    isMapped = blueprint.mapped != nil
    slots = blueprint.slots
    parameters = blueprint.parameters
    writtenPositions = blueprint.writtenPositions
    keyPositions = blueprint.keyPositions
    otherPositions = blueprint.otherPositions
    dateFormats = blueprint.dateFormats
    undeclaredDates = blueprint.undeclaredDates
    keepsText = blueprint.keepsText
    quotedName = blueprint.quotedName
    insertSQL = blueprint.insertSQL
    upsertSQL = blueprint.upsertSQL
  }

  /// `"column" = ?`, or for a NOT NULL column with a default, which a NULL leaves as it
  /// is, `"column" = coalesce(?, "column")`, `?` being parameter `parameter`; for a `Data`
  /// property (`keepsText`), the value as TEXT when the row holds TEXT there (see ``keepingText(_:of:)``).
  static func assignment(
    _ quoted: String, parameter: Int, keepsOnNull: Bool, keepsText: Bool = false
  ) -> String {
    // Numbered only where the value is named twice; a plain `?` takes the next number.
    let mark = keepsText ? "?" + String(parameter) : "?"
    let value = keepsOnNull ? "coalesce(" + mark + ", " + quoted + ")" : mark
    return quoted + " = " + (keepsText ? keepingText(value, of: quoted) : value)
  }

  /// `value` (a BLOB of a `Data` property) as TEXT of the same bytes when the row being
  /// updated holds TEXT in the column, as itself otherwise: a plain update or save of a
  /// row read unchanged keeps the storage class another program chose.
  static func keepingText(_ value: String, of quoted: String) -> String {
    "CASE typeof(" + quoted + ") WHEN 'text' THEN CAST(" + value + " AS TEXT) ELSE " + value
      + " END"
  }

  /// The table's name, as the model names it.
  var name: String { mapping.table }

  /// Settles the format of each `Date` property the model declares none for, once per
  /// connection, before the first write: the standard one on a table SwiftLite created; on
  /// a table another program made, the form of the column's first non-NULL value
  /// (``ColumnDateForm``, widened when a date needs it), else a lossless format for its
  /// affinity (see ``ColumnConstraint/dateFormat(_:)``). Only reads.
  /// - Throws: `SQLiteError` when reading the sample fails.
  func resolveDateFormats(_ db: Connection) throws {
    guard !dateFormatsResolved else { return }
    if let storedTypes = mapping.storedTypes {
      for index in undeclaredDates.indices where undeclaredDates[index] {
        let declaredType = storedTypes[index]
        guard !declaredType.isEmpty else { continue }  // a column still to add
        let sample = try db.queryFirst(
          "SELECT " + SQLIdentifier.quote(mapping.columns[index]) + " FROM " + quotedName
            + " WHERE " + SQLIdentifier.quote(mapping.columns[index]) + " IS NOT NULL LIMIT 1")
        dateFormats[index] =
          sample.flatMap { row in (try? row.value(at: 0)).flatMap(ColumnDateForm.init(foundIn:)) }
          ?? .declared(Self.dateFormat(declaredType: declaredType))
      }
    }
    dateFormatsResolved = true
    guard dateFormats.contains(where: { $0.map { !$0.isStandard } ?? false }) else { return }
    encodedDateFormats = dateFormats
    madeEncoder?.dateFormats = dateFormats
    positionDateFormats = slots.map {
      PositionDateForms(ContiguousArray($0.indexes.map { dateFormats[$0] }))
    }
  }

  /// The format for a column with no value to learn from, by its declared type; lossless
  /// either way: REAL Unix seconds for INTEGER and REAL affinity (an INTEGER column keeps
  /// whole seconds as INTEGER), else the standard text.
  private static func dateFormat(declaredType: String) -> SQLiteDateFormat {
    switch ColumnAffinity(declaredType: declaredType, strict: false) {
    case .integer, .real: return .unixSecondsReal
    default: return .standard
    }
  }

  /// A statement this table owns with an encoder that binds straight into it: writing a
  /// model looks nothing up by SQL text and builds no intermediate values.
  final class Writer {
    let statement: Statement
    let encoder: RowEncoder
    /// A mapped model's parameters and marks, or `nil` to encode with `Codable`.
    private let mapped: (any RowMapped.Type)?
    private let parameters: ColumnMap?
    private let marks: ParameterMarks

    /// Formats by position of a mapped model's `mappedColumns`, when some are not standard.
    private let dateFormats: PositionDateForms?
    /// The connection's schema catalogue, to tell of each write (see
    /// ``SchemaCatalogue/noteModelWrite(in:)``); `nil` for a model of SwiftLite's own
    /// record table, whose writes change what descriptions say.
    private let catalogue: SchemaCatalogue?

    init(_ sql: String, table: ModelTable, db: Connection) throws {
      try table.resolveDateFormats(db)
      let statement = try db.prepare(sql)
      self.statement = statement
      // Parameter i + 1 takes the i-th written property; the others name no parameter.
      let written = table.writtenPositions
      encoder = RowEncoder(
        columns: written.map { table.mapping.properties[$0] }, bindingTo: statement)
      let formats = table.encodedDateFormats
      encoder.dateFormats = formats.isEmpty ? [] : written.map { formats[$0] }
      dateFormats = table.positionDateFormats
      mapped = table.mapped
      parameters = table.parameters
      marks = ParameterMarks(count: table.parameters?.indexes.count ?? 0)
      catalogue =
        SchemaCatalogue.sameName(table.name, AutoMigration.recordTable)
        ? nil : SchemaCatalogue.of(db)
    }

    /// Whether a write is under way: a model's `write(to:)` or `encode(to:)` that saves a
    /// model of the same table is given a writer of its own (see ``upsertWriter(_:)``).
    private(set) var isWriting = false

    /// Encodes `model` into the statement's parameters and runs it on `db`, the connection
    /// that made this writer.
    func write<M: Encodable>(_ model: M, on db: Connection) throws {
      isWriting = true
      defer { isWriting = false }
      if let mapped, let parameters = parameters.map(Unmanaged.passUnretained) {
        // Borrowed from this writer, which keeps it: the map is not retained per write.
        try parameters._withUnsafeGuaranteedRef { parameters in
          marks.next()
          try mapped.write(
            model,
            to: MappedRowWriter(
              statement: statement, parameters: parameters, marks: marks,
              dateFormats: dateFormats))
          // Parameters the model leaves unwritten bind NULL, as with `Codable`.
          try marks.bindNullToUnwritten(
            statement, indexes: parameters.indexes, of: ObjectIdentifier(parameters))
        }
      } else {
        try encoder.encode(model)
      }
      try statement.run()
      catalogue?.noteModelWrite(in: db)
    }
  }

  /// Whether ``encode(_:)`` is under way.
  private var isEncoding = false
  private var upsert: Writer?
  private var insert: Writer?
  /// The lookup by primary key of a mapped model (see ``lookup(_:)``).
  var keptLookup: Lookup?
  /// Whether the model reads itself (``RowMapped``): its lookups take ``lookup(_:)``.
  /// Stored, so that a lookup inlined into a client reads it with no call.
  @usableFromInline let isMapped: Bool

  /// INSERT ... ON CONFLICT DO UPDATE: `save`. Prepared on first use.
  /// - Throws: ``ModelError/writeRefused(table:reason:)`` when the table cannot take it.
  func upsertWriter(_ db: Connection) throws -> Writer {
    if let upsert {
      // Saved from inside the write of another model of this table: the kept statement
      // is half bound, so this save runs a statement of its own.
      if upsert.isWriting { return try Writer(upsertSQL, table: self, db: db) }
      return upsert
    }
    if let reason = mapping.insertRefusal ?? mapping.upsertRefusal {
      throw ModelError.writeRefused(table: name, reason: reason)
    }
    let writer = try Writer(upsertSQL, table: self, db: db)
    upsert = writer
    return writer
  }

  /// Plain INSERT: `insert`. Prepared on first use.
  /// - Throws: ``ModelError/writeRefused(table:reason:)`` when the table cannot take it.
  // The kept writer found inline, the rest out of line.
  @inline(__always) func insertWriter(_ db: Connection) throws -> Writer {
    if let insert, !insert.isWriting { return insert }
    return try makeInsertWriter(db)
  }

  /// ``insertWriter(_:)`` when no writer is kept, or the kept one is busy.
  @inline(never) private func makeInsertWriter(_ db: Connection) throws -> Writer {
    if let insert {
      if insert.isWriting { return try Writer(insertSQL, table: self, db: db) }
      return insert
    }
    if let reason = mapping.insertRefusal {
      throw ModelError.writeRefused(table: name, reason: reason)
    }
    let writer = try Writer(insertSQL, table: self, db: db)
    insert = writer
    return writer
  }

  /// Encodes `model` into ``values``, one per property, with its own mapping or `Codable`.
  /// - Throws: `EncodingError` naming the column for a value SQLite cannot store;
  ///   ``ModelError/writeRefused(table:reason:)`` for a model of this table written from
  ///   inside the encoding of another.
  func encode<M: Encodable>(_ model: M) throws {
    // The values are the table's one list: a model of this table written from inside the
    // encoding of another would mix its values with the other's.
    if isEncoding {
      throw ModelError.writeRefused(
        table: name,
        reason: "a model of this table was written from inside the encoding of another"
          + " (its write(to:) or encode(to:)); write it before or after")
    }
    isEncoding = true
    defer { isEncoding = false }
    if let mapped, let slots {
      for index in valueList.storage.indices { valueList.storage[index] = .null }
      try mapped.write(
        model,
        to: MappedRowWriter(values: valueList, slots: slots, dateFormats: positionDateFormats))
    } else {
      try encoder.encode(model)
    }
  }

  /// The encoder of ``encode(_:)`` (see ``madeEncoder``).
  var encoder: RowEncoder {
    if let madeEncoder { return madeEncoder }
    let encoder = RowEncoder(columns: mapping.properties)
    if !encodedDateFormats.isEmpty { encoder.dateFormats = encodedDateFormats }
    madeEncoder = encoder
    return encoder
  }

  /// The values of the model last given to ``encode(_:)``, one per property.
  var values: ContiguousArray<SQLiteValue> { mapped == nil ? encoder.values : valueList.storage }

  /// Binds the encoded values at `positions` to parameters 1, 2, ...
  func bind(_ positions: [Int], to statement: Statement, startingAt first: Int32 = 1) throws {
    let values = self.values
    var parameter = first
    for position in positions {
      try statement.bindValue(values[position], at: parameter)
      parameter += 1
    }
  }

  /// The primary key values of the last encoded model.
  var encodedKey: [SQLiteValue] {
    let values = self.values
    return keyPositions.map { values[$0] }
  }

  /// The decoder of the last lookup, kept with its statement so that the order of the
  /// model's keys and their columns are learned once, not once per lookup.
  private var lookupDecoder: RowDecoder?

  /// A decoder reading `statement`'s rows in place: the last one made for it when it is
  /// free, else a new one (which is then kept).
  func decoder(readingInPlace statement: Statement) -> RowDecoder {
    if let lookupDecoder, lookupDecoder.liveStatement === statement, !lookupDecoder.isDecoding {
      return lookupDecoder
    }
    let decoder = RowDecoder(ignoredProperties: ignored, readingInPlace: statement)
    lookupDecoder = decoder
    return decoder
  }

  /// Where a mapped model's positions are among the columns of `statement`'s rows:
  /// computed once per result layout, kept for the next statement with the same layout.
  func readColumns(of statement: Statement) -> ColumnMap {
    let layout = statement.layout
    if let readMap, layout === readLayout { return readMap }
    let map = ColumnMap(reading: mapped?.mappedColumns ?? [], from: layout)
    readLayout = layout
    readMap = map
    return map
  }
}
