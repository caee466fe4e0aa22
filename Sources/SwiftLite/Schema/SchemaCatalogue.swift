/// Where each table and view of the main database sits in `sqlite_schema`, kept per
/// connection, so that describing a table (``TableDescription``: what the first use of a
/// model's table needs to know) takes one statement and reads no more of the schema than
/// that table's row.
///
/// `sqlite_schema` has no index: finding a row by name reads every row, which costs
/// milliseconds in a file of thousands of tables (one per chat, say), and the first use of
/// a model's table used to do it about ten times. A row found by its rowid costs a lookup.
/// The catalogue learns the rowids in one scan, then from the rows added since (a new row
/// takes a rowid above every other). SwiftLite's record of a table is found through the
/// record table's primary key.
///
/// Nothing the catalogue holds is taken on trust: the describing statement reads the row
/// at the rowid and keeps it only if it still names the table, and reads SwiftLite's
/// record afresh, in the same statement, so from the same state of the file. A change made
/// by this connection, another one or another process, a rollback, a VACUUM that renumbers
/// the rows: each shows at once, and a stale entry costs one more statement, never a wrong
/// answer. Changes that leave the schema alone (a record written by another connection)
/// are seen too.
///
/// What the pragmas said of a table (its columns, indexes and foreign keys) is kept with
/// the `PRAGMA schema_version` it was read at, which the same statement reads: while the
/// version is the file's, the pragmas are not run again, and a first use of the table
/// reads two rows by their keys. Any change to the schema moves the version, except one
/// undone by a rollback, after which another change can bring the same number back with
/// another schema; SQLite then prepares the describing statement again (a rollback of a
/// schema change expires every statement of the connection), and the catalogue, seeing
/// that, forgets every description and reads the table in full.
///
/// The one thing the catalogue vouches for without reading the table is a state of the
/// file (``Checkpoint``): the data version, and this connection's counts of the runs of
/// statements that write and of changed rows, when a description was read with no
/// uncommitted write of its own. The counts, and one statement that reads no table
/// (``confirms(_:in:)``), find whether any of them moved since; while none did, nothing a description depends on can have changed, and a model
/// table worked out from a description read then is used as it was (see
/// `ModelTableBlueprints`). Which changes move which number is in
/// `SchemaCatalogue+Checkpoint.swift`.
final class SchemaCatalogue {
  /// What each row of the describing statement belongs to (its first column).
  enum Part {
    /// The table's row of `sqlite_schema`, found by rowid: type, name, sql.
    static let stored = 0
    /// `pragma_table_xinfo`: name, type, notnull, dflt_value, pk, hidden.
    static let column = 1
    /// `pragma_index_list` joined with `pragma_index_info`: index name, origin, unique,
    /// partial, seqno, column name.
    static let index = 2
    /// `pragma_foreign_key_list`: id, seq, table, from, to, on_update, on_delete.
    static let foreignKey = 3
    /// The record table's row of `sqlite_schema`, by rowid: type, name, sql; or, when the
    /// catalogue knows of no record table, `pragma_table_xinfo` of it: NULL, its columns'
    /// names joined by commas (NULL when there is none).
    static let recordTable = 4
    /// SwiftLite's record: table_name, definition, swift_types, origin, table_sql.
    static let record = 5
    /// `PRAGMA schema_version` and `PRAGMA data_version`.
    static let schemaVersion = 6
    /// A TEMP table or view of the name: type, name.
    static let temporary = 7
  }

  /// Folded name (see ``key(_:)``) -> rowid in `sqlite_schema`, for tables and views.
  private var rowIDs: [[UInt8]: Int64] = [:]
  /// The greatest rowid read so far; 0 before the first scan.
  private var lastRowID: Int64 = 0
  private var isLoaded = false
  /// The record table's columns, `nil` when the file has none.
  private(set) var recordColumns: [String]?
  /// The record table's row of `sqlite_schema` when the catalogue last read it: where it
  /// is and what its CREATE statement said (which decides its columns).
  private var recordTableRow: (rowID: Int64, sql: String?)?

