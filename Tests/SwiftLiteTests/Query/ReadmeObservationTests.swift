import Foundation
import SwiftLite
import XCTest

private struct Player: Model, Equatable, Sendable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
}

private struct Grade: Decodable, Equatable {
  var id: Int
  var name: String
  var year: Int
}

private struct Article: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  var year: Int
  static let primaryKey = ["id"]
  static let fullTextIndexes = [FullTextIndex(Article.self, columns: ["title", "body"])]
}

/// The README's sections on observation, the cache, functions and full-text search, run as
/// written (paths and the values printed aside).
final class ReadmeObservationTests: TemporaryDirectoryTestCase {
  func testObservation() async throws {
    let dbQueue = try DatabaseQueue(path: path())
    let players = try Repository<Player>(dbQueue)
    let rendered = Locked<[[String]]>([])
    let render: @Sendable ([Player]) -> Void = { list in
      rendered.mutate { $0.append(list.map(\.name)) }
    }
    let task = Task {
      // Ends when the task is cancelled.
      for try await list in players.observeAll(orderBy: "name") { render(list) }
    }
    var counts = dbQueue.observe { db in try db.scalar(Int.self, "SELECT count(*) FROM player") ?? 0
    }
    .makeAsyncIterator()
    let first = try await counts.next()
    XCTAssertEqual(first, 0)
    try await players.save(Player(id: 1, name: "Ann"))
    let second = try await counts.next()
    XCTAssertEqual(second, 1)

    let seen = Locked<[Int]>([])
    let observation = dbQueue.observe(
      { db in try db.query("SELECT * FROM player").count },
      onChange: { count in seen.mutate { $0.append(count) } })
    while seen.value.isEmpty { await Task.yield() }
    observation.cancel()
    XCTAssertEqual(seen.value, [1])

    while !rendered.value.contains(["Ann"]) { await Task.yield() }
    task.cancel()
    _ = await task.result
    try dbQueue.close()
  }

  func testCache() throws {
    let dbQueue = try DatabaseQueue(path: path())
    try dbQueue.write { db in
      try db.execute("CREATE TABLE grade(id INTEGER PRIMARY KEY, name TEXT, year INTEGER)")
      try db.run("INSERT INTO grade(name, year) VALUES ('5A', 2024)")
    }
    let cache = try QueryCache(dbQueue, maximumBytes: 8 << 20)
    let rows = try cache.query("SELECT * FROM grade WHERE year = ?", [2024])  // runs the query
    let same = try cache.query("SELECT * FROM grade WHERE year = ?", [2024])  // from memory
    let year = 2024
    // The value is bound.
    let grades = try cache.fetchAll(Grade.self, "SELECT * FROM grade WHERE year = \(year)")
    XCTAssertEqual(rows.count, 1)
    XCTAssertEqual(same.count, 1)
    XCTAssertEqual(grades, [Grade(id: 1, name: "5A", year: 2024)])
    XCTAssertEqual(cache.statistics.hits, 2)
    try dbQueue.close()
  }

  func testFunctionsAndCollations() throws {
    let db = try Connection(path: path())
    try db.createFunction("reverse", argumentCount: 1, deterministic: true) { arguments in
      guard case .text(let text) = arguments[0] else { return nil }
      return String(text.reversed())
    }
    try db.createCollation("BY_LENGTH") { left, right in
      left.count == right.count
        ? left.compare(right) : (left.count < right.count ? .orderedAscending : .orderedDescending)
    }
    XCTAssertEqual(try db.scalar(String.self, "SELECT reverse('abc')"), "cba")
    XCTAssertEqual(try db.scalar(Bool.self, "SELECT 'bb' < 'a' COLLATE BY_LENGTH"), false)

    var options = OpenOptions()
    options.connectionSetup = { db in try db.addUnicodeCaseFolding() }
    let pool = try DatabasePool(path: path("app.sqlite"), options: options)
    XCTAssertEqual(
      try pool.read { db in try db.scalar(Int.self, "SELECT unicode_like('zoë', 'ZOË')") }, 1)
    try pool.close()
  }

  func testFullTextSearch() throws {
    let db = try Connection(path: path())
    try XCTSkipUnless(db.isFullTextSearchAvailable(), "FTS5 is not compiled into this libsqlite3")
    try db.save([
      Article(id: 1, title: "Zoë's garden", body: "roses", year: 1990),
      Article(id: 2, title: "Smith", body: "garden tools", year: 2010),
    ])
    let userInput = "garden"
    let page = try Article.all()
      .filter(Column("year") < 2000)  // any filter, relations too
      .matching(.allWords(in: userInput), weights: ["title": 10])  // bm25, a title word counts 10x
      .limit(20, offset: 0)  // best first, a page
      .fetchHits(db, [.snippet(of: "body", before: "<b>", after: "</b>", tokens: 12)])
    for hit in page { print(hit.model.title, hit.score, hit.snippets[0] ?? "") }
    let typed = try Article.all().matching(.prefixes(in: "zo ga")).fetchAll(db)  // models, ranked
    XCTAssertEqual(page.map(\.model.id), [1])
    XCTAssertEqual(page.first?.snippets, ["roses"])
    XCTAssertEqual(typed.map(\.id), [1])

    // An index made by hand, for a table no model declares one on.
    let index = FullTextIndex(table: "Article", columns: ["title"], name: "Article_titles")
    try db.createFullTextIndex(index)
    let rows = try db.search(in: index, matching: .prefixes(in: "zo"), limit: 20)
    let older = try Article.all().filter(index.matching(.allWords(in: "garden")))
      .filter(Column("year") < 2000).fetchAll(db)  // unranked, in the query interface
    XCTAssertEqual(try rows.map { try $0.get(Int.self, "id") }, [1])
    XCTAssertEqual(older.map(\.id), [1])
  }
}
