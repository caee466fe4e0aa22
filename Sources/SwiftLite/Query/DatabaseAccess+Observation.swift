// Observation of a queue or a pool: a query's fresh result after each commit that changed
// the tables it reads. See DatabaseObservation for the rules.
extension DatabaseAccess {
  /// The values of `fetch` over time, as an `AsyncSequence`: its result now, then after
  /// each committed write that changed a table it read.
  ///
  /// ```swift
  /// let dbQueue = try DatabaseQueue(path: "app.sqlite")
  /// try await dbQueue.write { db in try db.execute("CREATE TABLE IF NOT EXISTS user(name TEXT)") }
  ///
  /// let names = dbQueue.observe { db in
  ///   try db.query("SELECT name FROM user ORDER BY name").map { try $0.get(String.self, "name") }
  /// }
  /// for try await list in names {
  ///   print(list)
  ///   break  // an app keeps listening; this example stops at the first value
  /// }
  /// ```
  ///
  /// `fetch` runs in a ``read(_:)-2qvi5``: on a ``DatabasePool``, on a reader connection,
  /// while the writer's commits are what start it. Only a ``DatabaseQueue`` or a
  /// ``DatabasePool`` can be observed; another conforming type makes the sequence throw
  /// `SQLiteError` `.misuse`.
  /// - Parameter fetch: reads the value; it runs once per value, on the thread of the connection that runs it.
  /// - Returns: the sequence; each iteration of it is an observation of its own.
  public func observe<Value: Sendable>(
    _ fetch: @escaping @Sendable (Connection) throws -> Value
  ) -> DatabaseObservation<Value> {
    DatabaseObservation(database: self, fetch: fetch)
  }

  /// Observes `fetch` with callbacks, for code that does not use `async`: `onChange`
  /// receives its result now, then after each committed write that changed a table it
  /// read (see ``observe(_:)``).
  ///
  /// ```swift
  /// let dbQueue = try DatabaseQueue(path: "app.sqlite")
  /// try await dbQueue.write { db in try db.execute("CREATE TABLE IF NOT EXISTS user(name TEXT)") }
  ///
  /// let observation = dbQueue.observe(
  ///   { db in try db.scalar(Int.self, "SELECT count(*) FROM user") ?? 0 },
  ///   onChange: { count in print("users:", count) })
  /// // ... later
  /// observation.cancel()
  /// ```
  /// - Parameters:
  ///   - fetch: reads the value.
  ///   - onError: receives an error thrown by a fetch, after which the observation ends.
  ///   - onChange: receives each value, one at a time, in order, from the observation's
  ///     task (on a thread of Swift's concurrency pool): return quickly, without blocking.
  /// - Returns: the running observation: it stops when cancelled or released.
  public func observe<Value: Sendable>(
    _ fetch: @escaping @Sendable (Connection) throws -> Value,
    onError: @escaping @Sendable (any Error) -> Void = { _ in },
    onChange: @escaping @Sendable (Value) -> Void
  ) -> ObservationCancellable {
    let runner = ObservationRunner(
      database: self, fetch: fetch, onValue: onChange, onError: onError)
    runner.start()
    return ObservationCancellable { runner.cancel() }
  }
}
