import Foundation
import XCTest

@testable import SwiftLite

private struct Article: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String
  static let primaryKey = ["id"]
}

final class FullTextSearchTests: SQLiteTestCase {
  private let index = FullTextIndex(Article.self, columns: ["title", "body"])

  override func setUpWithError() throws {
    try super.setUpWithError()
    try XCTSkipUnless(
      db.isFullTextSearchAvailable(),
      "FTS5 is not compiled into this system's libsqlite3 (PRAGMA compile_options lacks "
        + "ENABLE_FTS5): full-text search cannot be tested here")
    try db.createTable(for: Article.self)
  }

  private func titles(_ query: FullTextQuery) throws -> [String] {
    try db.search(Article.self, in: index, matching: query).map(\.title)
  }

  /// FTS5's own check that the index matches the table's content.
  private func assertIndexMatchesContent(file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertNoThrow(
      try db.execute(
        "INSERT INTO \"Article_fts\"(\"Article_fts\", rank) VALUES ('integrity-check', 1)"),
      file: file, line: line)
  }

  func testTheIndexFollowsInsertsUpdatesAndDeletes() throws {
    try db.save(Article(id: 1, title: "Old news", body: "written before the index"))
    try db.createFullTextIndex(index)
    XCTAssertEqual(try titles(.allWords(in: "before")), ["Old news"], "existing rows are indexed")

    try db.save(Article(id: 2, title: "Zoë's café", body: "Crème brûlée"))
    XCTAssertEqual(try titles(.allWords(in: "zoe creme")), ["Zoë's café"], "case and accents fold")
    try db.update(Article(id: 2, title: "Renamed", body: "Tarte tatin"))
    XCTAssertEqual(try titles(.allWords(in: "creme")), [])
    XCTAssertEqual(try titles(.allWords(in: "tatin")), ["Renamed"])
    try db.delete(Article.self, id: 2)
    XCTAssertEqual(try titles(.allWords(in: "tatin")), [])
    assertIndexMatchesContent()
    // Creating it again changes nothing.
    try db.createFullTextIndex(index)
    assertIndexMatchesContent()
  }

  func testResultsAreRankedByBM25() throws {
    try db.createFullTextIndex(index)
    try db.save([
      Article(id: 1, title: "Gardening", body: "Tomatoes need sun. Water the plants."),
      Article(id: 2, title: "Tomatoes", body: "Tomatoes, tomatoes and more tomatoes."),
      Article(id: 3, title: "Cooking", body: "A sauce with one tomatoes can."),
    ])
    XCTAssertEqual(try titles(.allWords(in: "tomatoes")).first, "Tomatoes")
    let rows = try db.search(in: index, matching: .anyWord(in: "sauce water"), limit: 1)
    XCTAssertEqual(rows.count, 1)
    let ranked = try db.query(
      "SELECT rowid, bm25(\"Article_fts\") AS score FROM \"Article_fts\" WHERE \"Article_fts\" MATCH ? ORDER BY rank",
      [FullTextQuery.allWords(in: "tomatoes").text])
    let scores = try ranked.map { try $0.get(Double.self, "score") }
    XCTAssertEqual(scores, scores.sorted(), "best (lowest bm25) first")
    XCTAssertEqual(try ranked.first?.get(Int.self, "rowid"), 2)
  }

  func testUserInputIsEscapedAndStoredVerbatim() throws {
    try db.createFullTextIndex(index)
    let hostile = "'); DROP TABLE Article; -- \"NEAR(x\" title:* OR ^AND -"
    try db.save(Article(id: 1, title: hostile, body: "100% \"quoted\""))
    try db.save(Article(id: 2, title: "plain", body: "nothing"))
    // Every piece of FTS5 syntax in the input is only text to match: no syntax error.
    XCTAssertEqual(try titles(.allWords(in: hostile)), [hostile])
    XCTAssertEqual(try titles(.allWords(in: "\"quoted\"")), [hostile])
    XCTAssertEqual(try titles(.phrase("title:*")), [hostile])
    XCTAssertEqual(try titles(.allWords(in: "   ")), [], "no words match nothing")
    XCTAssertTrue(FullTextQuery.allWords(in: " ").isEmpty)
    XCTAssertEqual(try db.find(Article.self, id: 1)?.title, hostile, "stored verbatim")
    XCTAssertEqual(try db.count(Article.self), 2, "the table is intact")
    // The same input as a raw query is FTS5 syntax, and fails as such.
    assertSQLiteError(try titles(FullTextQuery(raw: hostile))) { error in
      XCTAssertTrue(error.message.contains("fts5"), error.message)
    }
  }

