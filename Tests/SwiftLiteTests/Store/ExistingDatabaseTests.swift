import Foundation
import SwiftLite
import XCTest

/// Models over a database another program made: declared types such as `NVARCHAR(120)`
/// and `NUMERIC(10,2)`, PascalCase names, named constraints, foreign keys with indexes,
/// CHECK and DEFAULT, a table name with a space, dates in SQLite's own formats.
final class ExistingDatabaseTests: ModelTestCase {
  static let legacySQL = """
    CREATE TABLE [Artist] (
      [ArtistId] INTEGER NOT NULL,
      [Name] NVARCHAR(120),
      CONSTRAINT [PK_Artist] PRIMARY KEY ([ArtistId]));
    CREATE TABLE [Customer] (
      [CustomerId] INTEGER NOT NULL,
      [FirstName] NVARCHAR(40) NOT NULL,
      [LastName] NVARCHAR(20) NOT NULL,
      [Company] NVARCHAR(80),
      [Email] NVARCHAR(60) NOT NULL,
      [Country] NVARCHAR(40) NOT NULL DEFAULT 'USA',
      [CreatedAt] DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
      CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]));
    CREATE UNIQUE INDEX [IX_CustomerEmail] ON [Customer] ([Email]);
    CREATE TABLE [Invoice] (
      [InvoiceId] INTEGER NOT NULL,
      [CustomerId] INTEGER NOT NULL,
      [InvoiceDate] DATETIME NOT NULL,
      [Total] NUMERIC(10,2) NOT NULL,
      [Paid] BOOLEAN NOT NULL DEFAULT 0,
      CONSTRAINT [PK_Invoice] PRIMARY KEY ([InvoiceId]),
      FOREIGN KEY ([CustomerId]) REFERENCES [Customer] ([CustomerId])
        ON DELETE NO ACTION ON UPDATE NO ACTION);
    CREATE INDEX [IFK_InvoiceCustomerId] ON [Invoice] ([CustomerId]);
    CREATE TABLE [Invoice Line] (
      [InvoiceLineId] INTEGER NOT NULL,
      [InvoiceId] INTEGER NOT NULL REFERENCES [Invoice] ([InvoiceId]),
      [UnitPrice] NUMERIC(10,2) NOT NULL,
      [Quantity] INTEGER NOT NULL CHECK ([Quantity] > 0),
      [Discount] REAL NOT NULL DEFAULT 0 CHECK ([Discount] BETWEEN 0 AND 1),
      CONSTRAINT [PK_InvoiceLine] PRIMARY KEY ([InvoiceLineId]));
    CREATE INDEX [IFK_InvoiceLineInvoiceId] ON [Invoice Line] ([InvoiceId]);
    INSERT INTO [Artist] VALUES (1, 'AC/DC'), (2, 'Accept'), (3, NULL);
    INSERT INTO [Customer] VALUES
      (1, 'Luís', 'Gonçalves', 'Embraer', 'luisg@embraer.com.br', 'Brazil', '2021-01-01 00:00:00'),
      (2, 'Leonie', 'Köhler', NULL, 'leonekohler@surfeu.de', 'Germany', '2016-07-04'),
      (3, 'François', 'Tremblay', NULL, 'ftremblay@gmail.com', 'Canada', '2021-03-05 10:20:30.250');
    INSERT INTO [Invoice] VALUES
      (1, 2, '2021-01-01 00:00:00', 1.98, 1),
      (2, 1, '2021-01-02 10:30:00', 25, 0),
      (3, 3, '2021-01-03T08:00:00Z', 5.94, 1);
    INSERT INTO [Invoice Line] VALUES (1, 1, 0.99, 1, 0), (2, 1, 0.99, 1, 0.5), (3, 2, 25, 1, 0);
    """

  /// Creates the legacy database as another program would, and returns its path.
  @discardableResult
  func makeLegacyDatabase(_ name: String = "legacy.sqlite") throws -> String {
    let db = try open(name)
    try db.execute(Self.legacySQL)
    try db.close()
    return path(name)
  }

