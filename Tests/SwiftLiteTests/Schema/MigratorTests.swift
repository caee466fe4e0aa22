import Foundation
import XCTest

@testable import SwiftLite

private struct NoteV1: Model, Equatable {
  var id: Int64?
  var title: String
  static let tableName = "note"
  static let primaryKey = ["id"]
}

/// The same table, one property later.
private struct NoteV2: Model, Equatable {
  var id: Int64?
  var title: String
  var body: String?
  static let tableName = "note"
  static let primaryKey = ["id"]
}

private struct Tag: Model, Equatable {
  var name: String
  static let tableName = "tag"
  static let primaryKey = ["name"]
}

private struct Note: Model {
  var id: Int64?
  var text: String
  static let primaryKey = ["id"]
}

final class MigratorTests: SQLiteTestCase {
  /// Three migrations that each append their name to `log`, the first creating it.
  private func loggingMigrator() -> Migrator {
    var migrator = Migrator()
    migrator.register("create log") { db in
      try db.execute("CREATE TABLE log(step TEXT NOT NULL)")
      try db.run("INSERT INTO log VALUES ('create log')")
    }
    migrator.register("add user") { db in
      try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
      try db.run("INSERT INTO log VALUES ('add user')")
    }
    migrator.register("user email") { db in
      try db.execute("ALTER TABLE user ADD COLUMN email TEXT")
      try db.run("INSERT INTO log VALUES ('user email')")
    }
    return migrator
  }

  private func logged() throws -> [String] {
    try db.query("SELECT step FROM log ORDER BY rowid").map { try $0.get(String.self, at: 0) }
  }

  private func recorded() throws -> [String] {
    try db.query("SELECT name || ' ' || applied_at FROM swiftlite_migrations ORDER BY rowid")
      .map { try $0.get(String.self, at: 0) }
  }

