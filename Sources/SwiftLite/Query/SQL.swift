/// SQL text with its arguments, written by string interpolation in which every value is a
/// bound parameter, never spliced into the text.
///
/// ```swift
/// let db = try Connection.inMemory()
/// try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT)")
///
/// let name = "O'Brien"
/// let ids: [Int64] = [1, 2, 3]
/// let rows = try db.query("SELECT * FROM user WHERE name = \(name) AND id IN \(ids)")
/// // SELECT * FROM user WHERE name = ? AND id IN (?, ?, ?)   with ["O'Brien", 1, 2, 3]
/// ```
///
/// What an interpolation writes into the text depends on its form, so that nothing a user
/// typed can become SQL by accident:
///
/// | interpolation | written as |
/// |---|---|
/// | `\(value)` (any ``SQLiteValueConvertible``, optionals included) | `?`, bound to the value |
/// | `\(array)`, `\(set)` of such values | `(?, ?, ?)`; an empty one `()`, which SQLite accepts: `x IN ()` is false, `x NOT IN ()` true |
/// | `\(identifier: name)` | the name, quoted as an identifier |
/// | `\(column)` (a ``Column``), `\(expression)` (an ``SQLExpression``) | the quoted column or the expression, its values bound |
/// | `\(sql)` (another `SQL`) | its text, its arguments appended in place |
/// | `\(raw: text)` | the text as it is: only for SQL you wrote yourself |
///
/// A string literal without interpolations is plain SQL. `SQL` is `Sendable`: its
/// arguments are values of `Sendable` types.
///
/// A `\(value)` that is a whole `ORDER BY`, `GROUP BY` or `PARTITION BY` term (`ORDER BY
/// \(column)`, `GROUP BY a, \(x)`) would be a constant, and SQLite would order or group by
/// it without a word: the call that runs such SQL throws `SQLiteError` `.misuse` instead.
/// Interpolate a column's name as `\(identifier: name)` or a ``Column``. A value inside a
/// term's expression (`ORDER BY CASE WHEN a = \(x) THEN 0 ELSE 1 END`) stays a value. The
/// check reads the whole text when the SQL runs (when ``statementArguments`` is read), so
/// fragments may be put together in any order: `ORDER BY \(x)` followed by an appended
/// ` = b DESC` is an expression. ``arguments`` are the values as interpolated, unchecked.
///
/// A value of a type that is not ``SQLiteValueConvertible`` is bound as its
/// `String(describing:)`, with a deprecation warning (see ``SQLInterpolation``): it is never
/// spliced into the text.
public struct SQL: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// The SQL text, with a `?` for each argument.
  public internal(set) var text: String {
    get { storedText }
    // Another change than an append moves the text under the parameters found.
    set {
      if !valueParameters.isEmpty, !newValue.utf8.starts(with: storedText.utf8) {
        valueParameters = []
      }
      storedText = newValue
    }
    // Changed in place (`text += ...`), without a copy of the text kept to compare with: an
    // append keeps every parameter's `?` where it was, another change is told by a shorter
    // text or a parameter no longer on a `?`.
    _modify {
      let count = storedText.utf8.count
      yield &storedText
      if !valueParameters.isEmpty, !keepsParameters(ofTextCount: count) {
        valueParameters = []
      }
    }
  }
  /// The values bound to the text's `?` parameters, in order, as interpolated (the check
  /// of whole ORDER BY and GROUP BY terms applies to ``statementArguments``).
  public internal(set) var arguments: [(any SQLiteValueConvertible)?] {
    get { storedArguments }
    // Another change than an append moves the arguments under the parameters found.
    set {
      if newValue.count < storedArguments.count { valueParameters = [] }
      storedArguments = newValue
    }
    _modify {
      let count = storedArguments.count
      yield &storedArguments
      if storedArguments.count < count { valueParameters = [] }
    }
  }
  /// The storage of ``text``: appended to in place, so that SQL built by many appends
  /// takes time in proportion to its length.
  private var storedText: String
  /// The storage of ``arguments``, appended to in place.
  private var storedArguments: [(any SQLiteValueConvertible)?]

  /// Whether the text changed in place from one of `count` UTF-8 bytes is no shorter and
  /// still has a `?` at the last parameter's offset (the parameters are in the order of
  /// the text: an append keeps them all).
  private func keepsParameters(ofTextCount count: Int) -> Bool {
    let utf8 = storedText.utf8
    guard utf8.count >= count else { return false }
    guard let last = valueParameters.last else { return true }
    return last.offset < count
      && utf8[utf8.index(utf8.startIndex, offsetBy: last.offset)] == UInt8(ascii: "?")
  }

  /// The `?` written by `\(value)` interpolations, checked when the SQL runs for whole
  /// ORDER BY or GROUP BY terms (see ``ConstantTermCheck``).
  var valueParameters: [ValueParameter] = []

  /// A `?` of a `\(value)` interpolation: where it is in the text and which argument it binds.
  struct ValueParameter: Sendable {
    /// The UTF-8 offset of the `?` in ``text``.
    var offset: Int
    /// Its index in ``arguments``.
    var argument: Int

    /// The same parameter in a text and arguments that come after others.
    func shifted(by text: Int, _ arguments: Int) -> ValueParameter {
      ValueParameter(offset: offset + text, argument: argument + arguments)
    }
  }

  /// SQL written by hand, with `?` parameters bound to `arguments` in order.
  ///
  /// ```swift
  /// let condition = SQL("age BETWEEN ? AND ?", [18, 65])
  /// ```
  public init(_ text: String, _ arguments: [(any SQLiteValueConvertible)?] = []) {
    storedText = text
    storedArguments = arguments
  }

  /// Plain SQL from a literal without interpolations.
  public init(stringLiteral value: String) {
    self.init(value)
  }

  /// SQL from an interpolated literal: see ``SQLInterpolation`` for the forms.
  public init(stringInterpolation: SQLInterpolation) {
    self.init(stringInterpolation.text, stringInterpolation.arguments)
    valueParameters = stringInterpolation.valueParameters
  }

  /// The statement arguments for ``arguments``, as every call that runs the SQL binds them:
  /// a `\(value)` that is a whole `ORDER BY`, `GROUP BY` or `PARTITION BY` term of the text
  /// binds a value that throws `SQLiteError` `.misuse` instead (see ``SQL``).
  public var statementArguments: StatementArguments {
    StatementArguments(ConstantTermCheck.checkedArguments(of: self))
  }

  /// Whether the text is empty.
  public var isEmpty: Bool { text.isEmpty }

  /// The text followed by the number of bound arguments (their values are left out: they
  /// may be private data).
  public var description: String {
    arguments.isEmpty
      ? text : text + " (\(arguments.count) argument\(arguments.count == 1 ? "" : "s"))"
  }

  /// Appends another fragment: its text and its arguments.
  /// Amortized in time to the length of `other`: the text, the arguments and the
  /// parameters grow in place.
  public mutating func append(_ other: SQL) {
    let (textCount, argumentCount) = (storedText.utf8.count, storedArguments.count)
    storedText += other.text
    storedArguments += other.arguments
    valueParameters += other.valueParameters.map { $0.shifted(by: textCount, argumentCount) }
  }

  /// The two fragments, one after the other.
  public static func + (lhs: SQL, rhs: SQL) -> SQL {
    var result = lhs
    result.append(rhs)
    return result
  }

  /// The fragments joined by `separator` (such as `", "` or `" AND "`).
  public static func joined(_ parts: [SQL], separator: String) -> SQL {
    var result = SQL("")
    for (index, part) in parts.enumerated() {
      if index > 0 { result.append(SQL(separator)) }
      result.append(part)
    }
    return result
  }
}