  // MARK: Models as a Swift developer would write them

  /// Swift-style names over PascalCase columns: matched as SQLite matches names.
  struct Customer: Model, Equatable {
    var customerId: Int64?
    var firstName: String
    var lastName: String
    var company: String?
    var email: String
    var country: String
    var createdAt: Date
    static let primaryKey = ["customerId"]
  }

  /// Only some of the columns: the others are nullable or have defaults.
  struct CustomerName: Model, Equatable {
    var customerId: Int64?
    var firstName: String
    var lastName: String
    var email: String
    static let tableName = "Customer"
    static let primaryKey = ["CustomerId"]  // the column's name works too
  }

  struct Invoice: Model, Equatable {
    var invoiceId: Int64
    var customerId: Int64
    var invoiceDate: Date
    var total: Double
    var paid: Bool
    static let primaryKey = ["invoiceId"]
  }

  struct InvoiceLine: Model, Equatable {
    var id: Int64
    var invoiceId: Int64
    var unitPrice: Decimal
    var quantity: Int
    var discount: Double
    static let tableName = "Invoice Line"
    static let primaryKey = ["InvoiceLineId"]  // the coding key
    enum CodingKeys: String, CodingKey {
      case id = "InvoiceLineId"
      case invoiceId, unitPrice, quantity, discount
    }
  }

  struct Artist: Model, Equatable {
    var artistId: Int64
    var name: String?
    static let primaryKey = ["artistId"]
  }

  // MARK: Reads never write

  func testEveryReadLeavesTheFileByteIdentical() throws {
    let file = try makeLegacyDatabase()
    let before = try Data(contentsOf: URL(fileURLWithPath: file))

    let db = try Connection(path: file)
    XCTAssertEqual(try db.find(Customer.self, id: 2)?.lastName, "Köhler")
    XCTAssertEqual(try db.find(Customer.self, key: [.integer(1)])?.company, "Embraer")
    XCTAssertEqual(try db.findAll(Customer.self, orderBy: "CustomerId").count, 3)
    XCTAssertEqual(
      try db.findAll(Customer.self, where: "Country = ?", ["Canada"]).map(\.firstName), ["François"]
    )
    XCTAssertEqual(try db.count(Invoice.self), 3)
    XCTAssertEqual(try db.count(Invoice.self, where: "Paid"), 2)
    XCTAssertTrue(try db.exists(InvoiceLine.self, id: 3))
    XCTAssertFalse(try db.exists(InvoiceLine.self, key: [.integer(9)]))
    XCTAssertEqual(
      try db.findAll(Artist.self, orderBy: "ArtistId").map(\.name), ["AC/DC", "Accept", nil])
    XCTAssertEqual(try db.findAll(CustomerName.self).count, 3)
    XCTAssertFalse(try db.needsMigration(Customer.self))
    try db.createTable(for: Customer.self)  // checks the model fits; changes nothing
    try db.close()

    let queue = try DatabaseQueue(path: file)
    let repository = try Repository<Invoice>(queue)
    XCTAssertEqual(try repository.findById(2)?.total, 25)
    XCTAssertEqual(try repository.findAll(orderBy: "InvoiceId").map(\.paid), [true, false, true])
    XCTAssertEqual(try repository.findAll(where: "Total > ?", [2]).map(\.invoiceId), [2, 3])
    XCTAssertEqual(try repository.count(), 3)
    XCTAssertEqual(try queue.read { try $0.findAll(InvoiceLine.self).count }, 3)

    // Over a file opened read-only, a Repository is made and reads as well.
    let readOnlyQueue = try DatabaseQueue(path: file, options: .readOnly)
    XCTAssertEqual(try Repository<Customer>(readOnlyQueue).findAll().count, 3)

    let readOnly = try Connection(path: file, options: .readOnly)
    XCTAssertEqual(try readOnly.findAll(Customer.self).count, 3)
    XCTAssertEqual(try readOnly.find(InvoiceLine.self, id: 2)?.discount, 0.5)
    try readOnly.close()

    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
    XCTAssertFalse(
      try SchemaInspector(open("legacy.sqlite")).tableExists(AutoMigration.recordTable))
  }

