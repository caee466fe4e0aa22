import SwiftLite
import XCTest

// Models over tables another program made (as the sqlite3 shell would, from a script),
// named unlike their types and declaring no foreign keys: their associations use the keys
// SQLite reports for the tables.

struct TRArtist: Model, Equatable {
  var artistId: Int64
  var name: String?
  static let tableName = "Artist"
  static let primaryKey = ["artistId"]
  static let schemaPolicy = SchemaPolicy.mapped
  static let albums = hasMany(TRAlbum.self).order(Column("title"))
  static let collaborations = hasMany(TRCollaboration.self)
  static let leads = hasMany(TRCollaboration.self, using: ["LeadId"])
}

struct TRAlbum: Model, Equatable {
  var albumId: Int64
  var title: String
  var artistId: Int64
  static let tableName = "Album"
  static let primaryKey = ["albumId"]
  static let schemaPolicy = SchemaPolicy.mapped
  static let artist = belongsTo(TRArtist.self)
  static let tracks = hasMany(TRTrack.self).order(Column("trackId"))
  static let editions = hasMany(TREdition.self).order(Column("region"))
  static let reviews = hasMany(TRReview.self)
}

/// Read through its own mapping; its `REFERENCES [Album]` names no parent column.
struct TRTrack: Model, RowMapped, Equatable {
  var trackId: Int64
  var name: String
  var albumId: Int64?
  static let tableName = "Track"
  static let primaryKey = ["trackId"]
  static let mappedColumns = ["trackId", "name", "albumId"]
  static let album = belongsTo(TRAlbum.self)

  init(trackId: Int64, name: String, albumId: Int64?) {
    self.trackId = trackId
    self.name = name
    self.albumId = albumId
  }

  init(row: MappedRow) throws {
    trackId = try row.get(0)
    name = try row.get(1)
    albumId = try row.get(2)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(trackId, at: 0)
    try row.set(name, at: 1)
    try row.set(albumId, at: 2)
  }
}

/// The album table read through its own mapping, as a parent.
struct TRMappedAlbum: Model, RowMapped, Equatable {
  var albumId: Int64
  var title: String
  static let tableName = "Album"
  static let primaryKey = ["albumId"]
  static let mappedColumns = ["albumId", "title"]
  static let tracks = hasMany(TRTrack.self).order(Column("trackId"))

  init(albumId: Int64, title: String) {
    self.albumId = albumId
    self.title = title
  }

  init(row: MappedRow) throws {
    albumId = try row.get(0)
    title = try row.get(1)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(albumId, at: 0)
    try row.set(title, at: 1)
  }
}

/// The album table keyed by another column than its primary key.
struct TRAlbumByTitle: Model, Equatable {
  var albumId: Int64
  var title: String
  static let tableName = "Album"
  static let primaryKey = ["title"]
}

/// Keyed by two columns, which the pressings reference together.
struct TREdition: Model, Equatable {
  var albumId: Int64
  var region: String
  var label: String?
  static let tableName = "Edition"
  static let primaryKey = ["albumId", "region"]
  static let pressings = hasMany(TRPressing.self).order(Column("pressingId"))
}

struct TRPressing: Model, Equatable {
  var pressingId: Int64
  var albumId: Int64
  var region: String
  var copies: Int
  static let tableName = "Pressing"
  static let primaryKey = ["pressingId"]
  static let edition = belongsTo(TREdition.self)
}

/// Two keys to the same parent.
struct TRCollaboration: Model, Equatable {
  var collaborationId: Int64
  var leadId: Int64
  var guestId: Int64
  static let tableName = "Collaboration"
  static let primaryKey = ["collaborationId"]
}

/// No `REFERENCES` at all.
struct TRReview: Model, Equatable {
  var reviewId: Int64
  var albumId: Int64
  var stars: Int
  static let tableName = "Review"
  static let primaryKey = ["reviewId"]
}