  /// The tables and views described so far, by the bytes of the name asked for: the
  /// description, the rowid of the row it was read from, and `PRAGMA schema_version` then.
  private var described:
    [ExactText: (schemaVersion: Int64, rowID: Int64, description: TableDescription)] = [:]
  /// The describing statements (see ``describingSQL(_:)``) by the record table's columns
  /// they read and their form, kept by the catalogue (not the connection's cache) with
  /// how many times SQLite had prepared each again when it last ran: SQLite does so when
  /// the schema a statement was prepared for is no longer the file's, or a rollback undid
  /// a change to it. Few: three per shape of the record table.
  private var statements:
    [(columns: [String]?, form: Form, statement: Statement, preparations: Int32)] = []
  /// What the last shapes of table asked for (schemas but for their names and indexes)
  /// write after `CREATE TABLE "name"`, the last one first (see
  /// ``createTableSQL(of:as:)``).
  var createTableBodies: [(shape: TableSchema, body: String)] = []

  /// The number of the last description read (see ``TableDescription/reading``).
  private var readings: UInt64 = 0

  /// The state of the file last confirmed (see ``Checkpoint``), `nil` when none can be
  /// vouched for.
  @exclusivity(unchecked) var checkpoint: Checkpoint?
  /// Which run of unchanged states the checkpoint belongs to: moved each time a check
  /// finds that something may have changed (see ``observe(schemaVersion:dataVersion:in:)``).
  var generation: UInt64 = 0
  /// The statement that reads the versions a checkpoint is made of.
  var checkStatement: Statement?
  /// The check statement of a connection where C code may write uncounted
  /// (``versionsCheckSQL``).
  var versionsCheckStatement: Statement?

  /// The most descriptions kept: past that, they are all forgotten and read again.
  static let describedCapacity = 16_384

  private init() {}

  /// The catalogue of `db`, made on first use.
  static func of(_ db: Connection) -> SchemaCatalogue {
    let slot = db.attachments(of: SchemaCatalogue.self)
    if let catalogue = slot.value(for: slotKey) { return catalogue }
    let catalogue = SchemaCatalogue()
    slot.set(catalogue, for: slotKey)
    return catalogue
  }

  private static let slotKey = AttachmentKey(type: ObjectIdentifier(SchemaCatalogue.self), name: "")

  /// Describes `table` as it is now on `db`, in one statement when the catalogue knows
  /// where its row is and the table is as `expected` writes it, or none is expected (two
  /// when the table is new to it or is not as expected, rarely three).
  /// - Parameter expected: the schema the caller expects (a model's): when the table's
  ///   CREATE statement is, byte for byte, the one this schema writes, its columns, keys and
  ///   options are taken from it instead of asking the pragmas (SQLite derived its own from
  ///   that very text); its indexes and SwiftLite's record are read as always.
  /// - Throws: `SQLiteError` if reading fails.
  static func describe(_ table: String, expecting expected: TableSchema? = nil, in db: Connection)
    throws -> TableDescription
  {
    let catalogue = of(db)
    let expectation = expected.map { ($0, catalogue.createTableSQL(of: $0, as: table)) }
    let description = try catalogue.describe(table, expecting: expectation, in: db)
    // The pragmas were skipped for a statement that is not the expected one: impossible
    // in one statement, but then the table is described again in full.
    guard description.kind != .table || description.schema != nil else {
      return try catalogue.describe(table, expecting: nil, in: db)
    }
    return description
  }

