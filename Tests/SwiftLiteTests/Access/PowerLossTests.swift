import Foundation
import PowerLossVFS
import XCTest

@testable import SwiftLite

/// Power loss, simulated by the VFS of `Tests/PowerLossVFS`: commits in rollback-journal
/// and WAL mode and a checkpoint (backups: `PowerLossBackupTests`), each cut at random writes, syncs, truncations
/// and deletions (``PowerLoss/cutsPerScenario`` of them), then checked through the default
/// VFS. `Scripts/power-loss.sh` runs more cut points.
final class PowerLossTests: TemporaryDirectoryTestCase {
  /// Rows per transaction of the ledger.
  private static let rowsPerTransaction = 4

  /// The ledger: each transaction `k` inserts rows `(k, 0...3)`.
  static func createLedger(_ db: Connection) throws {
    try db.execute(
      """
      CREATE TABLE ledger(
        k INTEGER NOT NULL, i INTEGER NOT NULL, payload BLOB NOT NULL, PRIMARY KEY(k, i));
      CREATE INDEX ledger_payload ON ledger(payload);
      """)
  }

  /// Inserts transaction `k`'s rows. Their payloads are random but the same in every run,
  /// so that every run writes the same pages and the event counts repeat.
  static func insert(_ k: Int, into db: Connection) throws {
    for i in 0..<rowsPerTransaction {
      var random = SeededGenerator(seed: UInt64(k * rowsPerTransaction + i))
      let payload = Data(
        (0..<(300 + k % 200)).map { _ in UInt8.random(in: 0...255, using: &random) })
      try db.run("INSERT INTO ledger(k, i, payload) VALUES (?, ?, ?)", [k, i, payload])
    }
  }

  /// How many whole transactions the ledger at `path` holds, checking they are 1...n, each
  /// with all its rows: a gap or a partial transaction fails the test (and returns -1).
  static func keptTransactions(
    _ path: String, file: StaticString = #filePath, line: UInt = #line
  ) throws -> Int {
    let db = try Connection(path: path)
    defer { try? db.close() }
    let groups = try db.query("SELECT k, count(*) FROM ledger GROUP BY k ORDER BY k").map {
      (try $0.get(Int.self, at: 0), try $0.get(Int.self, at: 1))
    }
    for (index, group) in groups.enumerated()
    where group.0 != index + 1 || group.1 != rowsPerTransaction {
      XCTFail("the ledger is not a whole prefix: \(groups)", file: file, line: line)
      return -1
    }
    return groups.count
  }

  private func ledgerFile(in folder: URL) throws {
    let db = try Connection(path: folder.appendingPathComponent("db.sqlite").path)
    try Self.createLedger(db)
    try db.close()
  }

  // MARK: Rollback journal

  /// Inserts in rollback-journal mode, each commit durable at `level`.
  private func rollbackScenario(
    _ name: String, level: SynchronousMode, journalMode: JournalMode = .delete,
    unlinkIsDurable: Bool, lastMayRollBack: Bool, expectsViolations: Bool = false
  ) -> PowerLossScenario {
    PowerLossScenario(
      name: name, unlinkIsDurable: unlinkIsDurable, expectsViolations: expectsViolations,
      prepare: { try self.ledgerFile(in: $0) },
      run: { run in
        var options = PowerLoss.options
        options.synchronous = level
        options.journalMode = journalMode
        let db = try Connection(path: run.path(), options: options)
        defer { try? db.close() }
        XCTAssertEqual(try db.journalMode(), journalMode)
        for k in 1...12 where !PowerLoss.isLost {
          try run.transaction(durable: !lastMayRollBack) {
            try db.transaction(.immediate) { db in try Self.insert(k, into: db) }
          }
          if lastMayRollBack { run.mustKeep = max(0, run.committed - 1) }
        }
      },
      check: { run in try Self.keptTransactions(run.path()) })
  }

  func testRollbackJournalAtFullKeepsEveryCommit() throws {
    let figures = try measure(
      rollbackScenario(
        "rollback journal, FULL", level: .full, unlinkIsDurable: true, lastMayRollBack: false))
    XCTAssertEqual(figures.intact, figures.cuts)
  }

  func testRollbackJournalAtExtraKeepsEveryCommitWhenDeletionsNeedADirectorySync() throws {
    let figures = try measure(
      rollbackScenario(
        "rollback journal, EXTRA, deletions durable at a directory sync", level: .extra,
        unlinkIsDurable: false, lastMayRollBack: false))
    XCTAssertEqual(figures.intact, figures.cuts)
  }

  /// At FULL, SQLite does not sync the directory after deleting the journal: when the
  /// deletion is lost, the journal comes back and rolls the last commit back, wholly.
  func testRollbackJournalAtFullMayLoseOnlyTheLastCommitWhenDeletionsNeedADirectorySync()
    throws
  {
    let figures = try measure(
      rollbackScenario(
        "rollback journal, FULL, deletions durable at a directory sync", level: .full,
        unlinkIsDurable: false, lastMayRollBack: true))
    XCTAssertEqual(figures.intact, figures.cuts)
  }