  func testDeclaredTypesAreJudgedByAffinity() throws {
    try makeLegacyDatabase()
    let db = try open("legacy.sqlite")
    // NUMERIC(10,2) holding the INTEGER 25 and the REAL 1.98 reads as Double and Decimal.
    XCTAssertEqual(
      try db.findAll(Invoice.self, orderBy: "InvoiceId").map(\.total), [1.98, 25, 5.94])
    XCTAssertEqual(
      try db.findAll(InvoiceLine.self, orderBy: "InvoiceLineId").map(\.unitPrice),
      [Decimal(string: "0.99")!, Decimal(string: "0.99")!, 25])
    XCTAssertEqual(
      ColumnAffinity(declaredType: "NVARCHAR(120)"), .text)
    XCTAssertEqual(ColumnAffinity(declaredType: "NUMERIC(10,2)"), .numeric)
    XCTAssertEqual(ColumnAffinity(declaredType: "DATETIME"), .numeric)
    XCTAssertEqual(ColumnAffinity(declaredType: "BOOLEAN"), .numeric)
    XCTAssertEqual(ColumnAffinity(declaredType: "DECIMAL"), .numeric)
    XCTAssertEqual(ColumnAffinity(declaredType: "FLOATING POINT"), .integer)
    XCTAssertEqual(ColumnAffinity(declaredType: "DOUBLE PRECISION"), .real)
    XCTAssertEqual(ColumnAffinity(declaredType: ""), .blob)
    XCTAssertEqual(ColumnAffinity(declaredType: "ANY"), .numeric)
    XCTAssertEqual(ColumnAffinity(declaredType: "ANY", strict: true), .blob)
  }

  func testSQLiteDatesReadAsDates() throws {
    try makeLegacyDatabase()
    let db = try open("legacy.sqlite")
    let dates = try db.findAll(Customer.self, orderBy: "CustomerId").map(\.createdAt)
    XCTAssertEqual(
      dates.map(\.timeIntervalSince1970), [1_609_459_200, 1_467_590_400, 1_614_939_630.25])
    let invoices = try db.findAll(Invoice.self, orderBy: "InvoiceId")
    XCTAssertEqual(invoices[2].invoiceDate.timeIntervalSince1970, 1_609_660_800)
  }

  // MARK: Writes

  func testWritesChangeOnlyTheRowsWrittenAndNeverTheSchema() throws {
    let file = try makeLegacyDatabase()
    let db = try Connection(path: file)
    let schemaBefore = try db.query("SELECT type, name, sql FROM sqlite_schema ORDER BY name")
      .map { try $0.values.map(\.description) }
    let artistsBefore = try db.dump("Artist")

    // Insert: the columns the model lacks take their defaults.
    let id = try db.insert(
      CustomerName(customerId: nil, firstName: "Ann", lastName: "Lee", email: "ann@example.com"))
    XCTAssertEqual(id, 4)
    let row = try XCTUnwrap(
      db.queryFirst("SELECT Country, CreatedAt FROM Customer WHERE CustomerId = 4"))
    XCTAssertEqual(try row.get(String.self, "Country"), "USA")
    XCTAssertNotNil(try row.get(Date.self, "CreatedAt"))

    // Update and save by key leave the other columns as they were.
    try db.update(
      CustomerName(
        customerId: 1, firstName: "Luis", lastName: "Gonçalves", email: "luisg@embraer.com.br"))
    XCTAssertEqual(try db.find(Customer.self, id: 1)?.company, "Embraer")
    try db.save(Artist(artistId: 3, name: "Aerosmith"))
    try db.save(Artist(artistId: 4, name: "Alanis Morissette"))
    XCTAssertEqual(
      try db.dump("Artist"),
      artistsBefore.dropLast() + [
        "INTEGER:3|TEXT:'Aerosmith'", "INTEGER:4|TEXT:'Alanis Morissette'",
      ])
    try db.delete(Artist.self, id: 4)

    // The table's own constraints still hold: a CHECK SwiftLite knows nothing of.
    XCTAssertThrowsError(
      try db.save(InvoiceLine(id: 9, invoiceId: 1, unitPrice: 1, quantity: -1, discount: 0))
    ) { error in
      XCTAssertEqual((error as? SQLiteError)?.constraintKind, .check, "\(error)")
    }
    XCTAssertThrowsError(
      try db.save(InvoiceLine(id: 9, invoiceId: 1, unitPrice: 1, quantity: 1, discount: 3)))
    XCTAssertFalse(try db.exists(InvoiceLine.self, id: 9))
    // And its foreign keys.
    XCTAssertThrowsError(
      try db.insert(InvoiceLine(id: 9, invoiceId: 99, unitPrice: 1, quantity: 1, discount: 0))
    ) { error in
      XCTAssertEqual((error as? SQLiteError)?.constraintKind, .foreignKey, "\(error)")
    }

    let schemaAfter = try db.query("SELECT type, name, sql FROM sqlite_schema ORDER BY name")
      .map { try $0.values.map(\.description) }
    XCTAssertEqual(schemaAfter, schemaBefore)
  }

