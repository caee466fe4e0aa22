/// What brings a database up to date when a ``DatabaseDirectory`` opens it: a `Migrator`
/// (its migrations, or the models it registers) is one.
///
/// Conforming types must be `Sendable`: a directory keeps them and runs them from whichever
/// thread opens a database.
public protocol DatabasePreparation: Sendable {
  /// Brings `database` up to date; called once each time the directory opens it.
  /// - Throws: what preparing throws; the directory then closes the database and rethrows.
  func prepare(_ database: any DatabaseAccess) throws
}