  /// TRUNCATE and PERSIST commit by truncating the journal or zeroing its header, and sync
  /// that at FULL: no deletion to lose.
  func testRollbackJournalInTruncateAndPersistModesAtFullKeepsEveryCommit() throws {
    for mode in [JournalMode.truncate, .persist] {
      let figures = try measure(
        rollbackScenario(
          "rollback journal (\(mode.rawValue.uppercased())), FULL, deletions durable at a "
            + "directory sync", level: .full, journalMode: mode, unlinkIsDurable: false,
          lastMayRollBack: false))
      XCTAssertEqual(figures.intact, figures.cuts)
    }
  }

  /// The control: at synchronous=OFF nothing is synced, so the harness must see commits
  /// lost (and files broken) that a durable commit would have kept.
  func testTheHarnessSeesWhatSynchronousOffLoses() throws {
    let figures = try measure(
      rollbackScenario(
        "control: rollback journal, OFF, taken as durable", level: .off, unlinkIsDurable: true,
        lastMayRollBack: false, expectsViolations: true))
    XCTAssertGreaterThan(figures.violations, figures.cuts / 4)
  }

  // MARK: WAL

  /// Pool writes in WAL mode at `level`, with reads between them.
  private func poolScenario(
    _ name: String, level: SynchronousMode, checkpoints: CheckpointPolicy
  ) -> PowerLossScenario {
    PowerLossScenario(
      name: name,
      prepare: { try self.ledgerFile(in: $0) },
      run: { run in
        var options = PowerLoss.options
        options.synchronous = level
        options.checkpoints = checkpoints
        let pool = try DatabasePool(path: run.path(), options: options, maximumReaderCount: 2)
        defer { try? pool.close() }
        for k in 1...16 where !PowerLoss.isLost {
          try run.syncingLog {
            try run.transaction(durable: level == .full) {
              try pool.write { db in try Self.insert(k, into: db) }
            }
          }
          if k % 3 == 0, !PowerLoss.isLost {
            let last = try pool.read { db in try db.scalar(Int.self, "SELECT max(k) FROM ledger") }
            XCTAssertEqual(last, k)
          }
        }
        // The last connection checkpoints the whole log into the file as it closes.
        try pool.close()
        if !PowerLoss.isLost { run.mustKeep = run.committed }
      },
      check: { run in try Self.keptTransactions(run.path()) })
  }

  func testPoolWritesInWALAtNormalKeepAPrefix() throws {
    let figures = try measure(
      poolScenario(
        "pool writes, WAL, NORMAL", level: .normal, checkpoints: .automatic(pages: 8)))
    XCTAssertEqual(figures.intact, figures.cuts)
  }

  func testPoolWritesInWALAtFullKeepEveryCommit() throws {
    let figures = try measure(
      poolScenario("pool writes, WAL, FULL", level: .full, checkpoints: .sqlite))
    XCTAssertEqual(figures.intact, figures.cuts)
  }

  func testAPoolOpensItsReadersThroughTheVFSOfItsOptions() throws {
    powerloss_begin(1)
    let pool = try DatabasePool(path: path(), options: PowerLoss.options)
    try pool.write { db in try Self.createLedger(db) }
    XCTAssertEqual(powerloss_main_opens(), 1, "the writer")
    XCTAssertEqual(
      try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM ledger") }, 0)
    XCTAssertEqual(powerloss_main_opens(), 2, "the writer and a reader")
    XCTAssertGreaterThan(PowerLoss.events, 0)
    try pool.close()
  }

  // MARK: Checkpoint

  func testACheckpointCutMidwayKeepsAPrefixAndOnceDoneEveryCommitBeforeIt() throws {
    let scenario = PowerLossScenario(
      name: "checkpoint (TRUNCATE), WAL, NORMAL",
      prepare: { try self.ledgerFile(in: $0) },
      run: { run in
        var options = PowerLoss.options
        options.checkpoints = .automatic(pages: 0)
        let pool = try DatabasePool(path: run.path(), options: options)
        defer { try? pool.close() }
        for k in 1...40 {
          try run.transaction(durable: false) {
            try pool.write { db in try Self.insert(k, into: db) }
          }
        }
        run.markCutsStart()
        var result: Connection.CheckpointResult?
        // Its first step syncs the log: from there on, all 40 must survive.
        try run.syncingLog { result = try pool.checkpoint(.truncate) }
        run.markCutsEnd()
        if !PowerLoss.isLost {
          XCTAssertEqual(result?.checkpointedFrameCount, result?.logFrameCount)
          run.mustKeep = run.committed
        }
        for k in 41...44 where !PowerLoss.isLost {
          try run.transaction(durable: false) {
            try pool.write { db in try Self.insert(k, into: db) }
          }
        }
      },
      check: { run in try Self.keptTransactions(run.path()) })
    let figures = try measure(scenario)
    XCTAssertEqual(figures.intact, figures.cuts)
  }
}