  func testAWriteTheTableCannotTakeIsRefusedBeforeAnythingIsWritten() throws {
    struct CustomerWithoutEmail: Model {
      var customerId: Int64?
      var firstName: String
      var lastName: String
      static let tableName = "Customer"
      static let primaryKey = ["customerId"]
    }
    try makeLegacyDatabase()
    let db = try open("legacy.sqlite")
    let before = try db.snapshot()
    // Reading works: the model needs only some columns.
    XCTAssertEqual(try db.findAll(CustomerWithoutEmail.self).count, 3)
    let error = thrownError(ModelError.self) {
      try db.insert(CustomerWithoutEmail(customerId: nil, firstName: "A", lastName: "B"))
    }
    guard case .writeRefused(let table, let reason) = error else {
      return XCTFail("expected writeRefused, got \(String(describing: error))")
    }
    XCTAssertEqual(table, "Customer")
    XCTAssertTrue(reason.contains("Email"), reason)
    XCTAssertNotNil(
      thrownError(ModelError.self) {
        try db.save(CustomerWithoutEmail(customerId: nil, firstName: "A", lastName: "B"))
      })
    // Updating the columns it has is fine.
    try db.update(CustomerWithoutEmail(customerId: 2, firstName: "Léonie", lastName: "Köhler"))
    XCTAssertEqual(try db.find(Customer.self, id: 2)?.firstName, "Léonie")
    var after = try db.snapshot()
    after = after.map { $0.replacingOccurrences(of: exactASCII("Léonie"), with: "Leonie") }
    XCTAssertEqual(after, before)
  }

  func testSaveNeedsTheKeyToIdentifyARow() throws {
    struct ByEmail: Model {
      var email: String
      var firstName: String
      var lastName: String
      static let tableName = "Customer"
      static let primaryKey = ["email"]
    }
    struct ByCountry: Model {
      var country: String
      var firstName: String
      var lastName: String
      var email: String
      static let tableName = "Customer"
      static let primaryKey = ["country"]
    }
    try makeLegacyDatabase()
    let db = try open("legacy.sqlite")
    // Email has a unique index: it identifies a row, so save can update by it.
    try db.save(ByEmail(email: "ftremblay@gmail.com", firstName: "Frank", lastName: "Tremblay"))
    XCTAssertEqual(try db.find(Customer.self, id: 3)?.firstName, "Frank")
    // Country does not: reads by it work, save is refused with the reason.
    XCTAssertEqual(try db.find(ByCountry.self, id: "Brazil")?.firstName, "Luís")
    guard
      case .writeRefused(_, let reason) = thrownError(
        ModelError.self,
        {
          try db.save(ByCountry(country: "Peru", firstName: "X", lastName: "Y", email: "x@y"))
        })
    else { return XCTFail("expected writeRefused") }
    XCTAssertTrue(reason.contains("unique"), reason)
  }

