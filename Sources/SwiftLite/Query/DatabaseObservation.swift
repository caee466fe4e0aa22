/// The values of a query over time: its result now, then its fresh result after each
/// committed write that changed a table it reads. Get one from
/// ``DatabaseAccess/observe(_:)``.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "app.sqlite")
/// try await dbQueue.write { db in try db.execute("CREATE TABLE IF NOT EXISTS user(name TEXT)") }
///
/// for try await count in dbQueue.observe({ db in try db.scalar(Int.self, "SELECT count(*) FROM user") ?? 0 }) {
///   print("users:", count)
///   break  // an app keeps listening; this example stops at the first value
/// }
/// ```
///
/// - The tables are learned from SQLite as the query is prepared (its authorizer reports
///   every table a statement reads, those of views included), and learned again at each
///   fetch, so a query whose tables depend on the data stays right.
/// - A committed schema change (CREATE, DROP, ALTER TABLE) fetches again whatever the
///   tables. So does a commit made to the file by another connection or process, once the
///   queue or pool notices it through `PRAGMA data_version`: at its next write, or when a
///   cache or an observation reads (an observation does not poll).
/// - A write that is rolled back produces no value. Writes that commit while a fetch runs,
///   or while the consumer has not taken the last value, are coalesced: the consumer gets
///   the newest value, not one per commit.
/// - Each `for try await` loop (each iterator) runs an observation of its own. The loop
///   ends when its task is cancelled; it throws when a fetch throws, and the observation
///   ends then.
///
/// `Sendable`: it holds the database and the fetch closure only.
public struct DatabaseObservation<Value: Sendable>: AsyncSequence, Sendable {
  /// A value of the query.
  public typealias Element = Value

  let database: any DatabaseAccess
  let fetch: @Sendable (Connection) throws -> Value

  /// Starts an observation: its first fetch starts now, in a task of its own. Returns
  /// without waiting for a connection, even while the database is busy.
  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: Value.self, bufferingPolicy: .bufferingNewest(1))
    let runner = ObservationRunner(
      database: database, fetch: fetch, onValue: { continuation.yield($0) },
      onError: { continuation.finish(throwing: $0) })
    // The stream ends when the consuming task is cancelled or the iterator is dropped.
    continuation.onTermination = { _ in runner.cancel() }
    runner.start()
    return Iterator(base: stream.makeAsyncIterator())
  }

  /// Delivers the values of one observation.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Value, any Error>.Iterator

    /// The next value: the first one, or one after a commit that changed the query's
    /// tables; `nil` once the task is cancelled.
    /// - Throws: what the fetch threw (`SQLiteError`, a decoding error, ...).
    public mutating func next() async throws -> Value? {
      try await base.next()
    }
  }
}
