import Foundation
import XCTest

@testable import SwiftLite

/// Databases another program made, in the manner of the Chinook and Northwind samples:
/// bracketed names, `NVARCHAR`, `DATETIME` text with and without a time, `NUMERIC` holding
/// integers and reals, `BLOB`s (empty ones too), a column with no type, NULLs, text with
/// quotes, newlines and a combining accent.
enum RoundTripFixtures {
  static let chinook = """
    CREATE TABLE [Artist] ([ArtistId] INTEGER NOT NULL, [Name] NVARCHAR(120),
      CONSTRAINT [PK_Artist] PRIMARY KEY ([ArtistId]));
    CREATE TABLE [Album] ([AlbumId] INTEGER NOT NULL, [Title] NVARCHAR(160) NOT NULL,
      [ArtistId] INTEGER NOT NULL, CONSTRAINT [PK_Album] PRIMARY KEY ([AlbumId]),
      FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]));
    CREATE TABLE [Track] ([TrackId] INTEGER NOT NULL, [Name] NVARCHAR(200) NOT NULL,
      [AlbumId] INTEGER, [MediaTypeId] INTEGER NOT NULL, [GenreId] INTEGER,
      [Composer] NVARCHAR(220), [Milliseconds] INTEGER NOT NULL, [Bytes] INTEGER,
      [UnitPrice] NUMERIC(10,2) NOT NULL, CONSTRAINT [PK_Track] PRIMARY KEY ([TrackId]));
    CREATE TABLE [Employee] ([EmployeeId] INTEGER NOT NULL, [LastName] NVARCHAR(20) NOT NULL,
      [FirstName] NVARCHAR(20) NOT NULL, [Title] NVARCHAR(30), [ReportsTo] INTEGER,
      [BirthDate] DATETIME, [HireDate] DATETIME, [Email] NVARCHAR(60),
      CONSTRAINT [PK_Employee] PRIMARY KEY ([EmployeeId]));
    CREATE TABLE [Customer] ([CustomerId] INTEGER NOT NULL, [FirstName] NVARCHAR(40) NOT NULL,
      [LastName] NVARCHAR(20) NOT NULL, [Company] NVARCHAR(80), [Email] NVARCHAR(60) NOT NULL,
      [SupportRepId] INTEGER, CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]));
    CREATE TABLE [Invoice] ([InvoiceId] INTEGER NOT NULL, [CustomerId] INTEGER NOT NULL,
      [InvoiceDate] DATETIME NOT NULL, [BillingCountry] NVARCHAR(40),
      [Total] NUMERIC(10,2) NOT NULL, CONSTRAINT [PK_Invoice] PRIMARY KEY ([InvoiceId]));
    CREATE TABLE [InvoiceLine] ([InvoiceLineId] INTEGER NOT NULL, [InvoiceId] INTEGER NOT NULL,
      [TrackId] INTEGER NOT NULL, [UnitPrice] NUMERIC(10,2) NOT NULL,
      [Quantity] INTEGER NOT NULL, CONSTRAINT [PK_InvoiceLine] PRIMARY KEY ([InvoiceLineId]));

    INSERT INTO [Artist] VALUES (1, 'AC/DC'), (2, 'Accept'), (3, NULL), (4, 'Mötley Crüe');
    INSERT INTO [Album] VALUES (1, 'For Those About To Rock We Salute You', 1),
      (2, 'Balls to the Wall', 2), (3, 'Restless and Wild', 2);
    INSERT INTO [Track] VALUES
      (1, 'For Those About To Rock (We Salute You)', 1, 1, 1,
        'Angus Young, Malcolm Young, Brian Johnson', 343719, 11170334, 0.99),
      (2, 'Balls to the Wall', 2, 2, 1, NULL, 342562, 5510424, 0.99),
      (3, 'Fast As a Shark', 3, 2, 1, 'F. Baltes, S. Kaufman, U. Dirkscneider & W. Hoffman',
        230619, 3990994, 1.99),
      (4, 'Put The Finger On You', NULL, 1, NULL, NULL, 205662, NULL, 2);
    INSERT INTO [Employee] VALUES
      (1, 'Adams', 'Andrew', 'General Manager', NULL, '1962-02-18 00:00:00',
        '2002-08-14 00:00:00', 'andrew@chinookcorp.com'),
      (2, 'Edwards', 'Nancy', 'Sales Manager', 1, '1958-12-08 00:00:00',
        '2002-05-01 00:00:00', 'nancy@chinookcorp.com'),
      (3, 'Peacock', 'Jane', NULL, 2, NULL, '2002-04-01 00:00:00', NULL);
    INSERT INTO [Customer] VALUES
      (1, 'Luís', 'Gonçalves', 'Embraer - Empresa Brasileira de Aeronáutica S.A.',
        'luisg@embraer.com.br', 3),
      (2, 'Leonie', 'Köhler', NULL, 'leonekohler@surfeu.de', 2),
      (3, 'François', 'Tremblay', 'O''Reilly', 'ftremblay@gmail.com', NULL);
    INSERT INTO [Invoice] VALUES
      (1, 2, '2009-01-01 00:00:00', 'Germany', 1.98),
      (2, 1, '2009-01-02 00:00:00', 'Brazil', 3.96),
      (3, 3, '2009-01-03 00:00:00', NULL, 25);
    INSERT INTO [InvoiceLine] VALUES (1, 1, 1, 0.99, 1), (2, 1, 2, 0.99, 1), (3, 3, 4, 25, 1);
    """

