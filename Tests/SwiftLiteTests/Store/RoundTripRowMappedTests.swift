import Foundation
import XCTest

@testable import SwiftLite

/// ``RoundTripTests`` through ``RowMapped`` models: their own reads and writes, with other
/// type choices (a date read as its `String`, `Decimal` and `Double` swapped, bytes as
/// `[UInt8]`).
final class RoundTripRowMappedTests: TemporaryDirectoryTestCase {
  enum Chinook {
    struct Artist: Model, RowMapped {
      var artistId: Int64
      var name: String?
      static let primaryKey = ["artistId"]
      static let mappedColumns = ["artistId", "name"]
      init(row: MappedRow) throws {
        artistId = try row.get(0)
        name = try row.get(1)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(artistId, at: 0)
        try row.set(name, at: 1)
      }
    }
    struct Album: Model, RowMapped {
      var albumId: Int64
      var title: String
      var artistId: Int64
      static let primaryKey = ["albumId"]
      static let mappedColumns = ["albumId", "title", "artistId"]
      init(row: MappedRow) throws {
        albumId = try row.get(0)
        title = try row.get(1)
        artistId = try row.get(2)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(albumId, at: 0)
        try row.set(title, at: 1)
        try row.set(artistId, at: 2)
      }
    }
    struct Track: Model, RowMapped {
      var trackId: Int64
      var name: String
      var albumId: Int64?
      var mediaTypeId: Int64
      var genreId: Int64?
      var composer: String?
      var milliseconds: Int
      var bytes: Int?
      var unitPrice: Double
      static let primaryKey = ["trackId"]
      static let mappedColumns = [
        "trackId", "name", "albumId", "mediaTypeId", "genreId", "composer", "milliseconds", "bytes",
        "unitPrice",
      ]
      init(row: MappedRow) throws {
        trackId = try row.get(0)
        name = try row.get(1)
        albumId = try row.get(2)
        mediaTypeId = try row.get(3)
        genreId = try row.get(4)
        composer = try row.get(5)
        milliseconds = try row.get(6)
        bytes = try row.get(7)
        unitPrice = try row.get(8)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(trackId, at: 0)
        try row.set(name, at: 1)
        try row.set(albumId, at: 2)
        try row.set(mediaTypeId, at: 3)
        try row.set(genreId, at: 4)
        try row.set(composer, at: 5)
        try row.set(milliseconds, at: 6)
        try row.set(bytes, at: 7)
        try row.set(unitPrice, at: 8)
      }
    }
    struct Employee: Model, RowMapped {
      var employeeId: Int64
      var lastName: String
      var firstName: String
      var title: String?
      var reportsTo: Int64?
      var birthDate: Date?
      var hireDate: Date?
      var email: String?
      static let primaryKey = ["employeeId"]
      static let mappedColumns = [
        "employeeId", "lastName", "firstName", "title", "reportsTo", "birthDate", "hireDate",
        "email",
      ]
      init(row: MappedRow) throws {
        employeeId = try row.get(0)
        lastName = try row.get(1)
        firstName = try row.get(2)
        title = try row.get(3)
        reportsTo = try row.get(4)
        birthDate = try row.get(5)
        hireDate = try row.get(6)
        email = try row.get(7)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(employeeId, at: 0)
        try row.set(lastName, at: 1)
        try row.set(firstName, at: 2)
        try row.set(title, at: 3)
        try row.set(reportsTo, at: 4)
        try row.set(birthDate, at: 5)
        try row.set(hireDate, at: 6)
        try row.set(email, at: 7)
      }
    }
    struct Customer: Model, RowMapped {
      var customerId: Int64
      var firstName: String
      var lastName: String
      var company: String?
      var email: String
      var supportRepId: Int64?
      static let primaryKey = ["customerId"]
      static let mappedColumns = [
        "customerId", "firstName", "lastName", "company", "email", "supportRepId",
      ]
      init(row: MappedRow) throws {
        customerId = try row.get(0)
        firstName = try row.get(1)
        lastName = try row.get(2)
        company = try row.get(3)
        email = try row.get(4)
        supportRepId = try row.get(5)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(customerId, at: 0)
        try row.set(firstName, at: 1)
        try row.set(lastName, at: 2)
        try row.set(company, at: 3)
        try row.set(email, at: 4)
        try row.set(supportRepId, at: 5)
      }
    }
    struct Invoice: Model, RowMapped {
      var invoiceId: Int64
      var customerId: Int64
      var invoiceDate: String
      var billingCountry: String?
      var total: Decimal
      static let primaryKey = ["invoiceId"]
      static let mappedColumns = [
        "invoiceId", "customerId", "invoiceDate", "billingCountry", "total",
      ]
      init(row: MappedRow) throws {
        invoiceId = try row.get(0)
        customerId = try row.get(1)
        invoiceDate = try row.get(2)
        billingCountry = try row.get(3)
        total = try row.get(4)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(invoiceId, at: 0)
        try row.set(customerId, at: 1)
        try row.set(invoiceDate, at: 2)
        try row.set(billingCountry, at: 3)
        try row.set(total, at: 4)
      }
    }
    struct InvoiceLine: Model, RowMapped {
      var invoiceLineId: Int64
      var invoiceId: Int64
      var trackId: Int64
      var unitPrice: Decimal
      var quantity: Int64
      static let primaryKey = ["invoiceLineId"]
      static let mappedColumns = ["invoiceLineId", "invoiceId", "trackId", "unitPrice", "quantity"]
      init(row: MappedRow) throws {
        invoiceLineId = try row.get(0)
        invoiceId = try row.get(1)
        trackId = try row.get(2)
        unitPrice = try row.get(3)
        quantity = try row.get(4)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(invoiceLineId, at: 0)
        try row.set(invoiceId, at: 1)
        try row.set(trackId, at: 2)
        try row.set(unitPrice, at: 3)
        try row.set(quantity, at: 4)
      }
    }
  }

