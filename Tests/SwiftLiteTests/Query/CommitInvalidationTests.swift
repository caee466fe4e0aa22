import CSQLite
import Foundation
import XCTest

@testable import SwiftLite

private struct Memo: Model, Equatable {
  var id: Int64?
  var text: String
  static let primaryKey = ["id"]
}

// A commit drops every cached result, and re-runs every observation, that read a table it
// changed: writes made by triggers (a full-text index), schema changes, commits of other
// connections and processes; and keeps the results of the tables it did not change.

final class CommitInvalidationTests: TemporaryDirectoryTestCase {
  private enum Kind: CaseIterable { case queue, pool }

  private func open(_ kind: Kind, _ name: String) throws -> any DatabaseAccess {
    let file = path("\(name)-\(kind).sqlite")
    return kind == .queue ? try DatabaseQueue(path: file) : try DatabasePool(path: file)
  }

  private static func count(
    _ cache: QueryCache, _ sql: String, _ arguments: StatementArguments = []
  ) throws -> Int? {
    try cache.query(sql, arguments).first?.get(Int.self, at: 0)
  }

  /// Waits until the last value `values` received is `expected` (10 s at most: a guard
  /// against a hang, not a timing assertion).
  private static func waitForLast<T: Equatable>(_ values: Locked<[T]>, _ expected: T) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while values.value.last != expected {
      if Date() > deadline { return false }
      usleep(1000)
    }
    return true
  }

  // MARK: Writes made by triggers

  private let index = FullTextIndex(Memo.self, columns: ["text"])
  private static let matches = "SELECT count(*) FROM \"Memo_fts\" WHERE \"Memo_fts\" MATCH ?"

  private func skipUnlessFullText() throws {
    try XCTSkipUnless(
      try Connection.inMemory().isFullTextSearchAvailable(), "FTS5 is not compiled in")
  }

  /// A model write reaches its full-text index through triggers, which the update hook does
  /// not report for a virtual table: the cache still drops the index's results.
  func testAModelWriteThroughTheFullTextTriggersDropsTheCachedMatches() throws {
    try skipUnlessFullText()
    for kind in Kind.allCases {
      for writerPreparedBeforeTracking in [true, false] {
        let database = try open(kind, "fts-\(writerPreparedBeforeTracking)")
        try database.write { db in
          try db.createTable(for: Memo.self)
          try db.createFullTextIndex(index)
          if writerPreparedBeforeTracking { try db.save(Memo(id: 1, text: "alpha one")) }
        }
        let cache = try QueryCache(database)
        let label = "\(kind), writer prepared before tracking: \(writerPreparedBeforeTracking)"
        let before = writerPreparedBeforeTracking ? 1 : 0
        XCTAssertEqual(try Self.count(cache, Self.matches, ["alpha"]), before, label)
        try database.write { db in try db.save(Memo(id: 2, text: "alpha two")) }
        XCTAssertEqual(try Self.count(cache, Self.matches, ["alpha"]), before + 1, label)
        try database.write { db in try db.insert(Memo(id: 3, text: "alpha three")) }
        XCTAssertEqual(try Self.count(cache, Self.matches, ["alpha"]), before + 2, label)
        try database.write { db in
          try db.save([Memo(id: 4, text: "alpha"), Memo(id: 5, text: "beta")])
        }
        XCTAssertEqual(try Self.count(cache, Self.matches, ["alpha"]), before + 3, label)
        try database.write { db in try db.update(Memo(id: 4, text: "gamma")) }
        XCTAssertEqual(try Self.count(cache, Self.matches, ["alpha"]), before + 2, label)
        try database.write { db in try db.delete(Memo.self, id: 3) }
        XCTAssertEqual(try Self.count(cache, Self.matches, ["alpha"]), before + 1, label)
        XCTAssertEqual(cache.statistics.hits, 0, label)
        try database.close()
      }
    }
  }

  func testAnObservationOfAFullTextIndexSeesModelWrites() throws {
    try skipUnlessFullText()
    for kind in Kind.allCases {
      let database = try open(kind, "fts-observed")
      try database.write { db in
        try db.createTable(for: Memo.self)
        try db.createFullTextIndex(index)
        try db.save(Memo(id: 1, text: "alpha one"))
      }
      let counts = Locked<[Int]>([])
      let observation = database.observe(
        { db in try db.scalar(Int.self, Self.matches, ["alpha"]) ?? -1 },
        onChange: { count in counts.mutate { $0.append(count) } })
      XCTAssertTrue(Self.waitForLast(counts, 1), "\(kind)")
      try database.write { db in try db.save(Memo(id: 2, text: "alpha two")) }
      XCTAssertTrue(Self.waitForLast(counts, 2), "\(kind): \(counts.value)")
      observation.cancel()
      try database.close()
    }
  }

  // MARK: Schema changes

  func testSchemaChangesDropTheCachedResults() throws {
    for kind in Kind.allCases {
      let database = try open(kind, "schema")
      try database.write { db in
        try db.execute(
          """
          CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);
          CREATE TABLE s(x); INSERT INTO s VALUES (1);
          CREATE TABLE other(x); INSERT INTO other VALUES (1), (2), (3);
          CREATE TABLE doomed(x); INSERT INTO doomed VALUES (1);
          CREATE VIEW v AS SELECT x FROM t;
          """)
      }
      let cache = try QueryCache(database)
      let label = "\(kind)"
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 2, label)
      XCTAssertEqual(try cache.query("SELECT * FROM s").first?.columnNames, ["x"], label)
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM doomed"), 1, label)
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM v"), 2, label)
      let tables = "SELECT group_concat(name) FROM sqlite_schema WHERE name LIKE 'n%'"
      XCTAssertNil(try cache.query(tables).first?.get(String?.self, at: 0), label)

      // A table renamed away and made again under its name.
      try database.write { db in try db.execute("ALTER TABLE t RENAME TO t_old; CREATE TABLE t(x)")
      }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 0, label)
      // A column added.
      try database.write { db in try db.execute("ALTER TABLE s ADD COLUMN z DEFAULT 7") }
      let row = try cache.query("SELECT * FROM s").first
      XCTAssertEqual(row?.columnNames, ["x", "z"], label)
      XCTAssertEqual(try row?.get(Int.self, "z"), 7, label)
      // A table dropped: its query fails instead of answering from memory.
      try database.write { db in try db.execute("DROP TABLE doomed") }
      XCTAssertThrowsError(try cache.query("SELECT count(*) FROM doomed"), label)
      // A table created.
      try database.write { db in try db.execute("CREATE TABLE n1(x)") }
      XCTAssertEqual(try cache.query(tables).first?.get(String?.self, at: 0), "n1", label)
      // A view defined again over another table: the query's tables are learned again, so
      // a later write to the new table drops it too.
      try database.write { db in
        try db.execute("DROP VIEW v; CREATE VIEW v AS SELECT x FROM other")
      }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM v"), 3, label)
      try database.write { db in try db.execute("INSERT INTO other VALUES (4)") }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM v"), 4, label)
      XCTAssertEqual(cache.statistics.hits, 0, label)
      try database.close()
    }
  }

  func testAnObservationSeesARenamedAndRecreatedTableAndAnAddedColumn() throws {
    for kind in Kind.allCases {
      let database = try open(kind, "schema-observed")
      try database.write { db in try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
      let values = Locked<[String]>([])
      let observation = database.observe(
        { db in
          let rows = try db.query("SELECT * FROM t")
          return "\(rows.count):" + (rows.first?.columnNames ?? []).joined(separator: ",")
        },
        onChange: { value in values.mutate { $0.append(value) } })
      XCTAssertTrue(Self.waitForLast(values, "1:x"), "\(kind)")
      try database.write { db in try db.execute("ALTER TABLE t RENAME TO t_old; CREATE TABLE t(x)")
      }
      XCTAssertTrue(Self.waitForLast(values, "0:"), "\(kind): \(values.value)")
      try database.write { db in
        try db.execute("INSERT INTO t VALUES (5); ALTER TABLE t ADD COLUMN y")
      }
      XCTAssertTrue(Self.waitForLast(values, "1:x,y"), "\(kind): \(values.value)")
      observation.cancel()
      try database.close()
    }
  }

  // MARK: Unrelated tables

  func testACommitKeepsTheResultsOfTablesItDidNotChange() throws {
    for kind in Kind.allCases {
      let database = try open(kind, "unrelated")
      try database.write { db in
        try db.execute("CREATE TABLE t(x); CREATE TABLE u(x); INSERT INTO t VALUES (1)")
      }
      let cache = try QueryCache(database)
      let label = "\(kind)"
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 1, label)
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM u"), 0, label)
      for round in 1...3 {
        try database.write { db in try db.run("INSERT INTO u VALUES (?)", [round]) }
        XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 1, label)
        XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM u"), round, label)
      }
      // Three reads of t came from memory; every read of u after a write of u did not.
      XCTAssertEqual(cache.statistics.hits, 3, label)
      XCTAssertEqual(cache.statistics.misses, 5, label)
      try database.close()
    }
  }

  // MARK: C calls

  /// What C calls change through `withUnsafeHandle` is not known table by table (a
  /// `WITHOUT ROWID` table has no update hook): it drops every result.
  func testAWriteThroughTheUnsafeHandleDropsTheCachedResults() throws {
    for kind in Kind.allCases {
      let database = try open(kind, "handle")
      try database.write { db in
        try db.execute("CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID")
      }
      let cache = try QueryCache(database)
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM w"), 0, "\(kind)")
      try database.write { db in
        try db.withUnsafeHandle { handle in
          XCTAssertEqual(sqlite3_exec(handle, "INSERT INTO w VALUES ('a', 1)", nil, nil, nil), 0)
        }
      }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM w"), 1, "\(kind)")
      try database.close()
    }
  }

  // MARK: Other connections and processes

  func testACommitOfAnotherConnectionIsNoticedAtTheNextRead() throws {
    for kind in Kind.allCases {
      let database = try open(kind, "foreign")
      try database.write { db in
        try db.execute("CREATE TABLE t(x); CREATE TABLE u(x); INSERT INTO t VALUES (1)")
      }
      let cache = try QueryCache(database)
      let label = "\(kind)"
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 1, label)
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 1, label)
      XCTAssertEqual(cache.statistics.hits, 1, label)

      let other = try Connection(path: database.path)
      try other.run("INSERT INTO t VALUES (2)")
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 2, label)
      // Writes through the queue or pool before or after another commit do not hide it.
      // (Each write looks for the commits of others at its start: the first one here
      // finds the commit above, so the one after the next write is found by the read.)
      try database.write { db in try db.run("INSERT INTO u VALUES (1)") }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 2, label)
      try database.write { db in try db.run("INSERT INTO u VALUES (2)") }
      try other.run("INSERT INTO t VALUES (3)")
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 3, label)
      try database.write { db in try db.run("INSERT INTO u VALUES (3)") }
      try other.run("INSERT INTO t VALUES (4)")
      try database.write { db in try db.run("INSERT INTO u VALUES (4)") }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 4, label)
      // ...and those writes alone keep the result of t.
      let hits = cache.statistics.hits
      try database.write { db in try db.run("INSERT INTO u VALUES (5)") }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 4, label)
      try database.write { db in try db.run("INSERT INTO u VALUES (6)") }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM t"), 4, label)
      XCTAssertEqual(cache.statistics.hits, hits + 2, label)
      try other.close()
      try database.close()
    }
  }

  func testAnObservationSeesAnotherConnectionsCommitAtTheNextWrite() throws {
    for kind in Kind.allCases {
      let database = try open(kind, "foreign-observed")
      try database.write { db in
        try db.execute("CREATE TABLE t(x); CREATE TABLE u(x); INSERT INTO t VALUES (1)")
      }
      let counts = Locked<[Int]>([])
      let observation = database.observe(
        { db in try db.scalar(Int.self, "SELECT count(*) FROM t") ?? -1 },
        onChange: { count in counts.mutate { $0.append(count) } })
      XCTAssertTrue(Self.waitForLast(counts, 1), "\(kind)")
      let other = try Connection(path: database.path)
      try other.run("INSERT INTO t VALUES (2)")
      // A write of another table through the queue or pool notices the foreign commit.
      try database.write { db in try db.run("INSERT INTO u VALUES (1)") }
      XCTAssertTrue(Self.waitForLast(counts, 2), "\(kind): \(counts.value)")
      observation.cancel()
      try other.close()
      try database.close()
    }
  }

  func testACommitOfAnotherProcessIsNoticedAtTheNextRead() throws {
    let helper = try processHelperURL()
    for kind in Kind.allCases {
      let database = try open(kind, "process")
      try database.write { db in
        try db.execute(
          "CREATE TABLE event(id INTEGER PRIMARY KEY, writer TEXT NOT NULL, n INTEGER NOT NULL)")
      }
      let cache = try QueryCache(database)
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM event"), 0, "\(kind)")
      let process = Process()
      process.executableURL = helper
      process.arguments = ["queue", database.path, "child", "3"]
      try process.run()
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 0)
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM event"), 3, "\(kind)")
      try database.close()
    }
  }
}

