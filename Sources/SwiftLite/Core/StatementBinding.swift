// Binding values whose types are known at compile time: no array, no existential and, once
// the compiler has specialized a call for its types, no protocol call per value.
// `bind(values:)` is written out for 1 to 10 values, because the compiler specializes those
// fully (keep the overloads alike when editing); more values take the parameter-pack
// overload, correct for any count but compiled less well by today's compiler.

extension Statement {
  /// Binds one value to the parameter at a 1-based index, as the `bind(_:at:)` that takes an
  /// existential does, for a value of a static type: without wrapping it first.
  /// - Throws: `SQLiteError` (`.range`) for an index outside 1...``parameterCount``;
  ///   `.mismatch` for a value SQLite cannot store.
  @inlinable
  public func bind<V: SQLiteValueConvertible>(_ value: V, at index: Int) throws {
    guard index >= 1, index <= parameterCount else { throw indexError(index) }
    try bindConverted(value, at: Int32(index))
  }

  /// Binds `values` to parameters 1, 2, 3, ... in order: the fast way to run one statement
  /// many times. Unlike ``bind(_:)``, it builds no array and no existential per value.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE point(x REAL, y REAL, label TEXT)")
  /// let points: [(x: Double, y: Double, label: String?)] = [(0, 1, "origin"), (2, 3, nil)]
  ///
  /// let insert = try db.prepare("INSERT INTO point(x, y, label) VALUES (?, ?, ?)")
  /// for point in points {
  ///   try insert.bind(values: point.x, point.y, point.label)  // label: String?
  ///   try insert.run()
  /// }
  /// ```
  ///
  /// Each value has a static type, so a `nil` literal needs one (`String?.none`), and an
  /// array literal is a single value (a BLOB when it is `[UInt8]`): use ``bind(_:)`` for an
  /// array of arguments. Up to ten values are bound by overloads the compiler specializes
  /// fully; this one takes any number.
  /// - Throws: `SQLiteError` (`.range`) when the number of values differs from
  ///   ``parameterCount``; `.mismatch` for a value SQLite cannot store.
  @inlinable
  public func bind<each V: SQLiteValueConvertible>(values: repeat each V) throws {
    var count = 0
    for _ in repeat (each V).self { count += 1 }
    guard count == parameterCount else { throw countError(count) }
    // A pack expansion rather than a for-in loop over the values, which would copy each.
    var index: Int32 = 0
    repeat try bindNext(each values, after: &index)
  }

  /// Binds 1 value to parameter 1: see ``bind(values:)``.
  @inlinable
  public func bind<A: SQLiteValueConvertible>(
    values a: A
  ) throws {
    guard parameterCount == 1 else { throw countError(1) }
    try bindConverted(a, at: 1)
  }

