import SwiftLite
import XCTest

// Foreign keys a mapped model declares against those its table has (the tables of
// TableForeignKeyRelationsTests).

/// Declares a key on other columns than the table's key to the same parent.
struct TRWrongColumnsAlbum: Model {
  var albumId: Int64
  var title: String
  static let tableName = "Album"
  static let primaryKey = ["albumId"]
  static let foreignKeys = [ForeignKey(["title"], references: "Artist")]
}

/// Declares the table's key columns, referencing another parent column.
struct TRWrongParentTrack: Model {
  var trackId: Int64
  var albumId: Int64?
  static let tableName = "Track"
  static let primaryKey = ["trackId"]
  static let foreignKeys = [ForeignKey(["albumId"], references: "Album", ["title"])]
}

/// Declares the table's key columns, referencing another table.
struct TRWrongTableEdition: Model {
  var albumId: Int64
  var region: String
  static let tableName = "Edition"
  static let primaryKey = ["albumId", "region"]
  static let foreignKeys = [ForeignKey(["albumId"], references: "Artist")]
}

/// Declares the table's key in other words: the implied parent column named, in other ASCII case.
struct TRAgreeingTrack: Model {
  var trackId: Int64
  var albumId: Int64?
  static let tableName = "Track"
  static let primaryKey = ["trackId"]
  static let foreignKeys = [ForeignKey(["albumId"], references: "album", ["ALBUMID"])]
  static let album = belongsTo(TRAlbum.self)
}

/// Declares a key the table lacks (no REFERENCES): the declaration stands.
struct TRDeclaredReview: Model {
  var reviewId: Int64
  var albumId: Int64
  var stars: Int
  static let tableName = "Review"
  static let primaryKey = ["reviewId"]
  static let foreignKeys = [ForeignKey(["albumId"], references: "Album")]
}

final class DeclaredForeignKeyMismatchTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(TableForeignKeyRelationsTests.script)
  }

  /// The error of a model's first use, naming the declared key and the table's.
  private func assertMismatch<M: Model>(
    _ model: M.Type, declared: ForeignKey, reported: [ForeignKey], mentioning texts: [String],
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try db.findAll(model), file: file, line: line) { error in
      XCTAssertEqual(
        error as? RelationError,
        .foreignKeyMismatch(
          model: String(describing: model), table: M.tableName, declared: declared,
          reported: reported), file: file, line: line)
      for text in texts {
        XCTAssertTrue("\(error)".contains(text), "\(error)", file: file, line: line)
      }
    }
  }

  func testADeclaredKeyOnOtherColumnsIsAMismatch() throws {
    assertMismatch(
      TRWrongColumnsAlbum.self, declared: TRWrongColumnsAlbum.foreignKeys[0],
      reported: [
        ForeignKey(["ArtistId"], references: "Artist", ["ArtistId"], onDelete: .noAction)
      ],
      mentioning: ["(title) -> Artist", "(ArtistId) -> Artist(ArtistId)"])
  }

  func testADeclaredKeyToOtherParentColumnsIsAMismatch() throws {
    assertMismatch(
      TRWrongParentTrack.self, declared: TRWrongParentTrack.foreignKeys[0],
      reported: [ForeignKey(["AlbumId"], references: "Album")],
      mentioning: ["(albumId) -> Album(title)", "(AlbumId) -> Album (its primary key)"])
  }

  func testADeclaredKeyToAnotherTableIsAMismatch() throws {
    assertMismatch(
      TRWrongTableEdition.self, declared: TRWrongTableEdition.foreignKeys[0],
      reported: [ForeignKey(["AlbumId"], references: "Album", ["AlbumId"])],
      mentioning: ["(albumId) -> Artist", "(AlbumId) -> Album(AlbumId)"])
  }

  /// Through a queue and a repository: the same error, from the model's first use there.
  func testTheMismatchIsThrownThroughQueuesAndRepositories() throws {
    let queue = try DatabaseQueue(path: databasePath)
    XCTAssertThrowsError(try queue.read { db in try db.findAll(TRWrongParentTrack.self) }) {
      XCTAssertNotNil($0 as? RelationError, "\($0)")
    }
    XCTAssertThrowsError(try Repository<TRWrongColumnsAlbum>(queue)) {
      XCTAssertNotNil($0 as? RelationError, "\($0)")
    }
  }

  /// The same key in other words, and a key the table lacks, are no mismatch: their
  /// associations work.
  func testDeclaredKeysThatAgreeOrThatTheTableLacksStand() throws {
    let track = try XCTUnwrap(db.find(TRAgreeingTrack.self, id: 3))
    XCTAssertEqual(try db.fetchOne(TRAgreeingTrack.album, of: track)?.title, "Balls to the Wall")
    let reviews = TRAlbum.hasMany(TRDeclaredReview.self)
    let albums = try TRAlbum.all().joining(reviews).fetchAll(db)
    XCTAssertEqual(albums.map(\.albumId), [1])
    XCTAssertEqual(try TRAlbum.all().having(reviews.count == 0).fetchCount(db), 4)
  }
}
