import Foundation
import XCTest

@testable import SwiftLite

/// What a migrator reads of the record table: one statement on a database migrated before,
/// the same answers as asking first whether the table exists.
final class MigratorStateTests: SQLiteTestCase {
  private func threeSteps() -> Migrator {
    var migrator = Migrator()
    migrator.register("a") { db in try db.execute("CREATE TABLE a(x)") }
    migrator.register("b") { db in try db.execute("CREATE TABLE b(x)") }
    migrator.register("c") { db in try db.execute("CREATE TABLE c(x)") }
    return migrator
  }

  /// Writes the record table by hand, as another program or an older release could have.
  private func record(_ names: [String]) throws {
    try db.execute(
      "CREATE TABLE swiftlite_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)"
    )
    for name in names {
      try db.run("INSERT INTO swiftlite_migrations VALUES (?, '2026-12-01 00:00:00.000')", [name])
    }
  }

  func testARecordTableAnotherConnectionCreatedIsFoundOnAConnectionOpenedBefore() throws {
    let migrator = threeSteps()
    // `db` read the schema when it opened, before the record table existed.
    XCTAssertEqual(try migrator.pendingMigrations(db), ["a", "b", "c"])
    let other = try Connection(path: databasePath)
    try migrator.migrate(other, upTo: "b")
    try other.close()

    XCTAssertEqual(try migrator.appliedMigrations(db), ["a", "b"])
    XCTAssertEqual(try migrator.pendingMigrations(db), ["c"])
    XCTAssertEqual(try migrator.migrate(db), ["c"])
  }

  func testARecordInAnotherOrderLeavesExactlyTheOthersPending() throws {
    try record(["b"])
    XCTAssertEqual(try threeSteps().pendingMigrations(db), ["a", "c"])
    try db.run("INSERT INTO swiftlite_migrations VALUES ('a', '2026-12-01 00:00:01.000')")
    XCTAssertEqual(try threeSteps().appliedMigrations(db), ["b", "a"])
    XCTAssertEqual(try threeSteps().pendingMigrations(db), ["c"])
    XCTAssertEqual(try threeSteps().migrate(db, upTo: "b"), [])
    XCTAssertEqual(try threeSteps().migrate(db), ["c"])
  }

  func testANameRecordedInAnotherNormalizationIsUnknownEvenFirst() throws {
    var migrator = Migrator()
    migrator.register("cafe\u{301}") { _ in }
    migrator.register("b") { _ in }
    try record(["caf\u{E9}"])

    let error = thrownError(MigratorError.self) { _ = try migrator.pendingMigrations(db) }

    guard case .unknownAppliedMigrations(let names) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(names.map { Array($0.utf8) }, [Array("caf\u{E9}".utf8)])
  }

  func testARecordLongerThanTheRegisteredStepsIsRefused() throws {
    try record(["a", "b", "c", "d"])
    let error = thrownError(MigratorError.self) { _ = try threeSteps().pendingMigrations(db) }
    guard case .unknownAppliedMigrations(["d"]) = error else {
      return XCTFail("\(String(describing: error))")
    }
  }

  func testTheFirstNameRegisteredTwiceIsReported() throws {
    var migrator = threeSteps()
    migrator.register("c") { _ in }
    migrator.register("a") { _ in }
    try record(["a"])

    let error = thrownError(MigratorError.self) { _ = try migrator.pendingMigrations(db) }

    guard case .duplicateName("c") = error else { return XCTFail("\(String(describing: error))") }
  }

  func testAReadOnlyDatabaseNeverMigratedReadsAsNothingApplied() throws {
    try db.execute("CREATE TABLE existing(x)")
    let readOnly = try Connection(path: databasePath, options: .readOnly)
    XCTAssertEqual(try threeSteps().appliedMigrations(readOnly), [])
    XCTAssertEqual(try threeSteps().pendingMigrations(readOnly), ["a", "b", "c"])
    try readOnly.close()
  }

  func testARecordTableThatCannotBeReadIsAnErrorNotAnEmptyHistory() throws {
    // A record table without the name column: the read fails, the table exists.
    try db.execute("CREATE TABLE swiftlite_migrations (step TEXT)")
    XCTAssertNotNil(thrownError(SQLiteError.self) { _ = try threeSteps().appliedMigrations(db) })
  }

  func testTheTablesOfTheModelStepsArePreparedOnce() throws {
    struct Folder: Model {
      var id: Int64?
      static let primaryKey = ["id"]
    }
    var migrator = threeSteps()
    migrator.registerModels("folders", Folder.self)
    migrator.registerModels("folders again", Folder.self)
    XCTAssertEqual(migrator.preparedTables, ["Folder"])
  }
}