  /// Binds 2 values to parameters 1...2: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<A: SQLiteValueConvertible, B: SQLiteValueConvertible>(
    values a: A, _ b: B
  ) throws {
    guard parameterCount == 2 else { throw countError(2) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
  }

  /// Binds 3 values to parameters 1...3: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<A: SQLiteValueConvertible, B: SQLiteValueConvertible, C: SQLiteValueConvertible>(
    values a: A, _ b: B, _ c: C
  ) throws {
    guard parameterCount == 3 else { throw countError(3) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
    try bindConverted(c, at: 3)
  }

  /// Binds 4 values to parameters 1...4: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<
    A: SQLiteValueConvertible, B: SQLiteValueConvertible, C: SQLiteValueConvertible,
    D: SQLiteValueConvertible
  >(
    values a: A, _ b: B, _ c: C, _ d: D
  ) throws {
    guard parameterCount == 4 else { throw countError(4) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
    try bindConverted(c, at: 3)
    try bindConverted(d, at: 4)
  }

  /// Binds 5 values to parameters 1...5: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<
    A: SQLiteValueConvertible, B: SQLiteValueConvertible, C: SQLiteValueConvertible,
    D: SQLiteValueConvertible, E: SQLiteValueConvertible
  >(
    values a: A, _ b: B, _ c: C, _ d: D, _ e: E
  ) throws {
    guard parameterCount == 5 else { throw countError(5) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
    try bindConverted(c, at: 3)
    try bindConverted(d, at: 4)
    try bindConverted(e, at: 5)
  }

  /// Binds 6 values to parameters 1...6: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<
    A: SQLiteValueConvertible, B: SQLiteValueConvertible, C: SQLiteValueConvertible,
    D: SQLiteValueConvertible, E: SQLiteValueConvertible, F: SQLiteValueConvertible
  >(
    values a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) throws {
    guard parameterCount == 6 else { throw countError(6) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
    try bindConverted(c, at: 3)
    try bindConverted(d, at: 4)
    try bindConverted(e, at: 5)
    try bindConverted(f, at: 6)
  }

  /// Binds 7 values to parameters 1...7: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<
    A: SQLiteValueConvertible, B: SQLiteValueConvertible, C: SQLiteValueConvertible,
    D: SQLiteValueConvertible, E: SQLiteValueConvertible, F: SQLiteValueConvertible,
    G: SQLiteValueConvertible
  >(
    values a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
  ) throws {
    guard parameterCount == 7 else { throw countError(7) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
    try bindConverted(c, at: 3)
    try bindConverted(d, at: 4)
    try bindConverted(e, at: 5)
    try bindConverted(f, at: 6)
    try bindConverted(g, at: 7)
  }

  /// Binds 8 values to parameters 1...8: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<
    A: SQLiteValueConvertible, B: SQLiteValueConvertible, C: SQLiteValueConvertible,
    D: SQLiteValueConvertible, E: SQLiteValueConvertible, F: SQLiteValueConvertible,
    G: SQLiteValueConvertible, H: SQLiteValueConvertible
  >(
    values a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
  ) throws {
    guard parameterCount == 8 else { throw countError(8) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
    try bindConverted(c, at: 3)
    try bindConverted(d, at: 4)
    try bindConverted(e, at: 5)
    try bindConverted(f, at: 6)
    try bindConverted(g, at: 7)
    try bindConverted(h, at: 8)
  }

  /// Binds 9 values to parameters 1...9: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<
    A: SQLiteValueConvertible, B: SQLiteValueConvertible, C: SQLiteValueConvertible,
    D: SQLiteValueConvertible, E: SQLiteValueConvertible, F: SQLiteValueConvertible,
    G: SQLiteValueConvertible, H: SQLiteValueConvertible, I: SQLiteValueConvertible
  >(
    values a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I
  ) throws {
    guard parameterCount == 9 else { throw countError(9) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
    try bindConverted(c, at: 3)
    try bindConverted(d, at: 4)
    try bindConverted(e, at: 5)
    try bindConverted(f, at: 6)
    try bindConverted(g, at: 7)
    try bindConverted(h, at: 8)
    try bindConverted(i, at: 9)
  }

  /// Binds 10 values to parameters 1...10: see ``bind(values:)-(V)``.
  @inlinable
  public func bind<
    A: SQLiteValueConvertible, B: SQLiteValueConvertible, C: SQLiteValueConvertible,
    D: SQLiteValueConvertible, E: SQLiteValueConvertible, F: SQLiteValueConvertible,
    G: SQLiteValueConvertible, H: SQLiteValueConvertible, I: SQLiteValueConvertible,
    J: SQLiteValueConvertible
  >(
    values a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H, _ i: I, _ j: J
  ) throws {
    guard parameterCount == 10 else { throw countError(10) }
    try bindConverted(a, at: 1)
    try bindConverted(b, at: 2)
    try bindConverted(c, at: 3)
    try bindConverted(d, at: 4)
    try bindConverted(e, at: 5)
    try bindConverted(f, at: 6)
    try bindConverted(g, at: 7)
    try bindConverted(h, at: 8)
    try bindConverted(i, at: 9)
    try bindConverted(j, at: 10)
  }

  @inlinable @inline(__always)
  func bindNext<V: SQLiteValueConvertible>(_ value: V, after index: inout Int32) throws {
    index += 1
    try bindConverted(value, at: index)
  }

  /// Converts and binds one value of a static type to a parameter index known to be in range.
  @inlinable @inline(__always)
  func bindConverted<V: SQLiteValueConvertible>(_ value: V, at index: Int32) throws {
    // Where the compiler does not specialize this function (a loop over a parameter pack),
    // a type check, a pointer compare, binds the common integer types without a protocol
    // call; specialized, the checks fold away. The values are those sqliteValue() returns.
    if V.self == Int64.self {
      try bindInteger(unsafeBitCast(value, to: Int64.self), at: index)
      return
    }
    if V.self == Int.self {
      try bindInteger(Int64(unsafeBitCast(value, to: Int.self)), at: index)
      return
    }
    try convertAndBind(value, at: index)
  }

  /// Converts a value and binds it; on any failure every parameter is cleared first, so
  /// none keeps the previous run's value. The one path from a Swift value to a parameter.
  @inlinable
  func convertAndBind(_ value: some SQLiteValueConvertible, at index: Int32) throws {
    let converted: SQLiteValue
    do {
      converted = try value.sqliteValue()
    } catch let error as SQLiteError {
      throw failed(parameterError(error, at: index))
    } catch {
      throw failed(error)
    }
    do {
      try bindValue(converted, at: index)
    } catch {
      throw failed(error)
    }
  }

  /// Sets every parameter to NULL and returns `error`: after a failed bind, the parameters
  /// it did not reach must not keep the previous run's values.
  @usableFromInline func failed(_ error: any Error) -> any Error {
    clearBindings()
    return error
  }

  /// The error for a wrong number of values; the bindings are cleared, as for any failed bind.
  @usableFromInline func countError(_ count: Int) -> SQLiteError {
    clearBindings()
    return SQLiteError.range(
      "expected \(parameterCount) argument(s), got \(count)", sql: sql,
      parameterCount: parameterCount)
  }

  @usableFromInline func indexError(_ index: Int) -> SQLiteError {
    SQLiteError.range(
      "parameter index \(index) is out of range 1...\(parameterCount)", sql: sql,
      parameterCount: parameterCount)
  }

  @usableFromInline func parameterError(_ error: SQLiteError, at index: Int32) -> SQLiteError {
    SQLiteError(
      extendedCode: error.extendedCode, message: "parameter \(index): \(error.message)",
      sql: sql, parameterCount: parameterCount)
  }
}