  /// A NUL in a user's text separates words, in every factory, and so does every other
  /// control character: FTS5 reads the query as a C string, where a NUL inside a quoted
  /// word ended the query ("unterminated string").
  /// Found by the FTS fuzzer: a quote followed by a combining mark is one Swift `Character`,
  /// which a search by characters did not double, leaving the query unterminated.
  func testAQuoteFollowedByACombiningMarkIsDoubled() throws {
    try db.createFullTextIndex(index)
    try db.save([Article(id: 1, title: "plain", body: "one")])
    for input in ["\"\u{0610}", "\"\"\"\u{0610}x", "a\"\u{301}b", "\"\u{0610}\u{7F}\"\u{0610}"] {
      for query in [
        FullTextQuery.allWords(in: input), .anyWord(in: input), .phrase(input),
        .prefixes(in: input),
      ] {
        XCTAssertEqual(query.text.unicodeScalars.filter { $0 == "\"" }.count % 2, 0, query.text)
        XCTAssertNoThrow(try titles(query), "\(input.debugDescription) -> \(query.text)")
      }
    }
  }

  func testANulOrAControlCharacterInUserTextSeparatesWords() throws {
    try db.createFullTextIndex(index)
    try db.save([
      Article(id: 1, title: "abc drop", body: "one"),
      Article(id: 2, title: "abc", body: "two"),
      Article(id: 3, title: "dropped", body: "three"),
    ])
    for separator in ["\u{0}", "\u{0}\u{0}", "\u{1}", "\u{1B}", "\u{7F}", "\u{9B}", " \u{0} "] {
      let input = "abc" + separator + "DROP"
      let shown = input.debugDescription
      XCTAssertEqual(try titles(.allWords(in: input)), ["abc drop"], shown)
      XCTAssertEqual(Set(try titles(.anyWord(in: input))), ["abc drop", "abc"], shown)
      XCTAssertEqual(try titles(.phrase(input)), ["abc drop"], shown)
      XCTAssertEqual(try titles(.prefixes(in: input)), ["abc drop"], shown)
      XCTAssertEqual(
        Set(try titles(.prefixes(in: "dr" + separator))), ["abc drop", "dropped"], shown)
    }
    XCTAssertEqual(FullTextQuery.allWords(in: "abc\u{0}DROP").text, "\"abc\" \"DROP\"")
    XCTAssertEqual(FullTextQuery.anyWord(in: "abc\u{0}DROP").text, "\"abc\" OR \"DROP\"")
    XCTAssertEqual(FullTextQuery.phrase("abc\u{0}DROP").text, "\"abc DROP\"")
    XCTAssertEqual(FullTextQuery.prefixes(in: "abc\u{0}DROP").text, "\"abc\"* \"DROP\"*")
    for empty in ["\u{0}", "\u{0}\u{1} \u{7F}"] {
      XCTAssertTrue(FullTextQuery.allWords(in: empty).isEmpty)
      XCTAssertTrue(FullTextQuery.phrase(empty).isEmpty)
      XCTAssertEqual(try titles(.allWords(in: empty)), [])
      XCTAssertEqual(try titles(.anyWord(in: empty)), [])
      XCTAssertEqual(try titles(.phrase(empty)), [])
      XCTAssertEqual(try titles(.prefixes(in: empty)), [])
    }
  }

  func testPrefixesAnyWordAndTheMatchCondition() throws {
    try db.createFullTextIndex(index)
    try db.save([
      Article(id: 1, title: "Annabel", body: "smith"),
      Article(id: 2, title: "Anna", body: "jones"),
      Article(id: 3, title: "Bob", body: "smithson"),
    ])
    XCTAssertEqual(FullTextQuery.prefixes(in: "ann sm").text, "\"ann\"* \"sm\"*")
    XCTAssertEqual(try titles(.prefixes(in: "ann sm")), ["Annabel"])
    XCTAssertEqual(Set(try titles(.anyWord(in: "jones smithson"))), ["Anna", "Bob"])
    let found = try db.findAll(
      Article.self, where: index.matchCondition, [FullTextQuery.prefixes(in: "smith").text],
      orderBy: "id")
    XCTAssertEqual(found.map(\.title), ["Annabel", "Bob"])
  }

