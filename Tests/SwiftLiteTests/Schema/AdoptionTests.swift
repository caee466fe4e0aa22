import Foundation
import SwiftLite
import XCTest

/// Taking a table another program made under management, on purpose, without losing what it
/// has that the model does not declare.
final class AdoptionTests: ModelTestCase {
  private static let trackSQL = """
    CREATE TABLE album (AlbumId INTEGER PRIMARY KEY, Title NVARCHAR(160) NOT NULL);
    CREATE TABLE track (
      TrackId INTEGER PRIMARY KEY,
      Name NVARCHAR(200) NOT NULL,
      AlbumId INTEGER REFERENCES album (AlbumId) ON DELETE CASCADE,
      Milliseconds INTEGER NOT NULL DEFAULT 0,
      Genre VARCHAR(40));
    CREATE INDEX ifk_track_album ON track (AlbumId);
    INSERT INTO album VALUES (1, 'Let There Be Rock');
    INSERT INTO track VALUES (1, 'Go Down', 1, 331180, 'Rock'), (2, 'Bad Boy Boogie', 1, 267728, NULL);
    """

  struct Track: Model, Equatable {
    var trackId: Int64?
    var name: String
    var albumId: Int64?
    var milliseconds: Int
    var genre: String?
    static let tableName = "track"
    static let primaryKey = ["trackId"]
  }

  /// The same table, one column fewer: a change that needs a rebuild.
  struct TrackWithoutGenre: Model, Equatable {
    var trackId: Int64?
    var name: String
    var albumId: Int64?
    var milliseconds: Int
    static let tableName = "track"
    static let primaryKey = ["trackId"]
    static let droppableColumns: Set<String> = ["Genre"]
  }

  /// The same table, one property more: a column that ALTER TABLE can add.
  struct TrackWithRating: Model, Equatable {
    var trackId: Int64?
    var name: String
    var albumId: Int64?
    var milliseconds: Int
    var genre: String?
    var rating: Int?
    static let tableName = "track"
    static let primaryKey = ["trackId"]
  }

  private func makeTracks() throws -> Connection {
    let db = try open()
    try db.execute(Self.trackSQL)
    return db
  }

  struct Category: Model {
    var id: Int64?
    var name: String
    static let tableName = "category"
    static let primaryKey = ["id"]
  }

  struct Product: Model {
    var id: Int64?
    var categoryID: Int64?
    static let tableName = "product"
    static let primaryKey = ["id"]
    static let foreignKeys = [ForeignKey(["categoryID"], references: "category")]
  }

  /// A foreign key written without parent columns is the same key as one naming the
  /// parent's primary key: adopting asks for no rebuild.
  func testAForeignKeyWithImpliedParentColumnsEqualsOneNamingThePrimaryKey() throws {
    let db = try open()
    try db.execute(
      """
      CREATE TABLE category (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE product (id INTEGER PRIMARY KEY, categoryID INTEGER REFERENCES category(id));
      """)
    let plan = try db.adoptionPlan(for: Product.self)
    XCTAssertNotEqual(plan.strategy, .rebuild, "\(plan)")
    XCTAssertFalse("\(plan)".contains("foreign key"), "\(plan)")
    try db.adopt(Product.self)
    XCTAssertFalse(try db.needsMigration(Product.self))
    try db.close()
  }

