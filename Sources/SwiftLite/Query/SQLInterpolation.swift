/// The string interpolation of ``SQL``: values become bound parameters; identifiers,
/// expressions and raw text each have a form of their own.
public struct SQLInterpolation: StringInterpolationProtocol, Sendable {
  var text: String
  var arguments: [(any SQLiteValueConvertible)?]
  /// The `?` of each `\(value)`, for the check of whole ORDER BY and GROUP BY terms.
  var valueParameters: [SQL.ValueParameter] = []

  /// Space for a literal of this size.
  public init(literalCapacity: Int, interpolationCount: Int) {
    text = ""
    text.reserveCapacity(literalCapacity + 2 * interpolationCount)
    arguments = []
    arguments.reserveCapacity(interpolationCount)
  }

  /// Appends the literal part as SQL text.
  public mutating func appendLiteral(_ literal: String) {
    text += literal
  }

  /// `?`, bound to the value (`nil` binds NULL).
  ///
  /// As a whole `ORDER BY`, `GROUP BY` or `PARTITION BY` term, a value would be a constant:
  /// running the SQL then throws `.misuse` (see ``SQL``). A column's name is
  /// `\(identifier: name)`.
  public mutating func appendInterpolation(_ value: some SQLiteValueConvertible) {
    appendValue(value)
  }

  /// `?`, bound to the optional's value, or NULL (as a value, see above).
  public mutating func appendInterpolation<V: SQLiteValueConvertible>(_ value: V?) {
    appendValue(value)
  }

  /// `?`, bound to the query's text: the FTS5 syntax that ``FullTextQuery`` built, for the
  /// right side of `MATCH`.
  public mutating func appendInterpolation(_ query: FullTextQuery) {
    appendValue(query.text)
  }

  /// `?`, bound to `String(describing: value)`, for a value of a type that is not
  /// ``SQLiteValueConvertible``: it is bound, never spliced into the text.
  ///
  /// Without this form such a literal would not be `SQL`, and Swift would take it for a
  /// `String`, spliced as it is into the SQL by the `String` overload of the call: what the
  /// value holds would become SQL. Deprecated, so that the compiler says so: conform the
  /// type to ``SQLiteValueConvertible``, or interpolate `String(describing:)` yourself.
  @available(
    *, deprecated,
    message:
      "not SQLiteValueConvertible: bound as String(describing:); conform the type to SQLiteValueConvertible, or interpolate String(describing: value)"
  )
  public mutating func appendInterpolation<T>(_ value: T) {
    appendValue(String(describing: value))
  }

  private mutating func appendValue(_ value: (any SQLiteValueConvertible)?) {
    valueParameters.append(
      SQL.ValueParameter(offset: text.utf8.count, argument: arguments.count))
    text += "?"
    arguments.append(value)
  }

  /// `(?, ?, ?)`, one parameter per element, for `IN`; `()` for an empty array, which
  /// SQLite accepts: `x IN ()` is false for every row and `x NOT IN ()` true. (A `[UInt8]`
  /// is a list too: interpolate `Data(bytes)` to bind bytes as one BLOB.)
  public mutating func appendInterpolation<V: SQLiteValueConvertible>(_ values: [V]) {
    appendList(values)
  }

  /// `(?, ?, ?)`, one parameter per element, for `IN`; `()` for an empty set.
  public mutating func appendInterpolation<V: SQLiteValueConvertible>(_ values: Set<V>) {
    appendList(values)
  }

  private mutating func appendList<S: Sequence>(_ values: S)
  where S.Element: SQLiteValueConvertible {
    text += "("
    var first = true
    for value in values {
      text += first ? "?" : ", ?"
      first = false
      arguments.append(value)
    }
    text += ")"
  }

  /// The name quoted as an identifier (a table, a column, an index): `"my ""table"""`.
  /// Whatever the name holds stays a name.
  public mutating func appendInterpolation(identifier name: String) {
    text += SQLIdentifier.quote(name)
  }

  /// The column, quoted (and qualified by its table when it has one).
  public mutating func appendInterpolation(_ column: Column) {
    text += column.quoted
  }

  /// The column, quoted: the same as `\(column)`, for symmetry with `\(identifier:)`.
  public mutating func appendInterpolation(column: Column) {
    text += column.quoted
  }

  /// The expression's SQL, its values bound. Columns are written as named: the expression
  /// is not resolved against a model's mapping here (the query interface does that).
  public mutating func appendInterpolation(_ expression: SQLExpression) {
    appendInterpolation((try? expression.sql(in: .verbatim())) ?? SQL("NULL"))
  }

  /// Another fragment: its text here, its arguments bound in place.
  public mutating func appendInterpolation(_ sql: SQL) {
    valueParameters += sql.valueParameters.map {
      $0.shifted(by: text.utf8.count, arguments.count)
    }
    text += sql.text
    arguments += sql.arguments
  }

  /// The text as it is, spliced: only for SQL you wrote yourself, never for input.
  public mutating func appendInterpolation(raw text: String) {
    self.text += text
  }
}
