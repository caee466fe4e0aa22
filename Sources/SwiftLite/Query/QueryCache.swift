import Foundation
import Synchronization

/// Results of read queries kept in memory, by SQL and arguments, for one ``DatabaseQueue``
/// or ``DatabasePool``, and dropped as soon as a committed write changes a table they read.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "school.sqlite")
/// try await dbQueue.write { db in
///   try db.execute("CREATE TABLE IF NOT EXISTS grade(id INTEGER PRIMARY KEY, name TEXT, year INTEGER)")
///   try db.run("INSERT OR REPLACE INTO grade VALUES (1, '5A', 2024)")
/// }
///
/// let cache = try QueryCache(dbQueue, maximumBytes: 8 << 20)
/// let rows = try cache.query("SELECT * FROM grade WHERE year = ?", [2024])  // runs the query
/// let again = try cache.query("SELECT * FROM grade WHERE year = ?", [2024]) // from memory
/// try await dbQueue.write { db in try db.run("UPDATE grade SET name = ? WHERE id = ?", ["6A", 1]) }
/// let fresh = try cache.query("SELECT * FROM grade WHERE year = ?", [2024]) // runs it again
/// ```
///
/// Caching is opt-in: only reads made through a cache are kept, and each queue or pool
/// gets its own cache. The tables a query reads are learned from SQLite when it runs (as
/// for observation); a write through any connection of the queue or pool drops every
/// result that read a table it changed, before the write returns (a schema change drops
/// every result). A commit made by another process, or by a connection the queue or pool
/// does not own, drops every result at the next read through the cache, which checks
/// `PRAGMA data_version` first. SQL texts are compared by their bytes, as SQLite compares
/// them, not by Swift's canonical equivalence.
///
/// Memory is bounded by `maximumBytes`, an estimate of the values held (text and blob
/// bytes, 16 bytes per value, the SQL): when a new result does not fit, the results used
/// least recently go first; a result larger than the whole bound is not kept.
///
/// `QueryCache` is `Sendable`: share it across threads and tasks.
public final class QueryCache: Sendable {
  /// The queue or pool the cache reads through.
  public let database: any DatabaseAccess
  /// The most bytes (estimated) the cached results may take.
  public let maximumBytes: Int
  private let listenerID: UInt64
  private let storage = Storage()

  /// The SQL and the names of named arguments by their bytes (SQLite's comparison, not
  /// Swift's canonical equivalence), and the argument values, REAL ones by their bits.
  private struct Key: Hashable {
    var sql: ExactText
    var values: [ExactValue]
    var names: [ExactText]
  }

  /// An argument as the key compares it: `SQLiteValue`'s `==` takes `-0.0` for `0.0`, as
  /// SQLite's comparisons do, but SQL functions tell them apart (`atan2(-0.0, -1)` is -pi,
  /// `1 / -0.0` is -Inf, `printf('%f', -0.0)` is `-0.000000`): a REAL is the same argument
  /// only with the same bits.
  private struct ExactValue: Hashable {
    let value: SQLiteValue

    static func == (lhs: ExactValue, rhs: ExactValue) -> Bool {
      if case .real(let left) = lhs.value, case .real(let right) = rhs.value {
        return left.bitPattern == right.bitPattern
      }
      return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
      if case .real(let real) = value {
        hasher.combine(1 as UInt8)
        hasher.combine(real.bitPattern)
      } else {
        hasher.combine(value)
      }
    }
  }

  private struct Entry {
    var columns: [String]
    var rows: [[SQLiteValue]]
    var tables: Set<String>
    var bytes: Int
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
    /// Bumped by each commit: a result read across one is not kept.
    var generation: UInt64 = 0
    var hits = 0
    var misses = 0
  }

  /// A cache of the results of reads through `database`.
  /// - Parameters:
  ///   - database: a ``DatabaseQueue`` or a ``DatabasePool``.
  ///   - maximumBytes: the bound on the memory the results take (estimated). Default 4 MiB.
  /// - Throws: `SQLiteError` `.misuse` when `database` is closed, or is neither a queue nor
  ///   a pool.
  public init(_ database: some DatabaseAccess, maximumBytes: Int = 4 << 20) throws {
    self.database = database
    self.maximumBytes = max(0, maximumBytes)
    // The listener holds the storage, not the cache: a released cache stops listening.
    let storage = self.storage
    listenerID = try database.addCommitListener { changes in storage.invalidate(changes) }
  }

  deinit { database.removeCommitListener(listenerID) }