  func testAnIndexOfAMissingTableIsAnError() throws {
    let missing = FullTextIndex(table: "nowhere", columns: ["text"])
    assertSQLiteError(try db.createFullTextIndex(missing)) { error in
      XCTAssertTrue(error.message.contains("no such table: main.nowhere"), error.message)
    }
    XCTAssertNil(try db.storedSQL("nowhere_fts"))
  }

  func testTheQueryInterfaceFiltersByAMatch() throws {
    try db.createFullTextIndex(index)
    try db.save([
      Article(id: 1, title: "Zoë", body: "garden"),
      Article(id: 2, title: "Bob", body: "garden shed"),
      Article(id: 3, title: "Cy", body: "kitchen"),
    ])
    let found = try Article.all().filter(index.matching(.allWords(in: "garden")))
      .order(Column("title")).fetchAll(db)
    XCTAssertEqual(found.map(\.title), ["Bob", "Zoë"])
    XCTAssertEqual(
      try Article.all().filter(index.matching(.allWords(in: "\"); DROP TABLE Article; --")))
        .fetchCount(db), 0)
    XCTAssertEqual(try db.count(Article.self), 3)
  }

  func testACreationThatFailsLeavesTheFileAsItWas() throws {
    try db.save(Article(id: 1, title: "t", body: "b"))
    let broken = FullTextIndex(Article.self, columns: ["title", "missing"])
    assertSQLiteError(try db.createFullTextIndex(broken))
    XCTAssertNil(try db.storedSQL("Article_fts"))
    XCTAssertNil(try db.storedSQL("Article_fts_ai"))
    try db.createFullTextIndex(index)
    try db.dropFullTextIndex(index)
    XCTAssertNil(try db.storedSQL("Article_fts"))
    XCTAssertNil(try db.storedSQL("Article_fts_au"))
    XCTAssertEqual(try db.count(Article.self), 1)
  }

  func testAnObservedSearchSeesNewRows() throws {
    let queue = try DatabaseQueue(path: path("observed.sqlite"))
    defer { try? queue.close() }
    let index = self.index
    try queue.writeWithoutTransaction { db in
      try db.createTable(for: Article.self)
      try db.createFullTextIndex(index)
    }
    let seen = Locked<[[String]]>([])
    let fetch: @Sendable (Connection) throws -> [String] = { db in
      try db.search(Article.self, in: index, matching: .allWords(in: "zoe")).map(\.title)
    }
    let observation = queue.observe(fetch) { titles in seen.mutate { $0.append(titles) } }
    try queue.write { db in try db.save(Article(id: 1, title: "Zoë", body: "x")) }
    let deadline = Date().addingTimeInterval(10)
    while !seen.value.contains(["Zoë"]), Date() < deadline { usleep(1000) }
    observation.cancel()
    XCTAssertTrue(seen.value.contains(["Zoë"]), "\(seen.value)")
  }

  /// An index made by an earlier version, whose update trigger fired on every update: making
  /// it again gives it the trigger of the indexed columns and the key.
  func testCreatingAnIndexAgainReplacesItsTriggers() throws {
    try db.save(Article(id: 1, title: "Old", body: "text"))
    try db.execute(
      """
      CREATE VIRTUAL TABLE "Article_fts" USING fts5("title", "body", content='Article', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER "Article_fts_au" AFTER UPDATE ON "Article" BEGIN INSERT INTO "Article_fts" ("Article_fts", rowid, "title", "body") VALUES ('delete', old."rowid", old."title", old."body"); INSERT INTO "Article_fts" (rowid, "title", "body") VALUES (new."rowid", new."title", new."body"); END;
      """)
    try db.createFullTextIndex(index)
    XCTAssertEqual(
      try db.storedSQL("Article_fts_au")?.contains(
        "AFTER UPDATE OF \"title\", \"body\", \"id\" ON \"Article\""), true)
    XCTAssertNotNil(try db.storedSQL("Article_fts_ai"))
    XCTAssertEqual(try titles(.allWords(in: "text")), ["Old"])
    assertIndexMatchesContent()
  }
}
