import Foundation
import XCTest

@testable import SwiftLite

private struct Shelf: Model, Equatable {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
  static let books = hasMany(Book.self)
}

private struct Book: Model, Equatable {
  var id: Int64?
  var shelfID: Int64
  var title: String
  var body: String
  var isArchived = false
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["shelfID"], references: "Shelf", onDelete: .cascade)]
  static let fullTextIndexes = [FullTextIndex(Book.self, columns: ["title", "body"])]
  static let shelf = belongsTo(Shelf.self)
}

/// Codes searched by substring (trigram), with prefix indexes declared.
private struct Part: Model, Equatable {
  var id: Int64?
  var code: String
  static let primaryKey = ["id"]
  static let fullTextIndexes = [
    FullTextIndex(Part.self, columns: ["code"], tokenizer: .trigram(), prefixes: [2, 3])
  ]
}

/// The model of the DocC article ObservationAndSearch.md.
private struct Article: Model {
  var id: Int64?
  var title: String
  var body: String
  var year: Int
  static let primaryKey = ["id"]
  static let fullTextIndexes = [
    FullTextIndex(Article.self, columns: ["title", "body"], tokenizer: .unicode61(), prefixes: [2])
  ]
}

/// One table per chat, each with its own index.
private struct Message: Model {
  var id: Int64?
  var text: String
  static let primaryKey = ["id"]
  static let fullTextIndexes = [FullTextIndex(Message.self, columns: ["text"])]
}

private struct Plain: Model {
  var id: Int64?
  var text: String
  static let primaryKey = ["id"]
}

