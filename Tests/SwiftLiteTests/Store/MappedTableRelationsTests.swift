import Foundation
import SwiftLite
import XCTest

// Relations over mapped tables, as a new user would use them from ExistingDatabases.md and QueriesAndRelations.md, on tables made by raw SQL.

private struct RREmployee: Model, Equatable {
  var employeeId: Int64
  var lastName: String
  var reportsTo: Int64?
  static let tableName = "Employee"
  static let primaryKey = ["employeeId"]
  static let manager = belongsTo(RREmployee.self)
  static let reports = hasMany(RREmployee.self)
}

private struct RRArtist: Model, Equatable {
  var artistId: Int64
  var code: String
  var name: String
  static let tableName = "Artist"
  static let primaryKey = ["artistId"]
  static let albums = hasMany(RRAlbum.self)
}

private struct RRAlbum: Model, Equatable {
  var albumId: Int64
  var title: String
  var artistCode: String
  static let tableName = "Album"
  static let primaryKey = ["albumId"]
  static let artist = belongsTo(RRArtist.self)
}

private struct RRGenre: Model, Equatable {
  var genreId: Int64
  var name: String
  static let tableName = "Music Genre"
  static let primaryKey = ["genreId"]
  static let tracks = hasMany(RRTrack.self)
}

private struct RRTrack: Model, Equatable {
  var trackId: Int64
  var name: String
  var genreId: Int64?
  static let tableName = "track"
  static let primaryKey = ["trackId"]
  static let genre = belongsTo(RRGenre.self)
}

final class MappedTableRelationsTests: SQLiteTestCase {
  static let script = """
    CREATE TABLE [Employee] ([EmployeeId] INTEGER NOT NULL, [LastName] NVARCHAR(20) NOT NULL,
      [ReportsTo] INTEGER, CONSTRAINT [PK_Employee] PRIMARY KEY ([EmployeeId]),
      FOREIGN KEY ([ReportsTo]) REFERENCES [Employee] ([EmployeeId]));
    INSERT INTO [Employee] VALUES (1, 'Adams', NULL), (2, 'Edwards', 1), (3, 'Peacock', 2),
      (4, 'Park', 2);
    CREATE TABLE [Artist] ([ArtistId] INTEGER PRIMARY KEY, [Code] TEXT NOT NULL UNIQUE,
      [Name] TEXT NOT NULL);
    CREATE TABLE [Album] ([AlbumId] INTEGER PRIMARY KEY, [Title] TEXT NOT NULL,
      [ArtistCode] TEXT NOT NULL REFERENCES [Artist] ([Code]));
    INSERT INTO [Artist] VALUES (1, 'acdc', 'AC/DC'), (2, 'acc', 'Accept');
    INSERT INTO [Album] VALUES (10, 'Rock', 'acdc'), (11, 'Balls', 'acc'), (12, 'Wild', 'acc');
    CREATE TABLE [Music Genre] ([GenreId] INTEGER PRIMARY KEY, [Name] TEXT NOT NULL);
    CREATE TABLE [TRACK] ([TrackId] INTEGER PRIMARY KEY, [Name] TEXT NOT NULL,
      [GenreId] INTEGER REFERENCES [music genre]);
    INSERT INTO [Music Genre] VALUES (1, 'Rock'), (2, 'Jazz');
    INSERT INTO [TRACK] VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 2), (4, 'd', NULL);
    """

  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(Self.script)
  }

  /// Chinook's Employee.ReportsTo references its own table.
  func testASelfReferencingKey() throws {
    let all = try RREmployee.all().order(Column("employeeId"))
      .fetchAll(db, including: RREmployee.reports)
    XCTAssertEqual(all.map { $0.children.map(\.employeeId).sorted() }, [[2], [3, 4], [], []])
    let managers = try RREmployee.all().order(Column("employeeId"))
      .fetchAll(db, including: RREmployee.manager)
    XCTAssertEqual(managers.map { $0.parent?.lastName }, [nil, "Adams", "Edwards", "Edwards"])
    let peacock = try XCTUnwrap(db.find(RREmployee.self, id: 3))
    XCTAssertEqual(try db.fetchOne(RREmployee.manager, of: peacock)?.lastName, "Edwards")
    XCTAssertEqual(
      try RREmployee.all().having(RREmployee.reports.count >= 2).fetchAll(db).map(\.employeeId),
      [2])
  }

  /// A key that references a UNIQUE column of the parent, not its primary key.
  func testAKeyToAUniqueColumnOfTheParent() throws {
    let artists = try RRArtist.all().order(Column("artistId"))
      .fetchAll(db, including: RRArtist.albums)
    XCTAssertEqual(artists.map { $0.children.map(\.albumId).sorted() }, [[10], [11, 12]])
    let albums = try RRAlbum.all().order(Column("albumId")).fetchAll(db, including: RRAlbum.artist)
    XCTAssertEqual(albums.map { $0.parent?.name }, ["AC/DC", "Accept", "Accept"])
    let accept = try XCTUnwrap(db.find(RRArtist.self, id: 2))
    XCTAssertEqual(try db.fetchAll(RRArtist.albums, of: accept).map(\.albumId).sorted(), [11, 12])
    XCTAssertEqual(try RRArtist.all().having(RRArtist.albums.count >= 2).fetchCount(db), 1)
  }

  /// Table names that differ in case from the key's, with a space in them.
  func testTableNamesMatchAsSQLiteMatchesThem() throws {
    let genres = try RRGenre.all().order(Column("genreId")).fetchAll(db, including: RRGenre.tracks)
    XCTAssertEqual(genres.map { $0.children.map(\.trackId).sorted() }, [[1, 2], [3]])
    let tracks = try RRTrack.all().order(Column("trackId")).fetchAll(db, including: RRTrack.genre)
    XCTAssertEqual(tracks.map { $0.parent?.name }, ["Rock", "Rock", "Jazz", nil])
  }
}