  func testATableThatDiffersOnlyInWhatTheModelDoesNotDeclareIsAdoptedByRecordingIt() throws {
    let db = try makeTracks()
    let tableSQL = try db.storedSQL("track")
    let plan = try db.adoptionPlan(for: Track.self)
    XCTAssertEqual(plan.strategy, .none, "\(plan)")
    XCTAssertTrue(plan.kept.contains("declared type NVARCHAR(200) of Name"), "\(plan.kept)")
    XCTAssertTrue(plan.kept.contains("DEFAULT 0 of Milliseconds"), "\(plan.kept)")
    XCTAssertTrue(
      plan.kept.contains("foreign key (AlbumId) REFERENCES album"), "\(plan.kept)")
    XCTAssertTrue(plan.kept.contains("index ifk_track_album"), "\(plan.kept)")
    XCTAssertTrue("\(plan)".contains("keeps"), "\(plan)")
    // Planning wrote nothing.
    XCTAssertFalse(try SchemaInspector(db).tableExists(AutoMigration.recordTable))

    try db.adopt(Track.self)
    XCTAssertEqual(try db.storedSQL("track"), tableSQL, "adopting rewrote nothing")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT origin FROM swiftlite_schema WHERE table_name = 'track'"),
      "adopted")
    XCTAssertFalse(try db.needsMigration(Track.self))
    XCTAssertEqual(
      try db.findAll(Track.self, orderBy: "TrackId").map(\.name), ["Go Down", "Bad Boy Boogie"])