  /// The bytes of the test's database file.
  private func fileBytes() throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: databasePath))
  }

  /// A parent table and a child table referencing it, with one row each.
  private func createParentAndChild() throws {
    try db.execute(
      """
      CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id));
      INSERT INTO parent VALUES (1, 'p');
      INSERT INTO child VALUES (10, 1);
      """)
  }

  // MARK: Order and bookkeeping

  func testAppliesMigrationsInRegistrationOrderAndRecordsThemByName() throws {
    let migrator = loggingMigrator()
    XCTAssertEqual(try migrator.pendingMigrations(db), ["create log", "add user", "user email"])

    let applied = try migrator.migrate(db)

    XCTAssertEqual(applied, ["create log", "add user", "user email"])
    XCTAssertEqual(try logged(), ["create log", "add user", "user email"])
    XCTAssertEqual(try db.columnNames("user"), ["id", "name", "email"])
    XCTAssertEqual(try migrator.appliedMigrations(db), ["create log", "add user", "user email"])
    XCTAssertEqual(try migrator.pendingMigrations(db), [])
    XCTAssertFalse(try migrator.hasPendingMigrations(db))
    let time = try XCTUnwrap(
      db.scalar(String.self, "SELECT applied_at FROM swiftlite_migrations LIMIT 1"))
    // Written as SQLite writes times, so it compares with datetime('now').
    XCTAssertEqual(
      try db.scalar(Bool.self, "SELECT ? <= strftime('%Y-%m-%d %H:%M:%f', 'now')", [time]), true)
    XCTAssertNotNil(try db.scalar(Date.self, "SELECT ?", [time]))
    // Each migration ran in its own IMMEDIATE transaction.
    XCTAssertEqual(executedSQL.filter { $0 == "BEGIN IMMEDIATE TRANSACTION" }.count, 3)
  }

  func testRunningAgainChangesNothingAndRunsNoMigration() throws {
    let migrator = loggingMigrator()
    try migrator.migrate(db)
    let rows = try recorded()
    clearExecutedSQL()

    XCTAssertEqual(try migrator.migrate(db), [])

    XCTAssertEqual(try recorded(), rows)
    XCTAssertEqual(try logged(), ["create log", "add user", "user email"])
    XCTAssertFalse(executedSQL.contains { $0.hasPrefix("BEGIN") }, "\(executedSQL)")
    XCTAssertFalse(executedSQL.contains { $0.contains("INSERT") }, "\(executedSQL)")
  }

  func testAMigrationAddedLaterRunsAloneAfterTheOthers() throws {
    var migrator = loggingMigrator()
    try migrator.migrate(db)
    migrator.register("user age") { db in
      try db.execute("ALTER TABLE user ADD COLUMN age INTEGER")
      try db.run("INSERT INTO log VALUES ('user age')")
    }
    XCTAssertEqual(try migrator.pendingMigrations(db), ["user age"])

    XCTAssertEqual(try migrator.migrate(db), ["user age"])

    XCTAssertEqual(try logged(), ["create log", "add user", "user email", "user age"])
  }

  func testMigrateUpToStopsAfterTheNamedMigration() throws {
    let migrator = loggingMigrator()

    XCTAssertEqual(try migrator.migrate(db, upTo: "add user"), ["create log", "add user"])

    XCTAssertEqual(try db.columnNames("user"), ["id", "name"])
    XCTAssertEqual(try migrator.pendingMigrations(db), ["user email"])
    // Already past the target: nothing to do.
    XCTAssertEqual(try migrator.migrate(db, upTo: "create log"), [])
    XCTAssertEqual(try migrator.migrate(db), ["user email"])
    XCTAssertEqual(try logged(), ["create log", "add user", "user email"])
  }

  // MARK: Refusals before anything runs

  func testAnUnknownTargetIsRefusedBeforeAnythingRuns() throws {
    let migrator = loggingMigrator()
    let before = try db.snapshot()

    let error = thrownError(MigratorError.self) { try migrator.migrate(db, upTo: "no such") }

    guard case .unknownTarget("no such") = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(try db.snapshot(), before)
  }

  func testDuplicateNamesAreRefusedBeforeAnythingRuns() throws {
    var migrator = loggingMigrator()
    migrator.register("add user") { db in try db.execute("CREATE TABLE other(x)") }
    let before = try db.snapshot()

    let error = thrownError(MigratorError.self) { try migrator.migrate(db) }

    guard case .duplicateName("add user") = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertNotNil(thrownError(MigratorError.self) { _ = try migrator.pendingMigrations(db) })
  }

  func testAMigrationTheAppDoesNotKnowIsRefusedWithoutChange() throws {
    // A newer version of the app applied "user email"; this one never heard of it.
    try loggingMigrator().migrate(db)
    var older = Migrator()
    older.register("create log") { _ in XCTFail("applied already") }
    older.register("add user") { _ in XCTFail("applied already") }
    older.register("user phone") { db in try db.execute("ALTER TABLE user ADD COLUMN phone TEXT") }
    let before = try db.snapshot()

    let error = thrownError(MigratorError.self) { try older.migrate(db) }

    guard case .unknownAppliedMigrations(let names) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(names, ["user email"])
    XCTAssertTrue(error?.description.contains("\"user email\"") == true)
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertEqual(try db.columnNames("user"), ["id", "name", "email"])
    // Reading the state says so too, and the plain record of what was applied still reads.
    XCTAssertNotNil(thrownError(MigratorError.self) { _ = try older.hasPendingMigrations(db) })
    XCTAssertEqual(try older.appliedMigrations(db), ["create log", "add user", "user email"])
  }

  func testRefusesToRunInsideAnOpenTransaction() throws {
    let migrator = loggingMigrator()

    try db.transaction { db in
      let error = thrownError(MigratorError.self) { try migrator.migrate(db) }
      guard case .insideTransaction = error else { return XCTFail("\(String(describing: error))") }
    }

    XCTAssertFalse(try SchemaInspector(db).tableExists("log"))
    XCTAssertFalse(try SchemaInspector(db).tableExists(Migrator.recordTable))
    XCTAssertTrue(try db.foreignKeysEnabled())
  }

  // MARK: Failures

  func testAFailingMigrationLeavesTheFileAsItWasAndSaysWhichFailed() throws {
    var migrator = loggingMigrator()
    migrator.register("half done") { db in
      try db.execute("CREATE TABLE half(x INTEGER)")
      try db.run("INSERT INTO user(name) VALUES ('inserted by the failing migration')")
      try db.run("INSERT INTO log VALUES ('half done')")
      throw TestError(id: 4)
    }
    migrator.register("never reached") { _ in XCTFail("ran after a failure") }
    try migrator.migrate(db, upTo: "user email")
    let before = try db.snapshot()

    let error = thrownError(MigratorError.self) { try migrator.migrate(db) }

    guard case .migrationFailed(let name, let underlying) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(name, "half done")
    XCTAssertEqual(underlying as? TestError, TestError(id: 4))
    XCTAssertTrue(error?.description.contains("\"half done\"") == true)
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertEqual(try migrator.appliedMigrations(db), ["create log", "add user", "user email"])
    XCTAssertEqual(try migrator.pendingMigrations(db), ["half done", "never reached"])
    XCTAssertFalse(db.isInTransaction)
  }

  func testEarlierMigrationsOfTheSameCallStayAppliedWhenALaterOneFails() throws {
    var migrator = loggingMigrator()
    migrator.register("bad SQL") { db in
      try db.execute("CREATE TABLE t(x); INSERT INTO no_such_table VALUES (1)")
    }

    let error = thrownError(MigratorError.self) { try migrator.migrate(db) }

    guard case .migrationFailed("bad SQL", let underlying as SQLiteError) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertTrue(underlying.message.contains("no_such_table"), underlying.message)
    XCTAssertEqual(try logged(), ["create log", "add user", "user email"])
    XCTAssertEqual(try migrator.appliedMigrations(db), ["create log", "add user", "user email"])
    XCTAssertFalse(try SchemaInspector(db).tableExists("t"))
  }

  func testAFailingFirstMigrationDoesNotEvenCreateTheRecordTable() throws {
    try db.execute("CREATE TABLE kept(x); INSERT INTO kept VALUES (1)")
    var migrator = Migrator()
    migrator.register("fails") { db in
      try db.execute("DROP TABLE kept")
      throw TestError()
    }
    let before = try db.snapshot()
    let bytes = try fileBytes()

    XCTAssertNotNil(thrownError(MigratorError.self) { try migrator.migrate(db) })

    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertEqual(try fileBytes(), bytes)
    XCTAssertFalse(try SchemaInspector(db).tableExists(Migrator.recordTable))
  }

  func testAMigrationThatEndsItsOwnTransactionIsReported() throws {
    var migrator = Migrator()
    migrator.register("commits") { db in
      try db.execute("CREATE TABLE t(x); COMMIT")
    }

    let error = thrownError(MigratorError.self) { try migrator.migrate(db) }

    guard case .migrationFailed("commits", let underlying as SQLiteError) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(underlying.code, .misuse)
    XCTAssertEqual(try migrator.pendingMigrations(db), ["commits"])
    XCTAssertFalse(db.isInTransaction)
    XCTAssertTrue(try db.foreignKeysEnabled())
  }

  // MARK: Foreign keys

  func testForeignKeysAreOffDuringAMigrationAndBackOnAfterIt() throws {
    let seen = Locked<[Bool]>([])
    var migrator = Migrator()
    migrator.register("look") { db in
      let enforcing = try db.foreignKeysEnabled()
      seen.mutate { $0.append(enforcing) }
    }
    migrator.register("look, enforcing", foreignKeyChecks: .immediate) { db in
      let enforcing = try db.foreignKeysEnabled()
      seen.mutate { $0.append(enforcing) }
    }

    try migrator.migrate(db)

    XCTAssertEqual(seen.value, [false, true])
    XCTAssertTrue(try db.foreignKeysEnabled())
  }

  func testAReferencedTableCanBeRebuiltAsSQLiteDocuments() throws {
    try createParentAndChild()
    var migrator = Migrator()
    // https://sqlite.org/lang_altertable.html#otheralter: with enforcement on, dropping
    // `parent` would fail (or cascade); paused, the children keep pointing at the new table.
    migrator.register("parent name nullable") { db in
      try db.execute(
        """
        CREATE TABLE new_parent(id INTEGER PRIMARY KEY, name TEXT);
        INSERT INTO new_parent SELECT id, name FROM parent;
        DROP TABLE parent;
        ALTER TABLE new_parent RENAME TO parent;
        """)
    }

    try migrator.migrate(db)

    XCTAssertEqual(try db.dump("child"), ["INTEGER:10|INTEGER:1"])
    XCTAssertEqual(try db.dump("parent"), ["INTEGER:1|TEXT:'p'"])
    XCTAssertTrue(try db.foreignKeysEnabled())
    XCTAssertEqual(try db.query("PRAGMA foreign_key_check").count, 0)
    // Enforcement is really back: an orphan is refused.
    assertSQLiteError(try db.run("INSERT INTO child VALUES (11, 99)")) { error in
      XCTAssertEqual(error.constraintKind, .foreignKey)
    }
  }

  func testAForeignKeyViolationAtCommitRollsTheMigrationBack() throws {
    try createParentAndChild()
    var migrator = Migrator()
    migrator.register("ok") { db in try db.execute("CREATE TABLE ok(x)") }
    migrator.register("orphans a child") { db in
      try db.run("DELETE FROM parent WHERE id = 1")
      try db.execute("CREATE TABLE made_by_the_bad_one(x)")
    }
    migrator.register("after") { _ in XCTFail("ran after a failure") }
    try migrator.migrate(db, upTo: "ok")
    let before = try db.snapshot()

    let error = thrownError(MigratorError.self) { try migrator.migrate(db) }

    guard case .foreignKeyViolation(let name, let tables) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(name, "orphans a child")
    XCTAssertEqual(tables, ["child"])
    XCTAssertTrue(error?.description.contains("child") == true)
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertEqual(try migrator.appliedMigrations(db), ["ok"])
    XCTAssertTrue(try db.foreignKeysEnabled(), "enforcement not restored after the failure")
  }

  func testForeignKeyEnforcementIsRestoredAfterAThrowingMigration() throws {
    var migrator = Migrator()
    migrator.register("throws") { _ in throw TestError() }

    XCTAssertNotNil(thrownError(MigratorError.self) { try migrator.migrate(db) })

    XCTAssertTrue(try db.foreignKeysEnabled())
  }

  func testImmediateChecksRefuseAnOrphanAsTheStatementRuns() throws {
    try createParentAndChild()
    var migrator = Migrator()
    migrator.register("orphan", foreignKeyChecks: .immediate) { db in
      try db.run("INSERT INTO child VALUES (11, 99)")
    }
    let before = try db.snapshot()

    let error = thrownError(MigratorError.self) { try migrator.migrate(db) }

    guard case .migrationFailed("orphan", let underlying as SQLiteError) = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(underlying.constraintKind, .foreignKey)
    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertTrue(try db.foreignKeysEnabled())
  }

  func testAConnectionWithoutEnforcementIsLeftWithout() throws {
    var options = OpenOptions()
    options.foreignKeys = false
    let loose = try Connection(path: path("loose.sqlite"), options: options)
    try loose.execute(
      """
      CREATE TABLE parent(id INTEGER PRIMARY KEY);
      CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));
      """)
    var migrator = Migrator()
    migrator.register("orphan") { db in try db.run("INSERT INTO child VALUES (1, 99)") }

    // The app chose not to enforce foreign keys: no check is added behind its back.
    XCTAssertEqual(try migrator.migrate(loose), ["orphan"])

    XCTAssertFalse(try loose.foreignKeysEnabled())
    XCTAssertEqual(try loose.dump("child"), ["INTEGER:1|INTEGER:99"])
  }

  // MARK: Models

  func testModelMigrationsCreateAndThenEvolveATable() throws {
    var migrator = Migrator()
    migrator.registerModels("notes and tags", NoteV1.self, Tag.self)
    try migrator.migrate(db)
    XCTAssertEqual(try db.columnNames("note"), ["id", "title"])
    XCTAssertEqual(try db.columnNames("tag"), ["name"])
    try db.save(NoteV1(id: nil, title: "first"))

    migrator.registerModels("note body", NoteV2.self)
    XCTAssertEqual(try migrator.pendingMigrations(db), ["note body"])
    XCTAssertEqual(try migrator.migrate(db), ["note body"])

    XCTAssertEqual(try db.columnNames("note"), ["id", "title", "body"])
    XCTAssertEqual(try db.findAll(NoteV2.self), [NoteV2(id: 1, title: "first", body: nil)])
    XCTAssertEqual(
      try migrator.appliedMigrations(db), ["notes and tags", "note body"])
  }

  func testAFailingModelMigrationLeavesTheTableAsItWas() throws {
    var migrator = Migrator()
    migrator.registerModels("notes", NoteV1.self)
    try migrator.migrate(db)
    try db.save(NoteV1(id: nil, title: "kept"))
    migrator.register("notes with body, then a failure") { db in
      try AutoMigration.migrate(NoteV2.self, in: db)
      throw TestError()
    }
    let before = try db.snapshot()

    XCTAssertNotNil(thrownError(MigratorError.self) { try migrator.migrate(db) })

    XCTAssertEqual(try db.snapshot(), before)
    XCTAssertEqual(try db.columnNames("note"), ["id", "title"])
    XCTAssertEqual(try db.findAll(NoteV1.self), [NoteV1(id: 1, title: "kept")])
  }

  // MARK: DatabaseQueue

  func testOverADatabaseQueue() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    let migrator = loggingMigrator()
    XCTAssertEqual(try migrator.pendingMigrations(queue), ["create log", "add user", "user email"])

    XCTAssertEqual(try migrator.migrate(queue, upTo: "add user"), ["create log", "add user"])
    XCTAssertEqual(try migrator.appliedMigrations(queue), ["create log", "add user"])
    XCTAssertTrue(try migrator.hasPendingMigrations(queue))
    XCTAssertEqual(try migrator.migrate(queue), ["user email"])
    XCTAssertEqual(try migrator.migrate(queue), [])

    let steps = try queue.read { db in
      try db.query("SELECT step FROM log ORDER BY rowid").map { try $0.get(String.self, at: 0) }
    }
    XCTAssertEqual(steps, ["create log", "add user", "user email"])
    XCTAssertTrue(try queue.read { try $0.foreignKeysEnabled() })
  }

  func testOverADatabaseQueueFromInsideAWriteIsRefused() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    let migrator = loggingMigrator()

    try queue.write { _ in
      let error = thrownError(MigratorError.self) { try migrator.migrate(queue) }
      guard case .insideTransaction = error else { return XCTFail("\(String(describing: error))") }
    }

    XCTAssertEqual(try migrator.appliedMigrations(queue), [])
    XCTAssertFalse(try queue.read { try SchemaInspector($0).tableExists("log") })
  }

  func testOverADatabaseQueueAsynchronously() async throws {
    let queue = try DatabaseQueue(path: path("async.sqlite"))
    var migrator = loggingMigrator()
    migrator.register("fails") { _ in throw TestError(id: 7) }

    let pending = try await migrator.pendingMigrations(queue)
    XCTAssertEqual(pending, ["create log", "add user", "user email", "fails"])
    do {
      try await migrator.migrate(queue)
      XCTFail("expected the last migration to fail")
    } catch MigratorError.migrationFailed(let name, let underlying) {
      XCTAssertEqual(name, "fails")
      XCTAssertEqual(underlying as? TestError, TestError(id: 7))
    }

    XCTAssertEqual(try migrator.appliedMigrations(queue), ["create log", "add user", "user email"])
    let enforcing = try await queue.read { try $0.foreignKeysEnabled() }
    XCTAssertTrue(enforcing)
  }

  /// Two SQL steps and a model step applied by one blocking `migrate` (the articles'
  /// example, through the blocking call), then nothing pending.
  func testSQLStepsAndAModelStepInOneMigrate() throws {
    let dbQueue = try DatabaseQueue(path: path("app.sqlite"))
    var migrator = Migrator()
    migrator.register("create user") { db in
      try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    }
    migrator.register("user email") { db in
      try db.execute("ALTER TABLE user ADD COLUMN email TEXT")
    }
    migrator.registerModels("notes", Note.self)
    try migrator.migrate(dbQueue)

    let columns = try dbQueue.read { db in
      (try db.columnNames("user"), try db.columnNames("Note"))
    }
    XCTAssertEqual(columns.0, ["id", "name", "email"])
    XCTAssertEqual(columns.1, ["id", "text"])
    XCTAssertEqual(try migrator.pendingMigrations(dbQueue), [])
  }

  // MARK: Reading writes nothing

  func testReadingTheStateOfAnUnmigratedDatabaseWritesNothing() throws {
    try db.execute("CREATE TABLE existing(id INTEGER PRIMARY KEY); INSERT INTO existing VALUES (1)")
    let migrator = loggingMigrator()
    let bytes = try fileBytes()
    let queue = try DatabaseQueue(path: databasePath)

    XCTAssertEqual(try migrator.appliedMigrations(db), [])
    XCTAssertEqual(try migrator.pendingMigrations(db), migrator.names)
    XCTAssertTrue(try migrator.hasPendingMigrations(db))
    XCTAssertEqual(try migrator.appliedMigrations(queue), [])
    XCTAssertEqual(try migrator.pendingMigrations(queue), migrator.names)
    XCTAssertTrue(try migrator.hasPendingMigrations(queue))

    XCTAssertEqual(try fileBytes(), bytes)
    XCTAssertFalse(try SchemaInspector(db).tableExists(Migrator.recordTable))
    // The comparison does see a change: migrating does write.
    try migrator.migrate(queue)
    XCTAssertNotEqual(try fileBytes(), bytes)
  }
}
