internal import CSQLite

// Aggregate SQL functions written in Swift. See <https://sqlite.org/c3ref/create_function.html>
// and <https://sqlite.org/c3ref/aggregate_context.html>.
extension Connection {
  /// Adds (or replaces) an aggregate SQL function whose groups are values of `type`.
  ///
  /// ```swift
  /// struct Median: SQLAggregate {
  ///   var values: [Double] = []
  ///   mutating func step(_ arguments: [SQLiteValue]) throws {
  ///     if case .real(let value) = arguments[0] { values.append(value) }
  ///   }
  ///   func finish() throws -> (any SQLiteValueConvertible)? {
  ///     values.isEmpty ? nil : values.sorted()[values.count / 2]
  ///   }
  /// }
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE item(shop TEXT, price REAL)")
  /// try db.run("INSERT INTO item VALUES ('a', 1.5), ('a', 4.0), ('b', 2.0)")
  ///
  /// try db.createAggregate("median", argumentCount: 1, Median.self)
  /// let medians = try db.query("SELECT shop, median(price) FROM item GROUP BY shop")
  /// ```
  ///
  /// It runs on the thread of the statement that uses it, and must not use this
  /// connection. Over a ``DatabasePool``, register it on every connection through
  /// ``OpenOptions/connectionSetup``, as for functions.
  /// - Parameters:
  ///   - name: the aggregate's name in SQL (at most 255 bytes of UTF-8).
  ///   - argumentCount: how many arguments it takes (0...127), or `nil` for any number.
  ///   - deterministic: `true` when the same rows always give the same result.
  ///   - type: the ``SQLAggregate`` type: one value per group.
  /// - Throws: `SQLiteError` (`.misuse`) for a bad name or count; what SQLite reports
  ///   otherwise (such as `.busy` when a statement using the old function is running).
  public func createAggregate<Aggregate: SQLAggregate>(
    _ name: String, argumentCount: Int?, deterministic: Bool = false, _ type: Aggregate.Type
  ) throws {
    try createAggregate(
      name, argumentCount: argumentCount, deterministic: deterministic,
      initial: Aggregate(), step: { state, arguments in try state.step(arguments) },
      finish: { state in try state.finish() })
  }

  /// Adds (or replaces) an aggregate SQL function from closures: each group starts from
  /// `initial`, `step` folds each row's arguments into it, and `finish` gives the result.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE note(body TEXT)")
  /// try db.run("INSERT INTO note VALUES ('ab'), ('cde')")
  ///
  /// try db.createAggregate(
  ///   "total_length", argumentCount: 1, initial: 0,
  ///   step: { total, arguments in
  ///     if case .text(let text) = arguments[0] { total += text.count }
  ///   },
  ///   finish: { total in total })
  /// let total = try db.scalar(Int.self, "SELECT total_length(body) FROM note")  // 5
  /// ```
  /// - Parameters:
  ///   - name: as for ``createAggregate(_:argumentCount:deterministic:_:)``.
  ///   - argumentCount: as for ``createAggregate(_:argumentCount:deterministic:_:)``.
  ///   - deterministic: as for ``createAggregate(_:argumentCount:deterministic:_:)``.
  ///   - initial: the state of a new group.
  ///   - step: adds one row's arguments to a group's state; an error fails the statement.
  ///   - finish: the group's result (`nil` for NULL); an error fails the statement.
  /// - Throws: as ``createAggregate(_:argumentCount:deterministic:_:)``.
  public func createAggregate<State>(
    _ name: String, argumentCount: Int?, deterministic: Bool = false, initial: State,
    step: @escaping (inout State, [SQLiteValue]) throws -> Void,
    finish: @escaping (State) throws -> (any SQLiteValueConvertible)?
  ) throws {
    try ensureOpen(nil)
    try Self.checkFunctionName(name)
    let count = try Self.functionArgumentCount(argumentCount, name: name)
    var flags = SQLITE_UTF8
    if deterministic { flags |= SQLITE_DETERMINISTIC }
    let definition = AggregateDefinition {
      GroupState(initial, step: step, finish: finish)
    }
    let box = Unmanaged.passRetained(definition).toOpaque()
    // On failure SQLite calls the destructor itself, which releases the box.
    let code = sqlite3_create_function_v2(
      handle, name, count, flags, box, nil, aggregateStep, aggregateFinal, aggregateDestructor)
    try SQLiteError.check(code, handle)
  }
}

