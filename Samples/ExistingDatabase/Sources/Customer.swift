import Foundation
import SwiftLite

/// A row of the store's `Customer` table. `Country` and `CreatedAt` have defaults in the
/// table, so the model may leave them out; here it reads them. `CreatedAt` holds dates as
/// SQLite writes them (`2021-01-01 00:00:00`, `2016-07-04`), which read as `Date`; a date
/// the model writes takes the form of the column's first value, `2021-01-01 00:00:00`.
public struct Customer: Model, Equatable, Sendable {
  public var customerId: Int64?
  public var firstName: String
  public var lastName: String
  public var email: String
  public var country: String
  public var createdAt: Date

  public static let primaryKey = ["customerId"]
  public static let schemaPolicy = SchemaPolicy.mapped

  public init(
    customerId: Int64? = nil, firstName: String, lastName: String, email: String,
    country: String, createdAt: Date
  ) {
    self.customerId = customerId
    self.firstName = firstName
    self.lastName = lastName
    self.email = email
    self.country = country
    self.createdAt = createdAt
  }
}
