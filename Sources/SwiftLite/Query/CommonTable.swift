/// A common table expression: a named query that a statement reads as a table, written
/// before it (`WITH name AS (...)`). A recursive one reads itself, which walks a tree (folders
/// in folders, replies to replies) in one statement.
///
/// ```swift
/// struct Folder: Model { var id: Int64?; var parentID: Int64?; var name: String; static let primaryKey = ["id"] }
/// struct Note: Model { var id: Int64?; var folderID: Int64; var title: String; static let primaryKey = ["id"] }
/// let db = try Connection.inMemory()
/// try db.save([Folder(id: 1, parentID: nil, name: "Work"), Folder(id: 2, parentID: 1, name: "Plans")])
/// try db.save(Note(id: 1, folderID: 2, title: "Roadmap"))
/// let rootID: Int64 = 1
///
/// let subtree = CommonTable(recursive: "subtree", """
///   SELECT * FROM folder WHERE id = \(rootID)
///   UNION ALL
///   SELECT folder.* FROM folder JOIN subtree ON folder.parentID = subtree.id
///   """)
/// let folders = try Folder.all(from: subtree).order(Column("name")).fetchAll(db)
/// let notes = try Note.all().with(subtree)
///   .filter(Column("folderID").in(subtree, column: "id")).fetchAll(db)
/// ```
///
/// Its SQL is yours, its interpolated values bound, and its name is quoted. Rows read as a
/// model need the model's columns, named as the model's table names them (`folder.*`
/// does). `CommonTable` is `Sendable`.
public struct CommonTable: Sendable {
  /// The name the statement reads it by.
  public let name: String
  /// Whether it reads itself (`WITH RECURSIVE`).
  public let isRecursive: Bool
  private let body: Body

  private enum Body: Sendable {
    case sql(SQL)
    case query(any SubqueryRendering)
  }

  /// A common table of a query you write.
  /// - Parameters:
  ///   - name: the name the statement reads it by (quoted where written).
  ///   - sql: its query, values interpolated as bound parameters.
  public init(_ name: String, _ sql: SQL) {
    self.name = name
    body = .sql(sql)
    isRecursive = false
  }

  /// A recursive common table: its query may read `name` itself (typically an initial
  /// `SELECT`, `UNION ALL`, and a `SELECT` joining the table to `name`).
  /// - Parameters:
  ///   - name: the name the statement reads it by, and its query refers to.
  ///   - sql: its query, values interpolated as bound parameters.
  public init(recursive name: String, _ sql: SQL) {
    self.name = name
    body = .sql(sql)
    isRecursive = true
  }

  /// A common table of a model query's rows.
  /// - Parameters:
  ///   - name: the name the statement reads it by.
  ///   - query: the query, written as it would run (a missing table selects nothing).
  public init<M: Model>(_ name: String, _ query: ModelQuery<M>) {
    self.name = name
    body = .query(query)
    isRecursive = false
  }

  /// `WITH [RECURSIVE] "a" AS (...), "b" AS (...) ` for `tables`, or nothing; a model
  /// query's table is resolved in `context`.
  static func clause(_ tables: [CommonTable], in context: SQLContext) throws -> SQL {
    guard !tables.isEmpty else { return SQL("") }
    var sql = SQL(tables.contains(where: \.isRecursive) ? "WITH RECURSIVE " : "WITH ")
    for (index, table) in tables.enumerated() {
      if index > 0 { sql.text += ", " }
      sql.text += SQLIdentifier.quote(table.name) + " AS ("
      switch table.body {
      case .sql(let body): sql.append(body)
      case .query(let query): sql.append(try query.subquerySQL(in: context))
      }
      sql.text += ")"
    }
    sql.text += " "
    return sql
  }
}