final class RankedSearchTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try XCTSkipUnless(db.isFullTextSearchAvailable(), "FTS5 is not compiled into this libsqlite3")
    try db.save([Shelf(id: 1, name: "Home"), Shelf(id: 2, name: "Work")])
    try db.save([
      Book(id: 1, shelfID: 1, title: "Tomatoes", body: "A garden book."),
      Book(id: 2, shelfID: 1, title: "Sauces", body: "Tomatoes, tomatoes and tomatoes again."),
      Book(id: 3, shelfID: 2, title: "Soil", body: "Compost before tomatoes.", isArchived: true),
      Book(id: 4, shelfID: 2, title: "Roses", body: "Nothing red here but roses."),
    ])
  }

  private func ids(_ query: ModelQuery<Book>) throws -> [Int64?] {
    try query.fetchAll(db).map(\.id)
  }

  func testHitsComeBestFirstWithTheirScoreAndColumnWeightsChangeTheOrder() throws {
    let search = Book.all().matching(.allWords(in: "tomatoes"))
    let hits = try search.fetchHits(db)
    XCTAssertEqual(hits.map(\.model.id), [2, 1, 3], "bm25: many occurrences, short texts first")
    XCTAssertEqual(hits.map(\.score), hits.map(\.score).sorted(), "lowest score first")
    XCTAssertTrue(hits.allSatisfy { $0.score < 0 })
    // A match in the title weighs ten times a match in the body.
    let byTitle = try Book.all().matching(.allWords(in: "tomatoes"), weights: ["title": 10])
      .fetchHits(db)
    XCTAssertEqual(byTitle.first?.model.id, 1)
    XCTAssertEqual(
      try ids(Book.all().matching(.allWords(in: "tomatoes"), weights: ["title": 0.01])).first, 2)
    XCTAssertEqual(try search.fetchAll(db).map(\.id), [2, 1, 3], "fetchAll is ranked too")
  }

  func testPagesWithLimitAndOffsetFollowTheRank() throws {
    let search = Book.all().matching(.anyWord(in: "tomatoes roses"))
    let all = try ids(search)
    XCTAssertEqual(all.count, 4)
    XCTAssertEqual(try ids(search.limit(2)), Array(all[0..<2]))
    XCTAssertEqual(try ids(search.limit(2, offset: 2)), Array(all[2..<4]))
    XCTAssertEqual(try search.limit(2, offset: 3).fetchHits(db).map(\.model.id), [all[3]])
    XCTAssertEqual(try search.fetchCount(db), 4)
    XCTAssertEqual(try search.limit(1).fetchCount(db), 1)
  }

  func testTheMatchCombinesWithFiltersOrdersAndRelations() throws {
    let search = Book.all().matching(.allWords(in: "tomatoes"))
    XCTAssertEqual(try ids(search.filter(Column("isArchived") == false)), [2, 1])
    XCTAssertEqual(try search.filter(Column("isArchived") == true).fetchCount(db), 1)
    XCTAssertTrue(try search.filter(Column("shelfID") == 2).exists(db))
    XCTAssertEqual(
      try ids(search.order(Column("title"))), [2, 3, 1], "an order of its own replaces the rank")
    XCTAssertEqual(
      try ids(search.order(Column("isArchived").desc, SQLExpression.fullTextScore)), [3, 2, 1])
    // Relations: a filter through the parent, and the parents loaded with the hits.
    let work = Shelf.filter(Column("name") == "Work").select(Column("id"))
    XCTAssertEqual(try ids(search.filter(Column("shelfID").in(work))), [3])
    let withShelves = try search.fetchAll(db, including: Book.shelf)
    XCTAssertEqual(withShelves.map(\.child.id), [2, 1, 3])
    XCTAssertEqual(withShelves.map(\.parent?.name), ["Home", "Home", "Work"])
    // Parents that have a matching child.
    var aboutRoses = Shelf.books
    aboutRoses.children = aboutRoses.children.matching(.allWords(in: "roses"))
    XCTAssertEqual(try Shelf.all().joining(aboutRoses).fetchAll(db).map(\.name), ["Work"])
    XCTAssertEqual(try db.fetchAll(aboutRoses, of: Shelf(id: 2, name: "Work")).map(\.id), [4])
    // Deletes and updates take the match as a condition.
    XCTAssertEqual(
      try Book.all().matching(.allWords(in: "roses")).updateAll(
        db, Column("isArchived").set(to: true)),
      1)
    XCTAssertEqual(try Book.all().matching(.allWords(in: "compost")).deleteAll(db), 1)
    XCTAssertEqual(try db.count(Book.self), 3)
  }

  func testSnippetsAndHighlightsWithBoundMarkers() throws {
    let hits = try Book.all().matching(.allWords(in: "tomatoes")).limit(2).fetchHits(
      db,
      [
        .snippet(of: "body", before: "[", after: "]", ellipsis: "...", tokens: 3),
        .highlight("title", before: "<b>", after: "</b>"),
        .snippet(before: "*", after: "*"),
      ])
    XCTAssertEqual(hits.map(\.model.id), [2, 1])
    XCTAssertEqual(hits[0].snippets[0], "[Tomatoes], [tomatoes] and...")
    XCTAssertEqual(hits[0].snippets[1], "Sauces")
    XCTAssertEqual(hits[1].snippets[1], "<b>Tomatoes</b>")
    XCTAssertEqual(hits[1].snippets[2], "*Tomatoes*", "the best column when none is named")
  }

  /// Quotes, dots and brackets in the search text and in the markers are text: FTS5 syntax
  /// cannot reach the query, nor SQL the statement.
  func testSearchInputAndMarkersAreBoundNeverSpliced() throws {
    let hostile = "x\") OR 1=1; DROP TABLE Book; -- [a.b] \"NEAR(\" title:*"
    try db.save(Book(id: 9, shelfID: 1, title: hostile, body: "quote \" dot . bracket [ ] end"))
    for text in ["\"", ".", "[", "a.b", "[a.b]", hostile, "'); DROP TABLE Book; --"] {
      XCTAssertNoThrow(try Book.all().matching(.allWords(in: text)).fetchHits(db), text)
    }
    XCTAssertEqual(try ids(Book.all().matching(.allWords(in: "[a.b]"))), [9])
    XCTAssertEqual(try ids(Book.all().matching(.phrase("dot . bracket"))), [9])
    let markers = ["'", "\"", ".", "[", "]", "'); DROP TABLE Book; --", "%s", "?"]
    for marker in markers {
      let hits = try Book.all().matching(.allWords(in: "bracket")).fetchHits(
        db,
        [
          .snippet(of: "body", before: marker, after: marker, ellipsis: marker, tokens: 64),
          .highlight("body", before: marker + "<", after: ">" + marker),
        ])
      XCTAssertEqual(hits.count, 1, marker)
      XCTAssertEqual(hits.first?.snippets[0], "quote \" dot . \(marker)bracket\(marker) [ ] end")
      XCTAssertEqual(
        hits.first?.snippets[1], "quote \" dot . \(marker)<bracket>\(marker) [ ] end")
    }
    XCTAssertEqual(try db.count(Book.self), 5, "the table is intact")
    XCTAssertEqual(try db.find(Book.self, id: 9)?.title, hostile)
  }

  func testTrigramTokenizerAndPrefixIndexesCanBeDeclared() throws {
    try db.save([
      Part(id: 1, code: "AX-7731-B"), Part(id: 2, code: "QX-1200"), Part(id: 3, code: "ZZ"),
    ])
    let sql = try XCTUnwrap(db.storedSQL("Part_fts"))
    XCTAssertTrue(sql.contains("tokenize='trigram case_sensitive 0', prefix='2 3'"), sql)
    func codes(_ text: String) throws -> [String] {
      try Part.all().matching(.allWords(in: text)).order(Column("id")).fetchAll(db).map(\.code)
    }
    XCTAssertEqual(try codes("773"), ["AX-7731-B"], "any substring of three or more")
    XCTAssertEqual(try codes("x-"), [], "shorter than three finds nothing")
    XCTAssertEqual(try codes("X-1"), ["QX-1200"])
    XCTAssertEqual(try codes("ax-7"), ["AX-7731-B"], "case folded")
  }

  func testASearchWithoutAnIndexOrWithAnUnknownColumnIsAnErrorNamingIt() throws {
    try db.save(Plain(id: 1, text: "x"))
    XCTAssertThrowsError(try Plain.all().matching(.allWords(in: "x")).fetchAll(db)) { error in
      XCTAssertTrue("\(error)".contains("fullTextIndexes"), "\(error)")
    }
    XCTAssertThrowsError(
      try Book.all().matching(.allWords(in: "x"), weights: ["author": 2]).fetchAll(db)
    ) { error in
      XCTAssertTrue("\(error)".contains("'author'"), "\(error)")
    }
    XCTAssertThrowsError(
      try Book.all().matching(.allWords(in: "x")).fetchHits(
        db, [.highlight("author", before: "", after: "")])
    ) { error in
      XCTAssertTrue("\(error)".contains("'author'"), "\(error)")
    }
    XCTAssertThrowsError(try Book.all().fetchHits(db)) { error in
      XCTAssertTrue("\(error)".contains("matching(_:)"), "\(error)")
    }
    // An index made by hand searches a model that declares none.
    let index = FullTextIndex(Plain.self, columns: ["text"])
    try db.createFullTextIndex(index)
    XCTAssertEqual(try Plain.all().matching(.allWords(in: "x"), in: index).fetchCount(db), 1)
  }

  /// The DocC article's example, as written.
  func testTheArticleExample() throws {
    try db.save(
      (1...30).map { Article(id: Int64($0), title: "Garden \($0)", body: "roses", year: 1990) })
    let userInput = "garden"
    let page = try Article.all()
      .filter(Column("year") < 2000)
      .matching(.allWords(in: userInput), weights: ["title": 10])
      .limit(20, offset: 20)
      .fetchHits(
        db,
        [
          .snippet(of: "body", before: "<b>", after: "</b>", ellipsis: "…", tokens: 12),
          .highlight("title", before: "<b>", after: "</b>"),
        ])
    for hit in page {
      print(hit.model.title, hit.score, hit.snippets[0] ?? "", hit.snippets[1] ?? "")
    }
    XCTAssertEqual(page.count, 10)
    XCTAssertTrue(page.allSatisfy { $0.snippets[1]?.hasPrefix("<b>Garden</b> ") == true })
  }

  func testEachPerTargetTableHasItsOwnIndex() throws {
    try db.save(Message(id: 1, text: "hello from a"), target: "a")
    try db.save(Message(id: 1, text: "hello from b"), target: "b")
    XCTAssertNotNil(try db.storedSQL("Message_a_fts"))
    XCTAssertNotNil(try db.storedSQL("Message_b_fts_au"))
    let hits = try Message.all(target: "b").matching(.allWords(in: "hello")).fetchHits(db)
    XCTAssertEqual(hits.map(\.model.text), ["hello from b"])
    XCTAssertEqual(try Message.all(target: "a").matching(.allWords(in: "b")).fetchCount(db), 0)
  }
}
