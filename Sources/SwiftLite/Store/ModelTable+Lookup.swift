// A mapped model's lookup by primary key keeps its own prepared statement on the table, as
// its insert keeps its writer: a lookup then finds it without going through the
// connection's statement cache (no search by SQL text, no run to begin and end), and the
// statement goes when the table does (a schema change, the table evicted, the connection
// closed), exactly as the writers do.
extension ModelTable {
  /// The statement of a lookup by primary key (``findSQL``), owned by this table, with the
  /// map of its columns for the model. Immutable but for ``isInUse``: reading its parts
  /// costs no reference counting.
  final class Lookup {
    let statement: Statement
    /// The statement's SQL, for the errors of a connection that cannot run it.
    let sql: String
    /// Where the model's positions are among the statement's columns, for ``layout``.
    let columns: ColumnMap
    let layout: ColumnLayout
    /// Whether a lookup is running it now: a lookup started inside another (from a
    /// model's `init(row:)`) goes through the statement cache instead.
    var isInUse = false

    init(_ statement: Statement, table: ModelTable) {
      self.statement = statement
      sql = statement.sql
      columns = table.readColumns(of: statement)
      layout = statement.layout
    }

    /// Gives the statement the connection's owner, when it has another: a statement of
    /// the lookup, not held apart, so that the caller retains nothing for it.
    func adopt(_ owner: ConnectionOwner?) {
      if statement.owner !== owner { statement.owner = owner }
    }

    /// Binds `key`, steps once and reads the row as a model, then resets the statement.
    /// The caller checked that the connection may run it and that it is not in use.
    /// - Throws: `SQLiteError`; what the model's `init(row:)` throws.
    func read<M>(_ mapped: any RowMapped.Type, key: SQLiteValue, table: ModelTable, as: M.Type)
      throws -> M?
    {
      isInUse = true
      defer {
        isInUse = false
        statement.resetNow()
      }
      try statement.bindKey(key)
      guard try statement.step() else { return nil }
      do {
        // A step may prepare the statement again, with other columns: its map is then made
        // for the new layout, and the lookup made anew with it once this read is done.
        if statement.hasLayout(layout) {
          return try mapped.readRow(statement, columns: columns, as: M.self)
        }
        let model = try mapped.readRow(
          statement, columns: table.readColumns(of: statement), as: M.self)
        table.keptLookup = Lookup(statement, table: table)
        return model
      } catch let error as DecodingError {
        // Named while the statement still stands on the row.
        throw table.located(error, in: statement.row)
      }
    }
  }

  /// The table's lookup statement, prepared on first use.
  /// - Throws: `SQLiteError` when the connection cannot prepare it.
  // Inlined into the lookup, the preparation out of line: most calls find it kept.
  @inline(__always) func lookup(_ db: Connection) throws -> Lookup {
    if let keptLookup { return keptLookup }
    return try makeLookup(db)
  }

  /// Prepares the table's lookup statement and keeps it.
  /// - Throws: `SQLiteError` when the connection cannot prepare it.
  @inline(never) private func makeLookup(_ db: Connection) throws -> Lookup {
    let made = Lookup(try db.prepare(findSQL), table: self)
    keptLookup = made
    return made
  }
}