  private func describe(
    _ table: String, expecting expected: (schema: TableSchema, sql: String)?, in db: Connection
  ) throws -> TableDescription {
    if !isLoaded { _ = try scan(db, after: 0, lookingFor: nil) }
    let key = Self.key(table)
    let name = ExactText(table)
    var parts: TableDescription.Parts
    var attempt = 0
    // The light statement first, for a table the catalogue knows; the gated one when the
    // table is not as the model writes it.
    var lightRefused = false
    // A record table made, changed or dropped since the catalogue looked is read again,
    // once or twice (another connection could change it in between).
    while true {
      var kept: (schemaVersion: Int64, rowID: Int64, description: TableDescription)?
      let moved: Bool
      let form: Form =
        expected == nil
        ? .full : !lightRefused && recordColumns != nil && rowIDs[key] != nil ? .light : .gated
      do {
        let statement = try describingStatement(form, in: db)
        kept = described[name]
        (parts, moved) = try read(
          statement,
          [table, rowIDs[key], recordTableRow?.rowID, expected?.sql, kept?.schemaVersion],
          name: table)
      } catch is SQLiteError where recordColumns != nil && attempt < 2 {
        // The record table went away since the catalogue looked.
        attempt += 1
        _ = try scan(db, after: lastRowID, lookingFor: nil)
        continue
      }
      if moved { described = [:] }
      if let kept, parts.schemaVersion == kept.schemaVersion {
        // The schema version is the one the table was described at: the pragmas did not
        // run, and the description stands, with the record just read. Unless SQLite
        // prepared the statement again: a rollback brings a schema version back with
        // another schema, so the table is read in full.
        if !moved, kept.description.isDescribed(by: parts.stored) {
          var reused = kept.description.reused(
            record: parts.record, hiddenBy: parts.temporary, expecting: expected)
          reused.checkpointGeneration = observe(
            schemaVersion: parts.schemaVersion, dataVersion: parts.dataVersion, in: db)
          return reused
        }
        described[name] = nil
        continue
      }
      if !recordTableIsAsSeen(parts) && attempt < 2 {
        attempt += 1
        _ = try scan(db, after: lastRowID, lookingFor: nil)
        continue
      }
      if form == .light, let rowID = parts.storedRowID { rowIDs[key] = rowID }
      if form == .light, let expected, !Self.lightSuffices(parts, table, expected.sql) {
        lightRefused = true
        continue
      }
      break
    }
    var stored = parts.stored
    if stored == nil && parts.hasColumns {
      // The catalogue does not know the row (a table made since it looked) or the row now
      // holds something else (the table was dropped, renamed, or the file vacuumed): rows
      // added since the last scan, then every row.
      stored = try scan(db, after: lastRowID, lookingFor: table)
      if stored == nil {
        rowIDs = [:]
        stored = try scan(db, after: 0, lookingFor: table)
      }
    }
    if stored == nil { rowIDs[key] = nil }
    var description = TableDescription(
      name: table, parts: parts, stored: stored, expected: expected)
    readings &+= 1
    description.reading = readings
    description.checkpointGeneration = observe(
      schemaVersion: parts.schemaVersion, dataVersion: parts.dataVersion, in: db)
    if description.kind != .missing, let version = parts.schemaVersion, let rowID = rowIDs[key] {
      if described.count >= Self.describedCapacity { described = [:] }
      described[name] = (version, rowID, description)
    }
    return description
  }

  /// The describing statement of `form` for the record table as the catalogue knows it,
  /// prepared on first use. A statement new to the catalogue has seen no change it could
  /// report: what was described before it is then forgotten.
  /// - Returns: its place in ``statements``.
  private func describingStatement(_ form: Form, in db: Connection) throws -> Int {
    if let index = statements.firstIndex(where: {
      $0.form == form && $0.columns == recordColumns
    }) {
      return index
    }
    described = [:]
    if statements.count >= 12 { statements = [] }
    let statement = try db.prepare(describingSQL(form))
    statements.append((recordColumns, form, statement, statement.timesPrepared))
    return statements.count - 1
  }

  /// Whether what the light statement read describes `table` (see ``Form/light``): no
  /// table or view of that name (neither at the rowid nor found by name), or a table
  /// spelled as asked, whose CREATE statement is, byte for byte, `expectedSQL`, with a
  /// record under the name asked for. Otherwise the gated statement reads the rest.
  static func lightSuffices(_ parts: TableDescription.Parts, _ table: String, _ expectedSQL: String)
    -> Bool
  {
    guard let stored = parts.stored else { return true }
    guard stored.type == "table", parts.record != nil,
      stored.name.hasSameBytes(as: table), let sql = stored.sql
    else { return false }
    return sql.hasSameBytes(as: expectedSQL)
  }