// MARK: Commits of other connections, writes counted late

extension CommitInvalidationTests {
  /// A commit by another connection to a file the queue attached drops the results that
  /// read it: the look at `PRAGMA data_version` covers every attached database, not main only.
  func testACommitOfAnotherConnectionToAnAttachedDatabaseDropsTheCachedResult() throws {
    let queue = try DatabaseQueue(path: path("main.sqlite"))
    let other = path("aux.sqlite")
    try queue.writeWithoutTransaction { db in
      try db.execute("ATTACH DATABASE '\(other)' AS aux")
      try db.execute("CREATE TABLE aux.a(x); INSERT INTO aux.a VALUES (1)")
    }
    let cache = try QueryCache(queue)
    XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM aux.a"), 1)
    XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM aux.a"), 1)
    XCTAssertEqual(cache.statistics.hits, 1, "no commit: the second read is a hit")
    let second = try Connection(path: other)
    try second.execute("INSERT INTO a VALUES (2)")
    try second.close()
    XCTAssertEqual(
      try Self.count(cache, "SELECT count(*) FROM aux.a"), 2,
      "the cache returned a result another connection's commit made stale")
    try queue.close()
  }

  /// On a pool, a reader that notices another connection's commit has the writer look too:
  /// the writer's next write must not report the same commit again and drop every result.
  func testAPoolReportsAnotherConnectionsCommitOnceSoAnUnrelatedCommitKeepsResults() throws {
    let file = path("pool.sqlite")
    let pool = try DatabasePool(path: file)
    try pool.write { db in
      try db.execute("CREATE TABLE a(x); CREATE TABLE b(x); INSERT INTO a VALUES (1)")
    }
    let cache = try QueryCache(pool)
    XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM a"), 1)
    let second = try Connection(path: file)
    try second.execute("INSERT INTO a VALUES (2)")
    try second.close()
    XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM a"), 2)  // noticed, read again
    XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM a"), 2)  // a hit
    let hits = cache.statistics.hits
    try pool.write { db in try db.execute("INSERT INTO b VALUES (1)") }
    XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM a"), 2)
    XCTAssertEqual(cache.statistics.hits, hits + 1, "a commit to b dropped the result of a")
    try pool.close()
  }

  /// SQLite counts the changes of an `INSERT ... RETURNING` when the statement halts, not
  /// at the step that returns the row: a prepared one stepped once, then reset, changed a
  /// `WITHOUT ROWID` table (which has no update hook), and its commit must say so.
  func testAPreparedInsertReturningSteppedOnceThenResetDropsTheCachedResult() throws {
    for kind in Kind.allCases {
      let database = try open(kind, "returning")
      try database.write { db in
        try db.execute("CREATE TABLE w(k PRIMARY KEY) WITHOUT ROWID; INSERT INTO w VALUES (1)")
      }
      let cache = try QueryCache(database)
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM w"), 1)
      try database.write { db in
        let statement = try db.prepare("INSERT INTO w VALUES (2) RETURNING k")
        XCTAssertTrue(try statement.step())
        statement.reset()
      }
      XCTAssertEqual(try Self.count(cache, "SELECT count(*) FROM w"), 2, "\(kind): stale count")
      try database.close()
    }
  }
}