  // MARK: Compatibility

  func testAModelThatDoesNotFitGetsOneErrorListingEveryMismatch() throws {
    struct Wrong: Model {
      var invoiceId: Int64
      var total: [UInt8]  // NUMERIC: bytes are neither a number nor text
      var paid: Data  // BOOLEAN
      var notes: String?  // no such column
      static let tableName = "Invoice"
      static let primaryKey = ["invoiceId"]
    }
    let file = try makeLegacyDatabase()
    let before = try Data(contentsOf: URL(fileURLWithPath: file))
    let db = try open("legacy.sqlite")
    let error = thrownError(ModelError.self) { _ = try db.findAll(Wrong.self) }
    guard case .incompatibleTable(let model, let table, let problems) = error else {
      return XCTFail("expected incompatibleTable, got \(String(describing: error))")
    }
    XCTAssertEqual(model, "Wrong")
    XCTAssertEqual(table, "Invoice")
    XCTAssertEqual(problems.count, 3, "\(problems)")
    XCTAssertTrue(problems[0].contains("'total'") && problems[0].contains("NUMERIC"), problems[0])
    XCTAssertTrue(problems[1].contains("'paid'"), problems[1])
    XCTAssertTrue(problems[2].contains("'notes'") && problems[2].contains("ignoredProperties"))
    XCTAssertThrowsError(try db.save(Wrong(invoiceId: 9, total: [1], paid: Data(), notes: nil)))
    try db.close()
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
  }