  static let northwind = """
    CREATE TABLE [Categories] ([CategoryID] INTEGER PRIMARY KEY AUTOINCREMENT,
      [CategoryName] TEXT, [Description] TEXT, [Picture] BLOB);
    CREATE TABLE [Customers] ([CustomerID] TEXT, [CompanyName] TEXT, [ContactName] TEXT,
      [Region], PRIMARY KEY (`CustomerID`));
    CREATE TABLE [Employees] ([EmployeeID] INTEGER PRIMARY KEY AUTOINCREMENT,
      [LastName] TEXT, [FirstName] TEXT, [BirthDate] DATE, [HireDate] DATE, [Photo] BLOB,
      [Notes] TEXT, [ReportsTo] INTEGER);
    CREATE TABLE [Orders] ([OrderID] INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
      [CustomerID] TEXT, [EmployeeID] INTEGER, [OrderDate] DATETIME, [RequiredDate] DATETIME,
      [ShippedDate] DATETIME, [Freight] NUMERIC DEFAULT 0, [ShipName] TEXT);
    CREATE TABLE [Order Details] ([OrderID] INTEGER NOT NULL, [ProductID] INTEGER NOT NULL,
      [UnitPrice] NUMERIC NOT NULL DEFAULT 0, [Quantity] INTEGER NOT NULL DEFAULT 1,
      [Discount] REAL NOT NULL DEFAULT 0, PRIMARY KEY ("OrderID", "ProductID"),
      CHECK ([Discount] >= (0) AND [Discount] <= (1)), CHECK ([Quantity] > (0)));
    CREATE TABLE [Products] ([ProductID] INTEGER PRIMARY KEY AUTOINCREMENT,
      [ProductName] TEXT NOT NULL, [CategoryID] INTEGER, [UnitPrice] NUMERIC DEFAULT 0,
      [UnitsInStock] INTEGER DEFAULT 0, [Discontinued] TEXT NOT NULL DEFAULT '0');

    INSERT INTO [Categories] VALUES
      (1, 'Beverages', 'Soft drinks, coffees, teas, beers, and ales', x'151C2F00020000000D000E00'),
      (2, 'Condiments', 'Sweet and savory sauces, relishes, spreads, and seasonings', x''),
      (3, 'Confections', NULL, NULL);
    INSERT INTO [Customers] VALUES ('ALFKI', 'Alfreds Futterkiste', 'Maria Anders', NULL),
      ('ANATR', 'Ana Trujillo Emparedados y helados', 'Ana Trujillo', 'DF'),
      ('BOTTM', 'Bottom-Dollar Markets', 'Elizabeth Lincoln', 'BC'),
      ('CAFE', 'Cafe' || char(769) || ' du Monde  ', NULL, NULL);
    INSERT INTO [Employees] VALUES
      (1, 'Davolio', 'Nancy', '1948-12-08', '1992-05-01', x'FFD8FFE0',
        'Education includes a BA in psychology.' || char(10) || 'She is "Nancy".', 2),
      (2, 'Fuller', 'Andrew', '1952-02-19', '1992-08-14', NULL, NULL, NULL);
    INSERT INTO [Orders] VALUES
      (10248, 'ALFKI', 1, '2016-07-04', '2016-08-01', '2016-07-16', 32.38, 'Vins et alcools'),
      (10249, 'ANATR', 2, '2016-07-05', '2016-08-16', '2016-07-10', 11, 'Toms Spezialitäten'),
      (10250, 'BOTTM', 1, '2016-07-08', '2016-08-05', NULL, 65.83, NULL);
    INSERT INTO [Order Details] VALUES (10248, 11, 14, 12, 0), (10248, 42, 9.8, 10, 0),
      (10249, 14, 18.6, 9, 0.15), (10250, 41, 7.7, 10, 0.25);
    INSERT INTO [Products] VALUES (1, 'Chai', 1, 18, 39, '0'), (2, 'Chang', 1, 19, 17, '0'),
      (3, 'Aniseed Syrup', 2, 10.5, 13, '0'), (4, 'Chef Anton''s Gumbo Mix', 2, 21.35, 0, '1');
    """

  /// A file made by `sql` in `directory`, closed again, as another program leaves it.
  static func make(_ sql: String, named name: String, in directory: URL) throws -> String {
    let path = directory.appendingPathComponent(name).path
    let db = try Connection(path: path)
    try db.execute(sql)
    try db.close()
    return path
  }

  /// Every row of every table, each column through `quote()`, in rowid order: the bytes
  /// of every value, and its storage class.
  static func dump(_ db: Connection) throws -> [String] {
    var lines: [String] = []
    let tables = try db.query(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        + "ORDER BY name"
    ).map { try $0.get(String.self, at: 0) }
    for table in tables {
      let columns = try db.columnNames(table).map { "quote(" + SQLIdentifier.quote($0) + ")" }
      lines.append("-- " + table)
      lines += try db.query(
        "SELECT " + columns.joined(separator: " || '|' || ") + " FROM "
          + SQLIdentifier.quote(table) + " ORDER BY rowid"
      ).map { try $0.get(String.self, at: 0) }
    }
    lines += try db.query("SELECT type, name, sql FROM sqlite_schema ORDER BY name").map {
      try $0.values.map(\.description).joined(separator: " | ")
    }
    return lines
  }
}
