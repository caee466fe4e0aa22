import Foundation
import SwiftLite

/// A walk through a database another program made: the store's SQL script creates it (as
/// that program would), then models are mapped onto its tables as they are, read from a
/// read-only connection, written through a queue, and the plan that adopting a table would
/// follow is shown. The schema ends exactly as it began.
public struct ExistingDatabaseDemo {
  /// The database file.
  public let path: String
  private let say: (String) -> Void

  /// A demo over a file.
  /// - Parameters:
  ///   - path: the database file; made anew from the script on each run.
  ///   - output: where to print each line; `print` by default.
  public init(path: String, output: @escaping (String) -> Void = { print($0) }) {
    self.path = path
    self.say = output
  }

  /// The SQL script that creates the music store, shipped with the sample.
  /// - Throws: when the script cannot be read.
  public static func script() throws -> String {
    guard let url = Bundle.module.url(forResource: "music-store", withExtension: "sql") else {
      throw CocoaError(.fileNoSuchFile)
    }
    return try String(contentsOf: url, encoding: .utf8)
  }

  /// Runs every step.
  /// - Throws: `SQLiteError`, ``ModelError`` or ``MigrationError`` from SwiftLite.
  public func run() throws {
    // 1. Another program makes the database.
    try? FileManager.default.removeItem(atPath: path)
    do {
      let maker = try Connection(path: path)
      try maker.execute(try Self.script())
      try maker.close()
    }
    say("Database: \(path)")
    let schemaBefore = try schema()
    say(
      "Tables: "
        + schemaBefore.filter { $0.hasPrefix("table") }.map { $0.split(separator: "|")[1] }.joined(
          separator: ", "))

    // 2. Read it through models on a read-only connection: nothing can be written.
    let reader = try Connection(path: path, options: .readOnly)
    say("Artists:")
    for artist in try reader.findAll(Artist.self, orderBy: "Name") {
      say("  #\(artist.artistId) \(artist.name ?? "?")")
    }
    let albums = try reader.query(
      """
      SELECT ar.Name AS artist, count(*) AS albums FROM Album al
      JOIN Artist ar ON ar.ArtistId = al.ArtistId GROUP BY ar.ArtistId ORDER BY albums DESC, artist
      """)
    say(
      "Albums per artist (raw SQL): "
        + (try albums.map {
          "\(try $0.get(String.self, "artist")) \(try $0.get(Int.self, "albums"))"
        }.joined(separator: ", ")))
    let day = Date.FormatStyle(date: .numeric, time: .omitted, timeZone: .gmt)
      .locale(Locale(identifier: "en_US_POSIX"))
    say("Customers (dates as the store wrote them, read as Date):")
    for customer in try reader.findAll(Customer.self, orderBy: "CustomerId") {
      say(
        "  \(customer.firstName) \(customer.lastName), \(customer.country), since "
          + customer.createdAt.formatted(day))
    }
    let january = try reader.findAll(
      Invoice.self, where: "InvoiceDate >= ? AND InvoiceDate < ?", ["2021-01-01", "2021-02-01"],
      orderBy: "InvoiceDate")
    say(
      "January 2021 invoices: "
        + january.map { "#\($0.invoiceId) \($0.total)" }.joined(separator: ", "))
    let lines = try reader.findAll(InvoiceLine.self, orderBy: "InvoiceLineId")
    let revenue = lines.reduce(Decimal(0)) { $0 + $1.unitPrice * Decimal($1.quantity) }
    say("Invoice lines: \(lines.count), revenue \(revenue)")
    try reader.close()

    // 3. Write through the same models, behind a queue: rows change, the schema does not.
    let queue = try DatabaseQueue(path: path)
    let customers = try Repository<Customer>(queue)
    let id = try customers.create(
      Customer(
        firstName: "Ann", lastName: "Lee", email: "ann@example.com", country: "Australia",
        createdAt: Date(timeIntervalSince1970: 1_700_000_000)))
    say("Added customer #\(id); \(try customers.count()) customers now")
    try queue.write { db in
      try db.save(
        InvoiceLine(id: 4, invoiceId: 2, unitPrice: Decimal(string: "0.99")!, quantity: 3))
    }
    do {
      try queue.write { db in
        try db.save(InvoiceLine(id: 5, invoiceId: 2, unitPrice: 1, quantity: 0))
      }
    } catch let error as SQLiteError where error.constraintKind == .check {
      say("The store's own CHECK still holds: \(error.message)")
    }

    // 4. What adopting a table would do: keep everything the model does not declare.
    let plan = try queue.read { db in try db.adoptionPlan(for: InvoiceLine.self) }
    say(plan.description)

    let schemaAfter = try schema()
    say("Schema unchanged: \(schemaAfter == schemaBefore)")
  }

  /// Every schema object as `type|name|sql`.
  private func schema() throws -> [String] {
    let db = try Connection(path: path, options: .readOnly)
    defer { try? db.close() }
    return try db.query("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name").map {
      [
        try $0.get(String.self, "type"), try $0.get(String.self, "name"),
        try $0.get(String?.self, "sql") ?? "",
      ]
      .joined(separator: "|")
    }
  }
}
