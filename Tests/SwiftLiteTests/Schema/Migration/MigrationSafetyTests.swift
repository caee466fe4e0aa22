import Foundation
import XCTest

@testable import SwiftLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// What a failed or interrupted migration leaves: the file as it was. Failures injected in the
// last step and after the old table is dropped, a write racing the plan, a process killed.

final class MigrationSafetyTests: ModelTestCase {
  func testFailureInTheLastStepLeavesTheFileAsBefore() throws {
    try seedItems()
    do {
      // Refuse any change to SwiftLite's record: the rebuild fails after dropping, renaming
      // and indexing, in its very last step.
      let db = try open()
      try db.execute(
        """
        CREATE TRIGGER refuse_record BEFORE UPDATE ON swiftlite_schema
        BEGIN SELECT RAISE(ABORT, 'injected failure'); END
        """)
      try db.close()
    }
    let before = try snapshot(ofFile: path())
    let db = try open()
    let error = thrownError(MigrationError.self) { try db.migrate(ItemV9.self) }
    if case .constraintViolated(let table, let step, let message)? = error {
      XCTAssertEqual(table, "Item")
      XCTAssertTrue(step.contains("record"), step)
      XCTAssertTrue(message.contains("injected failure"), message)
    } else {
      XCTFail("expected constraintViolated, got \(String(describing: error))")
    }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertEqual(try open().findAll(ItemV1.self, orderBy: "id"), ItemV1.samples)

    try db.execute("DROP TRIGGER refuse_record")
    try db.migrate(ItemV9.self)
    XCTAssertEqual(
      try open().findAll(ItemV9.self, orderBy: "id").map(\.title),
      ["apple", "pear", "plum"])
  }

  func testFailureAfterTheOldTableIsDroppedLeavesTheFileAsBefore() throws {
    try seedItems()
    do {
      // Another table already owns the index name the model wants: CREATE INDEX fails after
      // the old table was dropped and the new one renamed.
      let db = try open()
      try db.execute("CREATE TABLE other (x); CREATE INDEX \"Item_on_title\" ON other (x)")
      try db.close()
    }
    let before = try snapshot(ofFile: path())
    let db = try open()
    XCTAssertThrowsError(try db.migrate(ItemV9.self)) { error in
      XCTAssertTrue("\(error)".contains("Item_on_title"), "\(error)")
    }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertEqual(
      try db.findAll(ItemV1.self, orderBy: "id"), ItemV1.samples, "the connection still works")
    try assertIntact(try open())
  }

  /// A value written by another connection between planning and applying must not be
  /// dropped: migrate plans again inside its write transaction.
  func testAValueWrittenAfterPlanningIsNotDropped() throws {
    do {
      let db = try open()
      try db.save([JournalV1(id: 1, note: nil), JournalV1(id: 2, note: nil)])
      try db.close()
    }
    let migrating = try open()
    let other = try open()
    var wroteInBetween = false
    migrating.trace = { sql in
      guard sql.hasPrefix("BEGIN IMMEDIATE"), !wroteInBetween else { return }
      wroteInBetween = true
      // The first plan saw an empty column; another writer fills it before the lock.
      do {
        try other.run("UPDATE Journal SET note = 'kept' WHERE id = 2")
      } catch {
        XCTFail("the other writer failed: \(error)")
      }
    }
    XCTAssertTrue(try migrating.migrationPlan(for: JournalV2.self).strategy == .rebuild)
    let error = thrownError(MigrationError.self) {
      try migrating.migrate(JournalV2.self)
    }
    XCTAssertTrue(wroteInBetween)
    XCTAssertEqual(error, .wouldLoseData(table: "Journal", column: "note", rows: 1))
    XCTAssertEqual(
      try open().findAll(JournalV1.self, orderBy: "id"),
      [JournalV1(id: 1, note: nil), JournalV1(id: 2, note: "kept")])
  }