// Keys declared by the model, equal to the table's but spelled otherwise.
private struct RRAlbumDeclared: Model, Equatable {
  var albumId: Int64
  var title: String
  var artistCode: String
  static let tableName = "Album"
  static let primaryKey = ["albumId"]
  static let foreignKeys = [ForeignKey(["artistCode"], references: "artist", ["code"])]
  static let artist = belongsTo(RRArtist.self)
}

// A parent with a two-column key declared in another order than the table's.
private struct RRShelf: Model, Equatable {
  var room: String
  var row: Int64
  var label: String
  static let tableName = "Shelf"
  static let primaryKey = ["room", "row"]
  static let books = hasMany(RRBook.self)
}

private struct RRBook: Model, Equatable {
  var bookId: Int64
  var shelfRow: Int64
  var shelfRoom: String
  static let tableName = "Book"
  static let primaryKey = ["bookId"]
  static let shelf = belongsTo(RRShelf.self)
}

// A child whose key column is renamed by CodingKeys.
private struct RRSnakeAlbum: Model, Equatable {
  var id: Int64
  var artistID: Int64
  static let tableName = "snake_album"
  static let primaryKey = ["id"]
  static let artist = belongsTo(RRArtistByID.self)
  enum CodingKeys: String, CodingKey {
    case id
    case artistID = "artist_id"
  }
}

private struct RRArtistByID: Model, Equatable {
  var artistId: Int64
  var name: String
  static let tableName = "Artist"
  static let primaryKey = ["artistId"]
  static let albums = hasMany(RRSnakeAlbum.self)
}

final class MappedTableRelationsThroughConnectionTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(MappedTableRelationsTests.script)
    try db.execute(
      """
      CREATE TABLE Shelf(row INTEGER NOT NULL, room TEXT NOT NULL, label TEXT NOT NULL,
        PRIMARY KEY (row, room)) WITHOUT ROWID;
      CREATE TABLE Book(bookId INTEGER PRIMARY KEY, shelfRow INTEGER NOT NULL,
        shelfRoom TEXT NOT NULL, FOREIGN KEY (shelfRow, shelfRoom) REFERENCES Shelf);
      INSERT INTO Shelf VALUES (1, 'A', 'A1'), (2, 'A', 'A2'), (1, 'B', 'B1');
      INSERT INTO Book VALUES (1, 1, 'A'), (2, 1, 'B'), (3, 2, 'A'), (4, 1, 'B');
      CREATE TABLE snake_album(id INTEGER PRIMARY KEY,
        artist_id INTEGER NOT NULL REFERENCES Artist(ArtistId));
      INSERT INTO snake_album VALUES (1, 1), (2, 2), (3, 2);
      """)
  }

  /// A declared key that is the table's own, in other letter cases: no mismatch.
  func testADeclaredKeyInOtherCasesIsTheTablesKey() throws {
    let albums = try RRAlbumDeclared.all().order(Column("albumId"))
      .fetchAll(db, including: RRAlbumDeclared.artist)
    XCTAssertEqual(albums.map { $0.parent?.name }, ["AC/DC", "Accept", "Accept"])
  }

  /// `REFERENCES Shelf` over (row, room): the child's columns pair with the parent's key in
  /// the table's order, whatever order the model declares its key in.
  func testAnImpliedCompositeKeyPairsInTheTablesOrder() throws {
    let shelves = try RRShelf.all().order(Column("label")).fetchAll(db, including: RRShelf.books)
    XCTAssertEqual(shelves.map { $0.children.map(\.bookId).sorted() }, [[1], [3], [2, 4]])
    let books = try RRBook.all().order(Column("bookId")).fetchAll(db, including: RRBook.shelf)
    XCTAssertEqual(books.map { $0.parent?.label }, ["A1", "B1", "A2", "B1"])
    XCTAssertEqual(try RRShelf.all().having(RRShelf.books.count >= 2).fetchCount(db), 1)
  }

  /// A key column renamed by CodingKeys.
  func testAKeyColumnRenamedByCodingKeys() throws {
    let artists = try RRArtistByID.all().order(Column("artistId"))
      .fetchAll(db, including: RRArtistByID.albums)
    XCTAssertEqual(artists.map { $0.children.map(\.id).sorted() }, [[1], [2, 3]])
    let albums = try RRSnakeAlbum.all().order(Column("id"))
      .fetchAll(db, including: RRSnakeAlbum.artist)
    XCTAssertEqual(albums.map { $0.parent?.name }, ["AC/DC", "Accept", "Accept"])
    XCTAssertEqual(
      try RRArtistByID.all().having(RRArtistByID.albums.count >= 2).fetchCount(db), 1)
  }
}

// A declared key that contradicts the table's: other parent columns.
private struct RRAlbumContradicting: Model, Equatable {
  var albumId: Int64
  var title: String
  var artistCode: String
  static let tableName = "Album"
  static let primaryKey = ["albumId"]
  static let foreignKeys = [ForeignKey(["artistCode"], references: "Artist", ["name"])]
  static let artist = belongsTo(RRArtist.self)
}

final class MappedTableRelationsThroughAccessTests: TemporaryDirectoryTestCase {
  /// Through a pool's read and a repository, a contradicting declared key is the typed
  /// mismatch, naming both keys; SwiftLite creates nothing.
  func testAContradictingDeclaredKeyThroughAPoolAndARepository() throws {
    let file = path("pool.sqlite")
    let pool = try DatabasePool(path: file)
    try pool.write { db in try db.execute(MappedTableRelationsTests.script) }
    XCTAssertThrowsError(
      try pool.read { db in
        try RRAlbumContradicting.all().fetchAll(db, including: RRAlbumContradicting.artist)
      }
    ) { error in
      guard case .foreignKeyMismatch? = error as? RelationError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
      XCTAssertTrue("\(error)".lowercased().contains("code"), "\(error)")
    }
    // The model's first use on the repository's connection checks its keys: so does making it.
    XCTAssertThrowsError(try Repository<RRAlbumContradicting>(pool)) { error in
      guard case .foreignKeyMismatch? = error as? RelationError else {
        return XCTFail("\(type(of: error)): \(error)")
      }
    }
    try pool.close()
    let check = try Connection(path: file)
    XCTAssertEqual(
      try check.scalar(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'swiftlite%'"),
      0)
    XCTAssertEqual(try check.scalar(Int.self, "SELECT count(*) FROM Album"), 3)
    try check.close()
  }
}
