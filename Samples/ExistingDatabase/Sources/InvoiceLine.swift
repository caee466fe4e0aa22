import Foundation
import SwiftLite

/// A row of the store's `Invoice Line` table (a name with a space). `CodingKeys` give the
/// key a Swift name; the primary key is named by its coding key, the column.
public struct InvoiceLine: Model, Equatable, Sendable {
  public var id: Int64
  public var invoiceId: Int64
  public var unitPrice: Decimal
  public var quantity: Int

  public static let tableName = "Invoice Line"
  public static let primaryKey = ["InvoiceLineId"]

  enum CodingKeys: String, CodingKey {
    case id = "InvoiceLineId"
    case invoiceId, unitPrice, quantity
  }

  public init(id: Int64, invoiceId: Int64, unitPrice: Decimal, quantity: Int) {
    self.id = id
    self.invoiceId = invoiceId
    self.unitPrice = unitPrice
    self.quantity = quantity
  }
}
