import Foundation
import Synchronization
import XCTest

@testable import SwiftLite

/// Release 1 of an app's note.
private struct LaunchNoteV1: Model {
  var id: Int64?
  var title: String
  static let primaryKey = ["id"]
  static let tableName = "note"
}

/// Release 2: a new column.
private struct LaunchNoteV2: Model {
  var id: Int64?
  var title: String
  var body: String?
  static let primaryKey = ["id"]
  static let tableName = "note"
}

/// A model no preparation covers.
private struct LaunchTag: Model {
  var id: Int64?
  var name: String
  static let primaryKey = ["id"]
}

/// A preparation that keeps the database it was given, then fails.
private final class FailingPreparation: DatabasePreparation {
  let seen = Mutex<(any DatabaseAccess)?>(nil)
  struct Failure: Error {}
  func prepare(_ database: any DatabaseAccess) throws {
    seen.withLock { $0 = database }
    throw Failure()
  }
}

final class LaunchPreparationTests: TemporaryDirectoryTestCase {
  private var file: String { path("notes.sqlite") }

  private var releaseOne: Migrator {
    var migrator = Migrator()
    migrator.registerModels("v1", LaunchNoteV1.self)
    return migrator
  }

  /// Release 2's migrator: release 1's model step is the current model without a body
  /// (no snapshots here), then a step adding the column.
  private var releaseTwo: Migrator {
    var migrator = Migrator()
    migrator.register("v1") { db in
      try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
    }
    migrator.register("v2: note body") { db in
      try db.execute("ALTER TABLE note ADD COLUMN body TEXT")
    }
    migrator.registerModels("v2 models", LaunchNoteV2.self)
    return migrator
  }

  /// A release-1 file with one note, made by release 1's own launch.
  private func makeReleaseOneFile() throws {
    var v1 = Migrator()
    v1.register("v1") { db in
      try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
    }
    let queue = try DatabaseQueue(path: file, preparation: v1)
    try queue.write { db in _ = try db.run("INSERT INTO note(title) VALUES ('groceries')") }
    try queue.close()
  }

  func testReadFirstLaunchAfterAnUpgradeOnAQueue() throws {
    try makeReleaseOneFile()
    let queue = try DatabaseQueue(path: file, preparation: releaseTwo)
    let notes = try queue.read { db in try db.findAll(LaunchNoteV2.self) }
    XCTAssertEqual(notes.map(\.title), ["groceries"])
    XCTAssertEqual(notes.map(\.body), [nil])
    XCTAssertEqual(try releaseTwo.pendingMigrations(queue), [])
    try queue.close()
  }

  func testReadFirstLaunchAfterAnUpgradeOnAPool() throws {
    try makeReleaseOneFile()
    let pool = try DatabasePool(path: file, preparation: releaseTwo)
    let notes = try pool.read { db in try db.findAll(LaunchNoteV2.self) }
    XCTAssertEqual(notes.map(\.title), ["groceries"])
    let count = try pool.read { db in try db.count(LaunchNoteV2.self) }
    XCTAssertEqual(count, 1)
    try pool.close()
  }

  /// Without a preparation, the same read meets the outdated table: what launching with
  /// one fixes.
  func testReadFirstLaunchWithoutAPreparationNeedsMigration() throws {
    let first = try DatabaseQueue(path: file)
    try first.write { db in _ = try db.insert(LaunchNoteV1(id: nil, title: "a")) }
    try first.close()
    let queue = try DatabaseQueue(path: file)
    defer { try? queue.close() }
    XCTAssertThrowsError(try queue.read { db in try db.findAll(LaunchNoteV2.self) }) { error in
      guard case MigrationError.needsMigration = error else {
        return XCTFail("unexpected \(error)")
      }
    }
  }

  func testModelPreparationBringsModelsUpToDateBeforeTheFirstRead() throws {
    let first = try DatabaseQueue(path: file, preparation: ModelPreparation(LaunchNoteV1.self))
    try first.write { db in _ = try db.insert(LaunchNoteV1(id: nil, title: "a")) }
    try first.close()
    let pool = try DatabasePool(
      path: file, preparation: ModelPreparation(LaunchNoteV2.self, LaunchTag.self))
    XCTAssertEqual(try pool.read { db in try db.findAll(LaunchNoteV2.self) }.map(\.title), ["a"])
    XCTAssertEqual(try pool.read { db in try db.count(LaunchTag.self) }, 0)
    try pool.close()
  }