  enum Northwind {
    struct Category: Model, RowMapped {
      var categoryID: Int64?
      var categoryName: String?
      var description: String?
      var picture: [UInt8]?
      static let tableName = "Categories"
      static let primaryKey = ["categoryID"]
      static let mappedColumns = ["categoryID", "categoryName", "description", "picture"]
      init(row: MappedRow) throws {
        categoryID = try row.get(0)
        categoryName = try row.get(1)
        description = try row.get(2)
        picture = try row.get(3)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(categoryID, at: 0)
        try row.set(categoryName, at: 1)
        try row.set(description, at: 2)
        try row.set(picture, at: 3)
      }
    }
    struct Customer: Model, RowMapped {
      var customerID: String
      var companyName: String?
      var contactName: String?
      var region: String?
      static let tableName = "Customers"
      static let primaryKey = ["customerID"]
      static let mappedColumns = ["customerID", "companyName", "contactName", "region"]
      init(row: MappedRow) throws {
        customerID = try row.get(0)
        companyName = try row.get(1)
        contactName = try row.get(2)
        region = try row.get(3)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(customerID, at: 0)
        try row.set(companyName, at: 1)
        try row.set(contactName, at: 2)
        try row.set(region, at: 3)
      }
    }
    struct Employee: Model, RowMapped {
      var employeeID: Int64?
      var lastName: String?
      var firstName: String?
      var birthDate: String?
      var hireDate: Date?
      var photo: Data?
      var notes: String?
      var reportsTo: Int64?
      static let tableName = "Employees"
      static let primaryKey = ["employeeID"]
      static let mappedColumns = [
        "employeeID", "lastName", "firstName", "birthDate", "hireDate", "photo", "notes",
        "reportsTo",
      ]
      init(row: MappedRow) throws {
        employeeID = try row.get(0)
        lastName = try row.get(1)
        firstName = try row.get(2)
        birthDate = try row.get(3)
        hireDate = try row.get(4)
        photo = try row.get(5)
        notes = try row.get(6)
        reportsTo = try row.get(7)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(employeeID, at: 0)
        try row.set(lastName, at: 1)
        try row.set(firstName, at: 2)
        try row.set(birthDate, at: 3)
        try row.set(hireDate, at: 4)
        try row.set(photo, at: 5)
        try row.set(notes, at: 6)
        try row.set(reportsTo, at: 7)
      }
    }
    struct Order: Model, RowMapped {
      var orderID: Int64?
      var customerID: String?
      var employeeID: Int64?
      var orderDate: Date?
      var requiredDate: Date?
      var shippedDate: Date?
      var freight: Decimal?
      var shipName: String?
      static let tableName = "Orders"
      static let primaryKey = ["orderID"]
      static let mappedColumns = [
        "orderID", "customerID", "employeeID", "orderDate", "requiredDate", "shippedDate",
        "freight", "shipName",
      ]
      init(row: MappedRow) throws {
        orderID = try row.get(0)
        customerID = try row.get(1)
        employeeID = try row.get(2)
        orderDate = try row.get(3)
        requiredDate = try row.get(4)
        shippedDate = try row.get(5)
        freight = try row.get(6)
        shipName = try row.get(7)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(orderID, at: 0)
        try row.set(customerID, at: 1)
        try row.set(employeeID, at: 2)
        try row.set(orderDate, at: 3)
        try row.set(requiredDate, at: 4)
        try row.set(shippedDate, at: 5)
        try row.set(freight, at: 6)
        try row.set(shipName, at: 7)
      }
    }
    struct OrderDetail: Model, RowMapped {
      var orderID: Int64
      var productID: Int64
      var unitPrice: Double
      var quantity: Int
      var discount: Double
      static let tableName = "Order Details"
      static let primaryKey = ["orderID", "productID"]
      static let mappedColumns = ["orderID", "productID", "unitPrice", "quantity", "discount"]
      init(row: MappedRow) throws {
        orderID = try row.get(0)
        productID = try row.get(1)
        unitPrice = try row.get(2)
        quantity = try row.get(3)
        discount = try row.get(4)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(orderID, at: 0)
        try row.set(productID, at: 1)
        try row.set(unitPrice, at: 2)
        try row.set(quantity, at: 3)
        try row.set(discount, at: 4)
      }
    }
    struct Product: Model, RowMapped {
      var productID: Int64?
      var productName: String
      var categoryID: Int64?
      var unitPrice: Double?
      var unitsInStock: Int?
      var discontinued: String
      static let tableName = "Products"
      static let primaryKey = ["productID"]
      static let mappedColumns = [
        "productID", "productName", "categoryID", "unitPrice", "unitsInStock", "discontinued",
      ]
      init(row: MappedRow) throws {
        productID = try row.get(0)
        productName = try row.get(1)
        categoryID = try row.get(2)
        unitPrice = try row.get(3)
        unitsInStock = try row.get(4)
        discontinued = try row.get(5)
      }
      func write(to row: MappedRowWriter) throws {
        try row.set(productID, at: 0)
        try row.set(productName, at: 1)
        try row.set(categoryID, at: 2)
        try row.set(unitPrice, at: 3)
        try row.set(unitsInStock, at: 4)
        try row.set(discontinued, at: 5)
      }
    }
  }

