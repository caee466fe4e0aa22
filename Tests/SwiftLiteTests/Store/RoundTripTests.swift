import Foundation
import XCTest

@testable import SwiftLite

/// Every row of every table of databases another program made, read through `Codable`
/// models as a Swift developer would write them and saved unchanged, leaves every value's
/// bytes as they were (see ``RoundTripFixtures``): by `save`, by `update` and by
/// `update(_:from:)`.
final class RoundTripTests: TemporaryDirectoryTestCase {
  enum Chinook {
    struct Artist: Model {
      var artistId: Int64
      var name: String?
      static let primaryKey = ["artistId"]
    }
    struct Album: Model {
      var albumId: Int64
      var title: String
      var artistId: Int64
      static let primaryKey = ["albumId"]
    }
    struct Track: Model {
      var trackId: Int64
      var name: String
      var albumId: Int64?
      var mediaTypeId: Int64
      var genreId: Int64?
      var composer: String?
      var milliseconds: Int64
      var bytes: Int64?
      var unitPrice: Decimal
      static let primaryKey = ["trackId"]
    }
    struct Employee: Model {
      var employeeId: Int64
      var lastName: String
      var firstName: String
      var title: String?
      var reportsTo: Int64?
      var birthDate: Date?
      var hireDate: Date?
      var email: String?
      static let primaryKey = ["employeeId"]
    }
    struct Customer: Model {
      var customerId: Int64
      var firstName: String
      var lastName: String
      var company: String?
      var email: String
      var supportRepId: Int64?
      static let primaryKey = ["customerId"]
    }
    struct Invoice: Model {
      var invoiceId: Int64
      var customerId: Int64
      var invoiceDate: Date
      var billingCountry: String?
      var total: Double
      static let primaryKey = ["invoiceId"]
    }
    struct InvoiceLine: Model {
      var invoiceLineId: Int64
      var invoiceId: Int64
      var trackId: Int64
      var unitPrice: Decimal
      var quantity: Int
      static let primaryKey = ["invoiceLineId"]
    }
  }

  enum Northwind {
    struct Category: Model {
      var categoryID: Int64?
      var categoryName: String?
      var description: String?
      var picture: Data?
      static let tableName = "Categories"
      static let primaryKey = ["categoryID"]
    }
    struct Customer: Model {
      var customerID: String
      var companyName: String?
      var contactName: String?
      var region: String?  // no declared type
      static let tableName = "Customers"
      static let primaryKey = ["customerID"]
    }
    struct Employee: Model {
      var employeeID: Int64?
      var lastName: String?
      var firstName: String?
      var birthDate: Date?
      var hireDate: Date?
      var photo: Data?
      var notes: String?
      var reportsTo: Int64?
      static let tableName = "Employees"
      static let primaryKey = ["employeeID"]
    }
    struct Order: Model {
      var orderID: Int64?
      var customerID: String?
      var employeeID: Int64?
      var orderDate: Date?
      var requiredDate: Date?
      var shippedDate: Date?
      var freight: Double?
      var shipName: String?
      static let tableName = "Orders"
      static let primaryKey = ["orderID"]
    }
    struct OrderDetail: Model {
      var orderID: Int64
      var productID: Int64
      var unitPrice: Decimal
      var quantity: Int
      var discount: Double
      static let tableName = "Order Details"
      static let primaryKey = ["orderID", "productID"]
    }
    struct Product: Model {
      var productID: Int64?
      var productName: String
      var categoryID: Int64?
      var unitPrice: Decimal?
      var unitsInStock: Int?
      var discontinued: String
      static let tableName = "Products"
      static let primaryKey = ["productID"]
    }
  }

  /// Reads every row of `model`'s table and writes each back unchanged in the three ways.
  static func saveEveryRowUnchanged<M: Model>(_ model: M.Type, _ db: Connection) throws {
    let models = try db.findAll(model)
    XCTAssertFalse(models.isEmpty, "\(model) has rows")
    for row in models {
      try db.save(row)
      try db.update(row)
      XCTAssertEqual(try db.update(row, from: row), [], "\(model): nothing changed")
    }
  }

  func testChinookRowsSavedUnchangedKeepEveryByte() throws {
    let file = try RoundTripFixtures.make(
      RoundTripFixtures.chinook, named: "chinook.db", in: directory)
    let db = try Connection(path: file)
    let before = try RoundTripFixtures.dump(db)
    try Self.saveEveryRowUnchanged(Chinook.Artist.self, db)
    try Self.saveEveryRowUnchanged(Chinook.Album.self, db)
    try Self.saveEveryRowUnchanged(Chinook.Track.self, db)
    try Self.saveEveryRowUnchanged(Chinook.Employee.self, db)
    try Self.saveEveryRowUnchanged(Chinook.Customer.self, db)
    try Self.saveEveryRowUnchanged(Chinook.Invoice.self, db)
    try Self.saveEveryRowUnchanged(Chinook.InvoiceLine.self, db)
    try db.close()
    assertSameBytes(try RoundTripFixtures.dump(Connection(path: file)), before)
  }

  func testNorthwindRowsSavedUnchangedKeepEveryByte() throws {
    let file = try RoundTripFixtures.make(
      RoundTripFixtures.northwind, named: "northwind.db", in: directory)
    let db = try Connection(path: file)
    let before = try RoundTripFixtures.dump(db)
    try Self.saveEveryRowUnchanged(Northwind.Category.self, db)
    try Self.saveEveryRowUnchanged(Northwind.Customer.self, db)
    try Self.saveEveryRowUnchanged(Northwind.Employee.self, db)
    try Self.saveEveryRowUnchanged(Northwind.Order.self, db)
    try Self.saveEveryRowUnchanged(Northwind.OrderDetail.self, db)
    try Self.saveEveryRowUnchanged(Northwind.Product.self, db)
    try db.close()
    assertSameBytes(try RoundTripFixtures.dump(Connection(path: file)), before)
  }

  func testAChangedRowChangesOnlyWhatChanged() throws {
    let file = try RoundTripFixtures.make(
      RoundTripFixtures.northwind, named: "northwind.db", in: directory)
    let db = try Connection(path: file)
    let before = try RoundTripFixtures.dump(db)
    let original = try XCTUnwrap(try db.find(Northwind.Order.self, id: 10249))
    var order = original
    order.shippedDate = order.shippedDate?.addingTimeInterval(86_400)
    XCTAssertEqual(try db.update(order, from: original), ["ShippedDate"])
    let after = try RoundTripFixtures.dump(db)
    let changed = zip(before, after).filter { !$0.0.utf8.elementsEqual($0.1.utf8) }
    XCTAssertEqual(
      changed.map(\.1),
      ["10249|'ANATR'|2|'2016-07-05'|'2016-08-16'|'2016-07-11'|11|'Toms Spezialitäten'"])
  }
}