  /// The rows of a read query: from memory when the same SQL with the same arguments was
  /// read before and no commit changed its tables since, else from the database (and then
  /// kept). Called from inside a write or a read of the same queue or pool, it reads
  /// through that closure and neither uses nor fills the cache: a write's changes are not
  /// committed, and a read's snapshot may be older than the last commit.
  /// - Parameters:
  ///   - sql: one read statement (it runs in a ``DatabaseAccess/read(_:)-2qvi5``).
  ///   - arguments: its arguments; results are kept per distinct arguments.
  /// - Returns: the rows, each holding its values.
  /// - Throws: `SQLiteError` from the query (`.readOnly` for a statement that writes);
  ///   what converting an argument throws.
  @_disfavoredOverload
  public func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
    // Inside a write, a read sees that write's changes, which are not committed and may
    // be rolled back; inside a read, it sees that read's snapshot, which may predate a
    // commit whose invalidation already ran: such reads bypass the cache both ways.
    if database.runsCaller {
      return try database.read { db in try db.query(sql, arguments) }
    }
    let key = try Self.key(sql, arguments)
    // Commits of other connections and processes drop what they may have made stale.
    try database.noticeOtherConnectionsCommits()
    let cached = storage.state.withLock { state -> Entry? in
      guard var entry = state.entries[key] else {
        state.misses += 1
        return nil
      }
      state.hits += 1
      state.clock += 1
      entry.lastUse = state.clock
      state.entries[key] = entry
      return entry
    }
    if let cached {
      return cached.rows.map { Row(columns: cached.columns, values: $0) }
    }
    let generation = storage.state.withLock { $0.generation }
    let (columns, rows, tables) = try database.read { db in
      let (rows, tables) = try db.recordingTablesRead { try db.query(sql, arguments) }
      let columns = rows.first?.columnNames ?? []
      return (columns, try rows.map { try $0.values }, tables)
    }
    let bytes = Self.estimate(key, rows)
    storage.state.withLock { state in
      // A commit while the query ran may have made its result stale.
      guard state.generation == generation, bytes <= maximumBytes else { return }
      if let old = state.entries[key] { state.bytes -= old.bytes }
      state.clock += 1
      state.entries[key] = Entry(
        columns: columns, rows: rows, tables: tables, bytes: bytes, lastUse: state.clock)
      state.bytes += bytes
      while state.bytes > maximumBytes,
        let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        state.entries[oldest.key] = nil
        state.bytes -= oldest.value.bytes
      }
    }
    return rows.map { Row(columns: columns, values: $0) }
  }

  /// The rows of a read query written by interpolation, every interpolated value bound
  /// (see ``SQL``), from memory when possible, as ``query(_:_:)``.
  ///
  /// ```swift
  /// let dbQueue = try DatabaseQueue(path: "school.sqlite")
  /// try await dbQueue.write { db in
  ///   try db.execute("CREATE TABLE IF NOT EXISTS grade(id INTEGER PRIMARY KEY, name TEXT, year INTEGER)")
  /// }
  /// let cache = try QueryCache(dbQueue)
  /// let year = 2024
  ///
  /// let rows = try cache.query("SELECT * FROM grade WHERE year = \(year)")
  /// ```
  /// - Throws: as ``query(_:_:)``.
  public func query(_ sql: SQL) throws -> [Row] {
    try query(sql.text, sql.statementArguments)
  }

  /// The rows of ``query(_:)-(SQL)`` decoded as `T`.
  /// - Throws: as ``query(_:_:)``; `DecodingError` naming the column.
  public func fetchAll<T: Decodable>(_ type: T.Type, _ sql: SQL) throws -> [T] {
    try fetchAll(type, sql.text, sql.statementArguments)
  }

  /// The rows of ``query(_:_:)`` decoded as `T` (a `Decodable` whose properties are
  /// named after the columns).
  /// - Throws: as ``query(_:_:)``; `DecodingError` naming the column.
  @_disfavoredOverload
  public func fetchAll<T: Decodable>(
    _ type: T.Type, _ sql: String, _ arguments: StatementArguments = []
  ) throws -> [T] {
    let decoder = RowDecoder()
    return try query(sql, arguments).map { try decoder.decode(T.self, from: $0) }
  }

  /// How many reads came from memory, how many from the database, and how many results
  /// and (estimated) bytes are kept now.
  public var statistics: (hits: Int, misses: Int, results: Int, bytes: Int) {
    storage.state.withLock { ($0.hits, $0.misses, $0.entries.count, $0.bytes) }
  }

  /// Drops every kept result.
  public func removeAll() {
    storage.state.withLock { state in
      state.entries.removeAll()
      state.bytes = 0
      state.generation += 1
    }
  }

  private static func key(_ sql: String, _ arguments: StatementArguments) throws -> Key {
    switch arguments.storage {
    case .positional(let values):
      return Key(
        sql: ExactText(sql),
        values: try values.map { ExactValue(value: try $0?.sqliteValue() ?? .null) },
        names: [])
    case .named(let pairs):
      let sorted = pairs.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
      return Key(
        sql: ExactText(sql),
        values: try sorted.map { ExactValue(value: try $0.1?.sqliteValue() ?? .null) },
        names: sorted.map { ExactText($0.0) })
    }
  }

  /// The estimated bytes of a result: 16 per value plus text and blob bytes, and the key.
  private static func estimate(_ key: Key, _ rows: [[SQLiteValue]]) -> Int {
    var bytes = 64 + key.sql.string.utf8.count + key.values.count * 16
    for row in rows {
      bytes += 32
      for value in row {
        bytes += 16
        switch value {
        case .text(let text): bytes += text.utf8.count
        case .blob(let data): bytes += data.count
        default: break
        }
      }
    }
    return bytes
  }

  /// The cache's state, shared with its commit listener.
  private final class Storage: Sendable {
    let state = Mutex(State())

    /// Drops the results that `changes` may have made stale.
    func invalidate(_ changes: CommittedChanges) {
      state.withLock { state in
        state.generation += 1
        for (key, entry) in state.entries where changes.affects(entry.tables) {
          state.entries[key] = nil
          state.bytes -= entry.bytes
        }
      }
    }
  }
}
