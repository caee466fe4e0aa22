import Foundation
import SwiftLite
import XCTest

// A review of relations over mapped tables (issue 14, item 6), tried as a new user would
// from ExistingDatabases.md and QueriesAndRelations.md, on tables made by raw SQL.

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

final class RelationsReviewTests: SQLiteTestCase {
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