    // Managed from now on: a new property is added with ALTER TABLE, the rest kept.
    let later = try open()
    XCTAssertEqual(try later.migrate(TrackWithRating.self).strategy, .alter)
    XCTAssertEqual(
      try later.columnNames("track"),
      ["TrackId", "Name", "AlbumId", "Milliseconds", "Genre", "rating"])
    try later.save(
      TrackWithRating(
        trackId: 3, name: "Overdose", albumId: 1, milliseconds: 369_319, genre: nil, rating: 5))
    XCTAssertEqual(try later.count(TrackWithRating.self), 3)
    XCTAssertFalse(try later.needsMigration(TrackWithRating.self))
  }

  func testARebuildOfAnAdoptedTableKeepsItsForeignKeysIndexesDefaultsAndTypes() throws {
    let db = try makeTracks()
    try db.adopt(Track.self)
    try db.close()

    let later = try open()
    let plan = try later.migrationPlan(for: TrackWithoutGenre.self)
    XCTAssertEqual(plan.strategy, .rebuild, "\(plan)")
    try later.migrate(TrackWithoutGenre.self)
    XCTAssertEqual(try later.columnNames("track"), ["TrackId", "Name", "AlbumId", "Milliseconds"])
    let columns = try later.query("PRAGMA table_info(track)").map {
      try $0.get(String.self, "type") + " " + ($0.get(String?.self, "dflt_value") ?? "-")
    }
    XCTAssertEqual(columns, ["INTEGER -", "NVARCHAR(200) -", "INTEGER -", "INTEGER 0"])
    XCTAssertEqual(try later.indexNames("track"), ["ifk_track_album"])
    let key = try XCTUnwrap(later.queryFirst("PRAGMA foreign_key_list(track)"))
    XCTAssertEqual(try key.get(String.self, "table"), "album")
    XCTAssertEqual(try key.get(String.self, "on_delete"), "CASCADE")
    XCTAssertEqual(
      try later.findAll(TrackWithoutGenre.self, orderBy: "TrackId").map(\.milliseconds),
      [331_180, 267_728])
    // The kept foreign key still cascades.
    try later.run("DELETE FROM album WHERE AlbumId = 1")
    XCTAssertEqual(try later.count(TrackWithoutGenre.self), 0)
  }

  func testARebuildThatWouldDropACheckIsRefusedUntilPermitted() throws {
    struct Line: Model {
      var id: Int64
      var quantity: Int
      var note: String?
      static let tableName = "line"
      static let primaryKey = ["id"]
    }
    struct LineWithoutNote: Model {
      var id: Int64
      var quantity: Int
      static let tableName = "line"
      static let primaryKey = ["id"]
      static let droppableColumns: Set<String> = ["note"]
    }
    struct LineWithoutNoteRebuilt: Model {
      var id: Int64
      var quantity: Int
      static let tableName = "line"
      static let primaryKey = ["id"]
      static let droppableColumns: Set<String> = ["note"]
      static let columnConstraints: [String: [ColumnConstraint]] = [
        "quantity": [.check("quantity > 0")]
      ]
      static let allowsRebuildingAdoptedTable = true
    }
    let db = try open()
    try db.execute(
      """
      CREATE TABLE line (id INTEGER PRIMARY KEY, quantity INTEGER NOT NULL CHECK (quantity > 0), note TEXT);
      INSERT INTO line VALUES (1, 2, 'x');
      """)
    try db.adopt(Line.self)
    let before = try db.snapshot()
    guard
      case .rebuildWouldDropConstraints(let table, _, let clauses, _) = thrownError(
        MigrationError.self, { try db.migrate(LineWithoutNote.self) })
    else { return XCTFail("expected rebuildWouldDropConstraints") }
    XCTAssertEqual(table, "line")
    XCTAssertEqual(clauses, ["CHECK"])
    XCTAssertEqual(try db.snapshot(), before)

    // Declared in the model and permitted, the rebuild goes through and the CHECK holds.
    try db.migrate(LineWithoutNoteRebuilt.self)
    XCTAssertEqual(try db.columnNames("line"), ["id", "quantity"])
    XCTAssertThrowsError(try db.save(LineWithoutNoteRebuilt(id: 2, quantity: 0)))
  }

  func testAModelThatDoesNotFitCannotBeAdopted() throws {
    struct Wrong: Model {
      var trackId: Int64
      var name: Int  // NVARCHAR
      static let tableName = "track"
      static let primaryKey = ["trackId"]
    }
    let db = try makeTracks()
    let before = try db.snapshot()
    guard case .incompatibleTable = thrownError(ModelError.self, { try db.adopt(Wrong.self) })
    else { return XCTFail("expected incompatibleTable") }
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertEqual(
      thrownError(ModelError.self) { try db.adopt(Track.self, target: "x") },
      .tableNotFound(table: "track_x"))
  }

  func testAdoptionCarriesARenamedPropertysValues() throws {
    struct Person: Model, Equatable {
      var id: Int64?
      var fullName: String
      static let tableName = "person"
      static let primaryKey = ["id"]
      static let renamedProperties = ["fullName": "name"]
    }
    let db = try open()
    try db.execute(
      "CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO person VALUES (1, 'Ann')"
    )
    try db.adopt(Person.self)
    XCTAssertEqual(try db.columnNames("person"), ["id", "fullName"])
    XCTAssertEqual(try db.findAll(Person.self), [Person(id: 1, fullName: "Ann")])
  }

  func testATableAnotherProgramMadeAgainIsNoLongerManaged() throws {
    struct Item: Model {
      var id: Int64?
      var name: String
      static let tableName = "item"
      static let primaryKey = ["id"]
    }
    let db = try open()
    try db.save(Item(id: nil, name: "a"))
    // Another program drops the table and makes its own, under the same name.
    let other = try open()
    try other.execute(
      """
      DROP TABLE item;
      CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (name <> ''), legacy TEXT);
      """)
    let tableSQL = try other.storedSQL("item")
    let later = try open()
    try later.save(Item(id: nil, name: "b"))
    XCTAssertEqual(
      try later.storedSQL("item"), tableSQL, "SwiftLite changed a table it did not make")
    XCTAssertEqual(
      thrownError(MigrationError.self) { try later.migrate(Item.self) }, .notManaged(table: "item"))
    XCTAssertThrowsError(try later.save(Item(id: nil, name: "")), "the other program's CHECK holds")
  }

  func testARecordUnderAnotherSpellingOfTheNameIsOneRecord() throws {
    struct Lower: Model {
      var id: Int64?
      static let tableName = "item"
      static let primaryKey = ["id"]
    }
    struct Upper: Model {
      var id: Int64?
      static let tableName = "ITEM"
      static let primaryKey = ["id"]
    }
    let db = try open()
    try db.save(Lower(id: nil))
    try open().save(Upper(id: nil))
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM swiftlite_schema"), 1)
    try db.dropTable(for: Upper.self)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM swiftlite_schema"), 0)
  }
}