  /// Runs the describing statement at `index` of ``statements`` with `arguments`.
  /// - Returns: its rows, and whether SQLite prepared it again since it last ran.
  private func read(_ index: Int, _ arguments: StatementArguments, name: String) throws
    -> (TableDescription.Parts, moved: Bool)
  {
    let statement = statements[index].statement
    var parts = TableDescription.Parts()
    do {
      try statement.bind(arguments)
      try statement.forEachRow { try parts.read($0, name: name) }
    } catch {
      statements.remove(at: index)
      throw error
    }
    let preparations = statement.timesPrepared
    let moved = statements[index].preparations != preparations
    statements[index].preparations = preparations
    return (parts, moved)
  }

  /// Whether the record table is as the catalogue last saw it, and the describing
  /// statement read the records with the right columns.
  private func recordTableIsAsSeen(_ parts: TableDescription.Parts) -> Bool {
    guard let recordTableRow else { return parts.recordTable == nil }
    guard let seen = parts.recordTable, seen.type == "table",
      seen.name.hasSameBytes(as: AutoMigration.recordTable)
    else { return false }
    switch (seen.sql, recordTableRow.sql) {
    case (nil, nil): return true
    case (let now?, let then?): return now.hasSameBytes(as: then)
    default: return false
    }
  }

  /// Reads the rows of `sqlite_schema` with a rowid above `after` (and the record table's
  /// columns), and returns the row of `table` if among them.
  private func scan(_ db: Connection, after: Int64, lookingFor table: String?) throws
    -> (type: String, name: String, sql: String?)?
  {
    var found: (type: String, name: String, sql: String?)?
    var columns: [String] = []
    if after == 0 { lastRowID = 0 }
    // The record table's row is read wherever it is: it may be older than `after`.
    let record = "'" + AutoMigration.recordTable + "'"  // a string: the name as a value
    var recordRow: (rowID: Int64, sql: String?)?
    try db.forEachRow(
      "SELECT rowid, type, name, CASE WHEN type IN ('table', 'view') AND name = ?2 COLLATE NOCASE"
        + " THEN sql END FROM sqlite_schema WHERE rowid > ?1"
        + " UNION ALL SELECT NULL, NULL, name, NULL FROM pragma_table_xinfo(" + record
        + ", 'main')"
        + " UNION ALL SELECT rowid, 'record table', name, sql FROM sqlite_schema"
        + " WHERE rowid = ?3 OR (?3 IS NULL AND type = 'table' AND name = " + record + ")",
      [after, table, recordTableRow?.rowID]
    ) { row in
      let name = try row.get(String.self, at: 2)
      guard let rowID = try row.get(Int64?.self, at: 0) else {
        columns.append(name)
        return
      }
      let type = try row.get(String.self, at: 1)
      if type == "record table" {
        if Self.sameName(name, AutoMigration.recordTable) {
          recordRow = (rowID, try row.get(String?.self, at: 3))
        }
        return
      }
      lastRowID = max(lastRowID, rowID)
      guard type == "table" || type == "view" else { return }
      rowIDs[Self.key(name)] = rowID
      if let table, Self.sameName(name, table) {
        found = (type, name, try row.get(String?.self, at: 3))
      }
    }
    if !columns.isEmpty && recordRow == nil {
      // The record table is not where it was (made again since): found by name.
      recordRow = try db.queryFirst(
        "SELECT rowid, sql FROM sqlite_schema WHERE type = 'table' AND name = " + record
      ).map { (try $0.get(Int64.self, at: 0), try $0.get(String?.self, at: 1)) }
    }
    recordColumns = columns.isEmpty ? nil : columns
    recordTableRow = columns.isEmpty ? nil : recordRow
    isLoaded = true
    return found
  }

  /// A name's bytes with ASCII letters lower-cased: equal for the names SQLite takes for
  /// the same (it ignores ASCII case only, and compares bytes: a `String` key would take
  /// canonically equivalent names for one).
  static func key(_ name: String) -> [UInt8] { Array(name.asciiCaseFolded.string.utf8) }

  /// Whether SQLite takes two names for the same (see ``key(_:)``).
  static func sameName(_ a: String, _ b: String) -> Bool {
    func folded(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    return a.utf8.elementsEqual(b.utf8) { folded($0) == folded($1) }
  }
}
