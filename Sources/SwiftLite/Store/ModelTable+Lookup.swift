// A mapped model's lookup by primary key keeps its own prepared statement on the table, as
// its insert keeps its writer: a lookup then finds it without going through the
// connection's statement cache (no search by SQL text, no run to begin and end), and the
// statement goes when the table does (a schema change, the table evicted, the connection
// closed), exactly as the writers do.
extension ModelTable {
  /// The statement of a lookup by primary key (``findSQL``), owned by this table.
  final class Lookup {
    let statement: Statement
    /// The statement's SQL, for the errors of a connection that cannot run it.
    let sql: String
    /// Whether a lookup is running it now: a lookup started inside another (from a
    /// model's `init(row:)`) goes through the statement cache instead.
    var isInUse = false
    /// Where the model's positions are among the statement's columns, and the layout that
    /// map was made for (see ``columns(_:)``).
    private var readMap: ColumnMap?
    private var readLayout: ColumnLayout?

    init(_ statement: Statement) {
      self.statement = statement
      sql = statement.sql
    }

    /// The map of the statement's columns for `table`'s model, read after a step (which
    /// may have prepared the statement again, with other columns): the one kept while the
    /// layout is the same.
    func columns(_ table: ModelTable) -> ColumnMap {
      if let readMap, let readLayout, statement.hasLayout(readLayout) { return readMap }
      let map = table.readColumns(of: statement)
      readMap = map
      readLayout = statement.layout
      return map
    }
  }

  /// The table's lookup statement, prepared on first use.
  /// - Throws: `SQLiteError` when the connection cannot prepare it.
  func lookup(_ db: Connection) throws -> Lookup {
    if let keptLookup { return keptLookup }
    let made = Lookup(try db.prepare(findSQL))
    keptLookup = made
    return made
  }
}