  func testAMappedTableIsNeverMigratedEvenWhenAsked() throws {
    try makeLegacyDatabase()
    let db = try open("legacy.sqlite")
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(Customer.self) },
      .notManaged(table: "Customer"))
    XCTAssertEqual(
      thrownError(MigrationError.self) { _ = try db.migrationPlan(for: Customer.self) },
      .notManaged(table: "Customer"))
    XCTAssertEqual(try db.columnNames("Customer").first, "CustomerId")
  }

  // MARK: Schema control

  func testAMappedPolicyNeverCreatesTheTable() throws {
    struct Playlist: Model {
      var id: Int64
      var name: String
      static let primaryKey = ["id"]
      static let schemaPolicy = SchemaPolicy.mapped
    }
    let db = try open()
    XCTAssertEqual(
      thrownError(ModelError.self) { _ = try db.findAll(Playlist.self) },
      .tableNotFound(table: "Playlist"))
    XCTAssertEqual(
      thrownError(ModelError.self) { try db.save(Playlist(id: 1, name: "x")) },
      .tableNotFound(table: "Playlist"))
    XCTAssertFalse(try SchemaInspector(db).tableExists("Playlist"))
    try db.execute("CREATE TABLE Playlist (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    try db.save(Playlist(id: 1, name: "x"))
    XCTAssertEqual(try db.count(Playlist.self), 1)
    XCTAssertFalse(try SchemaInspector(db).tableExists(AutoMigration.recordTable))
  }

  func testACreateOnlyPolicyCreatesButReportsDrift() throws {
    struct NoteV1: Model {
      var id: Int64?
      var text: String
      static let tableName = "Note"
      static let primaryKey = ["id"]
      static let schemaPolicy = SchemaPolicy.createOnly
    }
    struct NoteV2: Model {
      var id: Int64?
      var text: String
      var pinned: Bool?
      static let tableName = "Note"
      static let primaryKey = ["id"]
      static let schemaPolicy = SchemaPolicy.createOnly
    }
    let db = try open()
    try db.save(NoteV1(id: nil, text: "a"))
    let later = try open()
    guard
      case .needsMigration(let table, let changes, let reason) = thrownError(
        MigrationError.self, { try later.save(NoteV2(id: nil, text: "b", pinned: true)) })
    else { return XCTFail("expected needsMigration") }
    XCTAssertEqual(table, "Note")
    XCTAssertEqual(changes, ["column pinned added"])
    XCTAssertTrue(reason.contains("createOnly"), reason)
    XCTAssertEqual(try later.columnNames("Note"), ["id", "text"])
    // The explicit call migrates.
    XCTAssertEqual(try later.migrate(NoteV2.self).strategy, .alter)
    try later.save(NoteV2(id: nil, text: "b", pinned: true))
    XCTAssertEqual(try later.count(NoteV2.self), 2)
  }

  func testAutomaticMigrationCanBeTurnedOffForAConnection() throws {
    struct Tag: Model {
      var id: Int64?
      var label: String
      static let primaryKey = ["id"]
    }
    var options = OpenOptions()
    options.automaticMigration = false
    let db = try Connection(path: path(), options: options)
    XCTAssertFalse(db.automaticMigration)
    XCTAssertEqual(
      thrownError(ModelError.self) { try db.save(Tag(id: nil, label: "x")) },
      .tableNotFound(table: "Tag"))
    XCTAssertFalse(try SchemaInspector(db).tableExists("Tag"))
    try db.migrate(Tag.self)
    try db.save(Tag(id: nil, label: "x"))
    XCTAssertEqual(try db.count(Tag.self), 1)

    let queue = try DatabaseQueue(path: path("queue.sqlite"), options: options)
    XCTAssertThrowsError(try queue.write { try $0.save(Tag(id: nil, label: "y")) })
    XCTAssertFalse(try queue.read { try SchemaInspector($0).tableExists("Tag") })
  }

  // MARK: Edge cases

  func testSaveByAUniqueColumnNeverMovesTheRowToAnotherKey() throws {
    struct Account: Model {
      var id: Int64?
      var email: String
      var name: String
      static let tableName = "account"
      static let primaryKey = ["email"]
    }
    let db = try open()
    try db.execute(
      """
      CREATE TABLE account(id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
      CREATE TABLE login(id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES account(id));
      INSERT INTO account VALUES (7, 'a@x', 'A');
      INSERT INTO login VALUES (1, 7);
      """)
    try db.save(Account(id: nil, email: "a@x", name: "A2"))
    try db.update(Account(id: nil, email: "a@x", name: "A3"))
    XCTAssertEqual(try db.dump("account"), ["INTEGER:7|TEXT:'a@x'|TEXT:'A3'"])
    try db.save(Account(id: nil, email: "b@x", name: "B"))
    XCTAssertEqual(try db.scalar(Int.self, "SELECT id FROM account WHERE email = 'b@x'"), 8)
  }

  func testAModelOverAViewReadsIt() throws {
    struct Expensive: Model, Equatable {
      var invoiceId: Int64
      var total: Double
      static let tableName = "ExpensiveInvoice"
      static let primaryKey = ["invoiceId"]
    }
    try makeLegacyDatabase()
    let db = try open("legacy.sqlite")
    try db.execute(
      "CREATE VIEW ExpensiveInvoice AS SELECT InvoiceId, Total FROM Invoice WHERE Total > 5")
    XCTAssertEqual(
      try db.findAll(Expensive.self, orderBy: "InvoiceId"),
      [Expensive(invoiceId: 2, total: 25), Expensive(invoiceId: 3, total: 5.94)])
    XCTAssertEqual(try db.count(Expensive.self), 2)
    XCTAssertThrowsError(try db.save(Expensive(invoiceId: 9, total: 9)))
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(Expensive.self) },
      .notManaged(table: "ExpensiveInvoice"))
    XCTAssertFalse(try SchemaInspector(db).tableExists(AutoMigration.recordTable))
  }

  func testAWithoutRowIDTableHasNoRowIDToAssign() throws {
    struct Item: Model {
      var name: String
      static let tableName = "item"
      static let primaryKey = ["name"]
    }
    let db = try open()
    try db.execute(
      "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE) WITHOUT ROWID")
    guard
      case .writeRefused(_, let reason) = thrownError(
        ModelError.self,
        {
          try db.insert(Item(name: "a"))
        })
    else { return XCTFail("expected writeRefused") }
    XCTAssertTrue(reason.contains("id"), reason)
  }
}
