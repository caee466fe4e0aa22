// What a model table's first use works out that holds no prepared statement: the mapping,
// positions and SQL texts. A connection keeps it for more tables than it keeps prepared, so
// that a table checked again after the cache let it go is not worked out again (see
// `ModelTableBlueprints`).
extension ModelTable {
  /// The parts of a ``ModelTable`` that its statements do not hold: a value, copied into
  /// each table made from it.
  struct Blueprint {
    let mapping: TableMapping
    let ignored: Set<String>
    let mapped: (any RowMapped.Type)?
    let slots: ColumnMap?
    let parameters: ColumnMap?
    let writtenPositions: [Int]
    let keyPositions: [Int]
    let otherPositions: [Int]
    /// The formats before ``ModelTable/resolveDateFormats(_:)`` settled any.
    let dateFormats: [ColumnDateForm?]
    let undeclaredDates: [Bool]
    let keepsText: [Bool]
    let quotedName: String
    let insertSQL: String
    let upsertSQL: String

    /// Works out a table's positions and SQL from its mapping (see ``ModelTable``).
    init(
      mapping: TableMapping, ignored: Set<String>, mapped: (any RowMapped.Type)?, slots: ColumnMap?,
      dateFormats: [ColumnDateForm?], undeclaredDates: [Bool], keepsText: [Bool]
    ) {
      self.dateFormats = dateFormats
      self.keepsText = keepsText
      self.undeclaredDates = undeclaredDates
      self.mapping = mapping
      self.ignored = ignored
      self.mapped = mapped
      self.slots = slots
      // Writes give a value to every property but those of generated (or hidden) columns:
      // the written ones bind parameters 1, 2, ... in order; the others bind none (-1).
      let written = mapping.writtenPositions
      writtenPositions = written
      var parameterOf = [Int](repeating: -1, count: mapping.properties.count)
      for (ordinal, position) in written.enumerated() { parameterOf[position] = ordinal + 1 }
      self.parameters = slots.map {
        ColumnMap(
          indexes: ContiguousArray($0.indexes.map { $0 < 0 ? $0 + 1 : parameterOf[$0] }),
          names: $0.names, available: [])
      }
      let names = mapping.properties
      let quoted = mapping.columns.map(SQLIdentifier.quote)
      let keySet = Set(mapping.keyProperties)
      keyPositions = mapping.keyProperties.compactMap { names.firstIndex(of: $0) }
      // A column of the table's own key, when the model keys rows by another, is written by
      // an insert but never updated.
      otherPositions = names.indices.filter {
        !keySet.contains(names[$0]) && !mapping.identityProperties.contains(names[$0])
          && !mapping.readOnly[$0]
      }
      quotedName = SQLIdentifier.quote(mapping.table)

      let columnList = written.map { quoted[$0] }.joined(separator: ", ")
      // A NULL for a NOT NULL column with a DEFAULT means the default: an insert writes
      // the default expression (as SQLite would for a column left out), an update keeps the
      // stored value. So one statement serves every model, whichever properties are nil.
      let defaults = mapping.notNullDefaults
      let placeholders = written.map { index in
        defaults[index].map { "coalesce(?, " + $0 + ")" } ?? "?"
      }.joined(separator: ", ")
      insertSQL =
        "INSERT INTO " + quotedName + " (" + columnList + ") VALUES (" + placeholders + ")"
      let keyList = keyPositions.map { quoted[$0] }.joined(separator: ", ")
      let assignments = otherPositions.map { index in
        let value =
          defaults[index] == nil
          ? "excluded." + quoted[index]
          : "coalesce(?" + String(parameterOf[index]) + ", " + quoted[index] + ")"
        return quoted[index] + " = "
          + (keepsText[index] ? ModelTable.keepingText(value, of: quoted[index]) : value)
      }
      upsertSQL =
        insertSQL + " ON CONFLICT (" + keyList + ") "
        + (assignments.isEmpty
          ? "DO NOTHING" : "DO UPDATE SET " + assignments.joined(separator: ", "))
    }
  }
}