  func testProcessKilledDuringLargeMigration() throws {
    let rowCount = 300_000
    let template = path("template.sqlite")
    do {
      let db = try Connection(path: template)
      try db.createTable(for: BigV1.self)
      try db.run(
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
        INSERT INTO Big (id, name, value, note) SELECT i, 'name ' || i, i * 7, NULL FROM n
        """, [rowCount])
      // Warm up everything the child will run, so it touches no lazily built state.
      let warm = try Connection.inMemory()
      try warm.createTable(for: BigV1.self)
      try warm.save(BigV1(id: nil, name: "x", value: 1, note: nil))
      try warm.migrate(BigV2.self)
      try db.close()
    }
    let valueSum = 7 * rowCount * (rowCount + 1) / 2
    let oldDefinition = try TableSchema(BigV1.self).createTableSQL()
    let newDefinition = try TableSchema(BigV2.self).createTableSQL()

    var measured: Double = 0
    var outcomes: [String] = []
    for attempt in 0..<8 {
      let file = path("killed-\(attempt).sqlite")
      try FileManager.default.copyItem(atPath: template, toPath: file)
      let wal = attempt % 2 == 1
      if wal { try Connection(path: file).setJournalMode(.wal) }

      // Attempt 0 runs to the end, to learn how long a migration takes; the others are
      // killed at a random moment within that time.
      let delay: UInt32? = attempt == 0 ? nil : UInt32.random(in: 0...UInt32(measured * 1.3e6))
      let run = try runMigrationInChild(file: file, killAfter: delay)
      if attempt == 0 {
        XCTAssertEqual(run.report, "SD", "the child migrates when left alone")
        XCTAssertEqual(run.status, 0)
        measured = max(run.seconds, 0.05)
      }

      let db = try Connection(path: file)
      XCTAssertEqual(try db.scalar(String.self, "PRAGMA integrity_check"), "ok", file)
      XCTAssertEqual(try SchemaInspector(db).tableNames(), ["Big", "swiftlite_schema"], file)
      let columns = try db.columnNames("Big")
      let definition = try db.scalar(
        String.self, "SELECT definition FROM swiftlite_schema WHERE table_name = 'Big'")
      let outcome: String
      if columns == ["id", "name", "value", "note"] {
        outcome = "old"
        XCTAssertEqual(definition, oldDefinition)
        XCTAssertEqual(
          try db.scalar(
            Int.self, "SELECT count(*) FROM Big WHERE name = 'name ' || id AND note IS NULL"),
          rowCount)
        XCTAssertFalse(try db.needsMigration(BigV1.self))
        XCTAssertNotEqual(run.report, "SD", "a migration reported done must be in the file")
      } else if columns == ["id", "title", "value", "extra"] {
        outcome = "new"
        XCTAssertEqual(definition, newDefinition)
        XCTAssertEqual(
          try db.scalar(
            Int.self, "SELECT count(*) FROM Big WHERE title = 'name ' || id AND extra = 1"),
          rowCount)
        XCTAssertEqual(try db.indexNames("Big"), ["Big_on_value"])
        XCTAssertFalse(try db.needsMigration(BigV2.self))
      } else {
        outcome = "neither"
        XCTFail("\(file): unexpected columns \(columns)")
      }
      XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM Big"), rowCount)
      XCTAssertEqual(try db.scalar(Int.self, "SELECT sum(value) FROM Big"), valueSum)
      XCTAssertEqual(try db.scalar(Int.self, "SELECT min(id) FROM Big"), 1)
      XCTAssertEqual(try db.scalar(Int.self, "SELECT max(id) FROM Big"), rowCount)
      outcomes.append(
        "\(wal ? "wal" : "rollback journal"), killed after \(delay.map { "\($0) µs" } ?? "-"): \(outcome) (child said \(run.report))"
      )
      try db.close()
    }
    print("migration of \(rowCount) rows took \(measured) s in the child; outcomes:")
    for line in outcomes { print("  " + line) }
  }

  /// Forks a child that opens `file` and migrates `Big` from ``BigV1`` to ``BigV2``, writing
  /// `S` to a pipe when it starts, `D` when done (`E` on an error); the parent kills it with
  /// SIGKILL `killAfter` microseconds after the `S`, or waits for it to finish when `nil`.
  private func runMigrationInChild(file: String, killAfter: UInt32?) throws -> (
    report: String, status: Int32, seconds: Double
  ) {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let pid = fork()
    if pid == 0 {
      close(fds[0])
      func say(_ letter: String) {
        var byte = letter.utf8.first!
        _ = write(fds[1], &byte, 1)
      }
      do {
        let db = try Connection(path: file)
        say("S")
        try db.migrate(BigV2.self)
        try db.close()
        say("D")
        _exit(0)
      } catch {
        say("E")
        _exit(1)
      }
    }
    XCTAssertGreaterThan(pid, 0, "fork failed")
    close(fds[1])
    defer { close(fds[0]) }

    var report = ""
    func readLetter(timeout: Int32) -> Bool {
      var descriptor = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, timeout) == 1 else { return false }
      var byte: UInt8 = 0
      guard read(fds[0], &byte, 1) == 1 else { return false }
      report.append(Character(UnicodeScalar(byte)))
      return true
    }
    let started = readLetter(timeout: 30_000)
    let start = Date()
    if !started {
      XCTFail("the child did not start within 30 s")
      kill(pid, SIGKILL)
    } else if let killAfter {
      usleep(killAfter)
      kill(pid, SIGKILL)
    } else if !readLetter(timeout: 60_000) {
      XCTFail("the child did not finish within 60 s")
      kill(pid, SIGKILL)
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let seconds = Date().timeIntervalSince(start)
    while readLetter(timeout: 0) {}
    return (report, status, seconds)
  }
}