final class TableForeignKeyRelationsTests: SQLiteTestCase {
  static let script = """
    CREATE TABLE [Artist] ([ArtistId] INTEGER NOT NULL, [Name] NVARCHAR(120),
      CONSTRAINT [PK_Artist] PRIMARY KEY ([ArtistId]));
    CREATE TABLE [Album] ([AlbumId] INTEGER NOT NULL, [Title] NVARCHAR(160) NOT NULL,
      [ArtistId] INTEGER NOT NULL, CONSTRAINT [PK_Album] PRIMARY KEY ([AlbumId]),
      FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId])
        ON DELETE NO ACTION ON UPDATE NO ACTION);
    CREATE TABLE [Track] ([TrackId] INTEGER NOT NULL PRIMARY KEY,
      [Name] NVARCHAR(200) NOT NULL, [AlbumId] INTEGER REFERENCES [Album],
      [Milliseconds] INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE [Edition] ([AlbumId] INTEGER NOT NULL REFERENCES [Album] ([AlbumId]),
      [Region] TEXT NOT NULL, [Label] TEXT, PRIMARY KEY ([AlbumId], [Region]));
    CREATE TABLE [Pressing] ([PressingId] INTEGER PRIMARY KEY, [AlbumId] INTEGER NOT NULL,
      [Region] TEXT NOT NULL, [Copies] INTEGER NOT NULL,
      FOREIGN KEY ([AlbumId], [Region]) REFERENCES [Edition]);
    CREATE TABLE [Collaboration] ([CollaborationId] INTEGER PRIMARY KEY,
      [LeadId] INTEGER NOT NULL REFERENCES [Artist] ([ArtistId]),
      [GuestId] INTEGER NOT NULL REFERENCES [Artist] ([ArtistId]));
    CREATE TABLE [Review] ([ReviewId] INTEGER PRIMARY KEY, [AlbumId] INTEGER NOT NULL,
      [Stars] INTEGER NOT NULL);
    INSERT INTO [Artist] VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
    INSERT INTO [Album] VALUES (1, 'For Those About To Rock', 1), (2, 'Balls to the Wall', 2),
      (3, 'Restless and Wild', 2), (4, 'Let There Be Rock', 1), (5, 'Big Ones', 2);
    INSERT INTO [Track] ([TrackId], [Name], [AlbumId]) VALUES (1, 'For Those About To Rock', 1),
      (2, 'Put The Finger On You', 1), (3, 'Balls to the Wall', 2), (4, 'Fast As a Shark', 3),
      (5, 'Go Down', 4), (6, 'Demo', NULL);
    INSERT INTO [Edition] VALUES (1, 'EU', 'Atlantic'), (1, 'US', 'Atco'), (2, 'EU', 'RCA');
    INSERT INTO [Pressing] VALUES (1, 1, 'EU', 500), (2, 1, 'US', 300), (3, 1, 'EU', 200),
      (4, 2, 'EU', 1000);
    INSERT INTO [Collaboration] VALUES (1, 1, 2), (2, 2, 1), (3, 2, 3);
    INSERT INTO [Review] VALUES (1, 1, 5);
    """

  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(Self.script)
  }

  /// Eager loading both ways, on a `Codable` model and a `RowMapped` one, through keys with
  /// and without parent columns named.
  func testEagerLoadingUsesTheTablesForeignKeys() throws {
    let artists = try TRArtist.all().order(Column("artistId")).fetchAll(
      db, including: TRArtist.albums)
    XCTAssertEqual(
      artists.map { [$0.parent.name ?? ""] + $0.children.map(\.title) },
      [
        ["AC/DC", "For Those About To Rock", "Let There Be Rock"],
        ["Accept", "Balls to the Wall", "Big Ones", "Restless and Wild"], ["Aerosmith"],
      ])
    let albums = try TRAlbum.all().order(Column("albumId")).fetchAll(db, including: TRAlbum.artist)
    XCTAssertEqual(
      albums.map { $0.parent?.name }, ["AC/DC", "Accept", "Accept", "AC/DC", "Accept"])

    // `REFERENCES [Album]`: the album's primary key.
    let tracks = try TRTrack.all().order(Column("trackId")).fetchAll(db, including: TRTrack.album)
    XCTAssertEqual(
      tracks.map { $0.parent?.title },
      [
        "For Those About To Rock", "For Those About To Rock", "Balls to the Wall",
        "Restless and Wild", "Let There Be Rock", nil,
      ])
    let withTracks = try TRAlbum.all().order(Column("albumId")).fetchAll(
      db, including: TRAlbum.tracks)
    XCTAssertEqual(withTracks.map { $0.children.map(\.trackId) }, [[1, 2], [3], [4], [5], []])
  }

  /// A `RowMapped` parent of `RowMapped` children: eager loading, one parent's children,
  /// counts and semi-joins.
  func testRowMappedParentsAndChildren() throws {
    let albums = try TRMappedAlbum.all().order(Column("albumId"))
      .fetchAll(db, including: TRMappedAlbum.tracks)
    XCTAssertEqual(albums.map { $0.children.map(\.trackId) }, [[1, 2], [3], [4], [5], []])
    let first = TRMappedAlbum(albumId: 1, title: "For Those About To Rock")
    XCTAssertEqual(
      try db.fetchAll(TRMappedAlbum.tracks, of: first).map(\.name),
      ["For Those About To Rock", "Put The Finger On You"])
    XCTAssertEqual(
      try TRMappedAlbum.all().having(TRMappedAlbum.tracks.count == 1).fetchCount(db), 3)
    XCTAssertEqual(
      try TRMappedAlbum.all().having(TRMappedAlbum.tracks.isEmpty).fetchAll(db).map(\.albumId),
      [5])
  }

  /// A key that names no parent columns references the parent table's primary key, even
  /// when the parent model keys its rows by another column.
  func testAnImpliedParentKeyIsTheTablesPrimaryKey() throws {
    let album = TRTrack.belongsTo(TRAlbumByTitle.self)
    let tracks = try TRTrack.all().filter(Column("trackId") <= 3).order(Column("trackId"))
      .fetchAll(db, including: album)
    XCTAssertEqual(tracks.map { $0.parent?.title }.count, 3)
    XCTAssertEqual(
      tracks.map { $0.parent?.albumId }, tracks.map { $0.child.albumId })
    let track = try XCTUnwrap(db.find(TRTrack.self, id: 4))
    XCTAssertEqual(try db.fetchOne(album, of: track)?.title, "Restless and Wild")
    let byTitle = TRAlbumByTitle(albumId: 1, title: "For Those About To Rock")
    XCTAssertEqual(
      try db.fetchAll(TRAlbumByTitle.hasMany(TRTrack.self), of: byTitle).map(\.trackId).sorted(),
      [1, 2])
  }

  /// The children or the parent of one model, counts, aggregates and filters through the
  /// table's keys: each in one statement, with the right rows.
  func testCountsAndFiltersUseTheTablesForeignKeys() throws {
    let accept = TRArtist(artistId: 2, name: "Accept")
    XCTAssertEqual(
      try db.fetchAll(TRArtist.albums, of: accept).map(\.albumId), [2, 5, 3])
    let album = try XCTUnwrap(db.find(TRAlbum.self, id: 4))
    XCTAssertEqual(try db.fetchOne(TRAlbum.artist, of: album)?.name, "AC/DC")
    let track = try XCTUnwrap(db.find(TRTrack.self, id: 4))
    XCTAssertEqual(try db.fetchOne(TRTrack.album, of: track)?.title, "Restless and Wild")
    XCTAssertEqual(try db.fetchAll(TRAlbum.tracks, of: album).map(\.name), ["Go Down"])

    struct Counted: Decodable, Equatable {
      var artistId: Int64
      var albumCount: Int
    }
    let counted = try TRArtist.all().order(Column("artistId"))
      .annotated(with: TRArtist.albums.count.aliased("albumCount"))
      .fetchAll(db, as: Counted.self)
    XCTAssertEqual(counted.map(\.albumCount), [2, 3, 0])
    XCTAssertEqual(
      try TRArtist.all().having(TRArtist.albums.count >= 3).fetchAll(db).map(\.artistId), [2])
    XCTAssertEqual(
      try TRArtist.all().having(TRArtist.albums.isEmpty).fetchAll(db).map(\.artistId), [3])
    XCTAssertEqual(
      try TRAlbum.all().order(Column("albumId")).joining(TRAlbum.tracks).fetchAll(db)
        .map(\.albumId), [1, 2, 3, 4])
    XCTAssertEqual(
      try TRArtist.all().order(Column("artistId"))
        .joining(TRArtist.albums.filter(Column("title").hasPrefix("B"))).fetchAll(db)
        .map(\.artistId), [2])
    XCTAssertEqual(
      try TRAlbum.all().filter(TRAlbum.tracks.count == 2).fetchAll(db).map(\.albumId), [1])
    // One child: the same key.
    let firstTrack = TRAlbum.hasOne(TRTrack.self)
    let balls = try XCTUnwrap(db.find(TRAlbum.self, id: 2))
    XCTAssertEqual(try db.fetchOne(firstTrack, of: balls)?.trackId, 3)
    XCTAssertEqual(try TRAlbum.all().joining(firstTrack).fetchCount(db), 4)
    XCTAssertEqual(
      try TRAlbum.all().order(Column("albumId")).fetchAll(db, including: firstTrack)
        .map { $0.child?.albumId }, [1, 2, 3, 4, nil])
  }

  /// A key over two columns, whose `REFERENCES [Edition]` names no parent columns: the
  /// edition's two-column primary key.
  func testCompositeForeignKeys() throws {
    let editions = try TREdition.all().order(Column("albumId"), Column("region"))
      .fetchAll(db, including: TREdition.pressings)
    XCTAssertEqual(
      editions.map { $0.children.map(\.pressingId) }, [[1, 3], [2], [4]])
    let pressings = try TRPressing.all().order(Column("pressingId"))
      .fetchAll(db, including: TRPressing.edition)
    XCTAssertEqual(pressings.map { $0.parent?.label }, ["Atlantic", "Atco", "Atlantic", "RCA"])
    let us = TREdition(albumId: 1, region: "US", label: "Atco")
    XCTAssertEqual(try db.fetchAll(TREdition.pressings, of: us).map(\.copies), [300])
    XCTAssertEqual(
      try TREdition.all().having(TREdition.pressings.sum(Column("copies")) >= 700)
        .order(Column("region")).fetchAll(db).map(\.region), ["EU", "EU"])
    // And the album's editions, through a key on one column of the edition's primary key.
    let first = try XCTUnwrap(db.find(TRAlbum.self, id: 1))
    XCTAssertEqual(try db.fetchAll(TRAlbum.editions, of: first).map(\.region), ["EU", "US"])
  }

  /// The same associations through a queue, a pool and a repository's database.
  func testThroughQueuesPoolsAndRepositories() throws {
    let queue = try DatabaseQueue(path: databasePath)
    let pool = try DatabasePool(path: path("pool.sqlite"))
    try pool.write { db in try db.execute(Self.script) }
    for access in [queue, pool] as [any DatabaseAccess] {
      let counts = try access.read { db in
        try TRArtist.all().order(Column("artistId")).fetchAll(db, including: TRArtist.albums)
          .map(\.children.count)
      }
      XCTAssertEqual(counts, [2, 3, 0])
      let busy = try access.read { db in
        try TRArtist.all().having(TRArtist.albums.count >= 2).fetchCount(db)
      }
      XCTAssertEqual(busy, 2)
    }
    let albums = try Repository<TRAlbum>(pool)
    XCTAssertEqual(try albums.count(), 5)
    let credits = try albums.findAll(including: TRAlbum.artist)
      .sorted { $0.child.albumId < $1.child.albumId }.map { $0.parent?.name }
    XCTAssertEqual(credits, ["AC/DC", "Accept", "Accept", "AC/DC", "Accept"])
    let album = try XCTUnwrap(albums.findById(3))
    XCTAssertEqual(try albums.findOne(TRAlbum.artist, of: album)?.name, "Accept")
    XCTAssertEqual(try albums.findAll(TRAlbum.tracks, of: album).map(\.name), ["Fast As a Shark"])
    let artists = try Repository<TRArtist>(queue)
    XCTAssertEqual(
      try artists.findAll(including: TRArtist.albums).map(\.children.count).sorted(), [0, 2, 3])
  }

  /// The table's keys are read with the model's table, once per connection: a query over
  /// them reads no more of the schema.
  func testTheTablesKeysAreReadOncePerConnection() throws {
    _ = try TRArtist.all().fetchAll(db, including: TRArtist.albums)
    _ = try TRArtist.all().having(TRArtist.albums.count >= 2).fetchAll(db)
    clearExecutedSQL()
    _ = try TRArtist.all().fetchAll(db, including: TRArtist.albums)
    _ = try TRArtist.all().having(TRArtist.albums.count >= 2).fetchAll(db)
    XCTAssertEqual(executedSQL.count, 3, "\(executedSQL)")
    XCTAssertFalse(
      executedSQL.contains { $0.contains("sqlite_schema") || $0.contains("pragma") },
      "\(executedSQL)")
  }

  /// Two keys to the parent: the error lists both and says how to choose; `using:` does.
  func testSeveralForeignKeysToTheParentNeedAChoice() throws {
    let one = TRArtist(artistId: 2, name: "Accept")
    for attempt in [
      { _ = try self.db.fetchAll(TRArtist.collaborations, of: one) },
      { _ = try TRArtist.all().fetchAll(self.db, including: TRArtist.collaborations) },
      { _ = try TRArtist.all().having(TRArtist.collaborations.count > 0).fetchAll(self.db) },
    ] {
      XCTAssertThrowsError(try attempt()) { error in
        guard
          case .ambiguousForeignKeys(let child, let parent, let candidates)? =
            error as? RelationError
        else { return XCTFail("\(error)") }
        XCTAssertEqual([child, parent], ["Collaboration", "Artist"])
        // As the model names the columns, in any order.
        XCTAssertEqual(Set(candidates), [["leadId"], ["guestId"]])
        XCTAssertTrue("\(error)".contains("using:"), "\(error)")
      }
    }
    XCTAssertEqual(try db.fetchAll(TRArtist.leads, of: one).map(\.collaborationId), [2, 3])
    XCTAssertEqual(
      try TRArtist.all().having(TRArtist.leads.count > 0).order(Column("artistId")).fetchAll(db)
        .map(\.artistId), [1, 2])
  }

  /// No key to the parent, declared or in the table: the error names both tables.
  func testNoForeignKeyNamesBothTables() throws {
    let album = try XCTUnwrap(db.find(TRAlbum.self, id: 1))
    for attempt in [
      { _ = try self.db.fetchAll(TRAlbum.reviews, of: album) },
      { _ = try TRAlbum.all().fetchAll(self.db, including: TRAlbum.reviews) },
      { _ = try TRAlbum.all().joining(TRAlbum.reviews).fetchAll(self.db) },
      { _ = try TRAlbum.all().having(TRAlbum.reviews.count > 0).fetchCount(self.db) },
    ] {
      XCTAssertThrowsError(try attempt()) { error in
        XCTAssertEqual(
          error as? RelationError, .noForeignKey(child: "Review", parent: "Album", columns: nil))
        XCTAssertTrue("\(error)".contains("table Review"), "\(error)")
        XCTAssertTrue("\(error)".contains("table Album"), "\(error)")
      }
    }
  }
}
