/// Why ``ModelGenerator`` could not generate models.
public enum ModelGeneratorError: Error, Equatable, CustomStringConvertible {
  /// The database file does not exist (a generator never creates one).
  case noSuchFile(String)
  /// A requested table is not in the database.
  case noSuchTable(String)

  /// A one-line explanation.
  public var description: String {
    switch self {
    case .noSuchFile(let path): return "no database file at \(path)"
    case .noSuchTable(let name): return "no table named '\(name)' in the database"
    }
  }
}
