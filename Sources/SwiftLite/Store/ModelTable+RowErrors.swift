// A model that does not decode from a row says which row: its key is added to the error.
extension ModelTable {
  /// Runs `body`, a read of `statement`'s rows as models, adding to a `DecodingError` the
  /// row it happened in, by its key, so that the bad value can be found.
  /// - Throws: what `body` throws.
  func namingTheRow<T>(of statement: Statement, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DecodingError {
      throw located(error, in: statement.row)
    }
  }

  /// `error`, with the row it happened in added by its key (when the row has it).
  func located(_ error: DecodingError, in row: Row) -> DecodingError {
    let layout = row.layout
    var key: [String] = []
    for position in keyPositions {
      let property = mapping.properties[position]
      guard
        let index = layout.index(of: property) ?? layout.index(of: mapping.columns[position]),
        let value = try? row.value(at: index)
      else { return error }
      key.append(property + " = " + value.description)
    }
    guard !key.isEmpty else { return error }
    let place = " (table " + name + ", the row with " + key.joined(separator: " and ") + ")"
    func moved(_ context: DecodingError.Context) -> DecodingError.Context {
      .init(
        codingPath: context.codingPath, debugDescription: context.debugDescription + place,
        underlyingError: context.underlyingError)
    }
    switch error {
    case .typeMismatch(let type, let context): return .typeMismatch(type, moved(context))
    case .valueNotFound(let type, let context): return .valueNotFound(type, moved(context))
    case .keyNotFound(let codingKey, let context): return .keyNotFound(codingKey, moved(context))
    case .dataCorrupted(let context): return .dataCorrupted(moved(context))
    @unknown default: return error
    }
  }
}