  /// A model change that no step of the preparation covers is not applied by the first
  /// write: the table belongs to the migrator. A model it does not cover still is.
  func testPreparedTablesAreNotMigratedByAFirstWrite() throws {
    let queue = try DatabaseQueue(path: file, preparation: releaseOne)
    XCTAssertEqual(try queue.write { db in db.preparedTables }, ["note"])
    XCTAssertThrowsError(
      try queue.write { db in try db.insert(LaunchNoteV2(id: nil, title: "a", body: "b")) }
    ) { error in
      guard case MigrationError.needsMigration(let table, _, let reason) = error else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(table, "note")
      XCTAssertTrue(reason.contains("preparation"), reason)
    }
    try queue.write { db in _ = try db.insert(LaunchTag(id: nil, name: "urgent")) }
    XCTAssertEqual(try queue.read { db in try db.count(LaunchTag.self) }, 1)
    try queue.close()
  }

  /// A directory prepares each file the same way: its migrator's tables are its own.
  func testADirectorysPreparationCoversItsTables() throws {
    let directory = try DatabaseDirectory(
      path: path("folder"), prefix: "app", common: releaseOne, perUser: releaseOne)
    defer { try? directory.close() }
    let user = try XCTUnwrap(try directory.switchUser(to: "ann"))
    for database in [try XCTUnwrap(directory.common), user] {
      XCTAssertThrowsError(
        try database.write { db in
          try db.insert(LaunchNoteV2(id: nil, title: "a", body: "b"))
        }
      ) { error in
        guard case MigrationError.needsMigration = error else {
          return XCTFail("unexpected \(error)")
        }
      }
    }
  }

  func testAFailingPreparationClosesTheQueueAndRethrows() throws {
    let preparation = FailingPreparation()
    XCTAssertThrowsError(try DatabaseQueue(path: file, preparation: preparation)) { error in
      XCTAssertTrue(error is FailingPreparation.Failure, "\(error)")
    }
    let seen = try XCTUnwrap(preparation.seen.withLock { $0 })
    XCTAssertThrowsError(try seen.read { db in try db.scalar(Int.self, "SELECT 1") }) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, .misuse, "\(error)")
    }
  }

  func testAFailingMigrationClosesThePoolAndRethrows() throws {
    var migrator = Migrator()
    migrator.register("broken") { db in try db.execute("CREATE TABLE note(") }
    XCTAssertThrowsError(try DatabasePool(path: file, preparation: migrator)) { error in
      guard case MigratorError.migrationFailed(let name, _) = error else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(name, "broken")
    }
    // The pool's writer was the file's last connection: closing it removed the log.
    XCTAssertFalse(FileManager.default.fileExists(atPath: file + "-wal"))
    let preparation = FailingPreparation()
    XCTAssertThrowsError(try DatabasePool(path: file, preparation: preparation))
    let seen = try XCTUnwrap(preparation.seen.withLock { $0 })
    XCTAssertThrowsError(try seen.write { db in try db.execute("SELECT 1") })
  }

  func testAReadOnlyOpenWithPendingMigrationsGetsATypedError() throws {
    try makeReleaseOneFile()
    XCTAssertThrowsError(
      try DatabaseQueue(path: file, options: .readOnly, preparation: releaseTwo)
    ) { error in
      guard case MigratorError.readOnlyDatabase(let pending) = error else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(pending, ["v2: note body", "v2 models"])
    }
    var upToDate = Migrator()
    upToDate.register("v1") { _ in }
    let reader = try DatabaseQueue(path: file, options: .readOnly, preparation: upToDate)
    XCTAssertEqual(
      try reader.read { db in try db.scalar(Int.self, "SELECT count(*) FROM note") }, 1)
    try reader.close()
    XCTAssertThrowsError(
      try DatabaseQueue(
        path: file, options: .readOnly, preparation: ModelPreparation(LaunchNoteV2.self))
    ) { error in
      guard case MigrationError.readOnlyConnection(let table, _) = error else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(table, "note")
    }
  }
}