/// What SQLite keeps for an aggregate function: how to start a group.
private final class AggregateDefinition {
  let makeGroup: () -> any AggregateGroup
  init(_ makeGroup: @escaping () -> any AggregateGroup) { self.makeGroup = makeGroup }
}

/// One group being aggregated.
private protocol AggregateGroup: AnyObject {
  func step(_ arguments: [SQLiteValue]) throws
  func finish() throws -> SQLiteValue
}

/// A group's state and the closures that fold rows into it.
private final class GroupState<State>: AggregateGroup {
  var state: State
  let stepBody: (inout State, [SQLiteValue]) throws -> Void
  let finishBody: (State) throws -> (any SQLiteValueConvertible)?

  init(
    _ state: State, step: @escaping (inout State, [SQLiteValue]) throws -> Void,
    finish: @escaping (State) throws -> (any SQLiteValueConvertible)?
  ) {
    self.state = state
    self.stepBody = step
    self.finishBody = finish
  }

  func step(_ arguments: [SQLiteValue]) throws { try stepBody(&state, arguments) }
  func finish() throws -> SQLiteValue { try finishBody(state)?.sqliteValue() ?? .null }
}

/// The group of `context`: SQLite's per-group memory holds one retained pointer to it,
/// made on the group's first row. `create: false` (in the final call) returns `nil` when
/// the group had no row.
private func group(_ context: OpaquePointer?, create: Bool) -> (any AggregateGroup)? {
  let size = Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)
  guard let slot = sqlite3_aggregate_context(context, create ? size : 0) else { return nil }
  let pointer = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
  if let existing = pointer.pointee {
    return Unmanaged<AnyObject>.fromOpaque(existing).takeUnretainedValue() as? any AggregateGroup
  }
  guard create, let data = sqlite3_user_data(context) else { return nil }
  let definition = Unmanaged<AggregateDefinition>.fromOpaque(data).takeUnretainedValue()
  let made = definition.makeGroup()
  pointer.pointee = Unmanaged<AnyObject>.passRetained(made as AnyObject).toOpaque()
  return made
}

private func reportError(_ context: OpaquePointer?, _ error: any Error) {
  let message = (error as? SQLiteError)?.message ?? String(describing: error)
  sqlite3_result_error(context, message, -1)
}

private func aggregateStep(
  _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
  guard let current = group(context, create: true) else {
    sqlite3_result_error_nomem(context)
    return
  }
  var values: [SQLiteValue] = []
  values.reserveCapacity(Int(count))
  for index in 0..<Int(count) { values.append(argumentValue(arguments?[index])) }
  do {
    try current.step(values)
  } catch {
    // SQLite stops the statement at an error set in a step, and still calls the final
    // function, which releases the group.
    reportError(context, error)
  }
}

private func aggregateFinal(_ context: OpaquePointer?) {
  let slot = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(
    to: UnsafeMutableRawPointer?.self)
  let current: any AggregateGroup
  if let stored = slot?.pointee {
    // The group's retain is given back here, whatever happens next.
    let object = Unmanaged<AnyObject>.fromOpaque(stored).takeRetainedValue()
    slot?.pointee = nil
    guard let existing = object as? any AggregateGroup else { return }
    current = existing
  } else {
    // A group without rows (an aggregate over an empty table): a fresh state's result.
    guard let data = sqlite3_user_data(context) else { return }
    current = Unmanaged<AggregateDefinition>.fromOpaque(data).takeUnretainedValue().makeGroup()
  }
  do {
    setResult(context, try current.finish())
  } catch {
    reportError(context, error)
  }
}

private func aggregateDestructor(_ data: UnsafeMutableRawPointer?) {
  guard let data else { return }
  Unmanaged<AggregateDefinition>.fromOpaque(data).release()
}
