import SwiftLite

/// A row of the store's `Artist` table, mapped as it is: `artistId` reads `ArtistId`, as
/// SQLite matches names without regard to case.
public struct Artist: Model, Equatable, Sendable {
  public var artistId: Int64
  public var name: String?

  public static let primaryKey = ["artistId"]
  /// The table belongs to the store: never create or change it.
  public static let schemaPolicy = SchemaPolicy.mapped
}
