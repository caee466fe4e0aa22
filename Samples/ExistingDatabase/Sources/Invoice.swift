import Foundation
import SwiftLite

/// A row of the store's `Invoice` table. `Total` is declared `NUMERIC(10,2)` and holds
/// both INTEGER (`25`) and REAL (`1.98`) values: a `Double` reads both.
public struct Invoice: Model, Equatable, Sendable {
  public var invoiceId: Int64
  public var customerId: Int64
  public var invoiceDate: Date
  public var total: Double

  public static let primaryKey = ["invoiceId"]
  public static let schemaPolicy = SchemaPolicy.mapped
}