  func testChinookRowsSavedUnchangedKeepEveryByte() throws {
    let file = try RoundTripFixtures.make(
      RoundTripFixtures.chinook, named: "chinook.db", in: directory)
    let db = try Connection(path: file)
    let before = try RoundTripFixtures.dump(db)
    try RoundTripTests.saveEveryRowUnchanged(Chinook.Artist.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Chinook.Album.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Chinook.Track.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Chinook.Employee.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Chinook.Customer.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Chinook.Invoice.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Chinook.InvoiceLine.self, db)
    try db.close()
    assertSameBytes(try RoundTripFixtures.dump(Connection(path: file)), before)
  }

  func testNorthwindRowsSavedUnchangedKeepEveryByte() throws {
    let file = try RoundTripFixtures.make(
      RoundTripFixtures.northwind, named: "northwind.db", in: directory)
    let db = try Connection(path: file)
    let before = try RoundTripFixtures.dump(db)
    try RoundTripTests.saveEveryRowUnchanged(Northwind.Category.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Northwind.Customer.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Northwind.Employee.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Northwind.Order.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Northwind.OrderDetail.self, db)
    try RoundTripTests.saveEveryRowUnchanged(Northwind.Product.self, db)
    try db.close()
    assertSameBytes(try RoundTripFixtures.dump(Connection(path: file)), before)
  }
}
